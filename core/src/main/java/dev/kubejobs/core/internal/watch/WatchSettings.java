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
import java.util.Objects;

/**
 * How a {@link NamespaceWatch} watches: immutable; build from {@link #ofDefaults()} with the {@code
 * with...} methods.
 *
 * @param serverTimeout the {@code timeoutSeconds} of each watch request: the server ends the stream
 *     cleanly after it and the view watches again from where it was. Default 5 minutes, client-go's
 *     {@code minWatchTimeout} (tools/cache/reflector.go). At least 1 second
 * @param idleLimit how long a watch may bring nothing at all, not even a BOOKMARK, before the view
 *     closes its connection and watches again from where it was: it finds connections that a proxy
 *     or a NAT silently dropped, which would otherwise hang forever (watches have no read timeout).
 *     Default 2 minutes, twice the interval at which kube-apiserver's watch cache sends bookmarks
 *     ({@code bookmarkFrequency}, one minute, in {@code
 *     staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go}). Positive
 * @param backoffMin the first wait after a failure, before jitter (which moves it up to half of it
 *     either way). Default 800 ms, as client-go's reflector ({@code NewReflectorWithOptions}'s
 *     backoff manager). Positive
 * @param backoffMax the longest wait between attempts. Default 30 s, as client-go's reflector. At
 *     least {@code backoffMin}
 */
public record WatchSettings(
    Duration serverTimeout, Duration idleLimit, Duration backoffMin, Duration backoffMax) {

  /** How much longer each wait of the back-off is than the one before, jitter aside. */
  static final double BACKOFF_MULTIPLIER = 2.0;

  /** How far, as a fraction of the wait, the back-off's jitter moves it either way. */
  static final double BACKOFF_JITTER = 0.5;

  /**
   * Checks the settings.
   *
   * @param serverTimeout the server's timeout of each watch
   * @param idleLimit the client's idle limit of each watch
   * @param backoffMin the first wait after a failure
   * @param backoffMax the longest wait
   * @throws IllegalArgumentException naming the setting, the rule and the value
   */
  public WatchSettings {
    Objects.requireNonNull(serverTimeout, "serverTimeout");
    Objects.requireNonNull(idleLimit, "idleLimit");
    Objects.requireNonNull(backoffMin, "backoffMin");
    Objects.requireNonNull(backoffMax, "backoffMax");
    if (serverTimeout.getSeconds() < 1) {
      throw new IllegalArgumentException(
          "serverTimeout must be at least 1 second (the server counts timeoutSeconds in whole"
              + " seconds), but was "
              + serverTimeout);
    }
    if (idleLimit.isZero() || idleLimit.isNegative()) {
      throw new IllegalArgumentException("idleLimit must be positive, but was " + idleLimit);
    }
    if (backoffMin.isZero() || backoffMin.isNegative()) {
      throw new IllegalArgumentException("backoffMin must be positive, but was " + backoffMin);
    }
    if (backoffMax.compareTo(backoffMin) < 0) {
      throw new IllegalArgumentException(
          "backoffMax must be at least backoffMin (" + backoffMin + "), but was " + backoffMax);
    }
  }

  /**
   * Returns the defaults: server timeout 5 minutes, idle limit 2 minutes, back-off from 800 ms up
   * to 30 s.
   *
   * @return the defaults
   */
  public static WatchSettings ofDefaults() {
    return new WatchSettings(
        Duration.ofMinutes(5),
        Duration.ofMinutes(2),
        Duration.ofMillis(800),
        Duration.ofSeconds(30));
  }

  /**
   * Returns these settings with another server timeout.
   *
   * @param timeout at least 1 second
   * @return the new settings
   */
  public WatchSettings withServerTimeout(Duration timeout) {
    return new WatchSettings(timeout, idleLimit, backoffMin, backoffMax);
  }

  /**
   * Returns these settings with another idle limit.
   *
   * @param limit positive
   * @return the new settings
   */
  public WatchSettings withIdleLimit(Duration limit) {
    return new WatchSettings(serverTimeout, limit, backoffMin, backoffMax);
  }

  /**
   * Returns these settings with another back-off range.
   *
   * @param min the first wait, positive
   * @param max the longest wait, at least {@code min}
   * @return the new settings
   */
  public WatchSettings withBackoff(Duration min, Duration max) {
    return new WatchSettings(serverTimeout, idleLimit, min, max);
  }

  /**
   * Returns the waits between failed attempts: Resilience4j's exponential interval from {@link
   * #backoffMin}, doubled per failure in a row, with random jitter of half of it either way, never
   * more than {@link #backoffMax} (as client-go's reflector backs off, with Resilience4j's jitter;
   * the gateway's retries use the same function, {@code Resilience4jPolicy.defaultRetryConfig}).
   *
   * @return the interval in milliseconds for the failures in a row (1 for the first)
   */
  IntervalFunction backoff() {
    return IntervalFunction.ofExponentialRandomBackoff(
        backoffMin, BACKOFF_MULTIPLIER, BACKOFF_JITTER, backoffMax);
  }
}
