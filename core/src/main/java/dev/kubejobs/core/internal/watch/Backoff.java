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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The waits of a {@link Reflector} between failed attempts: exponential with jitter between {@link
 * WatchSettings#backoffMin()} and {@link WatchSettings#backoffMax()} ({@link
 * WatchSettings#backoff(int, double)}), reset by an attempt that made progress, as client-go's
 * reflector waits through its {@code backoffManager} ({@code tools/cache/reflector.go}).
 * client-java's {@code ReflectorRunnable} has no back-off of its own (its {@code Controller} reruns
 * it on a fixed period), which is why this one follows client-go.
 *
 * <p>Waits run on real time and end early when {@linkplain #close() closed}. One thread (the
 * reflector's) calls {@link #after(boolean)}; any thread may call {@link #close()}.
 */
final class Backoff {
  // The watch's own category, so that a user's logging configuration keeps applying to it.
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceWatch.class);

  private final WatchSettings settings;
  private final String namespace;
  private final DoubleSupplier random;
  private final Object lock = new Object();

  // the reflector's thread only
  private int failures;

  // guarded by lock
  private boolean closed;

  Backoff(WatchSettings settings, String namespace) {
    this(settings, namespace, () -> ThreadLocalRandom.current().nextDouble());
  }

  Backoff(WatchSettings settings, String namespace, DoubleSupplier random) {
    this.settings = settings;
    this.namespace = namespace;
    this.random = random;
  }

  /**
   * Records how an attempt went: one that made progress resets the count and returns at once; one
   * that did not waits {@link WatchSettings#backoff(int, double)} for the failures in a row.
   *
   * @param progress whether the attempt made progress
   * @return the wait it chose, {@link Duration#ZERO} after progress
   */
  Duration after(boolean progress) {
    failures = progress ? 0 : failures + 1;
    if (failures == 0) {
      return Duration.ZERO;
    }
    Duration wait = settings.backoff(failures, random.getAsDouble());
    pause(wait);
    return wait;
  }

  /** How many failed attempts came in a row. */
  int failures() {
    return failures;
  }

  /** Ends the current wait and every later one at once. */
  void close() {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
    }
  }

  private void pause(Duration wait) {
    LOG.debug("Watch of namespace '{}' waits {} before trying again", namespace, wait);
    long end = System.nanoTime() + wait.toNanos();
    synchronized (lock) {
      while (!closed) {
        long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        if (left <= 0) {
          return;
        }
        try {
          lock.wait(left);
        } catch (InterruptedException e) {
          LOG.debug("Watch of namespace '{}' interrupted while waiting", namespace);
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
