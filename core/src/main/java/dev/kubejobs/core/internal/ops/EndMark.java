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
package dev.kubejobs.core.internal.ops;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * The end mark a status read puts in {@value JobIdentity#ANNOTATION_ENDED} before it deletes a
 * job's resource to end it (a {@link FollowUp.Action#DELETE_APPLICATION} follow-up without a cancel
 * mark, such as the no-status timeout). The mark, not the delete, decides the outcome: it is put
 * with a merge patch locked to the resourceVersion of the copy the follow-up was decided on, so it
 * and a cancel mark exclude each other (the later of the two meets 409), and it stays on the
 * resource until the resource is gone or the operator acts. A delete whose answer was lost thus
 * leaves evidence while the resource lives; once the resource is gone, the outcome is reported only
 * by a reader that saw a delete confirmed. What the operator did wins: once a copy that is not
 * being deleted shows a status the operator wrote after the mark, the mark is withdrawn and decides
 * nothing. Not a published API; immutable.
 *
 * @param at when the mark was put, by the writer's clock; the job's finish time on every instance
 * @param writer the writer's token ({@code <instance id>-<counter>})
 * @param status the terminal status the mark decided
 * @param message the message reported with it
 */
record EndMark(Instant at, String writer, JobStatus status, String message) {
  private static final String WRITER = "writer=";
  private static final String STATUS = "status=";
  private static final String MESSAGE = "message=";

  EndMark {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(writer, "writer");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(message, "message");
    if (!status.isTerminal() || writer.contains(";")) {
      throw new IllegalArgumentException(
          "an end mark needs a terminal status and a writer without ';', but had "
              + status
              + " and '"
              + writer
              + "'");
    }
  }

  /** The end mark of a copy, when it has one it can read and no cancel mark (which came first). */
  static Optional<EndMark> of(ResourceSnapshot app) {
    if (app.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).isPresent()) {
      return Optional.empty();
    }
    return parse(app.annotation(JobIdentity.ANNOTATION_ENDED).orElse(null));
  }

  /** Parses the annotation's text; empty when null or unreadable. */
  static Optional<EndMark> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String[] parts = text.split(";", 4);
    if (parts.length < 4
        || !parts[1].startsWith(WRITER)
        || !parts[2].startsWith(STATUS)
        || !parts[3].startsWith(MESSAGE)) {
      return Optional.empty();
    }
    try {
      JobStatus status = JobStatus.valueOf(parts[2].substring(STATUS.length()));
      if (!status.isTerminal()) {
        return Optional.empty();
      }
      return Optional.of(
          new EndMark(
              Instant.parse(parts[0]),
              parts[1].substring(WRITER.length()),
              status,
              parts[3].substring(MESSAGE.length())));
    } catch (DateTimeParseException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * How far ahead a copy is mapped to tell whether the operator acted on it: past any no-status
   * timeout, a copy the operator never wrote a status to is still one the mapper would end by a
   * delete; one it wrote to is not.
   */
  private static final java.time.Duration LONG_AFTER = java.time.Duration.ofDays(365L * 100);

  /**
   * Whether the operator wrote a status to a copy: the job kind's mapper, asked long after any
   * no-status timeout, would not end it by deleting it (it only does so for a copy without a
   * status). Told by the mapper, never by the clock, so two readers whose clocks differ agree.
   *
   * @throws RuntimeException what the mapper throws
   */
  static boolean operatorActed(
      dev.kubejobs.core.spi.JobStatusMapper mapper, ResourceSnapshot app, Instant now) {
    MappingDecision later =
        mapper.map(app, dev.kubejobs.core.spi.DriverPod.notLookedUp(), now.plus(LONG_AFTER));
    return !(later instanceof MappingDecision.ReportAfter after
        && after.followUp().action() == FollowUp.Action.DELETE_APPLICATION);
  }

  /**
   * The merge patch that puts this mark, locked to {@code resourceVersion}: the API server answers
   * 409 when the resource changed since (a cancel mark, the operator's first status).
   */
  JsonObject patch(String resourceVersion) {
    return AnnotationPatch.put(resourceVersion, JobIdentity.ANNOTATION_ENDED, toString());
  }

  /** What this mark decided, on the info the mapping gave. */
  JobExecutionInfo outcome(JobExecutionInfo mapped) {
    return mapped.toBuilder().status(status).message(message).finishedAt(at).build();
  }

  /**
   * The decision for a copy carrying this mark while the operator has not acted since (the caller
   * checks): the outcome once the resource is being deleted, else the outcome after deleting it. A
   * copy the operator wrote a status to after the mark is not decided here: what the operator did
   * wins, and the mark is withdrawn.
   */
  MappingDecision decide(ResourceSnapshot app, MappingDecision mapped) {
    if (app.isBeingDeleted()) {
      return new MappingDecision.Report(outcome(mapped.info()), mapped.warnings());
    }
    JobExecutionInfo waiting =
        mapped.info().status().isTerminal()
            ? mapped.info().toBuilder().status(JobStatus.STARTED).finishedAt(null).build()
            : mapped.info();
    return new MappingDecision.ReportAfter(
        new FollowUp(FollowUp.Action.DELETE_APPLICATION, status, message),
        waiting,
        mapped.warnings());
  }

  @Override
  public String toString() {
    return at + ";" + WRITER + writer + ";" + STATUS + status + ";" + MESSAGE + message;
  }
}
