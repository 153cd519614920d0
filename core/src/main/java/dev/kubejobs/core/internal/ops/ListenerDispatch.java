/*
 * Copyright 2026 The kubejobs Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.kubejobs.core.internal.ops;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.status.JobStatusListener;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands status changes to a {@link JobStatusListener} on one thread of its own, in the order they
 * were reported; the thread starts with the first change and ends after a minute without one.
 */
final class ListenerDispatch {
  private static final Logger LOG = LoggerFactory.getLogger(ListenerDispatch.class);

  private final JobStatusListener listener;
  private final ExecutorService thread;

  ListenerDispatch(String cluster, JobStatusListener listener) {
    this.listener = listener;
    ThreadPoolExecutor one =
        new ThreadPoolExecutor(
            1,
            1,
            1,
            TimeUnit.MINUTES,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "kubejobs-status-listener-" + cluster);
              t.setDaemon(true);
              return t;
            });
    one.allowCoreThreadTimeOut(true);
    this.thread = one;
  }

  /** Queues a change; called under the status floor's lock, so changes queue in their order. */
  void changed(ExecutionId id, JobExecutionInfo info) {
    try {
      thread.execute(() -> deliver(id, info));
    } catch (RejectedExecutionException e) {
      LOG.debug("Not telling the listener that job '{}' is {}: closed", id, info.status());
    }
  }

  private void deliver(ExecutionId id, JobExecutionInfo info) {
    try {
      listener.onChange(id, info);
    } catch (RuntimeException e) {
      LOG.warn("The status listener failed on job '{}' ({}); going on", id, info.status(), e);
    }
  }

  /** Delivers what is queued, then ends the thread. */
  void close() {
    thread.shutdown();
  }
}
