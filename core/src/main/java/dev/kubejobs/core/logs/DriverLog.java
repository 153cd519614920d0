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
package dev.kubejobs.core.logs;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The end of a driver log as {@link DriverLogReader#tail} returns it: the lines, and which pod and
 * container they came from.
 *
 * <p>Immutable and thread safe.
 */
public final class DriverLog {
  private static final DriverLog EMPTY = new DriverLog(List.of(), null, null, false);

  private final List<String> lines;
  private final String pod;
  private final String container;
  private final boolean truncated;

  private DriverLog(List<String> lines, String pod, String container, boolean truncated) {
    this.lines = lines;
    this.pod = pod;
    this.container = container;
    this.truncated = truncated;
  }

  /**
   * Returns the empty log: nothing to read, or reading failed.
   *
   * @return the empty log
   */
  public static DriverLog empty() {
    return EMPTY;
  }

  /**
   * Returns a log read from a pod's container.
   *
   * @param lines the lines, oldest first, without line ends
   * @param pod the pod's name
   * @param container the container's name
   * @param truncated whether earlier lines (or the head of the last line) were left out to keep
   *     within the caps
   * @return the log
   * @throws NullPointerException if an argument is null
   */
  public static DriverLog of(List<String> lines, String pod, String container, boolean truncated) {
    return new DriverLog(
        List.copyOf(lines),
        Objects.requireNonNull(pod, "pod"),
        Objects.requireNonNull(container, "container"),
        truncated);
  }

  /**
   * Returns the lines, oldest first, without line ends.
   *
   * @return an unmodifiable list, empty when there was nothing to read
   */
  public List<String> lines() {
    return lines;
  }

  /**
   * Returns the lines joined with {@code \n}.
   *
   * @return the text, empty when there are no lines
   */
  public String text() {
    return String.join("\n", lines);
  }

  /**
   * Returns whether there are no lines.
   *
   * @return true when empty
   */
  public boolean isEmpty() {
    return lines.isEmpty();
  }

  /**
   * Returns the name of the pod the lines came from.
   *
   * @return the pod name, empty when no pod was read
   */
  public Optional<String> pod() {
    return Optional.ofNullable(pod);
  }

  /**
   * Returns the name of the container the lines came from.
   *
   * @return the container name, empty when no pod was read
   */
  public Optional<String> container() {
    return Optional.ofNullable(container);
  }

  /**
   * Returns whether the caps left out part of what the server sent.
   *
   * @return true if earlier lines, or the head of the last line, were dropped
   */
  public boolean truncated() {
    return truncated;
  }

  /** Returns the pod, container and number of lines, never the log itself. */
  @Override
  public String toString() {
    return "DriverLog{pod="
        + pod
        + ", container="
        + container
        + ", lines="
        + lines.size()
        + (truncated ? ", truncated" : "")
        + "}";
  }
}
