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

import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.diagnosis.DiagnosisRule;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.JsonView;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.diagnosis.SparkDiagnosisRules;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
  public MappingDecision map(ResourceSnapshot application, DriverPod driverPod, Instant now) {
    return rules.decide(application, observe(application), restarts(application), driverPod, now);
  }

  /** The operator's own diagnosis rule: {@link SparkDiagnosisRules#kubeflow()}. */
  @Override
  public List<DiagnosisRule> diagnosisRules() {
    return List.of(SparkDiagnosisRules.kubeflow());
  }

  /**
   * Whether {@code status.executorState} lists an executor in {@code PENDING}: the operator writes
   * {@code ExecutorPendingState = "PENDING"} for an executor pod in phase Pending (kubeflow/spark-
   * operator, api/v1beta2 {@code ExecutorState} constants and {@code podPhaseToExecutorState}).
   * Other states ({@code RUNNING}, {@code COMPLETED}, {@code FAILED}, {@code UNKNOWN}) do not wait.
   *
   * @param application the SparkApplication
   * @return true when at least one executor is PENDING
   */
  @Override
  public boolean executorsFailed(ResourceSnapshot application) {
    return executorIn(application, "FAILED");
  }

  @Override
  public boolean executorsWaiting(ResourceSnapshot application) {
    return executorIn(application, "PENDING");
  }

  /** Whether {@code status.executorState} lists an executor in the state. */
  private static boolean executorIn(ResourceSnapshot application, String state) {
    JsonView states = application.view().object("status", "executorState").orElse(null);
    if (states == null) {
      return false;
    }
    for (String name : states.fieldNames()) {
      if (states.string(name).filter(state::equals).isPresent()) {
        return true;
      }
    }
    return false;
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
        .view()
        .string("status", "driverInfo", "podName")
        .filter(n -> !n.isEmpty())
        .or(() -> application.view().string("spec", "driver", "podName").filter(n -> !n.isEmpty()))
        .orElse(application.name() + "-driver");
  }

  /**
   * Whether another attempt may follow a driver that exited, as the operator's {@code
   * util.ShouldRetry} decides from SUCCEEDING and FAILING: restart policy Always retries both,
   * OnFailure retries a failure while {@code status.executionAttempts <= onFailureRetries}, Never
   * neither. A policy type this version does not know may retry.
   */
  static Restarts restarts(ResourceSnapshot app) {
    String type = app.view().string("spec", "restartPolicy", "type").orElse("Never");
    long attempts = app.view().number("status", "executionAttempts").orElse(0L);
    return switch (type) {
      case "Never" -> Restarts.NEVER;
      case "OnFailure" ->
          new Restarts(
              false,
              app.view()
                  .number("spec", "restartPolicy", "onFailureRetries")
                  .map(retries -> attempts <= retries)
                  .orElse(false));
      default -> new Restarts(true, true);
    };
  }

  Observation observe(ResourceSnapshot app) {
    String podName = driverPodName(app);
    JsonView status = app.view().get("status").orElse(null);
    if (status == null) {
      return noStatus(podName);
    }
    if (!status.isObject()) {
      return unparseable(podName, null);
    }
    String webUi =
        status.string("driverInfo", "webUIAddress").filter(s -> !s.isEmpty()).orElse(null);
    JsonView appState = status.get("applicationState").orElse(null);
    if (appState == null) {
      boolean empty =
          status.fieldNames().stream()
              .allMatch(
                  k ->
                      k.equals("driverInfo")
                          && status.object(k).map(o -> o.size() == 0).orElse(false));
      return empty ? noStatus(podName) : unparseable(podName, webUi);
    }
    if (!appState.isObject()) {
      return unparseable(podName, webUi);
    }
    JsonView stateEl = appState.get("state").orElse(null);
    if (stateEl == null) {
      return appState.size() == 0 ? noStatus(podName) : unparseable(podName, webUi);
    }
    if (!stateEl.isString()) {
      return unparseable(podName, webUi);
    }
    String state = stateEl.asString().orElseThrow();
    if (state.isEmpty()) {
      return noStatus(podName);
    }
    String error = appState.string("errorMessage").orElse("").strip();
    Instant submitted = status.time("lastSubmissionAttemptTime").orElse(null);
    Instant terminated = status.time("terminationTime").orElse(null);
    boolean executors = status.object("executorState").map(o -> o.size() > 0).orElse(false);
    // The operator counts successful submissions (submitSparkApplication) and resets the count
    // only on invalidation (resetSparkApplicationStatus): past the current submission, an earlier
    // attempt ran. SUBMITTED counts its own submission.
    long attempts = status.number("executionAttempts").orElse(0L);
    boolean ranBefore = attempts >= 2 || (attempts >= 1 && !state.equals("SUBMITTED"));
    boolean everStarted =
        RUNNING.contains(state)
            || executors
            || terminated != null
            || state.equals("COMPLETED")
            || ranBefore;
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
            failed(app, terminated, error, ""),
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
            unfinished,
            null,
            startedAt,
            described
                + (ranBefore
                    ? " An earlier attempt ran (execution attempts: " + attempts + ")."
                    : ""),
            null,
            podName,
            webUi);
      default:
        break;
    }
    // util.ShouldRetry: SUCCEEDING reruns only with restart policy Always, FAILING only while the
    // policy allows; where it does not, the operator records COMPLETED or FAILED next
    // (reconcileSucceedingSparkApplication, reconcileFailingSparkApplication).
    Restarts restarts = restarts(app);
    if (state.equals("SUCCEEDING") && !restarts.afterSuccess()) {
      return observation(
          Observation.Kind.KNOWN,
          state,
          JobStatus.STARTED,
          new Observation.Outcome(
              JobStatus.SUCCEEDED,
              terminated,
              "The Spark application completed (state SUCCEEDING; the restart policy runs no"
                  + " other attempt)."),
          startedAt,
          described,
          null,
          podName,
          webUi);
    }
    if (state.equals("FAILING") && !restarts.afterFailure()) {
      return observation(
          Observation.Kind.KNOWN,
          state,
          JobStatus.STARTED,
          failed(
              app,
              terminated,
              error,
              " (State FAILING; the restart policy runs no other attempt.)"),
          startedAt,
          described,
          null,
          podName,
          webUi);
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

  private static Observation.Outcome failed(
      ResourceSnapshot app, Instant terminated, String error, String note) {
    return new Observation.Outcome(
        JobStatus.FAILED,
        terminated,
        "The Spark application failed."
            + (error.isEmpty() ? "" : " Operator message: " + ApacheStatusMapper.sentence(error))
            + note
            + " Check the driver log and `kubectl describe sparkapplication "
            + app.name()
            + " -n "
            + app.namespace()
            + "`.");
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
