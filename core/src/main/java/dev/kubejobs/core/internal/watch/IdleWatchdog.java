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
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels a watch on which nothing arrived for {@link WatchSettings#idleLimit()}, even one still
 * waiting for its answer, so that a connection a proxy silently dropped does not leave the view
 * waiting forever. client-java bounds a watch with a client-side timeout instead ({@code
 * ReflectorRunnable.REFLECTOR_WATCH_CLIENTSIDE_TIMEOUT}, {@code
 * util/src/main/java/io/kubernetes/client/informer/cache/ReflectorRunnable.java}); this one
 * measures silence, not age, so a busy watch is never cut.
 *
 * <p>It runs on a thread of its own ({@link #run()}); the {@link Reflector} {@linkplain #wake()
 * wakes} it when a watch starts, and {@link #close()} ends it. Thread safe.
 */
final class IdleWatchdog implements Runnable {
  // The watch's own category, so that a user's logging configuration keeps applying to it.
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceWatch.class);

  private final long idleNanos;
  private final Supplier<WatchStream> active;
  private final String namespace;

  /** Wakes the watchdog when a watch starts and on close. */
  private final Object lock = new Object();

  private volatile boolean closed;

  /**
   * Creates a watchdog.
   *
   * @param idleLimit how long a watch may stay silent
   * @param active the watch open now, or null between watches
   * @param namespace the namespace, for the log
   */
  IdleWatchdog(Duration idleLimit, Supplier<WatchStream> active, String namespace) {
    this.idleNanos = idleLimit.toNanos();
    this.active = active;
    this.namespace = namespace;
  }

  /** Tells the watchdog that a watch started, so it measures from now on. */
  void wake() {
    synchronized (lock) {
      lock.notifyAll();
    }
  }

  /** Ends the watchdog's thread. */
  void close() {
    closed = true;
    wake();
  }

  @Override
  public void run() {
    while (!closed) {
      WatchStream stream = active.get();
      long waitNanos = idleNanos;
      if (stream != null) {
        long quiet = System.nanoTime() - stream.lastActivity();
        if (quiet >= idleNanos) {
          stream.cancelIdle();
        } else {
          waitNanos = idleNanos - quiet;
        }
      }
      synchronized (lock) {
        if (closed || active.get() != stream) {
          continue;
        }
        try {
          lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos)));
        } catch (InterruptedException e) {
          LOG.debug("Idle watchdog of namespace '{}' interrupted; it stops", namespace);
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
