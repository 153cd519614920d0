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

import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The waits of a {@link Reflector} between failed attempts: the interval Resilience4j's {@link
 * IntervalFunction} gives for the failures in a row ({@link WatchSettings#backoff()}: exponential
 * with random jitter, between about {@link WatchSettings#backoffMin()} and {@link
 * WatchSettings#backoffMax()}), reset by an attempt that made progress, as client-go's reflector
 * waits through its {@code backoffManager} ({@code tools/cache/reflector.go}). client-java's {@code
 * ReflectorRunnable} has no back-off of its own (its {@code Controller} reruns it on a fixed
 * period), which is why this one follows client-go.
 *
 * <p>Waits run on the view's clock ({@link ClockWait}) and end early when {@linkplain #close()
 * closed}. One thread (the reflector's) calls {@link #after(boolean)}; any thread may call {@link
 * #close()}.
 */
final class Backoff {
  // The watch's own category, so that a user's logging configuration keeps applying to it.
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceWatch.class);

  /**
   * The most failures in a row handed to the interval function: its exponential interval passes any
   * {@link WatchSettings#backoffMax()} long before, and Resilience4j computes it in as many steps
   * as failures ({@code LongStream.iterate}), which an outage of weeks would make costly.
   */
  static final int MAX_COUNTED = 64;

  private final IntervalFunction intervals;
  private final ClockWait wait;
  private final String namespace;

  // the reflector's thread only
  private int failures;

  Backoff(IntervalFunction intervals, ClockWait wait, String namespace) {
    this.intervals = intervals;
    this.wait = wait;
    this.namespace = namespace;
  }

  /**
   * Records how an attempt went: one that made progress resets the count and returns at once; one
   * that did not waits the interval for the failures in a row.
   *
   * @param progress whether the attempt made progress
   * @return the wait it chose, {@link Duration#ZERO} after progress
   */
  Duration after(boolean progress) {
    failures = progress ? 0 : failures + 1;
    if (failures == 0) {
      return Duration.ZERO;
    }
    Duration chosen = Duration.ofMillis(intervals.apply(Math.min(failures, MAX_COUNTED)));
    LOG.debug("Watch of namespace '{}' waits {} before trying again", namespace, chosen);
    wait.sleep(chosen);
    return chosen;
  }

  /** How many failed attempts came in a row. */
  int failures() {
    return failures;
  }

  /** Ends the current wait and every later one at once. */
  void close() {
    wait.close();
  }
}
