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
package dev.kubejobs.spark;

import static dev.kubejobs.spark.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.Fixtures.App;
import dev.kubejobs.spark.Fixtures.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mappers at the edges where the operators' own code decides: restarts after a success, unknown
 * states with a terminated driver, Kubeflow reruns, cancels the operator has not released yet, and
 * driver pods kept running by a sidecar. Each fixture is shaped as the operator writes it; each
 * test names the operator function it follows (Apache Spark Kubernetes Operator {@code
 * spark-operator-api} and {@code spark-operator}, Kubeflow spark-operator {@code
 * internal/controller/sparkapplication/controller.go} and {@code pkg/util/sparkapplication.go}).
 */
class OperatorCodePathsTest {
  private static final JobStatusMapper APACHE = SparkOperators.apache().statusMapper();
  private static final JobStatusMapper KUBEFLOW = SparkOperators.kubeflow().statusMapper();
  private static final Instant NOW = at(30);
  private static final String APACHE_DRIVER = Fixtures.NAME + "-0-driver";
  private static final String KUBEFLOW_DRIVER = Fixtures.NAME + "-driver";

  private static MappingDecision apache(App app, DriverPod pod) {
    return APACHE.map(app.snapshot(), pod, NOW);
  }

  private static MappingDecision kubeflow(App app, DriverPod pod) {
    return KUBEFLOW.map(app.snapshot(), pod, NOW);
  }

  private static DriverPod exited(String name, int code) {
    return DriverPod.found(Pod.named(name).terminated(code, at(2), at(8)).snapshot());
  }

  private static DriverPod running(String name) {
    return DriverPod.found(Pod.named(name).running(at(2)).snapshot());
  }

  /**
   * A driver pod whose init container failed: the pod is Failed, the driver container never left
   * {@code waiting} (the kubelet's shape of {@code PodInitializing}).
   */
  private static DriverPod initFailed(String name) {
    return DriverPod.found(
        ResourceSnapshot.of(
            JsonParser.parseString(
                    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
                        + name
                        + "\",\"namespace\":\"etl\"},\"status\":{\"phase\":\"Failed\","
                        + "\"initContainerStatuses\":[{\"name\":\"fetch-deps\",\"state\":"
                        + "{\"terminated\":{\"exitCode\":1,\"reason\":\"Error\"}}}],"
                        + "\"containerStatuses\":[{\"name\":\"spark-kubernetes-driver\","
                        + "\"state\":{\"waiting\":{\"reason\":\"PodInitializing\"}}}]}}")
                .getAsJsonObject()));
  }

  /**
   * Item 1: restart policies that cannot restart a success. Follows {@code
   * RestartPolicy.attemptRestartOnState} (OnFailure restarts on {@code isFailure()},
   * OnInfrastructureFailure on {@code isInfrastructureFailure()}) as called by {@code
   * ApplicationStatus.terminateOrRestart}: where it answers false, the next state is {@code
   * ResourceReleased}, so the outcome is final at once.
   */
  @Nested
  class ApacheRestartPolicies {
    private final String[] succeeded = {
      "Submitted", "DriverRequested", "DriverStarted", "DriverReady", "RunningHealthy", "Succeeded"
    };
    private final String[] failed = {
      "Submitted", "DriverRequested", "DriverStarted", "DriverReady", "RunningHealthy", "Failed"
    };

    @ParameterizedTest
    @ValueSource(strings = {"OnFailure", "OnInfrastructureFailure", "Never"})
    void aSuccessThePolicyCannotRestartIsSucceededAtOnce(String policy) {
      App app = App.apache().restartPolicy(policy).states(succeeded).attempt(0);

      MappingDecision info = apache(app, DriverPod.notLookedUp());

      assertThat(info.info().status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(info.info().finishedAt()).contains(at(6));
      assertThat(info.info().startedAt()).contains(at(3));
      assertThat(info.needsDriverPod()).isFalse();
    }

    @Test
    void aSuccessWithPolicyAlwaysWaitsForTheRelease() {
      App app = App.apache().restartPolicy("Always").states(succeeded).attempt(0);

      MappingDecision info = apache(app, DriverPod.absent());

      assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
      assertThat(info.info().message()).contains("may restart");
    }

    @Test
    void onInfrastructureFailureEndsOnAnApplicationFailureButRestartsAnInfrastructureOne() {
      App appFailure = App.apache().restartPolicy("OnInfrastructureFailure").states(failed);
      App scheduling =
          App.apache()
              .restartPolicy("OnInfrastructureFailure")
              .states("Submitted", "DriverRequested", "SchedulingFailure");

      assertThat(apache(appFailure, DriverPod.absent()).info().status())
          .isEqualTo(JobStatus.FAILED);
      assertThat(apache(appFailure, DriverPod.notLookedUp()).needsDriverPod()).isTrue();
      assertThat(apache(scheduling, DriverPod.absent()).info().status())
          .isEqualTo(JobStatus.QUEUED);
    }

    @Test
    void onFailureStillWaitsAfterAFailure() {
      App app = App.apache().restartPolicy("OnFailure").states(failed);

      MappingDecision info = apache(app, DriverPod.absent());

      assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
      assertThat(info.needsDriverPod()).isFalse();
    }
  }

  /**
   * Item 1 for Kubeflow: {@code util.ShouldRetry} reruns SUCCEEDING only with restart policy Always
   * and FAILING while the policy allows ({@code executionAttempts <= onFailureRetries} for
   * OnFailure); otherwise {@code reconcileSucceedingSparkApplication} and {@code
   * reconcileFailingSparkApplication} write COMPLETED or FAILED next, so the outcome is final.
   */
  @Nested
  class KubeflowSucceedingAndFailing {
    private App app(String state, String policy, Integer retries, int attempts) {
      return App.kubeflow()
          .kubeflowRestartPolicy(policy, retries)
          .kubeflowState(state)
          .statusNumber("executionAttempts", attempts)
          .statusTime("terminationTime", at(8));
    }

    @Test
    void succeedingIsSucceededUnlessThePolicyIsAlways() {
      MappingDecision onFailure =
          kubeflow(app("SUCCEEDING", "OnFailure", 3, 1), DriverPod.notLookedUp());

      assertThat(onFailure.info().status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(onFailure.info().finishedAt()).contains(at(8));
      assertThat(kubeflow(app("SUCCEEDING", "Always", null, 1), DriverPod.absent()).info().status())
          .isEqualTo(JobStatus.STARTED);
    }

    @Test
    void failingIsFailedOnlyPastTheRetries() {
      assertThat(kubeflow(app("FAILING", "OnFailure", 3, 3), DriverPod.absent()).info().status())
          .isEqualTo(JobStatus.STARTED);
      assertThat(kubeflow(app("FAILING", "OnFailure", 3, 4), DriverPod.absent()).info().status())
          .isEqualTo(JobStatus.FAILED);
      assertThat(kubeflow(app("FAILING", "OnFailure", null, 1), DriverPod.absent()).info().status())
          .isEqualTo(JobStatus.FAILED);
      assertThat(kubeflow(app("FAILING", "Always", null, 9), DriverPod.absent()).info().status())
          .isEqualTo(JobStatus.STARTED);
      // Rule 5 still holds: the pod is looked up before FAILED.
      assertThat(kubeflow(app("FAILING", "Never", null, 1), DriverPod.notLookedUp()))
          .satisfies(
              i -> {
                assertThat(i.info().status()).isEqualTo(JobStatus.STARTED);
                assertThat(i.needsDriverPod()).isTrue();
              });
    }
  }

  /**
   * Item 2: a state this version does not know (a newer operator) or a status it cannot read, with
   * a terminated driver container: its exit code decides when the restart policy cannot start
   * another attempt (Apache {@code RestartPolicy.attemptRestartOnState} with an exit code 0 read as
   * {@code Succeeded} and another as {@code Failed}; Kubeflow {@code util.ShouldRetry} from
   * SUCCEEDING and FAILING).
   */
  @Nested
  class UnknownStatesWithATerminatedDriver {
    private final String[] autoscaled = {
      "Submitted", "DriverRequested", "DriverStarted", "RunningWithAutoscaledExecutors"
    };

    @Test
    void apacheUnknownStateAsksForThePodWhereAnExitCodeCouldEndTheJob() {
      App never = App.apache().states(autoscaled);
      App always = App.apache().restartPolicy("Always").states(autoscaled);

      MappingDecision info = apache(never, DriverPod.notLookedUp());

      assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
      assertThat(info.needsDriverPod()).isTrue();
      assertThat(info.warnings()).singleElement().asString().contains("RunningWithAutoscaled");
      assertThat(apache(always, DriverPod.notLookedUp()).needsDriverPod()).isFalse();
    }

    @Test
    void apacheUnknownStateWithPolicyNeverTakesTheExitCode() {
      App app = App.apache().states(autoscaled);

      MappingDecision failed = apache(app, exited(APACHE_DRIVER, 1));
      MappingDecision succeeded = apache(app, exited(APACHE_DRIVER, 0));

      assertThat(failed.info().status()).isEqualTo(JobStatus.FAILED);
      assertThat(failed.info().finishedAt()).contains(at(8));
      assertThat(failed.info().message()).contains("exited with code 1", "RunningWithAutoscaled");
      assertThat(failed.pendingFollowUp()).isEmpty();
      assertThat(succeeded.info().status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(succeeded.info().startedAt())
          .contains(at(3)); // DriverStarted, the application's own
      assertThat(succeeded.info().finishedAt()).contains(at(8));
    }

    @Test
    void apacheUnknownStateFollowsWhatThePolicyCanRestart() {
      App onFailure = App.apache().restartPolicy("OnFailure").states(autoscaled);
      App always = App.apache().restartPolicy("Always").states(autoscaled);

      assertThat(apache(onFailure, exited(APACHE_DRIVER, 0)).info().status())
          .isEqualTo(JobStatus.SUCCEEDED);
      assertThat(apache(onFailure, exited(APACHE_DRIVER, 1)).info().status())
          .isEqualTo(JobStatus.STARTED);
      assertThat(apache(always, exited(APACHE_DRIVER, 0)).info().status())
          .isEqualTo(JobStatus.STARTED);
      assertThat(apache(always, exited(APACHE_DRIVER, 1)).info().status())
          .isEqualTo(JobStatus.STARTED);
    }

    @Test
    void aRunningDriverOrOneThatNeverRanDecidesNothing() {
      App queued = App.apache().states("Submitted", "DriverWarmingUp");

      assertThat(apache(queued, running(APACHE_DRIVER)).info().status())
          .isEqualTo(JobStatus.QUEUED);
      assertThat(apache(queued, initFailed(APACHE_DRIVER)).info().status())
          .isEqualTo(JobStatus.QUEUED);
      assertThat(apache(queued, initFailed(APACHE_DRIVER)).pendingFollowUp()).isEmpty();
      assertThat(apache(queued, DriverPod.absent()).info().status()).isEqualTo(JobStatus.QUEUED);
    }

    @Test
    void kubeflowUnknownStateWithPolicyNeverTakesTheExitCode() {
      App app = App.kubeflow().kubeflowState("PREEMPTED").statusNumber("executionAttempts", 1);

      assertThat(kubeflow(app, DriverPod.notLookedUp()).needsDriverPod()).isTrue();
      assertThat(kubeflow(app, exited(KUBEFLOW_DRIVER, 1)).info().status())
          .isEqualTo(JobStatus.FAILED);
      assertThat(kubeflow(app, exited(KUBEFLOW_DRIVER, 0)).info().status())
          .isEqualTo(JobStatus.SUCCEEDED);
      assertThat(kubeflow(app, initFailed(KUBEFLOW_DRIVER)).info().status().isTerminal()).isFalse();
    }

    /** {@code ShouldRetry}: FAILING with OnFailure retries while executionAttempts <= retries. */
    @Test
    void kubeflowOnFailureRetriesAFailureUntilTheLimitAndNeverASuccess() {
      App withinLimit =
          App.kubeflow()
              .kubeflowRestartPolicy("OnFailure", 3)
              .kubeflowState("PREEMPTED")
              .statusNumber("executionAttempts", 3);
      App pastLimit =
          App.kubeflow()
              .kubeflowRestartPolicy("OnFailure", 3)
              .kubeflowState("PREEMPTED")
              .statusNumber("executionAttempts", 4);
      App noRetries =
          App.kubeflow()
              .kubeflowRestartPolicy("OnFailure", null)
              .kubeflowState("PREEMPTED")
              .statusNumber("executionAttempts", 1);
      App always =
          App.kubeflow()
              .kubeflowRestartPolicy("Always", null)
              .kubeflowState("PREEMPTED")
              .statusNumber("executionAttempts", 1);

      assertThat(kubeflow(withinLimit, exited(KUBEFLOW_DRIVER, 1)).info().status())
          .isEqualTo(JobStatus.STARTED);
      assertThat(kubeflow(withinLimit, exited(KUBEFLOW_DRIVER, 0)).info().status())
          .isEqualTo(JobStatus.SUCCEEDED);
      assertThat(kubeflow(pastLimit, exited(KUBEFLOW_DRIVER, 1)).info().status())
          .isEqualTo(JobStatus.FAILED);
      assertThat(kubeflow(noRetries, exited(KUBEFLOW_DRIVER, 1)).info().status())
          .isEqualTo(JobStatus.FAILED);
      assertThat(kubeflow(always, exited(KUBEFLOW_DRIVER, 0)).info().status())
          .isEqualTo(JobStatus.STARTED);
      assertThat(kubeflow(always, DriverPod.notLookedUp()).needsDriverPod()).isFalse();
    }

    @Test
    void anUnreadableStatusFollowsTheRestartPolicyToo() {
      App never = App.apache().status("{\"phase\":\"Running\"}");
      App always = App.apache().restartPolicy("Always").status("{\"phase\":\"Running\"}");

      assertThat(apache(never, exited(APACHE_DRIVER, 0)).info().status())
          .isEqualTo(JobStatus.SUCCEEDED);
      assertThat(apache(always, exited(APACHE_DRIVER, 0)).info().status())
          .isEqualTo(JobStatus.STARTED);
      assertThat(apache(always, DriverPod.notLookedUp()).needsDriverPod()).isFalse();
    }
  }

  /**
   * Kubeflow reruns. The operator counts each successful submission in {@code
   * status.executionAttempts} ({@code submitSparkApplication}) and resets it only on invalidation
   * ({@code resetSparkApplicationStatus}, case INVALIDATING); after FAILING it resets the rest of
   * the status but keeps the count and {@code lastSubmissionAttemptTime} ({@code
   * reconcileFailingSparkApplication} → PENDING_RERUN).
   */
  @Nested
  class KubeflowReruns {
    /**
     * The status after {@code resetSparkApplicationStatus} from FAILING, as the operator writes.
     */
    private App pendingRerun(int executionAttempts) {
      String attempts = executionAttempts == 0 ? "" : ",\"executionAttempts\":" + executionAttempts;
      return App.kubeflow()
          .kubeflowRestartPolicy("OnFailure", 3)
          .status(
              "{\"applicationState\":{\"state\":\"PENDING_RERUN\"},\"driverInfo\":{},"
                  + "\"lastSubmissionAttemptTime\":\""
                  + at(1)
                  + "\",\"terminationTime\":null,\"submissionAttempts\":1"
                  + attempts
                  + "}");
    }

    @Test
    void pendingRerunAfterAnAttemptRanIsStartedWithItsStartTime() {
      MappingDecision info = kubeflow(pendingRerun(1), DriverPod.notLookedUp());

      assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
      assertThat(info.info().startedAt()).contains(at(1));
      assertThat(info.needsDriverPod()).isFalse();
    }

    @Test
    void submittedAgainAfterAnAttemptRanIsStarted() {
      App app =
          App.kubeflow()
              .kubeflowRestartPolicy("OnFailure", 3)
              .kubeflowState("SUBMITTED")
              .statusNumber("executionAttempts", 2)
              .statusNumber("submissionAttempts", 2)
              .statusTime("lastSubmissionAttemptTime", at(9));

      MappingDecision info = kubeflow(app, DriverPod.notLookedUp());

      assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
      assertThat(info.info().startedAt()).contains(at(9));
      assertThat(info.info().message()).contains("earlier attempt");
    }

    @Test
    void afterInvalidationTheCountIsZeroAndTheJobIsQueued() {
      // resetSparkApplicationStatus, case INVALIDATING: counts and times cleared.
      App pending =
          App.kubeflow()
              .status(
                  "{\"applicationState\":{\"state\":\"PENDING_RERUN\"},\"driverInfo\":{},"
                      + "\"lastSubmissionAttemptTime\":null,\"terminationTime\":null}");
      App submitted = App.kubeflow().kubeflowState("SUBMITTED");

      assertThat(kubeflow(pending, DriverPod.notLookedUp()).info().status())
          .isEqualTo(JobStatus.QUEUED);
      assertThat(kubeflow(pending, DriverPod.notLookedUp()).info().startedAt()).isEmpty();
      assertThat(kubeflow(submitted, DriverPod.notLookedUp()).info().status())
          .isEqualTo(JobStatus.QUEUED);
    }

    /** A rerun walked state by state never reads QUEUED once an attempt started. */
    @Test
    void aRerunNeverGoesBackToQueued() {
      List<App> walk = new ArrayList<>();
      walk.add(App.kubeflow().kubeflowState("SUBMITTED"));
      walk.add(App.kubeflow().kubeflowState("RUNNING"));
      walk.add(App.kubeflow().kubeflowState("FAILING"));
      walk.add(pendingRerun(1));
      walk.add(
          App.kubeflow()
              .kubeflowState("SUBMITTED")
              .statusNumber("executionAttempts", 2)
              .statusTime("lastSubmissionAttemptTime", at(9)));
      walk.add(
          App.kubeflow()
              .kubeflowState("RUNNING")
              .statusNumber("executionAttempts", 2)
              .statusTime("lastSubmissionAttemptTime", at(9)));
      List<JobStatus> seen = new ArrayList<>();
      for (App app : walk) {
        seen.add(
            kubeflow(app.kubeflowRestartPolicy("OnFailure", 3), DriverPod.absent())
                .info()
                .status());
      }

      assertThat(seen)
          .containsExactly(
              JobStatus.QUEUED,
              JobStatus.STARTED,
              JobStatus.STARTED,
              JobStatus.STARTED,
              JobStatus.STARTED,
              JobStatus.STARTED);
    }

    /**
     * {@code ShouldRetry} compares {@code submissionAttempts <= onSubmissionFailureRetries}: at
     * exactly the limit the operator still retries ({@code
     * reconcileFailedSubmissionSparkApplication} writes FAILED only once ShouldRetry says no), so
     * SUBMISSION_FAILED is never an outcome.
     */
    @Test
    void submissionFailedAtExactlyTheRetryLimitIsUnfinished() {
      App app =
          App.kubeflow()
              .kubeflowRestartPolicy("OnFailure", 3)
              .status(
                  "{\"applicationState\":{\"state\":\"SUBMISSION_FAILED\","
                      + "\"errorMessage\":\"failed to run spark-submit: exit status 1\"},"
                      + "\"driverInfo\":{\"podName\":\""
                      + KUBEFLOW_DRIVER
                      + "\"},\"lastSubmissionAttemptTime\":\""
                      + at(3)
                      + "\",\"submissionAttempts\":3}");

      for (DriverPod pod : List.of(DriverPod.notLookedUp(), DriverPod.absent())) {
        MappingDecision info = KUBEFLOW.map(app.snapshot(), pod, at(60 * 24));
        assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(info.pendingFollowUp()).isEmpty();
        assertThat(info.needsDriverPod()).isFalse();
      }
    }
  }

  /**
   * Item 4: an Apache application deleted after the cancel mark keeps its finalizer until the
   * operator released it: {@code SparkAppReconciler.cleanup} runs {@code AppCleanUpStep} on demand,
   * which deletes the driver pod and appends {@code ResourceReleased} (or {@code
   * TerminatedWithoutReleaseResources}) before the finalizer goes. Until then the driver may still
   * write output: CANCELLING.
   */
  @Nested
  class CancelledButNotReleased {
    private final String[] running = {
      "Submitted", "DriverRequested", "DriverStarted", "RunningHealthy"
    };

    private App cancelled() {
      return App.apache().states(running).cancelMark(at(5)).deleting(at(6));
    }

    @Test
    void withoutThePodItIsCancellingAndAsksForThePod() {
      MappingDecision info = apache(cancelled(), DriverPod.notLookedUp());

      assertThat(info.info().status()).isEqualTo(JobStatus.CANCELLING);
      assertThat(info.needsDriverPod()).isTrue();
      assertThat(info.info().finishedAt()).isEmpty();
      assertThat(info.pendingFollowUp()).isEmpty();
    }

    @Test
    void whileTheDriverRunsItIsCancelling() {
      DriverPod deleting =
          DriverPod.found(Pod.named(APACHE_DRIVER).running(at(2)).deleting(at(6)).snapshot());

      for (DriverPod pod : List.of(running(APACHE_DRIVER), deleting)) {
        MappingDecision info = apache(cancelled(), pod);
        assertThat(info.info().status()).as(pod.toString()).isEqualTo(JobStatus.CANCELLING);
        assertThat(info.needsDriverPod()).isFalse();
        assertThat(info.info().finishedAt()).isEmpty();
        assertThat(info.pendingFollowUp()).isEmpty();
        assertThat(info.info().message()).contains("has not released it yet");
      }
    }

    @Test
    void onceTheDriverStoppedItIsCancelledWithTheDriversEnd() {
      MappingDecision stopped = apache(cancelled(), exited(APACHE_DRIVER, 143));
      MappingDecision gone = apache(cancelled(), DriverPod.absent());

      assertThat(stopped.info().status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(stopped.info().finishedAt()).contains(at(8));
      assertThat(gone.info().status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(gone.info().finishedAt()).contains(at(6));
    }

    @Test
    void onceReleasedItIsCancelledWithoutThePod() {
      App released =
          App.apache()
              .states(
                  "Submitted",
                  "DriverRequested",
                  "DriverStarted",
                  "RunningHealthy",
                  "ResourceReleased")
              .cancelMark(at(5))
              .deleting(at(5));

      MappingDecision info = apache(released, DriverPod.notLookedUp());

      assertThat(info.info().status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(info.needsDriverPod()).isFalse();
    }

    @Test
    void withoutAFinalizerTheDeleteIsTheEnd() {
      // Kubeflow's handleSparkApplicationDeletion keeps no finalizer: a deletion is final at once.
      App app = App.kubeflow().kubeflowState("RUNNING").cancelMark(at(5)).deleting(at(6));
      assertThat(app.snapshot().finalizers()).isEmpty();

      MappingDecision info = kubeflow(app, DriverPod.notLookedUp());

      assertThat(info.info().status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(info.needsDriverPod()).isFalse();
    }
  }

  /**
   * Item 5: a failed job's driver pod kept Running by a sidecar after the driver container exited.
   * Kubeflow's clean-up after FAILED ({@code cleanUpOnTermination}) removes only the driver's
   * disruption budget, never the pod, so the pod lingers until the application is deleted.
   */
  @Nested
  class SidecarKeepsTheDriverPodRunning {
    private ResourceSnapshot sidecarPod(String name) {
      return Pod.named(name)
          .terminated(1, at(2), at(8))
          .sidecarFirst(at(2))
          .phase("Running")
          .snapshot();
    }

    @Test
    void kubeflowFailedWithASidecarRunningDeletesThePodBeforeFailing() {
      App app = App.kubeflow().kubeflowState("FAILED").statusTime("terminationTime", at(8));

      MappingDecision info = kubeflow(app, DriverPod.found(sidecarPod(KUBEFLOW_DRIVER)));

      assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
      FollowUp followUp = info.pendingFollowUp().orElseThrow();
      assertThat(followUp.action()).isEqualTo(FollowUp.Action.DELETE_DRIVER_POD);
      assertThat(followUp.outcome()).isEqualTo(JobStatus.FAILED);
      assertThat(followUp.message()).contains(KUBEFLOW_DRIVER, "kept running by another container");
    }

    @Test
    void apacheFailedWithASidecarRunningDeletesThePodBeforeFailing() {
      App app = App.apache().states("Submitted", "DriverRequested", "DriverStarted", "Failed");

      MappingDecision info = apache(app, DriverPod.found(sidecarPod(APACHE_DRIVER)));

      assertThat(info.pendingFollowUp())
          .map(FollowUp::action)
          .contains(FollowUp.Action.DELETE_DRIVER_POD);
    }

    @Test
    void anExitCodeOutcomeWithASidecarRunningDeletesThePodToo() {
      App app = App.apache().states("Submitted", "DriverStarted", "RunningWithAutoscaledExecutors");

      MappingDecision info = apache(app, DriverPod.found(sidecarPod(APACHE_DRIVER)));

      assertThat(info.pendingFollowUp()).map(FollowUp::outcome).contains(JobStatus.FAILED);
    }

    @Test
    void aSidecarPodAlreadyBeingDeletedOrEndedIsLeftAlone() {
      App app = App.kubeflow().kubeflowState("FAILED").statusTime("terminationTime", at(8));
      ResourceSnapshot deleting =
          Pod.named(KUBEFLOW_DRIVER)
              .terminated(1, at(2), at(8))
              .sidecarFirst(at(2))
              .phase("Running")
              .deleting(at(9))
              .snapshot();
      ResourceSnapshot ended =
          Pod.named(KUBEFLOW_DRIVER).terminated(1, at(2), at(8)).sidecarFirst(at(2)).snapshot();

      for (ResourceSnapshot pod : List.of(deleting, ended)) {
        MappingDecision info = kubeflow(app, DriverPod.found(pod));
        assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
        assertThat(info.pendingFollowUp()).isEmpty();
      }
    }

    @Test
    void aSucceededJobsSidecarIsNotTouched() {
      App app = App.kubeflow().kubeflowState("COMPLETED").statusTime("terminationTime", at(8));
      ResourceSnapshot pod =
          Pod.named(KUBEFLOW_DRIVER)
              .terminated(0, at(2), at(8))
              .sidecarFirst(at(2))
              .phase("Running")
              .snapshot();

      MappingDecision info = kubeflow(app, DriverPod.found(pod));

      assertThat(info.info().status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(info.pendingFollowUp()).isEmpty();
    }
  }
}
