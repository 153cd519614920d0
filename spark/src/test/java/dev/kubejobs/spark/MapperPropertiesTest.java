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
import dev.kubejobs.spark.Fixtures.Pod;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of both mappers over arbitrary histories, marks, deletions and driver pods. */
class MapperPropertiesTest {
  private static final JobStatusMapper APACHE = SparkOperators.apache().statusMapper();
  private static final JobStatusMapper KUBEFLOW = SparkOperators.kubeflow().statusMapper();

  private static final List<String> APACHE_STATES =
      List.of(
          "Submitted",
          "ScheduledToRestart",
          "DriverRequested",
          "DriverStarted",
          "DriverReady",
          "InitializedBelowThresholdExecutors",
          "RunningHealthy",
          "RunningWithPartialCapacity",
          "RunningWithBelowThresholdExecutors",
          "Succeeded",
          "Failed",
          "SchedulingFailure",
          "DriverEvicted",
          "DriverStartTimedOut",
          "ExecutorsStartTimedOut",
          "DriverReadyTimedOut",
          "ResourceReleased",
          "TerminatedWithoutReleaseResources",
          "SomethingNew");

  private static final Set<String> APACHE_ENDINGS =
      Set.of(
          "Succeeded",
          "Failed",
          "SchedulingFailure",
          "DriverEvicted",
          "DriverStartTimedOut",
          "ExecutorsStartTimedOut",
          "DriverReadyTimedOut",
          "ResourceReleased",
          "TerminatedWithoutReleaseResources");

  private static final List<String> KUBEFLOW_STATES =
      List.of(
          "",
          "SUBMITTED",
          "RUNNING",
          "COMPLETED",
          "FAILED",
          "SUBMISSION_FAILED",
          "PENDING_RERUN",
          "INVALIDATING",
          "SUCCEEDING",
          "FAILING",
          "UNKNOWN",
          "SUSPENDING",
          "SUSPENDED",
          "RESUMING",
          "SOMETHING_NEW");

  @Provide
  Arbitrary<List<String>> apacheHistories() {
    return Arbitraries.of(APACHE_STATES).list().ofMinSize(1).ofMaxSize(14);
  }

  @Provide
  Arbitrary<String> policies() {
    return Arbitraries.of("Never", "Always", "OnFailure", "OnInfrastructureFailure");
  }

  @Provide
  Arbitrary<Integer> pods() {
    return Arbitraries.integers().between(0, 5);
  }

  private static DriverPod pod(int which) {
    return switch (which) {
      case 0 -> DriverPod.notLookedUp();
      case 1 -> DriverPod.absent();
      case 2 -> DriverPod.unavailable("pods is forbidden");
      case 3 -> DriverPod.found(Pod.named("p").running(at(1)).snapshot());
      case 4 -> DriverPod.found(Pod.named("p").terminated(0, at(1), at(2)).snapshot());
      default -> DriverPod.found(Pod.named("p").terminated(1, at(1), at(2)).snapshot());
    };
  }

  @Property(tries = 2000)
  void apacheStatusNeverDeletesTheApplicationAndOnlyEndsOnAnOutcomeOrDeletion(
      @ForAll("apacheHistories") @Size(min = 1) List<String> states,
      @ForAll("policies") String policy,
      @ForAll boolean marked,
      @ForAll boolean deleting,
      @ForAll("pods") int pod,
      @ForAll @IntRange(min = 0, max = 100_000) int minutes) {
    App app = App.apache().restartPolicy(policy).states(states.toArray(String[]::new));
    if (marked) {
      app.cancelMark(at(states.size()));
    }
    if (deleting) {
      app.deleting(at(states.size()));
    }
    DriverPod driver = pod(pod);

    JobExecutionInfo info = APACHE.map(app.snapshot(), driver, at(minutes));

    assertThat(info.followUp().map(FollowUp::action))
        .isNotEqualTo(java.util.Optional.of(FollowUp.Action.DELETE_APPLICATION));
    if (pod != 0) {
      assertThat(info.driverPodWanted()).as("only notLookedUp may want the pod").isFalse();
    }
    boolean hasEnding = states.stream().anyMatch(APACHE_ENDINGS::contains);
    if (info.status().isTerminal() || info.status() == JobStatus.CANCELLING) {
      assertThat(hasEnding || marked || deleting).isTrue();
    }
    if (!hasEnding && !marked && !deleting) {
      assertThat(info.status()).isIn(JobStatus.QUEUED, JobStatus.STARTED);
      assertThat(info.followUp()).isEmpty();
    }
  }

  @Property(tries = 2000)
  void apacheRunningOrQueuedHistoriesNeverWantTheDriverPod(
      @ForAll("apacheHistories") List<String> states, @ForAll("policies") String policy) {
    List<String> open = states.stream().filter(s -> !APACHE_ENDINGS.contains(s)).toList();
    if (open.isEmpty()) {
      return;
    }
    App app = App.apache().restartPolicy(policy).states(open.toArray(String[]::new));

    JobExecutionInfo info = APACHE.map(app.snapshot(), DriverPod.notLookedUp(), at(60));

    assertThat(info.driverPodWanted()).isFalse();
    assertThat(info.status()).isIn(JobStatus.QUEUED, JobStatus.STARTED);
  }

  @Property(tries = 2000)
  void kubeflowOnlyCompletedAndFailedEndAJobThatIsNotDeleted(
      @ForAll("kubeflowStates") String state,
      @ForAll boolean marked,
      @ForAll boolean executors,
      @ForAll("pods") int pod,
      @ForAll @IntRange(min = 0, max = 100_000) int minutes) {
    App app = App.kubeflow().kubeflowState(state);
    if (executors) {
      JsonObject e = new JsonObject();
      e.addProperty("x-exec-1", "RUNNING");
      app.statusObject().add("executorState", e);
    }
    if (marked) {
      app.cancelMark(at(1));
    }

    JobExecutionInfo info = KUBEFLOW.map(app.snapshot(), pod(pod), at(minutes));

    if (info.status().isTerminal()) {
      assertThat(state).isIn("COMPLETED", "FAILED");
    }
    if (!state.isEmpty()) {
      assertThat(info.followUp().map(FollowUp::action))
          .isNotEqualTo(java.util.Optional.of(FollowUp.Action.DELETE_APPLICATION));
    }
    if (pod != 0) {
      assertThat(info.driverPodWanted()).isFalse();
    }
  }

  @Provide
  Arbitrary<String> kubeflowStates() {
    return Arbitraries.of(KUBEFLOW_STATES);
  }
}
