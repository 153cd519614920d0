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
package dev.kubejobs.examples.simulation;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What truly happened to one SparkApplication, read from the fake server's {@link EventLog}: the
 * terminal statuses a correct scheduler may record for it. It never asks kubejobs' mapper.
 *
 * <p>The rules, in the order of the server's changes up to the first one that deletes the
 * application (a {@code deletionTimestamp} or its removal):
 *
 * <ul>
 *   <li>an outcome the operator wrote before the deletion (Apache {@code Succeeded} or a failure
 *       state of the final attempt; Kubeflow {@code COMPLETED}/{@code FAILED}, or {@code
 *       SUCCEEDING}/{@code FAILING} when no retry follows) stands: that status alone;
 *   <li>a driver exit before the deletion decides the outcome too, but while the operator has not
 *       yet written it, a cancel marked before the exit was seen may also win: exit status or
 *       CANCELLED (for an unparseable status, only the exit's status when it exited before the
 *       mark);
 *   <li>deleted in the failed attempt of a restarting path: FAILED or CANCELLED;
 *   <li>deleted carrying the cancel mark: CANCELLED;
 *   <li>kubejobs' end mark ({@code kubejobs.dev/ended}, the no-status timeout's) decides nothing by
 *       itself: what the operator did wins. An end-marked application deleted before the operator
 *       wrote a status ended FAILED; one the operator wrote a status to after the mark goes on as
 *       the operator runs it (the mark had to give way). An end mark on an application that already
 *       had a status allows no answer;
 *   <li>deleted without the mark and without ever having a status (the no-status timeout): FAILED;
 *   <li>deleted without the mark while it had a status: no answer is right — kubejobs deleted a
 *       live job;
 *   <li>never deleted and no outcome: not finished, no terminal status is right.
 * </ul>
 *
 * <p>{@code operatorOutcome} is the outcome the operator itself wrote before any deletion, when it
 * wrote one: what every node must record once the operator settled (invariant (g)).
 */
record Truth(Set<JobStatus> allowed, String story, JobStatus operatorOutcome) {

  Truth(Set<JobStatus> allowed, String story) {
    this(allowed, story, null);
  }

  static Truth of(List<EventLog.Entry> ordered, String uid, Flavor flavor, SparkAppPath path) {
    boolean restarting = path == SparkAppPath.RESTARTED_THEN_SUCCEEDED;
    boolean hadStatus = false;
    boolean markedEver = false;
    boolean endMarkedEver = false;
    boolean actedAfterEndMark = false;
    boolean inFailedAttempt = false;
    JobStatus exitOutcome = null;
    boolean exitBeforeMark = false;
    StringBuilder story = new StringBuilder();
    for (EventLog.Entry e : ordered) {
      if (e.pod()) {
        if (!uid.equals(e.ownerUid()) || exitOutcome != null) {
          continue;
        }
        Integer exit = exitCode(e.status());
        if (exit == null) {
          continue;
        }
        if (restarting && exit != 0) {
          inFailedAttempt = true;
          story.append(" driver-exit(").append(exit).append(")@").append(e.rv());
          continue;
        }
        exitOutcome = exit == 0 ? JobStatus.SUCCEEDED : JobStatus.FAILED;
        exitBeforeMark = !markedEver;
        story.append(" driver-exit(").append(exit).append(")@").append(e.rv());
        continue;
      }
      if (!uid.equals(e.uid())) {
        continue;
      }
      boolean marked = e.annotations().has(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
      if (marked && !markedEver) {
        story.append(" mark@").append(e.rv());
      }
      if (!marked
          && !markedEver
          && !endMarkedEver
          && e.annotations().has(JobIdentity.ANNOTATION_ENDED)) {
        endMarkedEver = true;
        story.append(" ended@").append(e.rv());
        if (hadStatus) {
          return new Truth(
              EnumSet.noneOf(JobStatus.class),
              story + " (kubejobs ended an application that had a status)");
        }
      }
      markedEver |= marked;
      if (e.deleting()) {
        story.append(" deleted@").append(e.rv()).append(marked ? "(marked)" : "(unmarked)");
        if (exitOutcome != null) {
          if (path == SparkAppPath.UNPARSEABLE_STATUS && exitBeforeMark) {
            return new Truth(EnumSet.of(exitOutcome), story.toString());
          }
          return new Truth(EnumSet.of(exitOutcome, JobStatus.CANCELLED), story.toString());
        }
        if (inFailedAttempt) {
          return new Truth(EnumSet.of(JobStatus.FAILED, JobStatus.CANCELLED), story.toString());
        }
        if (marked) {
          return new Truth(EnumSet.of(JobStatus.CANCELLED), story.toString());
        }
        if (!hadStatus) {
          return new Truth(EnumSet.of(JobStatus.FAILED), story.toString() + " (never a status)");
        }
        return new Truth(
            EnumSet.noneOf(JobStatus.class),
            story.toString() + " (kubejobs deleted an application with a status and no mark)");
      }
      JsonObject status = e.status();
      if (!isOperatorStatus(flavor, status)) {
        continue;
      }
      if (endMarkedEver && !actedAfterEndMark) {
        actedAfterEndMark = true;
        story.append(" operator-acted-after-end-mark@").append(e.rv());
      }
      hadStatus = true;
      String state = state(flavor, status);
      if (state == null) {
        continue;
      }
      JobStatus outcome = operatorOutcome(flavor, state);
      if (restarting) {
        if ("ScheduledToRestart".equals(state) || "PENDING_RERUN".equals(state)) {
          inFailedAttempt = false;
          story.append(" ").append(state).append("@").append(e.rv());
          continue;
        }
        if (outcome == JobStatus.FAILED) {
          // the failed first attempt; the operator restarts it
          inFailedAttempt = true;
          continue;
        }
      }
      if (outcome != null) {
        story.append(" ").append(state).append("@").append(e.rv());
        return new Truth(EnumSet.of(outcome), story.toString(), outcome);
      }
    }
    if (exitOutcome != null) {
      return new Truth(EnumSet.of(exitOutcome), story.toString());
    }
    return new Truth(EnumSet.noneOf(JobStatus.class), story + " (not finished)");
  }

  /**
   * Whether a status is one the operator wrote: any non-empty status, except Kubeflow's empty
   * application state (which kubejobs, like the operator, reads as no status yet).
   */
  static boolean isOperatorStatus(Flavor flavor, JsonObject status) {
    if (status == null || status.size() == 0) {
      return false;
    }
    if (flavor == Flavor.KUBEFLOW && status.size() == 1 && status.has("applicationState")) {
      String state = KubeflowStatuses.state(status).orElse("");
      return !state.isEmpty();
    }
    return true;
  }

  private static String state(Flavor flavor, JsonObject status) {
    return flavor == Flavor.APACHE
        ? ApacheStatuses.currentState(status).orElse(null)
        : KubeflowStatuses.state(status).orElse(null);
  }

  private static JobStatus operatorOutcome(Flavor flavor, String state) {
    if (flavor == Flavor.APACHE) {
      if ("Succeeded".equals(state)) {
        return JobStatus.SUCCEEDED;
      }
      return ApacheStatuses.FAILURE_STATES.contains(state) ? JobStatus.FAILED : null;
    }
    // Kubeflow's controller (pkg/controller/sparkapplication/controller.go, the SucceedingState and
    // FailingState cases) moves SUCCEEDING to COMPLETED and FAILING to FAILED on its next
    // reconcile unless shouldRetry(app) says the restart policy asks for another attempt; the
    // restarting path is handled by the caller (its FAILING is the failed attempt). So the outcome
    // is decided when SUCCEEDING/FAILING is written, even if the application is deleted before the
    // operator writes COMPLETED/FAILED.
    if ("COMPLETED".equals(state) || "SUCCEEDING".equals(state)) {
      return JobStatus.SUCCEEDED;
    }
    return "FAILED".equals(state) || "FAILING".equals(state) ? JobStatus.FAILED : null;
  }

  private static Integer exitCode(JsonObject podStatus) {
    if (podStatus == null) {
      return null;
    }
    JsonElement cs = podStatus.get("containerStatuses");
    if (cs == null || !cs.isJsonArray()) {
      return null;
    }
    for (JsonElement c : (JsonArray) cs) {
      JsonObject st = c.getAsJsonObject().getAsJsonObject("state");
      if (st != null && st.has("terminated")) {
        return st.getAsJsonObject("terminated").get("exitCode").getAsInt();
      }
    }
    return null;
  }
}
