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
package dev.kubejobs.core.spi;

import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * The cancel mark kubejobs puts in the annotation {@value JobIdentity#ANNOTATION_CANCEL_REQUESTED}
 * before deleting a job's resource: when it was requested, which writer put it (a random
 * per-instance id plus a counter, so two nodes with equal clocks never take each other's mark for
 * their own), the resourceVersion of the copy it was put on and the operator state that copy
 * showed. The delete that follows is locked to the marked copy, so anything an operator records
 * after that state happened after the cancel took effect: status mappers order outcome and cancel
 * from {@link #operatorState()}, never from timestamps. Immutable and thread safe.
 *
 * <p>The annotation's text is {@code <instant>;writer=<id>;resourceVersion=<rv>;state=<state>};
 * marks written by earlier versions hold only the instant and parse with empty other fields.
 *
 * @param requestedAt when the cancel was requested, by the writer's clock (for people, not for
 *     ordering)
 * @param writer the writer's token, {@code <instance id>-<counter>}; empty for old marks
 * @param resourceVersion the resourceVersion of the copy the mark was put on (before the mark);
 *     empty for old marks
 * @param operatorState the operator state that copy showed, as the job kind's mapper named it
 *     ({@link JobExecutionInfo#operatorState()}); empty when it showed none
 */
public record CancelMark(
    Instant requestedAt, String writer, String resourceVersion, String operatorState) {

  private static final String WRITER = "writer=";
  private static final String RESOURCE_VERSION = "resourceVersion=";
  private static final String STATE = "state=";

  /** Checks every part. */
  public CancelMark {
    Objects.requireNonNull(requestedAt, "requestedAt");
    Objects.requireNonNull(writer, "writer");
    Objects.requireNonNull(resourceVersion, "resourceVersion");
    Objects.requireNonNull(operatorState, "operatorState");
    if (writer.contains(";") || resourceVersion.contains(";")) {
      throw new IllegalArgumentException(
          "writer and resourceVersion of a cancel mark must not contain ';', but were '"
              + writer
              + "' and '"
              + resourceVersion
              + "'");
    }
  }

  /**
   * Reads the cancel mark of a resource.
   *
   * @param resource the job's resource
   * @return the mark, or empty when there is none or it cannot be read
   */
  public static Optional<CancelMark> of(ResourceSnapshot resource) {
    return parse(resource.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).orElse(null));
  }

  /**
   * Parses the annotation's text.
   *
   * @param text the annotation's value, or null
   * @return the mark, or empty when {@code text} is null or does not start with an ISO instant
   */
  public static Optional<CancelMark> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String[] parts = text.split(";", 4);
    Instant at;
    try {
      at = Instant.parse(parts[0].trim());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
    String writer = "";
    String rv = "";
    String state = "";
    for (int i = 1; i < parts.length; i++) {
      String part = parts[i];
      if (part.startsWith(WRITER)) {
        writer = part.substring(WRITER.length());
      } else if (part.startsWith(RESOURCE_VERSION)) {
        rv = part.substring(RESOURCE_VERSION.length());
      } else if (part.startsWith(STATE)) {
        // The state is last and may itself hold ';'.
        state = text.substring(text.indexOf(";" + STATE) + 1 + STATE.length());
        break;
      }
    }
    return Optional.of(new CancelMark(at, writer, rv, state));
  }

  /**
   * Returns the annotation's text, which {@link #parse(String)} reads back.
   *
   * @return the text
   */
  @Override
  public String toString() {
    return requestedAt
        + ";"
        + WRITER
        + writer
        + ";"
        + RESOURCE_VERSION
        + resourceVersion
        + ";"
        + STATE
        + operatorState;
  }
}
