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
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Status shapes at the edge of what the mappers read, which no other test tells apart: a Kubeflow
 * status holding only {@code driverInfo}, and an Apache {@code currentState} ahead of its {@code
 * stateTransitionHistory} (the operator writes the current state and appends to the history in one
 * status update, {@code ApplicationStatus.appendNewState}, but a trimmed or lagging copy may hold
 * the current state only).
 */
class StatusShapesTest {
  private static final JobStatusMapper APACHE = SparkOperators.apache().statusMapper();
  private static final JobStatusMapper KUBEFLOW = SparkOperators.kubeflow().statusMapper();
  private static final Instant NOW = at(5);
  private static final Instant LONG_AFTER = at(60);

  private static MappingDecision kubeflow(String status, DriverPod pod, Instant now) {
    return KUBEFLOW.map(App.kubeflow().status(status).snapshot(), pod, now);
  }

  /**
   * An empty {@code driverInfo} is what the operator's status holds before its first submission
   * ({@code DriverInfo} has no omitempty on the struct): no status yet, deleted after the timeout.
   */
  @Test
  void kubeflowStatusWithOnlyAnEmptyDriverInfoIsNoStatus() {
    MappingDecision young = kubeflow("{\"driverInfo\":{}}", DriverPod.notLookedUp(), NOW);
    MappingDecision old = kubeflow("{\"driverInfo\":{}}", DriverPod.notLookedUp(), LONG_AFTER);

    assertThat(young.info().status()).isEqualTo(JobStatus.QUEUED);
    assertThat(young.warnings()).isEmpty();
    assertThat(young.needsDriverPod()).isFalse();
    assertThat(old.pendingFollowUp().map(FollowUp::action))
        .contains(FollowUp.Action.DELETE_APPLICATION);
  }

  /**
   * Anything beside or inside {@code driverInfo} without a state is a status this version cannot
   * read.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"driverInfo\":{\"podName\":\"kj-nightly-etl-driver\"}}",
        "{\"driverInfo\":{},\"submissionAttempts\":1}",
        "{\"driverInfo\":\"kj-nightly-etl-driver\"}",
        "{\"driverState\":{}}",
        "{\"applicationState\":{\"errorMessage\":\"x\"}}"
      })
  void kubeflowStatusWithMoreThanAnEmptyDriverInfoIsUnreadableNeverDeleted(String status) {
    MappingDecision info = kubeflow(status, DriverPod.notLookedUp(), LONG_AFTER);

    assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.pendingFollowUp()).isEmpty();
    assertThat(info.warnings()).singleElement().asString().contains("applicationState.state");
    assertThat(info.needsDriverPod()).isTrue();
  }

  @Test
  void kubeflowDriverInfoOnlyStatusStillNamesThePod() {
    MappingDecision info =
        kubeflow(
            "{\"driverInfo\":{\"podName\":\"custom-driver\",\"webUIAddress\":\"10.0.0.1:4040\"}}",
            DriverPod.absent(),
            NOW);

    assertThat(info.info().driverPod()).contains("custom-driver");
    assertThat(info.info().webUi()).contains("10.0.0.1:4040");
  }

  private static App apacheAhead(String current, Instant currentAt, String... history) {
    App app = App.apache().states(history);
    JsonObject status = app.statusObject();
    status.add("currentState", Fixtures.state(current, currentAt, ""));
    return app;
  }

  @Test
  void apacheCurrentStateAheadOfItsHistoryIsTheState() {
    App app = apacheAhead("Succeeded", at(4), "Submitted", "DriverRequested", "DriverStarted");

    MappingDecision info = APACHE.map(app.snapshot(), DriverPod.absent(), NOW);

    assertThat(info.info().status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(info.info().operatorState()).isEqualTo("Succeeded");
    assertThat(info.info().finishedAt()).contains(at(4));
    assertThat(info.info().startedAt()).contains(at(3));
  }

  @Test
  void apacheCurrentStateAheadOfItsHistoryCountsAsStarted() {
    App app = apacheAhead("DriverStarted", at(4), "Submitted", "DriverRequested");

    MappingDecision info = APACHE.map(app.snapshot(), DriverPod.notLookedUp(), NOW);

    assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
    assertThat(info.info().startedAt()).contains(at(4));
    assertThat(info.needsDriverPod()).isFalse();
  }

  @Test
  void apacheReleasedAheadOfItsHistoryFindsTheOutcomeInTheHistory() {
    App succeeded =
        apacheAhead(
            "ResourceReleased", at(6), "Submitted", "DriverStarted", "RunningHealthy", "Succeeded");
    App restarting =
        apacheAhead(
            "ResourceReleased",
            at(6),
            "Submitted",
            "DriverStarted",
            "Failed",
            "ScheduledToRestart");

    MappingDecision info = APACHE.map(succeeded.snapshot(), DriverPod.notLookedUp(), NOW);

    assertThat(info.info().status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(info.info().finishedAt()).contains(at(4));
    // A failure before a restart is not this attempt's outcome; released without one: FAILED.
    assertThat(APACHE.map(restarting.snapshot(), DriverPod.absent(), NOW).info().status())
        .isEqualTo(JobStatus.FAILED);
    assertThat(APACHE.map(restarting.snapshot(), DriverPod.absent(), NOW).info().message())
        .contains("deleted outside kubejobs");
  }

  @Test
  void apacheCurrentStateEqualToTheLastHistoryEntryIsNotCountedTwice() {
    List<String> path = List.of("Submitted", "DriverStarted", "Failed");
    App app = apacheAhead("Failed", at(3), path.toArray(String[]::new));

    MappingDecision info = APACHE.map(app.snapshot(), DriverPod.absent(), NOW);

    assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.info().finishedAt()).contains(at(3));
  }

  /** A driver pod with the given phase and container statuses (JSON array text). */
  private static DriverPod pod(String phase, String containerStatuses) {
    return DriverPod.found(
        ResourceSnapshot.of(
            JsonParser.parseString(
                    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
                        + "\"namespace\":\"etl\"},\"status\":{\"phase\":\""
                        + phase
                        + "\",\"containerStatuses\":"
                        + containerStatuses
                        + "}}")
                .getAsJsonObject()));
  }

  private static String terminated(String name, int code, String reason, String message) {
    return "{\"name\":\""
        + name
        + "\",\"state\":{\"terminated\":{\"exitCode\":"
        + code
        + ",\"reason\":\""
        + reason
        + "\",\"message\":\""
        + message
        + "\",\"finishedAt\":\""
        + at(4)
        + "\"}}}";
  }

  private static final App UNKNOWN = App.apache().states("Submitted", "DriverWarmingUp");

  @Test
  void theExitMessageCarriesTheTerminationReasonAndMessage() {
    MappingDecision both =
        APACHE.map(
            UNKNOWN.snapshot(),
            pod(
                "Failed",
                "[" + terminated("spark-kubernetes-driver", 137, "OOMKilled", "oom") + "]"),
            NOW);
    MappingDecision reasonOnly =
        APACHE.map(
            UNKNOWN.snapshot(),
            pod("Failed", "[" + terminated("spark-kubernetes-driver", 1, "Error", "") + "]"),
            NOW);
    MappingDecision none =
        APACHE.map(
            UNKNOWN.snapshot(),
            pod("Failed", "[" + terminated("spark-kubernetes-driver", 1, "", "") + "]"),
            NOW);

    assertThat(both.info().message()).contains("exited with code 137 (OOMKilled: oom);");
    assertThat(reasonOnly.info().message()).contains("exited with code 1 (Error);");
    assertThat(none.info().message()).contains("exited with code 1;");
    assertThat(both.info().finishedAt()).contains(at(4));
  }

  @Test
  void aSingleContainerOfAnotherNameIsTheDriverButOneOfTwoIsNot() {
    String other = terminated("main", 1, "Error", "");
    String sidecar = "{\"name\":\"istio-proxy\",\"state\":{\"running\":{}}}";

    assertThat(
            APACHE.map(UNKNOWN.snapshot(), pod("Failed", "[" + other + "]"), NOW).info().status())
        .isEqualTo(JobStatus.FAILED);
    assertThat(
            APACHE
                .map(UNKNOWN.snapshot(), pod("Running", "[" + sidecar + "," + other + "]"), NOW)
                .info()
                .status())
        .isEqualTo(JobStatus.QUEUED);
    assertThat(APACHE.map(UNKNOWN.snapshot(), pod("Failed", "[\"x\"]"), NOW).info().status())
        .isEqualTo(JobStatus.QUEUED);
  }

  @Test
  void aFailedJobsPodInPhaseUnknownWithTheDriverEndedIsNotDeleted() {
    App failed = App.apache().states("Submitted", "DriverStarted", "Failed");
    String driver = terminated("spark-kubernetes-driver", 1, "Error", "");

    MappingDecision unknown =
        APACHE.map(failed.snapshot(), pod("Unknown", "[" + driver + "]"), NOW);
    MappingDecision pending =
        APACHE.map(failed.snapshot(), pod("Pending", "[" + driver + "]"), NOW);

    assertThat(unknown.info().status()).isEqualTo(JobStatus.FAILED);
    assertThat(unknown.pendingFollowUp()).isEmpty();
    assertThat(pending.pendingFollowUp().map(FollowUp::action))
        .contains(FollowUp.Action.DELETE_DRIVER_POD);
  }

  @Test
  void kubeflowEmptyWebUiExecutorsAndErrorMessageCountAsAbsent() {
    App app =
        App.kubeflow()
            .status(
                "{\"applicationState\":{\"state\":\"UNKNOWN\",\"errorMessage\":\"  \"},"
                    + "\"driverInfo\":{\"podName\":\"d\",\"webUIAddress\":\"\"},"
                    + "\"executorState\":{},\"lastSubmissionAttemptTime\":\""
                    + at(1)
                    + "\"}");
    App withError =
        App.kubeflow()
            .status("{\"applicationState\":{\"state\":\"RUNNING\",\"errorMessage\":\"boom\"}}");

    MappingDecision info = KUBEFLOW.map(app.snapshot(), DriverPod.absent(), NOW);

    assertThat(info.info().webUi()).isEmpty();
    assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.info().message()).doesNotContain("Operator message");
    assertThat(KUBEFLOW.map(withError.snapshot(), DriverPod.absent(), NOW).info().message())
        .contains("Operator message: boom.");
  }

  @Test
  void cancellingSaysWhetherTheDriverIsKnownToRun() {
    App app =
        App.apache()
            .states("Submitted", "DriverStarted", "RunningHealthy")
            .cancelMark(at(3))
            .deleting(at(4));

    String unknown = APACHE.map(app.snapshot(), DriverPod.notLookedUp(), NOW).info().message();
    String runs =
        APACHE
            .map(app.snapshot(), DriverPod.found(Pod.named("p").running(at(2)).snapshot()), NOW)
            .info()
            .message();

    assertThat(unknown).doesNotContain("(its driver still runs)").contains("Last state:");
    assertThat(runs).contains("has not released it yet (its driver still runs). Last state:");
  }

  @Test
  void noStatusBeforeTheCreationTimeCountsAsZeroAge() {
    MappingDecision info =
        APACHE.map(App.apache().snapshot(), DriverPod.notLookedUp(), Fixtures.T0.minusSeconds(30));

    assertThat(info.info().message()).contains("(no status 0 s after creation)");
    assertThat(info.pendingFollowUp()).isEmpty();
  }
}
