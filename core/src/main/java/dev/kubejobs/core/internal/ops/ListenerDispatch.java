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
import dev.kubejobs.core.internal.DaemonThreads;
import dev.kubejobs.core.status.JobStatusListener;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands status changes to a {@link JobStatusListener} on one thread of its own, in the order they
 * were reported; the thread starts with the first change and ends after a minute without one.
 */
final class ListenerDispatch {
  private static final Logger LOG = LoggerFactory.getLogger(ListenerDispatch.class);

  private final JobStatusListener listener;
  private final DaemonThreads.Pool thread;

  ListenerDispatch(String cluster, JobStatusListener listener) {
    this.listener = listener;
    this.thread =
        DaemonThreads.pool("kubejobs-status-listener-" + cluster, 1, Duration.ofMinutes(1));
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

  /** The listener's thread, for {@link StatusOperation#close()} to shut down and wait for. */
  DaemonThreads.Pool thread() {
    return thread;
  }
}
