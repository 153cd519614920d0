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

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.CancelMark;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.Fixtures.App;
import dev.kubejobs.spark.Fixtures.Pod;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The Kubeflow Spark operator's status mapping: every state and every DESIGN.md section 4 rule. */
class KubeflowStatusMapperTest {
  private static final JobKind<SparkJobSpec> KIND = SparkOperators.kubeflow();
  private static final JobStatusMapper MAPPER = KIND.statusMapper();
  private static final Instant NOW = at(5);

  private static MappingDecision map(App app) {
    return MAPPER.map(app.snapshot(), DriverPod.notLookedUp(), NOW);
  }

  private static MappingDecision map(App app, DriverPod pod) {
    return MAPPER.map(app.snapshot(), pod, NOW);
  }

  /**
   * Every one of the 14 states. Columns: the state (empty for ""), the status with the driver pod
   * not looked up, whether the pod is wanted, the status once the pod is known to be absent, and
   * the status when the operator also recorded executors (a run that started). No restart policy
   * (Never): SUCCEEDING and FAILING are the outcome, as {@code util.ShouldRetry} answers false.
   */
  @ParameterizedTest(name = "''{0}'' -> {1} (pod wanted {2}), pod absent {3}, with executors {4}")
  @CsvSource(
      delimiter = '|',
      emptyValue = "",
      value = {
        "'' | QUEUED | false | QUEUED | QUEUED",
        "SUBMITTED | QUEUED | false | QUEUED | STARTED",
        "RUNNING | STARTED | false | STARTED | STARTED",
        "COMPLETED | SUCCEEDED | false | SUCCEEDED | SUCCEEDED",
        "FAILED | STARTED | true | FAILED | FAILED",
        "SUBMISSION_FAILED | QUEUED | false | QUEUED | STARTED",
        "PENDING_RERUN | QUEUED | false | QUEUED | STARTED",
        "INVALIDATING | QUEUED | false | QUEUED | STARTED",
        "SUCCEEDING | SUCCEEDED | false | SUCCEEDED | SUCCEEDED",
        "FAILING | STARTED | true | FAILED | FAILED",
        "UNKNOWN | QUEUED | false | QUEUED | STARTED",
        "SUSPENDING | QUEUED | false | QUEUED | STARTED",
        "SUSPENDED | QUEUED | false | QUEUED | STARTED",
        "RESUMING | QUEUED | false | QUEUED | STARTED",
      })
  void everyStateMapsPerTheTable(
      String state,
      JobStatus withoutPod,
      boolean podWanted,
      JobStatus withPodAbsent,
      JobStatus withExecutors) {
    App app = App.kubeflow().kubeflowState(state);
    App started = App.kubeflow().kubeflowState(state);
    JsonObject executors = new JsonObject();
    executors.addProperty(Fixtures.NAME + "-exec-1", "RUNNING");
    started.statusObject().add("executorState", executors);

    MappingDecision info = map(app);

    assertThat(info.info().status()).isEqualTo(withoutPod);
    assertThat(info.needsDriverPod()).isEqualTo(podWanted);
    assertThat(info.pendingFollowUp()).isEmpty();
    assertThat(info.warnings()).isEmpty();
    assertThat(info.info().operatorState()).isEqualTo(state);
    assertThat(map(app, DriverPod.absent()).info().status()).isEqualTo(withPodAbsent);
    assertThat(map(started, DriverPod.absent()).info().status()).isEqualTo(withExecutors);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SUBMISSION_FAILED",
        "PENDING_RERUN",
        "UNKNOWN",
        "INVALIDATING",
        "SUSPENDING",
        "SUSPENDED",
        "RESUMING"
      })
  void retryStatesNeverEndTheJobEvenLongAfterCreation(String state) {
    App app = App.kubeflow().kubeflowState(state);
    Instant muchLater = at(60 * 24);

    for (DriverPod pod :
        List.of(
            DriverPod.notLookedUp(),
            DriverPod.absent(),
            DriverPod.unavailable("forbidden"),
            DriverPod.found(
                Pod.named(Fixtures.NAME + "-driver").terminated(1, at(1), at(2)).snapshot()))) {
      MappingDecision info = MAPPER.map(app.snapshot(), pod, muchLater);
      assertThat(info.info().status().isTerminal()).as(state + " " + pod).isFalse();
      assertThat(info.pendingFollowUp()).as(state + " " + pod).isEmpty();
      assertThat(info.needsDriverPod()).as(state + " " + pod).isFalse();
    }
  }

  @Test
  void completedReportsTimesAndTheWebUi() {
    App app = App.kubeflow().kubeflowState("COMPLETED");
    app.statusObject().addProperty("terminationTime", at(4).toString());
    app.statusObject().getAsJsonObject("driverInfo").addProperty("webUIAddress", "10.0.0.7:4040");

    MappingDecision info = map(app);

    assertThat(info.info().status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(info.info().startedAt()).contains(at(1));
    assertThat(info.info().finishedAt()).contains(at(4));
    assertThat(info.info().webUi()).contains("10.0.0.7:4040");
    assertThat(info.info().driverPod()).contains(Fixtures.NAME + "-driver");
  }

  @Test
  void theEndTimeComesFromTheDriverContainerTheStartTimeFromTheApplication() {
    // The start time stays the application's (its submission, 10:01) whether or not this read
    // looked the pod up; the end time is the container's when the pod is there.
    App app = App.kubeflow().kubeflowState("COMPLETED");
    app.statusObject().addProperty("terminationTime", at(4).toString());
    ResourceSnapshot pod =
        Pod.named(Fixtures.NAME + "-driver").terminated(0, at(2), at(3)).snapshot();

    MappingDecision info = map(app, DriverPod.found(pod));

    assertThat(info.info().startedAt()).contains(at(1));
    assertThat(info.info().finishedAt()).contains(at(3));
    assertThat(map(app).info().startedAt()).isEqualTo(info.info().startedAt());
  }

  @Test
  void failedCarriesTheOperatorsErrorMessage() {
    App app = App.kubeflow().kubeflowState("FAILED");
    app.statusObject()
        .getAsJsonObject("applicationState")
        .addProperty("errorMessage", "driver container failed with ExitCode: 1, Reason: Error");

    MappingDecision info = map(app, DriverPod.absent());

    assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.info().message()).contains("ExitCode: 1, Reason: Error");
  }

  // kubeflow/spark-operator api/v1beta2: ExecutorPendingState = "PENDING", written by
  // podPhaseToExecutorState for an executor pod in phase Pending; RUNNING/COMPLETED/FAILED/UNKNOWN
  // are the other states.
  @ParameterizedTest
  @CsvSource({"PENDING,RUNNING,true", "RUNNING,COMPLETED,false", "FAILED,UNKNOWN,false"})
  void executorsWaitWhenTheStatusListsOnePending(String first, String second, boolean waiting) {
    App app = App.kubeflow().kubeflowState("RUNNING");
    JsonObject executors = new JsonObject();
    executors.addProperty(Fixtures.NAME + "-exec-1", first);
    executors.addProperty(Fixtures.NAME + "-exec-2", second);
    app.statusObject().add("executorState", executors);

    assertThat(MAPPER.executorsWaiting(app.snapshot())).isEqualTo(waiting);
  }

  @Test
  void noExecutorStateMeansNoneWaiting() {
    assertThat(MAPPER.executorsWaiting(App.kubeflow().kubeflowState("RUNNING").snapshot()))
        .isFalse();
  }

  @Test
  void failedWithLiveDriverDeletesThePodBeforeFailing() {
    App app = App.kubeflow().kubeflowState("FAILED");
    app.statusObject().addProperty("terminationTime", at(4).toString());
    ResourceSnapshot pod = Pod.named(Fixtures.NAME + "-driver").running(at(2)).snapshot();

    MappingDecision info = map(app, DriverPod.found(pod));

    assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
    assertThat(info.pendingFollowUp())
        .get()
        .satisfies(
            f -> {
              assertThat(f.action()).isEqualTo(FollowUp.Action.DELETE_DRIVER_POD);
              assertThat(f.outcome()).isEqualTo(JobStatus.FAILED);
            });
  }

  @Test
  void forbiddenPodLookupFallsBackToTheApplication() {
    App app = App.kubeflow().kubeflowState("FAILED");

    MappingDecision info = map(app, DriverPod.unavailable("pods is forbidden: list"));

    assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.warnings()).singleElement().asString().contains("pods is forbidden: list");
  }

  @Test
  void driverPodNameComesFromTheStatusElseTheDefault() {
    App named = App.kubeflow().kubeflowState("RUNNING");
    named.statusObject().getAsJsonObject("driverInfo").addProperty("podName", "custom-driver");

    assertThat(KIND.driverPodName(named.snapshot())).contains("custom-driver");
    assertThat(KIND.driverPodName(App.kubeflow().snapshot())).contains(Fixtures.NAME + "-driver");
    assertThat(KIND.driverPodSelector(named.snapshot()))
        .isEqualTo("spark-role=driver,sparkoperator.k8s.io/app-name=" + Fixtures.NAME);
    assertThat(KIND.driverContainerName(named.snapshot())).isEqualTo("spark-kubernetes-driver");
  }

  @Test
  void unseenStateIsUnfinishedWithAStableWarning() {
    MappingDecision info = map(App.kubeflow().kubeflowState("HIBERNATING"));

    assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.warnings()).singleElement().asString().contains("HIBERNATING");
    // Restart policy Never: a terminated driver would decide, so the pod is asked for.
    assertThat(info.needsDriverPod()).isTrue();
    assertThat(map(App.kubeflow().kubeflowState("HIBERNATING"), DriverPod.absent()).info().status())
        .isEqualTo(JobStatus.QUEUED);
  }

  @Nested
  class NoStatusAndUnparseable {
    @Test
    void noStatusOrEmptyStateYoungerThanTheTimeoutIsQueued() {
      for (App app :
          List.of(App.kubeflow(), App.kubeflow().kubeflowState(""), App.kubeflow().status("{}"))) {
        MappingDecision info = MAPPER.map(app.snapshot(), DriverPod.notLookedUp(), at(9));
        assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(info.pendingFollowUp()).isEmpty();
      }
    }

    @Test
    void noStatusOrEmptyStatePastTheTimeoutIsDeletedBeforeFailing() {
      for (App app : List.of(App.kubeflow(), App.kubeflow().kubeflowState(""))) {
        MappingDecision info = MAPPER.map(app.snapshot(), DriverPod.notLookedUp(), at(11));
        assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
        FollowUp f = info.pendingFollowUp().orElseThrow();
        assertThat(f.action()).isEqualTo(FollowUp.Action.DELETE_APPLICATION);
        assertThat(f.outcome()).isEqualTo(JobStatus.FAILED);
        assertThat(f.message()).contains("Kubeflow Spark operator").contains("10 min");
      }
    }

    @Test
    void unparseableStatusIsNeverDeletedAndAsksForThePod() {
      for (String status :
          List.of(
              "{\"phase\":\"Running\"}",
              "{\"applicationState\":{\"state\":7}}",
              "{\"applicationState\":\"RUNNING\"}",
              "{\"applicationState\":{\"errorMessage\":\"x\"}}")) {
        MappingDecision info =
            MAPPER.map(App.kubeflow().status(status).snapshot(), DriverPod.notLookedUp(), at(600));
        assertThat(info.info().status()).as(status).isEqualTo(JobStatus.QUEUED);
        assertThat(info.pendingFollowUp()).as(status).isEmpty();
        assertThat(info.needsDriverPod()).as(status).isTrue();
        assertThat(info.warnings()).as(status).hasSize(1);
      }
    }

    @Test
    void unparseableStatusWithTerminatedDriverTakesTheExitCode() {
      App app = App.kubeflow().status("{\"phase\":\"Running\"}");
      ResourceSnapshot ok =
          Pod.named(Fixtures.NAME + "-driver").terminated(0, at(1), at(3)).snapshot();
      ResourceSnapshot bad =
          Pod.named(Fixtures.NAME + "-driver").terminated(2, at(1), at(3)).snapshot();

      assertThat(map(app, DriverPod.found(ok)).info().status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(map(app, DriverPod.found(bad)).info().status()).isEqualTo(JobStatus.FAILED);
      assertThat(map(app, DriverPod.found(bad)).info().finishedAt()).contains(at(3));
    }
  }

  @Nested
  class CancelAndDeletion {
    @Test
    void outcomeBeforeTheCancelAndDeletionStands() {
      App app = App.kubeflow().kubeflowState("COMPLETED").cancelMark(at(3)).deleting(at(3));
      app.statusObject().addProperty("terminationTime", at(2).toString());

      assertThat(map(app).info().status()).isEqualTo(JobStatus.SUCCEEDED);
    }

    @Test
    void outcomeAfterTheCancelledDeletionIsCancelled() {
      App app = App.kubeflow().kubeflowState("FAILED").cancelMark(at(2)).deleting(at(2));
      app.statusObject().addProperty("terminationTime", at(3).toString());

      assertThat(map(app).info().status()).isEqualTo(JobStatus.CANCELLED);
    }

    @Test
    void theMarkedStateNotTheClockOrdersTheOutcomeAndTheCancel() {
      // terminationTime (the driver's clock) is before the mark in both; only the marked state
      // tells whether FAILED was there when the cancel decided.
      App after =
          App.kubeflow()
              .kubeflowState("FAILED")
              .cancelMark(new CancelMark(at(3), "node-b#7", "20", "RUNNING"))
              .deleting(at(3));
      after.statusObject().addProperty("terminationTime", at(2).toString());
      App before =
          App.kubeflow()
              .kubeflowState("FAILED")
              .cancelMark(new CancelMark(at(1), "node-b#7", "20", "FAILED"))
              .deleting(at(1));
      before.statusObject().addProperty("terminationTime", at(2).toString());

      assertThat(map(after, DriverPod.absent()).info().status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(map(before, DriverPod.absent()).info().status()).isEqualTo(JobStatus.FAILED);
    }

    @Test
    void cancelMarkWithoutOutcomeIsCancellingThenCancelled() {
      App marked = App.kubeflow().kubeflowState("RUNNING").cancelMark(at(2));
      App deleting = App.kubeflow().kubeflowState("RUNNING").cancelMark(at(2)).deleting(at(2));

      assertThat(map(marked).info().status()).isEqualTo(JobStatus.CANCELLING);
      assertThat(map(deleting).info().status()).isEqualTo(JobStatus.CANCELLED);
    }

    @Test
    void deletedBySomeoneElseFails() {
      MappingDecision info = map(App.kubeflow().kubeflowState("RUNNING").deleting(at(2)));

      assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
      assertThat(info.info().message()).contains("deleted outside kubejobs");
    }
  }
}
