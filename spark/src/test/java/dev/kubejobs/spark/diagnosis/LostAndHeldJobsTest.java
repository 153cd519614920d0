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
package dev.kubejobs.spark.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.Diagnoser;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.DiagnosisInput;
import dev.kubejobs.core.diagnosis.Evidence;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.EventBuilder;
import dev.kubejobs.testkit.fixtures.Fixtures;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Each operator's shape of a driver lost with its node, of executors that never started, and of an
 * application a queue holds. Sources read:
 *
 * <ul>
 *   <li>apache/spark-kubernetes-operator at d5acafd24a0cd9cf225026bbdbcb0775d73ffe8f: {@code
 *       AppReconcileStep} appends {@code SparkAppStatusUtils.driverUnexpectedRemoved()} (state
 *       {@code Failed}, {@code Constants.DRIVER_UNEXPECTED_REMOVED_MESSAGE} "Driver removed. This
 *       could caused by 'exit' called in driver process with non-zero code, involuntary disruptions
 *       or unintentional destroy behavior, check Kubernetes events for more details.") when the
 *       driver pod is gone from the API; {@code AppDriverTimeoutObserver} appends {@code
 *       executorLaunchTimedOut()} (state {@code ExecutorsStartTimedOut}, {@code
 *       EXECUTOR_LAUNCH_TIMEOUT_MESSAGE} "The Spark application failed to get enough executors in
 *       the given time threshold."), then the operator releases the resources (the driver pod, and
 *       with it the executor pods it owns); the executor pods are {@code <app>-<attempt>-exec- <n>}
 *       ({@code SparkAppSubmissionWorker.generateSparkAppId} is the name prefix).
 *   <li>kubeflow/spark-operator at 38082f3318e9d33f3e4a940c7cf165df6e40b422: {@code
 *       internal/controller/sparkapplication/controller.go} {@code updateDriverState}: a driver pod
 *       gone sets {@code FAILING} with {@code errorMessage "driver pod not found"} and records
 *       {@code Warning SparkDriverNotFound "Driver pod %s not found after grace period %v, marking
 *       application as Failing"}; the driver pod is {@code <app>-driver}.
 *   <li>kubernetes/kubernetes {@code pkg/controller/util/node/controller_utils.go} ({@code
 *       MarkPodsNotReady}): {@code Warning NodeNotReady "Node is not ready"} on each pod; {@code
 *       pkg/controller/tainteviction/taint_eviction.go}: {@code Normal TaintManagerEviction
 *       "Marking for deletion Pod %s"}; kube-scheduler {@code Normal Scheduled "Successfully
 *       assigned %v/%v to %v"}, {@code Warning FailedScheduling} with {@code FitError}'s {@code
 *       "0/%v nodes are available: …"}.
 *   <li>kubernetes-sigs/kueue at ff69552e79ad21652c36caa97038382e55625cf7: {@code
 *       pkg/controller/jobs/sparkapplication} suspends the application until its Workload ({@code
 *       sparkapplication-<name>-<hash>}, pod sets {@code driver} and {@code executor}) is admitted;
 *       {@code pkg/scheduler/scheduler.go} records the Workload's {@code Pending} event with {@code
 *       "couldn't assign flavors to pod set %s: insufficient unused quota for %s in flavor %s, %s
 *       more needed"}.
 * </ul>
 */
class LostAndHeldJobsTest {

  private static final Instant NOW = Fixtures.T0.plusSeconds(900);
  private static final Diagnoser DIAGNOSER =
      Diagnoser.builder()
          .rule(SparkDiagnosisRules.kubeflow())
          .rule(SparkDiagnosisRules.apache())
          .build();

  static final String DRIVER_REMOVED =
      "Driver removed. This could caused by 'exit' called in driver process with non-zero code,"
          + " involuntary disruptions or unintentional destroy behavior, check Kubernetes events"
          + " for more details.";
  static final String EXECUTORS_TIMED_OUT =
      "The Spark application failed to get enough executors in the given time threshold.";

  private static DiagnosisInput.Builder input(JobStatus status, JsonObject operatorStatus) {
    return DiagnosisInput.builder("jobs", "SparkApplication", "app", status, NOW)
        .waited(Duration.ofMinutes(10))
        .operatorStatus(operatorStatus);
  }

  private static List<JsonObject> nodeLostEvents(String pod) {
    return List.of(
        EventBuilder.about("Pod", "jobs", pod)
            .normal("Scheduled", "Successfully assigned jobs/" + pod + " to node-7")
            .reportedBy("default-scheduler")
            .at(Fixtures.T0.plusSeconds(5))
            .build(),
        EventBuilder.about("Pod", "jobs", pod)
            .warning("NodeNotReady", "Node is not ready")
            .reportedBy("node-controller")
            .at(Fixtures.T0.plusSeconds(400))
            .build(),
        EventBuilder.about("Pod", "jobs", pod)
            .normal("TaintManagerEviction", "Marking for deletion Pod jobs/" + pod)
            .reportedBy("taint-eviction-controller")
            .at(Fixtures.T0.plusSeconds(700))
            .build());
  }

  private static JsonObject apacheRunning() {
    JsonObject s = ApacheStatuses.newStatus(Fixtures.T0, "v1");
    for (String state : List.of("DriverRequested", "DriverStarted", "DriverReady")) {
      ApacheStatuses.append(
          s, state, ApacheStatuses.defaultMessage(state), Fixtures.T0.plusSeconds(10), null);
    }
    return s;
  }

  @Nested
  class DriverLostWithItsNode {
    @Test
    void apachesDriverRemovedWithTheNodesEventsIsNodeLost() {
      JsonObject s = apacheRunning();
      ApacheStatuses.append(s, "RunningHealthy", null, Fixtures.T0.plusSeconds(20), null);
      ApacheStatuses.append(s, "Failed", DRIVER_REMOVED, Fixtures.T0.plusSeconds(760), null);

      Diagnosis d =
          DIAGNOSER
              .diagnose(input(JobStatus.FAILED, s).events(nodeLostEvents("app-0-driver")).build())
              .orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.NODE_LOST);
      assertThat(d.summary())
          .startsWith(
              "The driver pod jobs/app-0-driver of SparkApplication jobs/app was lost with its"
                  + " node node-7 ");
    }

    @Test
    void apachesDriverRemovedWithoutEventsIsPassedOnAsTheOperatorWroteIt() {
      JsonObject s = apacheRunning();
      ApacheStatuses.append(s, "Failed", DRIVER_REMOVED, Fixtures.T0.plusSeconds(760), null);

      Diagnosis d = DIAGNOSER.diagnose(input(JobStatus.FAILED, s).build()).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.OPERATOR_REPORTED_FAILURE);
      assertThat(d.summary()).contains("Driver removed.");
    }

    @Test
    void kubeflowsDriverPodNotFoundWithTheNodesEventsIsNodeLost() {
      JsonObject s =
          KubeflowStatuses.running(KubeflowStatuses.empty(), "app", "spark-0123456789abcdef");
      KubeflowStatuses.terminal(KubeflowStatuses.driverNotFound(s, Fixtures.T0.plusSeconds(760)));
      List<JsonObject> events = new java.util.ArrayList<>(nodeLostEvents("app-driver"));
      events.add(
          EventBuilder.about("SparkApplication", "jobs", "app")
              .warning(
                  "SparkDriverNotFound",
                  "Driver pod app-driver not found after grace period 10s, marking application as"
                      + " Failing")
              .reportedBy("spark-application-controller")
              .build());

      Diagnosis d =
          DIAGNOSER.diagnose(input(JobStatus.FAILED, s).events(events).build()).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.NODE_LOST);
      assertThat(d.summary())
          .startsWith(
              "The driver pod jobs/app-driver of SparkApplication jobs/app was lost with its node"
                  + " node-7 ");
      assertThat(d.evidence())
          .extracting(Evidence::reason)
          .containsExactly("NodeNotReady", "TaintManagerEviction");
    }

    @Test
    void kubeflowsDriverPodNotFoundWithoutEventsSaysThePodWasDeleted() {
      JsonObject s =
          KubeflowStatuses.running(KubeflowStatuses.empty(), "app", "spark-0123456789abcdef");
      KubeflowStatuses.terminal(KubeflowStatuses.driverNotFound(s, Fixtures.T0.plusSeconds(760)));

      Diagnosis d = DIAGNOSER.diagnose(input(JobStatus.FAILED, s).build()).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.OPERATOR_REPORTED_FAILURE);
      assertThat(d.summary())
          .isEqualTo(
              "The Kubeflow Spark operator failed SparkApplication jobs/app: driver pod not found"
                  + " The driver pod was deleted while the application ran (by someone, an"
                  + " eviction, or with its node) and no event about it was found; submit it"
                  + " again.");
    }
  }

  @Nested
  class ExecutorsStartTimedOut {
    private JsonObject timedOut() {
      JsonObject s = apacheRunning();
      ApacheStatuses.append(
          s, "ExecutorsStartTimedOut", EXECUTORS_TIMED_OUT, Fixtures.T0.plusSeconds(400), null);
      ApacheStatuses.append(s, "ResourceReleased", null, Fixtures.T0.plusSeconds(401), null);
      return s;
    }

    private JsonObject failedScheduling(String pod) {
      return EventBuilder.about("Pod", "jobs", pod)
          .warning(
              "FailedScheduling",
              "0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are available: 4"
                  + " No preemption victims found for incoming pod.")
          .reportedBy("default-scheduler")
          .seen(12, Fixtures.T0.plusSeconds(30), Fixtures.T0.plusSeconds(390))
          .buildSeries();
    }

    @Test
    void theGoneExecutorPodsFailedSchedulingEventsNameTheCause() {
      Diagnosis d =
          DIAGNOSER
              .diagnose(
                  input(JobStatus.FAILED, timedOut())
                      .events(
                          List.of(
                              failedScheduling("app-0-exec-1"), failedScheduling("app-0-exec-2")))
                      .build())
              .orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_PENDING);
      assertThat(d.summary())
          .startsWith(
              "The executors of SparkApplication jobs/app never started: 2 executor pods (their"
                  + " pods are gone; events remain) could not start")
          .contains("FailedScheduling: 0/4 nodes are available: 4 Insufficient cpu.")
          .endsWith("The Apache Spark operator gave up on them (ExecutorsStartTimedOut).");
      assertThat(d.evidence().get(d.evidence().size() - 1).reason())
          .isEqualTo("ExecutorsStartTimedOut");
    }

    @Test
    void withoutTheEventsItIsTheOperatorsFailure() {
      Diagnosis d = DIAGNOSER.diagnose(input(JobStatus.FAILED, timedOut()).build()).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.OPERATOR_REPORTED_FAILURE);
      assertThat(d.summary()).contains("ExecutorsStartTimedOut");
    }
  }

  @Nested
  class SuspendedForKueue {
    @Test
    void aSuspendedKubeflowApplicationQuotesItsWorkloadAndLocalQueue() {
      JsonObject s = KubeflowStatuses.suspended(KubeflowStatuses.empty());
      JsonObject pending =
          EventBuilder.about("Workload", "jobs", "sparkapplication-app-4f1c9")
              .warning(
                  "Pending",
                  "couldn't assign flavors to pod set driver: insufficient unused quota for cpu in"
                      + " flavor default-flavor, 1 more needed")
              .reportedBy("kueue-admission")
              .build();

      Diagnosis d =
          DIAGNOSER
              .diagnose(
                  input(JobStatus.QUEUED, s)
                      .applicationLabels(Map.of("kueue.x-k8s.io/queue-name", "team-a"))
                      .events(List.of(pending))
                      .build())
              .orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.WAITING_FOR_ADMISSION);
      assertThat(d.summary())
          .isEqualTo(
              "SparkApplication jobs/app waits for Kueue to admit it (Workload"
                  + " sparkapplication-app-4f1c9, LocalQueue team-a): couldn't assign flavors to"
                  + " pod set driver: insufficient unused quota for cpu in flavor default-flavor,"
                  + " 1 more needed. It starts when its queue has room; free quota or raise the"
                  + " queue's quota. Until then the application stays suspended (spec.suspend).");
      assertThat(d.evidence()).extracting(Evidence::reason).containsExactly("Pending", "SUSPENDED");
    }
  }
}
