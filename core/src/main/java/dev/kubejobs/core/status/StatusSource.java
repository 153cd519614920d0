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
package dev.kubejobs.core.status;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the status reader gets the copies of job resources it decides on.
 *
 * <ul>
 *   <li>{@link #polling()} (the default): one labelled LIST per namespace per status cache period,
 *       whatever changed.
 *   <li>{@link #watch()}: per namespace one LIST, then a WATCH from that list's resourceVersion
 *       (with bookmarks), resumed after a dropped connection from the last resourceVersion seen and
 *       listed again when the server answers 410 Expired, as Kubernetes informers do. A read then
 *       costs no request while the watch is open. A namespace's watch starts at the first read of a
 *       job in it and ends with {@code KubeJobs#close()}; it holds one connection to the API server
 *       and two daemon threads ({@code kubejobs-watch-<namespace>} and its idle watchdog), and
 *       keeps every managed application of the namespace as its mapping, not as its JSON.
 * </ul>
 *
 * <p>Both give the same answers for the same object: a copy that would end a job is believed only
 * when it is fresh — from a list sent after the question, or from a watch that is open (in sync);
 * while a namespace's watch is broken its reads fall back to polling. A job gone from the cluster
 * is {@link dev.kubejobs.core.NoSuchJobException} in both.
 */
public final class StatusSource {
  private static final StatusSource POLLING = new StatusSource(false, Duration.ZERO);

  /** The default server-side limit of one watch request: 5 minutes, then it is resumed. */
  public static final Duration DEFAULT_WATCH_TIMEOUT = Duration.ofMinutes(5);

  private final boolean watch;
  private final Duration watchTimeout;

  private StatusSource(boolean watch, Duration watchTimeout) {
    this.watch = watch;
    this.watchTimeout = watchTimeout;
  }

  /**
   * Returns the polling source: one LIST per namespace per status cache period.
   *
   * @return the polling source
   */
  public static StatusSource polling() {
    return POLLING;
  }

  /**
   * Returns the watch source with the default watch timeout.
   *
   * @return a watch source
   */
  public static StatusSource watch() {
    return new StatusSource(true, DEFAULT_WATCH_TIMEOUT);
  }

  /**
   * Returns the watch source whose watch requests the server ends after {@code timeout} (its {@code
   * timeoutSeconds}); each is resumed from the last resourceVersion seen.
   *
   * @param timeout from 10 seconds to 1 hour
   * @return a watch source
   * @throws IllegalArgumentException naming the rule and the value
   */
  public static StatusSource watch(Duration timeout) {
    if (timeout == null
        || timeout.compareTo(Duration.ofSeconds(10)) < 0
        || timeout.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException(
          "the watch timeout must be from 10 seconds to 1 hour, but was " + timeout);
    }
    return new StatusSource(true, timeout);
  }

  /**
   * Returns whether this source watches.
   *
   * @return true for {@link #watch()}
   */
  public boolean isWatch() {
    return watch;
  }

  /**
   * Returns the server-side limit of one watch request.
   *
   * @return the timeout, zero for polling
   */
  public Duration watchTimeout() {
    return watchTimeout;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StatusSource other
        && watch == other.watch
        && watchTimeout.equals(other.watchTimeout);
  }

  @Override
  public int hashCode() {
    return Objects.hash(watch, watchTimeout);
  }

  @Override
  public String toString() {
    return watch ? "StatusSource.watch(" + watchTimeout + ")" : "StatusSource.polling()";
  }
}
