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
package dev.kubejobs.core.internal;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The thread pools kubejobs starts itself: daemon threads, none started before the first task, each
 * ended after an idle period and by {@link ThreadPoolExecutor#shutdown()}. Not a published API.
 */
public final class DaemonThreads {
  private DaemonThreads() {}

  /**
   * Returns a pool of up to {@code threads} daemon threads.
   *
   * @param name the threads' name; with more than one thread, each gets {@code -<n>} appended
   * @param threads how many at most, at least 1
   * @param idle how long a thread waits for work before it ends
   * @return the pool, with an unbounded queue
   */
  public static ThreadPoolExecutor pool(String name, int threads, Duration idle) {
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            idle.toMillis(),
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, threads > 1 ? name + "-" + count.incrementAndGet() : name);
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
