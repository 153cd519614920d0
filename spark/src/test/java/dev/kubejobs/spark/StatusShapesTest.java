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
import dev.kubejobs.core.DriverPod;
import dev.kubejobs.core.FollowUp;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.JobStatusMapper;
import dev.kubejobs.spark.Fixtures.App;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Status shapes at the edge of what the mappers read, which mutation testing showed no test told
 * apart (issue 8, "Test strength"): a Kubeflow status holding only {@code driverInfo}, and an
 * Apache {@code currentState} ahead of its {@code stateTransitionHistory} (the operator writes the
 * current state and appends to the history in one status update, {@code
 * ApplicationStatus.appendNewState}, but a trimmed or lagging copy may hold the current state
 * only).
 */
class StatusShapesTest {
  private static final JobStatusMapper APACHE = SparkOperators.apache().statusMapper();
  private static final JobStatusMapper KUBEFLOW = SparkOperators.kubeflow().statusMapper();
  private static final Instant NOW = at(5);
  private static final Instant LONG_AFTER = at(60);

  private static JobExecutionInfo kubeflow(String status, DriverPod pod, Instant now) {
    return KUBEFLOW.map(App.kubeflow().status(status).snapshot(), pod, now);
  }

  /**
   * An empty {@code driverInfo} is what the operator's status holds before its first submission
   * ({@code DriverInfo} has no omitempty on the struct): no status yet, deleted after the timeout.
   */
  @Test
  void kubeflowStatusWithOnlyAnEmptyDriverInfoIsNoStatus() {
    JobExecutionInfo young = kubeflow("{\"driverInfo\":{}}", DriverPod.notLookedUp(), NOW);
    JobExecutionInfo old = kubeflow("{\"driverInfo\":{}}", DriverPod.notLookedUp(), LONG_AFTER);

    assertThat(young.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(young.warnings()).isEmpty();
    assertThat(young.driverPodWanted()).isFalse();
    assertThat(old.followUp().map(FollowUp::action)).contains(FollowUp.Action.DELETE_APPLICATION);
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
    JobExecutionInfo info = kubeflow(status, DriverPod.notLookedUp(), LONG_AFTER);

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.followUp()).isEmpty();
    assertThat(info.warnings()).singleElement().asString().contains("applicationState.state");
    assertThat(info.driverPodWanted()).isTrue();
  }

  @Test
  void kubeflowDriverInfoOnlyStatusStillNamesThePod() {
    JobExecutionInfo info =
        kubeflow(
            "{\"driverInfo\":{\"podName\":\"custom-driver\",\"webUIAddress\":\"10.0.0.1:4040\"}}",
            DriverPod.absent(),
            NOW);

    assertThat(info.driverPod()).contains("custom-driver");
    assertThat(info.webUi()).contains("10.0.0.1:4040");
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

    JobExecutionInfo info = APACHE.map(app.snapshot(), DriverPod.absent(), NOW);

    assertThat(info.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(info.operatorState()).isEqualTo("Succeeded");
    assertThat(info.finishedAt()).contains(at(4));
    assertThat(info.startedAt()).contains(at(3));
  }

  @Test
  void apacheCurrentStateAheadOfItsHistoryCountsAsStarted() {
    App app = apacheAhead("DriverStarted", at(4), "Submitted", "DriverRequested");

    JobExecutionInfo info = APACHE.map(app.snapshot(), DriverPod.notLookedUp(), NOW);

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(info.startedAt()).contains(at(4));
    assertThat(info.driverPodWanted()).isFalse();
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

    JobExecutionInfo info = APACHE.map(succeeded.snapshot(), DriverPod.notLookedUp(), NOW);

    assertThat(info.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(info.finishedAt()).contains(at(4));
    // A failure before a restart is not this attempt's outcome; released without one: FAILED.
    assertThat(APACHE.map(restarting.snapshot(), DriverPod.absent(), NOW).status())
        .isEqualTo(JobStatus.FAILED);
    assertThat(APACHE.map(restarting.snapshot(), DriverPod.absent(), NOW).message())
        .contains("deleted outside kubejobs");
  }

  @Test
  void apacheCurrentStateEqualToTheLastHistoryEntryIsNotCountedTwice() {
    List<String> path = List.of("Submitted", "DriverStarted", "Failed");
    App app = apacheAhead("Failed", at(3), path.toArray(String[]::new));

    JobExecutionInfo info = APACHE.map(app.snapshot(), DriverPod.absent(), NOW);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.finishedAt()).contains(at(3));
  }
}
