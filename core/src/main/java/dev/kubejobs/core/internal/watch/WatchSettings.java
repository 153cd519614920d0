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
 * @param backoffMin the first wait after a failure. Default 800 ms, as client-go's reflector
 *     ({@code NewReflectorWithOptions}'s backoff manager). Positive
 * @param backoffMax the longest wait between attempts. Default 30 s, as client-go's reflector. At
 *     least {@code backoffMin}
 */
public record WatchSettings(
    Duration serverTimeout, Duration idleLimit, Duration backoffMin, Duration backoffMax) {

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
   * Returns the wait before attempt {@code failures + 1}: exponential from {@link #backoffMin},
   * doubled per failure, plus up to as much again of jitter, never more than {@link #backoffMax}
   * (client-go's {@code ExponentialBackoffManager} with factor 2 and jitter 1).
   *
   * @param failures the failures in a row, at least 1
   * @param random a number in [0, 1)
   * @return the wait
   */
  Duration backoff(int failures, double random) {
    long min = backoffMin.toMillis();
    long max = backoffMax.toMillis();
    long base = min;
    for (int i = 1; i < failures && base < max; i++) {
      base *= 2;
    }
    base = Math.min(base, max);
    long jittered = base + (long) (base * random);
    return Duration.ofMillis(Math.max(1, Math.min(max, jittered)));
  }
}
