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
package dev.kubejobs.core.internal.watch;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Cancels a watch on which nothing arrived for {@link WatchSettings#idleLimit()}, even one still
 * waiting for its answer, so that a connection a proxy silently dropped does not leave the view
 * waiting forever. client-java bounds a watch with a client-side timeout instead ({@code
 * ReflectorRunnable.REFLECTOR_WATCH_CLIENTSIDE_TIMEOUT}, {@code
 * util/src/main/java/io/kubernetes/client/informer/cache/ReflectorRunnable.java}); this one
 * measures silence, not age, so a busy watch is never cut.
 *
 * <p>It runs on a thread of its own ({@link #run()}) and measures silence on the view's clock
 * ({@link ClockWait}); the {@link Reflector} {@linkplain #wake() wakes} it when a watch starts, and
 * {@link #close()} ends it. Thread safe.
 */
final class IdleWatchdog implements Runnable {
  private final Duration idleLimit;
  private final Supplier<WatchStream> active;
  private final ClockWait wait;

  /**
   * Creates a watchdog.
   *
   * @param idleLimit how long a watch may stay silent, by the clock of {@code wait}
   * @param active the watch open now, or null between watches
   * @param wait the wait on the view's clock, the watchdog's own
   */
  IdleWatchdog(Duration idleLimit, Supplier<WatchStream> active, ClockWait wait) {
    this.idleLimit = idleLimit;
    this.active = active;
    this.wait = wait;
  }

  /** Tells the watchdog that a watch started, so it measures from now on. */
  void wake() {
    wait.wake();
  }

  /** Ends the watchdog's thread. */
  void close() {
    wait.close();
  }

  @Override
  public void run() {
    while (!wait.isClosed() && !Thread.currentThread().isInterrupted()) {
      WatchStream stream = active.get();
      if (stream == null) {
        wait.sleep(idleLimit);
        continue;
      }
      long quiet = wait.millis() - stream.lastActivity();
      if (quiet >= idleLimit.toMillis()) {
        stream.cancelIdle();
        // the reflector wakes this thread when its next watch starts
        wait.sleep(idleLimit);
      } else {
        wait.sleep(idleLimit.minusMillis(quiet));
      }
    }
  }
}
