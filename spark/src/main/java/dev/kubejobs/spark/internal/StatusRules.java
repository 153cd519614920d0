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
package dev.kubejobs.spark.internal;

import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.CancelMark;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules of DESIGN.md section 4 that hold for both operators, applied to what an
 * operator-specific reader observed: the cancel mark and deletion (rule 2), the no-status timeout
 * and unparseable statuses or unknown states (rule 1), times (rule 4), the live driver of a failed
 * job (rule 5) and unavailable pod lookups (rule 6). Pure and thread safe. Not a published API.
 */
final class StatusRules {
  /** The driver container's name in both operators' driver pods. */
  static final String DRIVER_CONTAINER = "spark-kubernetes-driver";

  private final String operator;
  private final Duration noStatusTimeout;

  /**
   * Creates the rules.
   *
   * @param operator the operator's name for messages, for example {@code Apache Spark operator}
   * @param noStatusTimeout how long a resource may have no status
   */
  StatusRules(String operator, Duration noStatusTimeout) {
    this.operator = operator;
    this.noStatusTimeout = noStatusTimeout;
  }

  /**
   * Decides the status.
   *
   * @param app the SparkApplication
   * @param obs what the operator-specific reader found in it
   * @param restarts whether the operator may start another attempt after the driver exited
   * @param pod what is known of the driver pod
   * @param now the current time
   * @return the execution info
   */
  MappingDecision decide(
      ResourceSnapshot app, Observation obs, Restarts restarts, DriverPod pod, Instant now) {
    Draft d = new Draft();
    JobExecutionInfo info = decide(d, app, obs, restarts, pod, now);
    if (d.wantPod) {
      return new MappingDecision.NeedDriverPod(info, d.warnings);
    }
    if (d.followUp != null) {
      return new MappingDecision.ReportAfter(d.followUp, info, d.warnings);
    }
    return new MappingDecision.Report(info, d.warnings);
  }

  /**
   * What a decision asks for besides the status: the driver pod, a follow-up, warnings. Set while
   * deciding; read once by {@link #decide(ResourceSnapshot, Observation, Restarts, DriverPod,
   * Instant)}.
   */
  private static final class Draft {
    final List<String> warnings = new ArrayList<>();
    boolean wantPod;
    FollowUp followUp;
  }

  private JobExecutionInfo decide(
      Draft d,
      ResourceSnapshot app,
      Observation obs,
      Restarts restarts,
      DriverPod pod,
      Instant now) {
    JobExecutionInfo.Builder b =
        JobExecutionInfo.builder(JobStatus.QUEUED)
            .operatorState(obs.operatorState())
            .webUi(obs.webUi());
    PodFacts facts =
        pod.lookup() == DriverPod.Lookup.FOUND
            ? PodFacts.of(pod.pod().orElseThrow(), DRIVER_CONTAINER)
            : null;
    b.driverPod(facts != null ? facts.name() : obs.driverPodName());
    if (obs.warning() != null) {
      d.warnings.add(obs.warning());
    }
    if (pod.lookup() == DriverPod.Lookup.UNAVAILABLE) {
      d.warnings.add(
          "Cannot look up driver pods ("
              + pod.reason()
              + "); kubejobs reports jobs from the SparkApplication alone and cannot stop a"
              + " failed job's driver. Grant the service account get, list and delete on pods.");
    }
    // Rule 1: a status this version cannot read, or a state it does not know, tells no outcome; a
    // terminated driver container does, when the restart policy cannot start another attempt.
    boolean unreadable =
        obs.kind() == Observation.Kind.UNPARSEABLE || obs.kind() == Observation.Kind.UNKNOWN_STATE;
    if (unreadable && restarts.someExitEnds() && pod.lookup() == DriverPod.Lookup.NOT_LOOKED_UP) {
      d.wantPod = true;
    }
    // The application's own record first: whether the driver pod was looked up in this call must
    // not change a job's start time between two reads (pod times have one-second resolution).
    Instant startedAt =
        obs.startedAt() != null ? obs.startedAt() : facts != null ? facts.startedAt() : null;
    String mark = app.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).orElse(null);
    Optional<Instant> deletedAt = app.deletionTimestamp();
    boolean deleting = app.isBeingDeleted();

    Observation.Outcome outcome = obs.outcome();
    if (outcome == null
        && unreadable
        && facts != null
        && facts.terminated()
        && !restarts.after(facts.exitCode())) {
      String why =
          obs.kind() == Observation.Kind.UNPARSEABLE
              ? "the " + operator + "'s status could not be read"
              : "the " + operator + " reports state '" + obs.operatorState() + "', unknown here";
      outcome =
          facts.exitCode() == 0
              ? new Observation.Outcome(
                  JobStatus.SUCCEEDED,
                  facts.finishedAt(),
                  "The driver container of pod "
                      + facts.name()
                      + " exited with code 0; "
                      + why
                      + " and the restart policy starts no other attempt.")
              : new Observation.Outcome(
                  JobStatus.FAILED,
                  facts.finishedAt(),
                  "The driver container of pod "
                      + facts.name()
                      + " exited with code "
                      + facts.exitCode()
                      + (facts.reason().isEmpty() ? "" : " (" + facts.reason() + ")")
                      + "; "
                      + why
                      + " and the restart policy starts no other attempt. Check the driver log.");
    }

    // Rule 2: an outcome recorded before the deletion (or with no deletion) beats the cancel mark.
    if (outcome != null) {
      boolean cancelledFirst =
          mark != null
              && deletedAt.isPresent()
              && writtenAfterMark(mark, obs, unreadable, outcome, deletedAt.get());
      if (!cancelledFirst) {
        return reportOutcome(d, b, obs, outcome, pod, facts, startedAt);
      }
      return cancelled(b, mark, startedAt, outcome.at());
    }
    if (deleting || obs.released()) {
      Instant endedAt = obs.releasedAt() != null ? obs.releasedAt() : deletedAt.orElse(null);
      if (mark != null) {
        if (!obs.released() && !app.finalizers().isEmpty()) {
          // Being deleted, but the operator has not released it yet (its finalizer is on): the
          // driver may still run and write output, so the cancel is not done until it stopped.
          switch (pod.lookup()) {
            case NOT_LOOKED_UP:
              return cancelling(d, b, mark, startedAt, obs, true);
            case FOUND:
              if (facts.driverRuns()) {
                return cancelling(d, b, mark, startedAt, obs, false);
              }
              if (facts.finishedAt() != null) {
                endedAt = facts.finishedAt();
              }
              break;
            default:
              break;
          }
        }
        return cancelled(b, mark, startedAt, endedAt);
      }
      return b.status(JobStatus.FAILED)
          .startedAt(startedAt)
          .finishedAt(endedAt)
          .message(
              "The SparkApplication was deleted outside kubejobs (no cancel was requested)"
                  + " before the job recorded an outcome; check who deleted it in the cluster's"
                  + " audit log or events."
                  + (obs.message().isEmpty() ? "" : " Last state: " + obs.message()))
          .build();
    }
    if (mark != null) {
      if (obs.kind() == Observation.Kind.NO_STATUS) {
        // A cancel that marked the application but whose delete never came (it failed, or its
        // node stopped) must not keep it CANCELLING for ever while no operator picks it up: the
        // no-status timeout deletes the marked copy, which core then reports CANCELLED.
        JobExecutionInfo waiting = noStatus(d, b, app, now);
        if (d.followUp != null) {
          return waiting;
        }
      }
      return b.status(JobStatus.CANCELLING)
          .startedAt(startedAt)
          .message(
              "Cancel requested at "
                  + requestedAt(mark)
                  + "; waiting for the SparkApplication to be deleted. Last state: "
                  + obs.message())
          .build();
    }
    switch (obs.kind()) {
      case NO_STATUS:
        return noStatus(d, b, app, now);
      case UNPARSEABLE:
        {
          boolean started = startedAt != null || obs.unfinished() == JobStatus.STARTED;
          return b.status(started ? JobStatus.STARTED : JobStatus.QUEUED)
              .startedAt(started ? startedAt : null)
              .message(obs.message())
              .build();
        }
      default:
        {
          JobStatus status = obs.unfinished();
          return b.status(status)
              .startedAt(status == JobStatus.STARTED ? startedAt : null)
              .message(obs.message())
              .build();
        }
    }
  }

  private JobExecutionInfo reportOutcome(
      Draft d,
      JobExecutionInfo.Builder b,
      Observation obs,
      Observation.Outcome outcome,
      DriverPod pod,
      PodFacts facts,
      Instant startedAt) {
    Instant finishedAt =
        facts != null && facts.finishedAt() != null ? facts.finishedAt() : outcome.at();
    b.startedAt(startedAt).finishedAt(finishedAt).message(outcome.message());
    if (outcome.status() != JobStatus.FAILED) {
      return b.status(outcome.status()).build();
    }
    // Rule 5: a failed application whose driver pod still runs gets the pod deleted first, also
    // when only another container (a sidecar) keeps the pod running: Kubeflow's clean-up after
    // FAILED (cleanUpOnTermination) leaves the driver pod alone.
    JobStatus waiting = startedAt != null ? JobStatus.STARTED : obs.unfinished();
    switch (pod.lookup()) {
      case NOT_LOOKED_UP:
        d.wantPod = true;
        return b.status(waiting)
            .finishedAt(null)
            .message(
                outcome.message()
                    + " (FAILED is reported once the driver pod is known to have stopped.)")
            .build();
      case FOUND:
        if (facts.podRuns()) {
          d.followUp =
              new FollowUp(
                  FollowUp.Action.DELETE_DRIVER_POD,
                  JobStatus.FAILED,
                  outcome.message()
                      + " Its driver pod "
                      + facts.name()
                      + (facts.terminated()
                          ? " was kept running by another container and has been deleted."
                          : " was still running and has been deleted."));
          return b.status(waiting).finishedAt(null).build();
        }
        return b.status(JobStatus.FAILED).build();
      default:
        return b.status(JobStatus.FAILED).build();
    }
  }

  private JobExecutionInfo cancelling(
      Draft d,
      JobExecutionInfo.Builder b,
      String mark,
      Instant startedAt,
      Observation obs,
      boolean wantPod) {
    d.wantPod = wantPod;
    return b.status(JobStatus.CANCELLING)
        .startedAt(startedAt)
        .message(
            "Cancel requested at "
                + requestedAt(mark)
                + "; the SparkApplication is being deleted and the "
                + operator
                + " has not released it yet"
                + (wantPod ? "" : " (its driver still runs)")
                + "."
                + (obs.message().isEmpty() ? "" : " Last state: " + obs.message()))
        .build();
  }

  private JobExecutionInfo cancelled(
      JobExecutionInfo.Builder b, String mark, Instant startedAt, Instant endedAt) {
    return b.status(JobStatus.CANCELLED)
        .startedAt(startedAt)
        .finishedAt(endedAt)
        .message(
            "Cancelled by kubejobs (requested at "
                + requestedAt(mark)
                + ") before the job recorded an outcome.")
        .build();
  }

  /**
   * Whether the outcome on a deleted, marked copy was written after the cancel mark. The cancel
   * records in its mark the operator state of the copy it decided on and deletes only that copy
   * (locked to its resourceVersion), so a state different from the marked one was written after the
   * delete took effect: the cancel came first. Only when the mark does not say what it saw (a mark
   * of another writer) or the outcome comes from the driver pod rather than the operator's state do
   * times decide: an outcome no later than the deletion's second stands, as it does for a reader
   * that saw the exit before the deletion (a pod's change is not ordered against the application's
   * by any resourceVersion; both times have one-second resolution).
   */
  private static boolean writtenAfterMark(
      String mark,
      Observation obs,
      boolean unreadable,
      Observation.Outcome outcome,
      Instant deletedAt) {
    Optional<CancelMark> parsed = CancelMark.parse(mark);
    String markedState = parsed.map(CancelMark::operatorState).orElse("");
    if (!unreadable && !markedState.isEmpty() && obs.operatorState() != null) {
      return !markedState.equals(obs.operatorState());
    }
    return outcome.at() != null && outcome.at().isAfter(deletedAt);
  }

  /** The instant of a cancel mark for messages, or its raw text when it cannot be read. */
  private static String requestedAt(String mark) {
    return CancelMark.parse(mark).map(m -> m.requestedAt().toString()).orElse(mark);
  }

  private JobExecutionInfo noStatus(
      Draft d, JobExecutionInfo.Builder b, ResourceSnapshot app, Instant now) {
    Optional<Instant> created = app.creationTimestamp();
    if (created.isEmpty()) {
      return b.message("Waiting for the " + operator + " to pick up the SparkApplication.").build();
    }
    Duration age = Duration.between(created.get(), now);
    if (age.compareTo(noStatusTimeout) < 0) {
      return b.message(
              "Waiting for the "
                  + operator
                  + " to pick up the SparkApplication (no status "
                  + describe(age.isNegative() ? Duration.ZERO : age)
                  + " after creation).")
          .build();
    }
    d.followUp =
        new FollowUp(
            FollowUp.Action.DELETE_APPLICATION,
            JobStatus.FAILED,
            "The "
                + operator
                + " wrote no status within the no-status timeout of "
                + describe(noStatusTimeout)
                + " after the SparkApplication was created, so kubejobs deleted it to keep"
                + " the operator from starting it later. Check that the operator is running"
                + " and watches namespace '"
                + app.namespace()
                + "'.");
    return b.message(
            "The "
                + operator
                + " wrote no status within "
                + describe(noStatusTimeout)
                + " of creation; deleting the SparkApplication before failing the job.")
        .build();
  }

  /** Describes a duration for people: {@code 10 min}, {@code 90 s}. */
  static String describe(Duration d) {
    long seconds = d.getSeconds();
    if (seconds % 60 == 0 && seconds > 0) {
      return (seconds / 60) + " min";
    }
    return seconds + " s";
  }
}
