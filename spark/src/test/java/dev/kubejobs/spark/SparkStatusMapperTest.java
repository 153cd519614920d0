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

import static dev.kubejobs.spark.Fixtures.T0;
import static dev.kubejobs.spark.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.diagnosis.Messages;
import dev.kubejobs.core.spi.CancelMark;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.Fixtures.App;
import dev.kubejobs.spark.Fixtures.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Spark operators' status mapping: every state and every DESIGN.md section 4 rule. The rules
 * both operators follow are tested once per operator; each operator's own states, status shape and
 * driver pod naming are in its nested class.
 */
class SparkStatusMapperTest {
  private static final Instant NOW = at(30);
  private static final String[] APACHE_RUNNING = {
    "Submitted", "DriverRequested", "DriverStarted", "RunningHealthy"
  };

  /**
   * One operator's kind and the same moments of a run written in its status shape. A run starts at
   * {@link #startedAt}, and a succeeded or failed one ends at minute 5.
   */
  enum Operator {
    APACHE(SparkOperators.apache(), "Apache Spark operator", "-0-driver", at(3)) {
      @Override
      List<App> withoutStatus() {
        return List.of(App.apache(), App.apache().status("{}"));
      }

      @Override
      App running() {
        return App.apache().states(APACHE_RUNNING);
      }

      @Override
      App ended(boolean succeeded) {
        List<String> path = new ArrayList<>(List.of(APACHE_RUNNING));
        path.add(succeeded ? "Succeeded" : "Failed");
        return App.apache().states(path.toArray(String[]::new));
      }

      @Override
      String runningState() {
        return "RunningHealthy";
      }

      @Override
      String failedState() {
        return "Failed";
      }

      @Override
      App failedWithMessage(String message) {
        return ended(false).stateMessage(message);
      }

      @Override
      App unseenState(String state) {
        return App.apache().states("Submitted", state);
      }
    },
    KUBEFLOW(SparkOperators.kubeflow(), "Kubeflow Spark operator", "-driver", at(1)) {
      @Override
      List<App> withoutStatus() {
        return List.of(App.kubeflow(), App.kubeflow().kubeflowState(""));
      }

      @Override
      App running() {
        return App.kubeflow().kubeflowState("RUNNING");
      }

      @Override
      App ended(boolean succeeded) {
        App app = App.kubeflow().kubeflowState(succeeded ? "COMPLETED" : "FAILED");
        app.statusObject().addProperty("terminationTime", at(5).toString());
        return app;
      }

      @Override
      String runningState() {
        return "RUNNING";
      }

      @Override
      String failedState() {
        return "FAILED";
      }

      @Override
      App failedWithMessage(String message) {
        App app = ended(false);
        app.statusObject().getAsJsonObject("applicationState").addProperty("errorMessage", message);
        return app;
      }

      @Override
      App unseenState(String state) {
        return App.kubeflow().kubeflowState(state);
      }
    };

    final JobStatusMapper mapper;
    final String displayName;
    final String driverPod;
    final Instant startedAt;

    Operator(JobKind<SparkJobSpec> kind, String displayName, String podSuffix, Instant startedAt) {
      this.mapper = kind.statusMapper();
      this.displayName = displayName;
      this.driverPod = Fixtures.NAME + podSuffix;
      this.startedAt = startedAt;
    }

    /** Applications the operator has not written a status to yet. */
    abstract List<App> withoutStatus();

    abstract App running();

    abstract App ended(boolean succeeded);

    abstract String runningState();

    abstract String failedState();

    abstract App failedWithMessage(String message);

    abstract App unseenState(String state);

    MappingDecision map(App app, DriverPod pod) {
      return mapper.map(app.snapshot(), pod, NOW);
    }

    MappingDecision map(App app) {
      return map(app, DriverPod.notLookedUp());
    }
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void noStatusYoungerThanTheTimeoutIsQueued(Operator op) {
    for (App app : op.withoutStatus()) {
      MappingDecision info = op.mapper.map(app.snapshot(), DriverPod.notLookedUp(), at(9));

      assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
      assertThat(info.pendingFollowUp()).isEmpty();
      assertThat(info.needsDriverPod()).isFalse();
    }
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void noStatusPastTheTimeoutAsksToDeleteTheApplicationBeforeFailing(Operator op) {
    for (App app : op.withoutStatus()) {
      for (Instant past : List.of(at(10), at(11))) {
        MappingDecision info = op.mapper.map(app.snapshot(), DriverPod.notLookedUp(), past);

        assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
        FollowUp followUp = info.pendingFollowUp().orElseThrow();
        assertThat(followUp.action()).isEqualTo(FollowUp.Action.DELETE_APPLICATION);
        assertThat(followUp.outcome()).isEqualTo(JobStatus.FAILED);
        assertThat(followUp.message()).contains(op.displayName).contains("10 min");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void aStateNeverSeenBeforeIsUnfinishedWithAStableWarning(Operator op) {
    MappingDecision info = op.map(op.unseenState("HIBERNATING"));

    assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.warnings()).singleElement().asString().contains("HIBERNATING");
    // Restart policy Never: a terminated driver would decide, so the pod is asked for.
    assertThat(info.needsDriverPod()).isTrue();
    assertThat(info.pendingFollowUp()).isEmpty();
    assertThat(op.map(op.unseenState("HIBERNATING"), DriverPod.absent()).info().status())
        .isEqualTo(JobStatus.QUEUED);
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void theStartTimeIsTheApplicationsAndTheEndTimeTheDriverContainersWhenPresent(Operator op) {
    // The start time must not change with whether this read looked the pod up: the application's
    // record wins over the container's start (minute 2).
    ResourceSnapshot pod = Pod.named(op.driverPod).terminated(0, at(2), at(4)).snapshot();

    MappingDecision withPod = op.map(op.ended(true), DriverPod.found(pod));
    MappingDecision withoutPod = op.map(op.ended(true));

    assertThat(withPod.info().status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(withPod.info().startedAt()).contains(op.startedAt);
    assertThat(withPod.info().finishedAt()).contains(at(4));
    assertThat(withoutPod.info().startedAt()).contains(op.startedAt);
    assertThat(withoutPod.info().finishedAt()).contains(at(5));
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void failedWithLiveDriverDeletesThePodBeforeFailing(Operator op) {
    ResourceSnapshot pod = Pod.named(op.driverPod).running(at(2)).snapshot();

    MappingDecision info = op.map(op.ended(false), DriverPod.found(pod));

    assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
    FollowUp followUp = info.pendingFollowUp().orElseThrow();
    assertThat(followUp.action()).isEqualTo(FollowUp.Action.DELETE_DRIVER_POD);
    assertThat(followUp.outcome()).isEqualTo(JobStatus.FAILED);
    assertThat(followUp.message()).contains(op.driverPod);
    assertThat(info.info().driverPod()).contains(op.driverPod);
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void forbiddenPodLookupFallsBackToTheApplicationAndWarnsWithThePermission(Operator op) {
    String reason = "forbidden: cannot list resource \"pods\" in namespace \"etl\"";

    MappingDecision info = op.map(op.ended(false), DriverPod.unavailable(reason));

    assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.info().finishedAt()).contains(at(5));
    assertThat(info.warnings()).singleElement().asString().contains(reason);
    assertThat(info.needsDriverPod()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void failedCarriesTheOperatorsMessage(Operator op) {
    App app = op.failedWithMessage("driver container failed with ExitCode: 137, Reason: Error");

    MappingDecision info = op.map(app, DriverPod.absent());

    assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.info().message()).contains("ExitCode: 137, Reason: Error");
  }

  /**
   * An operator's message of 5 MB (a Kubeflow {@code errorMessage} holding spark-submit's whole
   * stderr, an Apache {@code currentState.message} with a stack trace) is passed on capped, its
   * head and its tail (where the exception is printed last) kept.
   */
  @ParameterizedTest
  @EnumSource(Operator.class)
  void aFiveMegabyteOperatorMessageIsPassedOnCappedWithItsHeadAndTail(Operator op) {
    String huge = "FIRST " + "x".repeat(5 * 1024 * 1024) + " LAST";
    App app = op.failedWithMessage(huge);

    MappingDecision info = op.map(app, DriverPod.absent());

    assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.info().message())
        .hasSizeLessThanOrEqualTo(Messages.MAX_MESSAGE_CHARS)
        .contains("FIRST ", " LAST", "chars cut");
  }

  @Nested
  class CancelAndDeletion {
    @ParameterizedTest
    @EnumSource(Operator.class)
    void anOutcomeRecordedBeforeTheCancelAndDeletionStands(Operator op) {
      App app = op.ended(true).cancelMark(at(6)).deleting(at(6));

      MappingDecision info = op.map(app);

      assertThat(info.info().status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(info.info().finishedAt()).contains(at(5));
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void anOutcomeRecordedAfterTheCancelledDeletionIsCancelled(Operator op) {
      for (boolean succeeded : List.of(true, false)) {
        App app = op.ended(succeeded).cancelMark(at(4)).deleting(at(4));

        assertThat(op.map(app, DriverPod.absent()).info().status()).isEqualTo(JobStatus.CANCELLED);
      }
    }

    // The marked copy's state orders the outcome and the cancel, never the clocks: the cancel
    // deletes only the copy it marked (locked to its resourceVersion), so a state other than the
    // marked one was written after the delete took effect, whatever the timestamps say.
    @ParameterizedTest
    @EnumSource(Operator.class)
    void anOutcomeWrittenAfterTheMarkedCopyIsCancelledEvenWhenItsTimeIsEarlier(Operator op) {
      // The operator's clock is behind the cancelling node's: the outcome carries minute 5, the
      // mark minute 6, yet the marked copy showed the job running, so the outcome came after.
      for (boolean succeeded : List.of(true, false)) {
        App app =
            op.ended(succeeded)
                .cancelMark(new CancelMark(at(6), "node-a#1", "41", op.runningState()))
                .deleting(at(6));

        assertThat(op.map(app, DriverPod.absent()).info().status()).isEqualTo(JobStatus.CANCELLED);
      }
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void anOutcomeTheMarkedCopyAlreadyHeldStandsEvenWhenItsTimeIsLater(Operator op) {
      // The failure was on the marked copy (the cancel went on because its driver pod still ran);
      // the operator's clock is ahead (failed at minute 5, mark and deletion at minute 4).
      App app =
          op.ended(false)
              .cancelMark(new CancelMark(at(4), "node-a#1", "41", op.failedState()))
              .deleting(at(4));

      assertThat(op.map(app, DriverPod.absent()).info().status()).isEqualTo(JobStatus.FAILED);
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void aCancelMarkWithoutAnOutcomeIsCancellingThenCancelledOnceDeletedAndTheDriverGone(
        Operator op) {
      MappingDecision marked = op.map(op.running().cancelMark(at(5)));
      MappingDecision deleted =
          op.map(op.running().cancelMark(at(5)).deleting(at(5)), DriverPod.absent());

      assertThat(marked.info().status()).isEqualTo(JobStatus.CANCELLING);
      assertThat(marked.needsDriverPod()).isFalse();
      assertThat(deleted.info().status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(deleted.info().finishedAt()).contains(at(5));
      assertThat(deleted.info().startedAt()).contains(op.startedAt);
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void deletedBySomeoneElseFailsSayingSo(Operator op) {
      MappingDecision info = op.map(op.running().deleting(at(5)));

      assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
      assertThat(info.info().message()).contains("deleted outside kubejobs");
      assertThat(info.pendingFollowUp()).isEmpty();
    }
  }

  /** The Apache Spark operator's own states, history, restarts and driver pod naming. */
  @Nested
  class Apache {
    private static final JobKind<SparkJobSpec> KIND = SparkOperators.apache();
    private static final JobStatusMapper MAPPER = KIND.statusMapper();

    private static MappingDecision map(App app) {
      return MAPPER.map(app.snapshot(), DriverPod.notLookedUp(), NOW);
    }

    private static MappingDecision map(App app, DriverPod pod) {
      return MAPPER.map(app.snapshot(), pod, NOW);
    }

    /**
     * Every one of the 18 states, reached along a realistic path with restart policy Never.
     * Columns: the path (the last state is current), the status with the driver pod not looked up,
     * whether the pod is wanted, and the status once the pod is known to be absent.
     */
    @ParameterizedTest(name = "{0} -> {1} (pod wanted {2}), with pod absent {3}")
    @CsvSource(
        delimiter = '|',
        value = {
          "Submitted | QUEUED | false | QUEUED",
          "Submitted DriverRequested | QUEUED | false | QUEUED",
          "Submitted DriverRequested SchedulingFailure ScheduledToRestart | QUEUED | false | QUEUED",
          "Submitted DriverRequested DriverStarted | STARTED | false | STARTED",
          "Submitted DriverRequested DriverStarted DriverReady | STARTED | false | STARTED",
          "Submitted DriverRequested DriverStarted DriverReady InitializedBelowThresholdExecutors"
              + " | STARTED | false | STARTED",
          "Submitted DriverRequested DriverStarted DriverReady RunningHealthy | STARTED | false"
              + " | STARTED",
          "Submitted DriverRequested DriverStarted DriverReady RunningWithPartialCapacity | STARTED"
              + " | false | STARTED",
          "Submitted DriverRequested DriverStarted DriverReady RunningWithBelowThresholdExecutors"
              + " | STARTED | false | STARTED",
          "Submitted DriverRequested DriverStarted DriverReady RunningHealthy Succeeded | SUCCEEDED"
              + " | false | SUCCEEDED",
          "Submitted DriverRequested DriverStarted DriverReady RunningHealthy Failed | STARTED"
              + " | true | FAILED",
          "Submitted DriverRequested SchedulingFailure | QUEUED | true | FAILED",
          "Submitted DriverRequested DriverStarted DriverReady RunningHealthy DriverEvicted"
              + " | STARTED | true | FAILED",
          "Submitted DriverRequested DriverStartTimedOut | QUEUED | true | FAILED",
          "Submitted DriverRequested DriverStarted DriverReady ExecutorsStartTimedOut | STARTED"
              + " | true | FAILED",
          "Submitted DriverRequested DriverStarted DriverReadyTimedOut | STARTED | true | FAILED",
          "Submitted DriverRequested DriverStarted RunningHealthy Succeeded ResourceReleased"
              + " | SUCCEEDED | false | SUCCEEDED",
          "Submitted DriverRequested DriverStarted RunningHealthy Failed"
              + " TerminatedWithoutReleaseResources | STARTED | true | FAILED",
        })
    void everyStateMapsPerTheTable(
        String path, JobStatus withoutPod, boolean podWanted, JobStatus withPodAbsent) {
      String[] states = path.trim().split("\\s+");
      App app = App.apache().states(states);

      MappingDecision info = map(app);
      MappingDecision absent = map(app, DriverPod.absent());

      assertThat(info.info().status()).isEqualTo(withoutPod);
      assertThat(info.needsDriverPod()).isEqualTo(podWanted);
      assertThat(info.pendingFollowUp()).isEmpty();
      assertThat(info.warnings()).isEmpty();
      assertThat(info.info().operatorState()).isEqualTo(states[states.length - 1]);
      assertThat(absent.info().status()).isEqualTo(withPodAbsent);
      assertThat(absent.needsDriverPod()).isFalse();
    }

    @Test
    void tableCoversAllEighteenStatesOfTheV1Crd() {
      List<String> covered = Fixtures.APACHE_V1_STATES;
      assertThat(covered).containsExactlyInAnyOrderElementsOf(CrdSchemas.apacheStates());
      for (String state : covered) {
        assertThat(map(App.apache().states(state)).warnings()).as(state).isEmpty();
      }
    }

    @Test
    void runningAndQueuedJobsNeverAskForTheDriverPod() {
      for (String state :
          List.of(
              "Submitted",
              "DriverRequested",
              "ScheduledToRestart",
              "DriverStarted",
              "DriverReady",
              "InitializedBelowThresholdExecutors",
              "RunningHealthy",
              "RunningWithPartialCapacity",
              "RunningWithBelowThresholdExecutors")) {
        MappingDecision info = map(App.apache().states("Submitted", state));
        assertThat(info.needsDriverPod()).as(state).isFalse();
        assertThat(info.info().status().isTerminal()).as(state).isFalse();
      }
    }

    @Nested
    class HistoryOrder {
      @Test
      void historyKeysAreSortedNumericallySoTenComesAfterTwo() {
        String[] states = {
          "Submitted", "DriverRequested", "DriverStarted", "RunningHealthy", "Failed",
          "ScheduledToRestart", "Submitted", "DriverRequested", "DriverStarted", "RunningHealthy",
          "Succeeded", "ResourceReleased"
        };
        JsonObject history = new JsonObject();
        List<Integer> keys = new ArrayList<>();
        for (int i = 0; i < states.length; i++) {
          keys.add(i);
        }
        // The server may return keys in string order: "0", "1", "10", "11", "2", ...
        List<String> order =
            keys.stream().map(String::valueOf).sorted().collect(Collectors.toList());
        for (String key : order) {
          int i = Integer.parseInt(key);
          history.add(key, Fixtures.state(states[i], at(i + 1), ""));
        }
        JsonObject status = new JsonObject();
        status.add("currentState", Fixtures.state("ResourceReleased", at(12), ""));
        status.add("stateTransitionHistory", history);
        App app = App.apache().restartPolicy("OnFailure").status(status.toString());

        MappingDecision info = map(app);

        assertThat(info.info().status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(info.info().finishedAt()).contains(at(11));
        assertThat(info.info().startedAt()).contains(at(3));
      }

      @Test
      void historyInReverseOrderWithoutCurrentStateUsesTheHighestKey() {
        JsonObject history = new JsonObject();
        List<String> states = List.of("Submitted", "DriverRequested", "DriverStarted", "Succeeded");
        List<Integer> keys = new ArrayList<>(List.of(0, 1, 2, 3));
        Collections.reverse(keys);
        for (int i : keys) {
          history.add(Integer.toString(i), Fixtures.state(states.get(i), at(i + 1), ""));
        }
        App app = App.apache().status("{\"stateTransitionHistory\":" + history + "}");

        assertThat(map(app).info().status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(map(app).info().operatorState()).isEqualTo("Succeeded");
      }

      @Test
      void aCurrentStateWithoutHistoryIsReadOnItsOwn() {
        App running =
            App.apache()
                .status(
                    "{\"currentState\":{\"currentStateSummary\":\"RunningHealthy\","
                        + "\"lastTransitionTime\":\"2026-01-01T00:01:00Z\"}}");
        App succeeded =
            App.apache()
                .status(
                    "{\"currentState\":{\"currentStateSummary\":\"Succeeded\","
                        + "\"lastTransitionTime\":\"2026-01-01T00:05:00Z\"}}");

        assertThat(map(running).info().status()).isEqualTo(JobStatus.STARTED);
        assertThat(map(running).info().startedAt()).contains(Instant.parse("2026-01-01T00:01:00Z"));
        assertThat(map(succeeded).info().status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(map(succeeded).info().operatorState()).isEqualTo("Succeeded");
      }
    }

    @Nested
    class Restarts {
      @Test
      void outcomeIsFoundBehindResourceReleased() {
        App app =
            App.apache()
                .states(
                    "Submitted", "DriverRequested", "DriverStarted", "Failed", "ResourceReleased")
                .stateMessage("Application resources released");

        MappingDecision info = map(app, DriverPod.absent());

        assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
        assertThat(info.info().operatorState()).isEqualTo("ResourceReleased");
        assertThat(info.info().finishedAt()).contains(at(4));
        assertThat(info.info().message()).contains("Failed");
      }

      @Test
      void outcomeIsFoundBehindTerminatedWithoutReleaseResources() {
        App app =
            App.apache()
                .states(
                    "Submitted",
                    "DriverRequested",
                    "DriverStarted",
                    "Succeeded",
                    "TerminatedWithoutReleaseResources");

        assertThat(map(app).info().status()).isEqualTo(JobStatus.SUCCEEDED);
      }

      @Test
      void outcomeOfAnEarlierRestartedAttemptDoesNotCountBehindResourceReleased() {
        App app =
            App.apache()
                .restartPolicy("OnFailure")
                .states(
                    "Submitted",
                    "DriverRequested",
                    "DriverStarted",
                    "Failed",
                    "ScheduledToRestart",
                    "Submitted",
                    "DriverRequested",
                    "DriverStarted",
                    "RunningHealthy",
                    "ResourceReleased");

        MappingDecision info = map(app);

        assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
        assertThat(info.info().message()).contains("deleted outside kubejobs");
      }

      @Test
      void failedAttemptThatMayRestartIsNotAnOutcome() {
        App app =
            App.apache()
                .restartPolicy("OnFailure")
                .states(
                    "Submitted", "DriverRequested", "DriverStarted", "RunningHealthy", "Failed");

        MappingDecision info = map(app);

        assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
        assertThat(info.needsDriverPod()).isFalse();
        assertThat(info.info().message()).contains("may restart");
      }

      @Test
      void succeededAttemptWithRestartPolicyAlwaysWaitsForTheTerminatedState() {
        App running =
            App.apache()
                .restartPolicy("Always")
                .states("Submitted", "DriverRequested", "DriverStarted", "Succeeded");
        App released =
            App.apache()
                .restartPolicy("Always")
                .states(
                    "Submitted",
                    "DriverRequested",
                    "DriverStarted",
                    "Succeeded",
                    "ResourceReleased");

        assertThat(map(running).info().status()).isEqualTo(JobStatus.STARTED);
        assertThat(map(released).info().status()).isEqualTo(JobStatus.SUCCEEDED);
      }

      @Test
      void restartInProgressAfterAnAttemptThatStartedStaysStarted() {
        String[] attempt1 = {"Submitted", "DriverRequested", "DriverStarted", "RunningHealthy"};
        List<String> path = new ArrayList<>(List.of(attempt1));
        path.add("Failed");
        path.add("ScheduledToRestart");
        App scheduled = App.apache().restartPolicy("OnFailure").states(path.toArray(String[]::new));
        path.add("Submitted");
        App submitted = App.apache().restartPolicy("OnFailure").states(path.toArray(String[]::new));
        path.add("DriverRequested");
        App requested = App.apache().restartPolicy("OnFailure").states(path.toArray(String[]::new));

        for (App app : List.of(scheduled, submitted, requested)) {
          MappingDecision info = map(app);
          assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
          assertThat(info.info().startedAt()).contains(at(3));
          assertThat(info.needsDriverPod()).isFalse();
        }
      }

      @Test
      void restartAfterAnAttemptThatNeverStartedIsQueued() {
        App app =
            App.apache()
                .restartPolicy("OnInfrastructureFailure")
                .states(
                    "Submitted",
                    "DriverRequested",
                    "SchedulingFailure",
                    "ScheduledToRestart",
                    "Submitted");

        assertThat(map(app).info().status()).isEqualTo(JobStatus.QUEUED);
      }

      @Test
      void trimmedHistoryStillKnowsThePreviousAttemptStarted() {
        JsonObject previous = new JsonObject();
        JsonObject prevHistory = new JsonObject();
        prevHistory.add("0", Fixtures.state("Submitted", at(1), ""));
        prevHistory.add("1", Fixtures.state("DriverStarted", at(2), ""));
        prevHistory.add("2", Fixtures.state("Failed", at(3), ""));
        previous.add("stateTransitionHistory", prevHistory);
        JsonObject history = new JsonObject();
        history.add("3", Fixtures.state("ScheduledToRestart", at(4), ""));
        JsonObject status = new JsonObject();
        status.add("currentState", Fixtures.state("ScheduledToRestart", at(4), ""));
        status.add("stateTransitionHistory", history);
        status.add("previousAttemptSummary", previous);
        App app = App.apache().restartPolicy("OnFailure").status(status.toString()).attempt(1);

        MappingDecision info = map(app);

        assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
        assertThat(info.info().startedAt()).contains(at(2));
        assertThat(info.info().driverPod()).contains(Fixtures.NAME + "-1-driver");
      }
    }

    @Nested
    class UnknownAndUnparseable {
      @Test
      void aStateNeverSeenAfterTheDriverStartedIsStartedWithTheSameWarningForEveryApplication() {
        App fresh = App.apache().states("Submitted", "DriverWarmingUp");
        App started = App.apache().states("Submitted", "DriverStarted", "DriverWarmingUp");

        MappingDecision a = map(fresh);
        MappingDecision b = map(started.name("kj-other"));

        assertThat(b.info().status()).isEqualTo(JobStatus.STARTED);
        assertThat(b.warnings().get(0)).contains("DriverWarmingUp").doesNotContain("kj-other");
        assertThat(b.warnings()).isEqualTo(a.warnings());
      }

      @Test
      void phaseOnlyStatusStaysQueuedAsksForThePodAndIsNeverDeleted() {
        App app = App.apache().status("{\"phase\":\"Running\"}");

        MappingDecision info =
            MAPPER.map(app.snapshot(), DriverPod.notLookedUp(), T0.plusSeconds(86_400));

        assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(info.needsDriverPod()).isTrue();
        assertThat(info.pendingFollowUp()).isEmpty();
        assertThat(info.warnings()).singleElement().asString().contains("currentStateSummary");
      }

      @Test
      void phaseOnlyStatusWithDriverExitCodeZeroSucceedsWithTheContainerTimes() {
        App app = App.apache().status("{\"phase\":\"Running\"}");
        ResourceSnapshot pod =
            Pod.named(Fixtures.NAME + "-0-driver").terminated(0, at(2), at(9)).snapshot();

        MappingDecision info = map(app, DriverPod.found(pod));

        assertThat(info.info().status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(info.info().startedAt()).contains(at(2));
        assertThat(info.info().finishedAt()).contains(at(9));
        assertThat(info.pendingFollowUp()).isEmpty();
        assertThat(info.needsDriverPod()).isFalse();
      }

      @Test
      void phaseOnlyStatusWithDriverExitCodeOneFails() {
        App app = App.apache().status("{\"phase\":\"Running\"}");
        ResourceSnapshot pod =
            Pod.named(Fixtures.NAME + "-0-driver").terminated(1, at(2), at(9)).snapshot();

        MappingDecision info = map(app, DriverPod.found(pod));

        assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
        assertThat(info.info().message()).contains("exited with code 1");
        assertThat(info.info().finishedAt()).contains(at(9));
      }

      @Test
      void phaseOnlyStatusWithRunningDriverIsStarted() {
        App app = App.apache().status("{\"phase\":\"Running\"}");
        ResourceSnapshot pod = Pod.named(Fixtures.NAME + "-0-driver").running(at(2)).snapshot();

        MappingDecision info = map(app, DriverPod.found(pod));

        assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
        assertThat(info.info().startedAt()).contains(at(2));
        assertThat(info.pendingFollowUp()).isEmpty();
      }

      @Test
      void phaseOnlyStatusWithAbsentPodStaysQueued() {
        MappingDecision info =
            map(App.apache().status("{\"phase\":\"Running\"}"), DriverPod.absent());

        assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(info.needsDriverPod()).isFalse();
        assertThat(info.pendingFollowUp()).isEmpty();
      }

      @Test
      void stateFieldsOfTheWrongTypeAreUnparseableNotMissing() {
        for (String status :
            List.of(
                "{\"currentState\":{\"currentStateSummary\":3}}",
                "{\"currentState\":\"RunningHealthy\"}",
                "{\"currentState\":{\"currentStateSummary\":{\"name\":\"RunningHealthy\"}}}",
                "\"Running\"")) {
          MappingDecision info =
              MAPPER.map(App.apache().status(status).snapshot(), DriverPod.notLookedUp(), at(600));
          assertThat(info.info().status()).as(status).isEqualTo(JobStatus.QUEUED);
          assertThat(info.pendingFollowUp()).as(status).isEmpty();
          assertThat(info.warnings()).as(status).hasSize(1);
          assertThat(info.needsDriverPod()).as(status).isTrue();
        }
      }
    }

    @Nested
    class NoStatus {

      @Test
      void noStatusTimeoutIsASetting() {
        JobStatusMapper mapper =
            SparkOperators.apache(
                    ApacheOptions.builder().noStatusTimeout(Duration.ofMinutes(2)).build())
                .statusMapper();

        assertThat(
                mapper
                    .map(App.apache().snapshot(), DriverPod.notLookedUp(), at(1))
                    .pendingFollowUp())
            .isEmpty();
        assertThat(
                mapper
                    .map(App.apache().snapshot(), DriverPod.notLookedUp(), at(3))
                    .pendingFollowUp())
            .get()
            .extracting(FollowUp::message)
            .asString()
            .contains("2 min");
      }

      @Test
      void noStatusBeingDeletedWithTheCancelMarkIsCancelledNotTimedOut() {
        App app = App.apache().cancelMark(at(12)).deleting(at(12));

        MappingDecision info = map(app, DriverPod.absent());

        assertThat(info.info().status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(info.pendingFollowUp()).isEmpty();
        assertThat(map(app).info().status()).isEqualTo(JobStatus.CANCELLING);
        assertThat(map(app).pendingFollowUp()).isEmpty();
      }
    }

    @Nested
    class CancelAndDeletion {
      private final String[] succeeded = {
        "Submitted", "DriverRequested", "DriverStarted", "RunningHealthy", "Succeeded"
      };
      private final String[] running = {
        "Submitted", "DriverRequested", "DriverStarted", "RunningHealthy"
      };

      @Test
      void outcomeThenCancelThenResourceReleasedStays() {
        List<String> path = new ArrayList<>(List.of(succeeded));
        path.add("ResourceReleased");
        App app =
            App.apache().states(path.toArray(String[]::new)).cancelMark(at(7)).deleting(at(7));

        assertThat(map(app).info().status()).isEqualTo(JobStatus.SUCCEEDED);
      }

      @Test
      void
          aDriverExitBetweenTheMarkAndTheDeletionOfAnUnreadableStatusStandsAsAnEarlierReaderSawIt() {
        // Simulation seed 100599 (threads): mark 10:03, exit 0 at 10:04, deletion 10:05. A node
        // that read the marked copy before the deletion reported SUCCEEDED (no deletion yet: the
        // outcome beats the mark); the deleted copy must read the same. An exit after the deletion
        // (the operator's clean-up stopping the driver) is the cancel's.
        CancelMark mark = new CancelMark(at(3), "node-a#1", "41", "");
        App app = App.apache().status("{\"currentState\":\"RunningHealthy\"}").cancelMark(mark);
        ResourceSnapshot exitedEarly =
            Pod.named(Fixtures.NAME + "-0-driver").terminated(0, at(2), at(4)).snapshot();
        ResourceSnapshot exitedLate =
            Pod.named(Fixtures.NAME + "-0-driver").terminated(0, at(2), at(6)).snapshot();

        MappingDecision before = map(app, DriverPod.found(exitedEarly));
        app.deleting(at(5));
        MappingDecision after = map(app, DriverPod.found(exitedEarly));
        MappingDecision late = map(app, DriverPod.found(exitedLate));

        assertThat(before.info().status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(after.info().status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(late.info().status()).isEqualTo(JobStatus.CANCELLED);
      }

      @Test
      void aCancelOfAFailedAttemptTheOperatorWouldRestartEndsCancelledNotFailed() {
        // Simulation seed 10062 (threads): restart policy OnFailure, the first attempt Failed, a
        // cancel marks and deletes it before ScheduledToRestart. The deletion stops the restart,
        // but
        // the cancel did: CANCELLED, as a node that gets NoSuchJob after its cancel records it. A
        // deletion without a mark leaves the attempt's end as the job's (FAILED).
        String[] failedAttempt = {
          "Submitted", "DriverRequested", "DriverStarted", "RunningHealthy", "Failed"
        };
        App cancelled =
            App.apache()
                .restartPolicy("OnFailure")
                .states(failedAttempt)
                .cancelMark(new CancelMark(at(6), "node-b#2", "41", "Failed"))
                .deleting(at(6));
        App deletedElsewhere =
            App.apache().restartPolicy("OnFailure").states(failedAttempt).deleting(at(6));

        assertThat(map(cancelled, DriverPod.absent()).info().status())
            .isEqualTo(JobStatus.CANCELLED);
        assertThat(map(deletedElsewhere, DriverPod.absent()).info().status())
            .isEqualTo(JobStatus.FAILED);
      }

      @Test
      void messagesGiveTheMarksInstantNotItsWholeText() {
        App app =
            App.apache()
                .states(running)
                .cancelMark(new CancelMark(at(5), "node-a#1", "41", "RunningHealthy"));

        String message = map(app).info().message();

        assertThat(message).startsWith("Cancel requested at " + at(5) + ";");
        assertThat(message).doesNotContain("writer=").doesNotContain("resourceVersion=");
        App deleted =
            App.apache()
                .states(running)
                .cancelMark(new CancelMark(at(5), "node-a#1", "41", "RunningHealthy"))
                .deleting(at(5));
        assertThat(map(deleted, DriverPod.absent()).info().message())
            .contains("(requested at " + at(5) + ")");
      }

      @Test
      void aMarkedApplicationNoOperatorPicksUpIsDeletedAtTheNoStatusTimeout() {
        // A cancel marked it, then its delete failed and its node went away: it must not stay
        // CANCELLING for ever. Core reports the deletion of a marked copy as CANCELLED.
        App app = App.apache().cancelMark(new CancelMark(at(1), "node-a#1", "3", ""));

        MappingDecision young = MAPPER.map(app.snapshot(), DriverPod.notLookedUp(), at(5));
        MappingDecision old = MAPPER.map(app.snapshot(), DriverPod.notLookedUp(), at(10));

        assertThat(young.info().status()).isEqualTo(JobStatus.CANCELLING);
        assertThat(young.pendingFollowUp()).isEmpty();
        assertThat(old.pendingFollowUp())
            .map(FollowUp::action)
            .contains(FollowUp.Action.DELETE_APPLICATION);
      }

      @Test
      void cancelMarkAndShutdownAsRequestedIsCancelled() {
        List<String> path = new ArrayList<>(List.of(running));
        path.add("ResourceReleased");
        App app =
            App.apache()
                .states(path.toArray(String[]::new))
                .stateMessage("shutdown as requested")
                .cancelMark(at(4))
                .deleting(at(4));

        MappingDecision info = map(app);

        assertThat(info.info().status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(info.info().finishedAt()).contains(at(5));
      }

      @Test
      void releasedWithoutOutcomeOrCancelMarkFails() {
        List<String> path = new ArrayList<>(List.of(running));
        path.add("ResourceReleased");
        App app =
            App.apache().states(path.toArray(String[]::new)).stateMessage("shutdown as requested");

        MappingDecision info = map(app);

        assertThat(info.info().status()).isEqualTo(JobStatus.FAILED);
        assertThat(info.info().message())
            .contains("outside kubejobs")
            .contains("shutdown as requested");
      }

      @Test
      void failedAttemptWithRestartPolicyBeingDeletedIsAnOutcome() {
        App app =
            App.apache()
                .restartPolicy("Always")
                .states("Submitted", "DriverRequested", "DriverStarted", "Failed")
                .deleting(at(6));

        assertThat(map(app, DriverPod.absent()).info().status()).isEqualTo(JobStatus.FAILED);
      }
    }

    @Nested
    class DriverPodRules {
      private final String[] failed = {
        "Submitted", "DriverRequested", "DriverStarted", "RunningHealthy", "Failed"
      };

      @Test
      void timesComeFromTheDriverContainerWhenThePodHasSidecarsAndTheRecordHasNone() {
        // A status this version cannot read has no start time of its own: the driver container's
        // (not the sidecar's, started first) is taken.
        App app = App.apache().status("{\"currentState\":\"RunningHealthy\"}");
        ResourceSnapshot pod =
            Pod.named(Fixtures.NAME + "-0-driver").running(at(2)).sidecarFirst(at(1)).snapshot();
        ResourceSnapshot ended =
            Pod.named(Fixtures.NAME + "-0-driver")
                .terminated(0, at(2), at(4))
                .sidecarFirst(at(1))
                .snapshot();

        assertThat(map(app, DriverPod.found(pod)).info().startedAt()).contains(at(2));
        assertThat(map(app, DriverPod.found(ended)).info().startedAt()).contains(at(2));
      }

      @Test
      void failedWithDriverNotLookedUpAsksForThePodBeforeFailing() {
        MappingDecision info = map(App.apache().states(failed));

        assertThat(info.info().status()).isEqualTo(JobStatus.STARTED);
        assertThat(info.needsDriverPod()).isTrue();
        assertThat(info.info().finishedAt()).isEmpty();
      }

      @Test
      void theSecondMappingWithThePodKnownGoneReportsTheFailure() {
        // The protocol of JobStatusMapper, as a user's own test drives it without kubejobs' reader:
        // map the copy alone; when it asks for the driver pod, map it once more with the pod.
        ResourceSnapshot app = App.apache().states(failed).snapshot();
        MappingDecision alone = MAPPER.map(app, DriverPod.notLookedUp(), NOW);
        MappingDecision withPod = MAPPER.map(app, DriverPod.absent(), NOW);

        assertThat(alone.needsDriverPod()).isTrue();
        assertThat(alone.info().status()).isEqualTo(JobStatus.STARTED);
        assertThat(withPod.needsDriverPod()).isFalse();
        assertThat(withPod.info().status()).isEqualTo(JobStatus.FAILED);
      }

      @Test
      void failedWithPendingDriverPodDeletesIt() {
        ResourceSnapshot pod = Pod.named(Fixtures.NAME + "-0-driver").phase("Pending").snapshot();

        MappingDecision info =
            map(
                App.apache().states("Submitted", "DriverRequested", "DriverStartTimedOut"),
                DriverPod.found(pod));

        assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(info.pendingFollowUp())
            .map(FollowUp::action)
            .contains(FollowUp.Action.DELETE_DRIVER_POD);
      }

      @Test
      void failedWithTerminatedOrDeletingDriverFails() {
        ResourceSnapshot ended =
            Pod.named(Fixtures.NAME + "-0-driver").terminated(1, at(2), at(5)).snapshot();
        ResourceSnapshot deleting =
            Pod.named(Fixtures.NAME + "-0-driver").running(at(2)).deleting(at(6)).snapshot();

        MappingDecision a = map(App.apache().states(failed), DriverPod.found(ended));
        MappingDecision b = map(App.apache().states(failed), DriverPod.found(deleting));

        assertThat(a.info().status()).isEqualTo(JobStatus.FAILED);
        assertThat(a.info().finishedAt()).contains(at(5));
        assertThat(b.info().status()).isEqualTo(JobStatus.FAILED);
        assertThat(b.pendingFollowUp()).isEmpty();
      }

      @Test
      void failedMessageNamesTheOperatorsStateBesideItsMessage() {
        App app = App.apache().states(failed).stateMessage("Driver exited with code 137");

        assertThat(map(app, DriverPod.absent()).info().message())
            .contains("Driver exited with code 137")
            .contains("Failed");
      }
    }

    @Nested
    class DriverFacts {
      @Test
      void driverPodNameUsesTheCurrentAttempt() {
        App app = App.apache().states("Submitted", "DriverStarted").attempt(2);

        assertThat(KIND.driverPodName(app.snapshot())).contains(Fixtures.NAME + "-2-driver");
        assertThat(KIND.driverPodName(App.apache().snapshot()))
            .contains(Fixtures.NAME + "-0-driver");
        assertThat(map(app).info().driverPod()).contains(Fixtures.NAME + "-2-driver");
      }

      @Test
      void longNamesLeaveTheDriverPodToTheSelector() {
        String name = "kj-" + "a".repeat(50);
        App app = App.apache().name(name).states("Submitted", "DriverStarted");

        assertThat(KIND.driverPodName(app.snapshot())).isEmpty();
        assertThat(KIND.driverPodSelector(app.snapshot()))
            .isEqualTo("spark-role=driver,spark.operator/spark-app-name=" + name);
        assertThat(KIND.driverContainerName(app.snapshot())).isEqualTo("spark-kubernetes-driver");
      }

      /** The operator uses {@code <name>-<attempt>} as is up to 46 characters, else hashes it. */
      @Test
      void anAppIdOfExactly46CharactersIsUsedAsIsOneMoreIsNot() {
        String fits = "kj-" + "a".repeat(41); // kj-aaa...-0: 46 characters
        String over = fits + "b"; // 47

        assertThat(KIND.driverPodName(App.apache().name(fits).snapshot()))
            .contains(fits + "-0-driver");
        assertThat(KIND.driverPodName(App.apache().name(over).snapshot())).isEmpty();
      }
    }
  }

  /** The Kubeflow Spark operator's own states, executors and driver pod naming. */
  @Nested
  class Kubeflow {
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

    // kubeflow/spark-operator api/v1beta2: ExecutorPendingState = "PENDING", written by
    // podPhaseToExecutorState for an executor pod in phase Pending;
    // RUNNING/COMPLETED/FAILED/UNKNOWN
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
    void driverPodNameComesFromTheStatusElseTheDefault() {
      App named = App.kubeflow().kubeflowState("RUNNING");
      named.statusObject().getAsJsonObject("driverInfo").addProperty("podName", "custom-driver");

      assertThat(KIND.driverPodName(named.snapshot())).contains("custom-driver");
      assertThat(KIND.driverPodName(App.kubeflow().snapshot())).contains(Fixtures.NAME + "-driver");
      assertThat(KIND.driverPodSelector(named.snapshot()))
          .isEqualTo("spark-role=driver,sparkoperator.k8s.io/app-name=" + Fixtures.NAME);
      assertThat(KIND.driverContainerName(named.snapshot())).isEqualTo("spark-kubernetes-driver");
    }

    @Nested
    class Unparseable {

      @Test
      void unparseableStatusIsNeverDeletedAndAsksForThePod() {
        for (String status :
            List.of(
                "{\"phase\":\"Running\"}",
                "{\"applicationState\":{\"state\":7}}",
                "{\"applicationState\":\"RUNNING\"}",
                "{\"applicationState\":{\"errorMessage\":\"x\"}}")) {
          MappingDecision info =
              MAPPER.map(
                  App.kubeflow().status(status).snapshot(), DriverPod.notLookedUp(), at(600));
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
  }
}
