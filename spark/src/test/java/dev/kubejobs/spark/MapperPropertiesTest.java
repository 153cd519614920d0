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
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.spark.Fixtures.App;
import dev.kubejobs.spark.Fixtures.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invariants of both mappers over random histories, marks, deletions, restart policies and driver
 * pods. Each case is built from its own seed, printed in the case name ({@code seed -123...}): to
 * replay a failure, return that seed alone from {@link #seeds()}.
 */
class MapperPropertiesTest {
  private static final JobStatusMapper APACHE = SparkOperators.apache().statusMapper();
  private static final JobStatusMapper KUBEFLOW = SparkOperators.kubeflow().statusMapper();

  /** The Apache operator's v1 states, then one it does not have (yet). */
  static final List<String> APACHE_STATES =
      Stream.concat(Fixtures.APACHE_V1_STATES.stream(), Stream.of("SomethingNew")).toList();

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

  static final List<String> KUBEFLOW_STATES =
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

  /** Seeds the cases' seeds (consecutive seeds would give correlated first draws). */
  private static final long SEED = 20_261_202L;

  private static final int CASES = 500;

  static final List<String> POLICIES =
      List.of("Never", "Always", "OnFailure", "OnInfrastructureFailure");

  /** Kubeflow states that the operator may end on at once (given restart policy Never). */
  private static final Set<String> KUBEFLOW_ENDINGS =
      Set.of("COMPLETED", "FAILED", "SUCCEEDING", "FAILING");

  static LongStream seeds() {
    return new Random(SEED).longs(CASES);
  }

  private static <T> T pick(Random random, List<T> from) {
    return from.get(random.nextInt(from.size()));
  }

  private static List<String> apacheHistory(Random random) {
    int size = 1 + random.nextInt(14);
    List<String> states = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      states.add(pick(random, APACHE_STATES));
    }
    return states;
  }

  /** 0 not looked up, 1 absent, 2 unavailable, 3 running, 4 exited 0, 5 exited 1. */
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

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void apacheStatusNeverDeletesTheApplicationAndOnlyEndsOnAnOutcomeOrDeletion(long seed) {
    Random random = new Random(seed);
    List<String> states = apacheHistory(random);
    String policy = pick(random, POLICIES);
    boolean marked = random.nextBoolean();
    boolean deleting = random.nextBoolean();
    int pod = random.nextInt(6);
    int minutes = random.nextInt(100_001);
    App app = App.apache().restartPolicy(policy).states(states.toArray(String[]::new));
    if (marked) {
      app.cancelMark(at(states.size()));
    }
    if (deleting) {
      app.deleting(at(states.size()));
    }

    MappingDecision info = APACHE.map(app.snapshot(), pod(pod), at(minutes));

    assertThat(info.pendingFollowUp().map(FollowUp::action))
        .isNotEqualTo(Optional.of(FollowUp.Action.DELETE_APPLICATION));
    if (pod != 0) {
      assertThat(info.needsDriverPod()).as("only notLookedUp may want the pod").isFalse();
    }
    boolean hasEnding = states.stream().anyMatch(APACHE_ENDINGS::contains);
    // An unknown current state lets a terminated driver decide where no restart can follow.
    boolean driverDecides =
        states.get(states.size() - 1).equals("SomethingNew") && (pod == 4 || pod == 5);
    if (info.info().status().isTerminal() || info.info().status() == JobStatus.CANCELLING) {
      assertThat(hasEnding || marked || deleting || driverDecides).isTrue();
    }
    if (!hasEnding && !marked && !deleting && !driverDecides) {
      assertThat(info.info().status()).isIn(JobStatus.QUEUED, JobStatus.STARTED);
      assertThat(info.pendingFollowUp()).isEmpty();
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void apacheRunningOrQueuedHistoriesAskForThePodOnlyInAnUnknownState(long seed) {
    Random random = new Random(seed);
    List<String> open =
        apacheHistory(random).stream().filter(s -> !APACHE_ENDINGS.contains(s)).toList();
    String policy = pick(random, POLICIES);
    if (open.isEmpty()) {
      open = List.of("Submitted");
    }
    App app = App.apache().restartPolicy(policy).states(open.toArray(String[]::new));

    MappingDecision info = APACHE.map(app.snapshot(), DriverPod.notLookedUp(), at(60));

    // Always restarts after every exit, so no exit code can end the job: no pod needed.
    assertThat(info.needsDriverPod())
        .isEqualTo(open.get(open.size() - 1).equals("SomethingNew") && !policy.equals("Always"));
    assertThat(info.info().status()).isIn(JobStatus.QUEUED, JobStatus.STARTED);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void kubeflowOnlyEndingStatesOrAnExitedDriverEndAJobThatIsNotDeleted(long seed) {
    Random random = new Random(seed);
    String state = pick(random, KUBEFLOW_STATES);
    boolean marked = random.nextBoolean();
    boolean executors = random.nextBoolean();
    int pod = random.nextInt(6);
    int minutes = random.nextInt(100_001);
    App app = App.kubeflow().kubeflowState(state);
    if (executors) {
      JsonObject e = new JsonObject();
      e.addProperty("x-exec-1", "RUNNING");
      app.statusObject().add("executorState", e);
    }
    if (marked) {
      app.cancelMark(at(1));
    }

    MappingDecision info = KUBEFLOW.map(app.snapshot(), pod(pod), at(minutes));

    if (info.info().status().isTerminal()) {
      assertThat(KUBEFLOW_ENDINGS.contains(state) || state.equals("SOMETHING_NEW") && pod >= 4)
          .as(state)
          .isTrue();
    }
    if (!state.isEmpty()) {
      assertThat(info.pendingFollowUp().map(FollowUp::action))
          .isNotEqualTo(Optional.of(FollowUp.Action.DELETE_APPLICATION));
    }
    if (pod != 0) {
      assertThat(info.needsDriverPod()).isFalse();
    }
  }

  /**
   * Once the operator counted a run that is not the current submission ({@code executionAttempts}
   * of 2 or more, or 1 past SUBMITTED), no state reads QUEUED again.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void kubeflowNeverReadsQueuedOnceAnEarlierAttemptRan(long seed) {
    Random random = new Random(seed);
    String state = pick(random, KUBEFLOW_STATES.subList(1, KUBEFLOW_STATES.size()));
    int attempts = 1 + random.nextInt(5);
    String policy = pick(random, List.of("Never", "Always", "OnFailure"));
    Integer retries = random.nextBoolean() ? null : random.nextInt(6);
    int pod = random.nextInt(6);
    App app =
        App.kubeflow()
            .kubeflowRestartPolicy(policy, retries)
            .kubeflowState(state)
            .statusNumber("executionAttempts", attempts);

    MappingDecision info = KUBEFLOW.map(app.snapshot(), pod(pod), at(20));

    if (attempts >= 2 || !state.equals("SUBMITTED")) {
      assertThat(info.info().status())
          .as(state + " after " + attempts + " attempts")
          .isNotEqualTo(JobStatus.QUEUED);
    }
  }

  @Test
  void theSeedsReachEveryStatePolicyAndPod() {
    Set<String> apache = new java.util.HashSet<>();
    Set<String> kubeflow = new java.util.HashSet<>();
    Set<Integer> pods = new java.util.HashSet<>();
    seeds()
        .forEach(
            seed -> {
              Random random = new Random(seed);
              apache.addAll(apacheHistory(random));
              apache.add(pick(random, POLICIES));
              random = new Random(seed);
              kubeflow.add(pick(random, KUBEFLOW_STATES));
              random.nextBoolean();
              random.nextBoolean();
              pods.add(random.nextInt(6));
            });

    assertThat(apache).containsAll(APACHE_STATES).containsAll(POLICIES);
    assertThat(kubeflow).containsAll(KUBEFLOW_STATES);
    assertThat(pods).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
  }
}
