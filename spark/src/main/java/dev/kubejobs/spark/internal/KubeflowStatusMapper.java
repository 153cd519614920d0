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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.DriverPod;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.JobStatusMapper;
import dev.kubejobs.core.ResourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * Maps a Kubeflow Spark operator SparkApplication ({@code sparkoperator.k8s.io/v1beta2}) to a job
 * status, following DESIGN.md section 4. Pure and thread safe. Not a published API; obtain it from
 * {@code SparkOperators.kubeflow().statusMapper()}.
 */
public final class KubeflowStatusMapper implements JobStatusMapper {
  static final String OPERATOR = "Kubeflow Spark operator";

  /** States in which the driver runs or has just ended (the operator may still rerun it). */
  private static final Set<String> RUNNING = Set.of("RUNNING", "SUCCEEDING", "FAILING");

  /** States the operator retries or resumes from: never an outcome. */
  private static final Set<String> RETRYING =
      Set.of(
          "SUBMISSION_FAILED",
          "PENDING_RERUN",
          "INVALIDATING",
          "UNKNOWN",
          "SUSPENDING",
          "RESUMING");

  private final StatusRules rules;

  /**
   * Creates the mapper.
   *
   * @param noStatusTimeout how long a SparkApplication may have no state
   */
  public KubeflowStatusMapper(Duration noStatusTimeout) {
    this.rules = new StatusRules(OPERATOR, noStatusTimeout);
  }

  @Override
  public JobExecutionInfo map(ResourceSnapshot application, DriverPod driverPod, Instant now) {
    return rules.decide(application, observe(application), driverPod, now);
  }

  /**
   * Returns the driver pod's name: {@code status.driverInfo.podName}, else {@code
   * spec.driver.podName}, else {@code <name>-driver}.
   *
   * @param application the SparkApplication
   * @return the name
   */
  public static String driverPodName(ResourceSnapshot application) {
    return application
        .status()
        .flatMap(s -> Json.string(s, "driverInfo", "podName"))
        .filter(n -> !n.isEmpty())
        .or(
            () ->
                application
                    .spec()
                    .flatMap(s -> Json.string(s, "driver", "podName"))
                    .filter(n -> !n.isEmpty()))
        .orElse(application.name() + "-driver");
  }

  Observation observe(ResourceSnapshot app) {
    String podName = driverPodName(app);
    JsonElement raw = app.json().get("status");
    if (raw == null || raw.isJsonNull()) {
      return noStatus(podName);
    }
    if (!raw.isJsonObject()) {
      return unparseable(podName, null);
    }
    JsonObject status = raw.getAsJsonObject();
    String webUi =
        Json.string(status, "driverInfo", "webUIAddress").filter(s -> !s.isEmpty()).orElse(null);
    JsonElement appState = status.get("applicationState");
    if (appState == null || appState.isJsonNull()) {
      boolean empty =
          status.entrySet().stream()
              .allMatch(
                  e ->
                      e.getKey().equals("driverInfo")
                          && e.getValue().isJsonObject()
                          && e.getValue().getAsJsonObject().size() == 0);
      return empty ? noStatus(podName) : unparseable(podName, webUi);
    }
    if (!appState.isJsonObject()) {
      return unparseable(podName, webUi);
    }
    JsonElement stateEl = appState.getAsJsonObject().get("state");
    if (stateEl == null || stateEl.isJsonNull()) {
      return appState.getAsJsonObject().size() == 0
          ? noStatus(podName)
          : unparseable(podName, webUi);
    }
    if (!stateEl.isJsonPrimitive() || !stateEl.getAsJsonPrimitive().isString()) {
      return unparseable(podName, webUi);
    }
    String state = stateEl.getAsString();
    if (state.isEmpty()) {
      return noStatus(podName);
    }
    String error = Json.string(appState.getAsJsonObject(), "errorMessage").orElse("").strip();
    Instant submitted = Json.time(status, "lastSubmissionAttemptTime").orElse(null);
    Instant terminated = Json.time(status, "terminationTime").orElse(null);
    boolean executors = Json.object(status, "executorState").map(o -> o.size() > 0).orElse(false);
    boolean everStarted =
        RUNNING.contains(state) || executors || terminated != null || state.equals("COMPLETED");
    Instant startedAt = everStarted ? submitted : null;
    JobStatus unfinished = everStarted ? JobStatus.STARTED : JobStatus.QUEUED;
    String described =
        "Kubeflow Spark operator state "
            + state
            + "."
            + (error.isEmpty() ? "" : " Operator message: " + ApacheStatusMapper.sentence(error));
    switch (state) {
      case "COMPLETED":
        return observation(
            Observation.Kind.KNOWN,
            state,
            JobStatus.STARTED,
            new Observation.Outcome(
                JobStatus.SUCCEEDED, terminated, "The Spark application completed."),
            startedAt,
            described,
            null,
            podName,
            webUi);
      case "FAILED":
        return observation(
            Observation.Kind.KNOWN,
            state,
            unfinished,
            new Observation.Outcome(
                JobStatus.FAILED,
                terminated,
                "The Spark application failed."
                    + (error.isEmpty()
                        ? ""
                        : " Operator message: " + ApacheStatusMapper.sentence(error))
                    + " Check the driver log and `kubectl describe sparkapplication "
                    + app.name()
                    + " -n "
                    + app.namespace()
                    + "`."),
            startedAt,
            described,
            null,
            podName,
            webUi);
      case "SUBMITTED":
      case "SUSPENDED":
        return observation(
            Observation.Kind.KNOWN,
            state,
            JobStatus.QUEUED,
            null,
            null,
            described,
            null,
            podName,
            webUi);
      default:
        break;
    }
    if (RUNNING.contains(state)) {
      return observation(
          Observation.Kind.KNOWN,
          state,
          JobStatus.STARTED,
          null,
          startedAt,
          described,
          null,
          podName,
          webUi);
    }
    if (RETRYING.contains(state)) {
      return observation(
          Observation.Kind.KNOWN,
          state,
          unfinished,
          null,
          startedAt,
          described + " The operator retries or resumes from this state.",
          null,
          podName,
          webUi);
    }
    return observation(
        Observation.Kind.UNKNOWN_STATE,
        state,
        unfinished,
        null,
        startedAt,
        described + " This kubejobs version does not know the state; the job stays unfinished.",
        "The "
            + OPERATOR
            + " reports state '"
            + state
            + "', which this kubejobs version does not know; such jobs stay unfinished until the"
            + " operator reports a known state. Upgrade kubejobs to match the operator.",
        podName,
        webUi);
  }

  private static Observation observation(
      Observation.Kind kind,
      String state,
      JobStatus unfinished,
      Observation.Outcome outcome,
      Instant startedAt,
      String message,
      String warning,
      String podName,
      String webUi) {
    return new Observation(
        kind, state, unfinished, outcome, false, null, startedAt, message, warning, podName, webUi);
  }

  private static Observation noStatus(String podName) {
    return observation(
        Observation.Kind.NO_STATUS,
        "",
        JobStatus.QUEUED,
        null,
        null,
        "No state from the " + OPERATOR + " yet.",
        null,
        podName,
        null);
  }

  private static Observation unparseable(String podName, String webUi) {
    return observation(
        Observation.Kind.UNPARSEABLE,
        "",
        JobStatus.QUEUED,
        null,
        null,
        "The " + OPERATOR + "'s status has no state this kubejobs version can read.",
        "The "
            + OPERATOR
            + " wrote a status without a readable status.applicationState.state (a newer"
            + " operator?); kubejobs keeps such jobs unfinished, never deletes them, and decides"
            + " their outcome from the driver container's exit code.",
        podName,
        webUi);
  }
}
