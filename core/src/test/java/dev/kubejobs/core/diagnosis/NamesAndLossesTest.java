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
package dev.kubejobs.core.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import dev.kubejobs.testkit.fixtures.EventBuilder;
import dev.kubejobs.testkit.fixtures.Fixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The names a user needs (the unbound claim, the queueing system's object and queue), a driver lost
 * with its node as the pod's own condition shows it, and executors that never started read after
 * the fact from their events. Sources read:
 *
 * <ul>
 *   <li>kubernetes/kubernetes {@code pkg/controller/podgc/gc_controller.go} ({@code gcOrphaned}): a
 *       pod whose node object is gone gets {@code DisruptionTarget=True}, reason {@code
 *       DeletionByPodGC}, message {@code "PodGC: node no longer exists"}, phase Failed, then is
 *       force-deleted; {@code pkg/controller/tainteviction/taint_eviction.go}: {@code
 *       DeletionByTaintManager}, {@code "Taint manager: deleting due to NoExecute taint"}.
 *   <li>kubernetes/kubernetes {@code pkg/scheduler/framework/plugins/volumebinding}: {@code
 *       ErrReasonUnboundImmediatePersistentVolumeClaims = "pod has unbound immediate
 *       PersistentVolumeClaims"}; {@code pkg/controller/volume/persistentvolume/pv_controller.go}
 *       ({@code provisionClaimOperation}): {@code Warning ProvisioningFailed
 *       "storageclass.storage.k8s.io %q not found"} on the claim.
 *   <li>kubernetes-sigs/kueue at ff69552e79ad21652c36caa97038382e55625cf7: {@code
 *       pkg/scheduler/scheduler.go} records the Workload's {@code Pending} event with the
 *       inadmissible message; {@code pkg/scheduler/flavorassigner/flavorassigner.go} {@code
 *       "couldn't assign flavors to pod set %s: "} + {@code "insufficient unused quota for %s in
 *       flavor %s, %s more needed"}; {@code pkg/controller/jobframework/workload_names.go}: the
 *       Workload is {@code <lower(kind)>-<owner>-<5 hex>}; {@code
 *       pkg/controller/constants/constants.go} {@code QueueLabel = "kueue.x-k8s.io/queue-name"}.
 *   <li>apache/yunikorn-k8shim {@code pkg/common/constants/constants.go}: {@code LabelQueueName =
 *       "queue"}, {@code AnnotationQueueName = "yunikorn.apache.org/queue"}.
 *   <li>kubeflow/spark-operator at 38082f3318e9d33f3e4a940c7cf165df6e40b422 {@code
 *       internal/scheduler/volcano}: PodGroup {@code "spark-%s-pg"}, named on the driver pod by the
 *       annotation {@code scheduling.k8s.io/group-name}.
 *   <li>apache/spark {@code KubernetesClientUtils}/{@code BasicExecutorFeatureStep}: executor pods
 *       are {@code <resourceNamePrefix>-exec-<id>}; the Apache operator's prefix is {@code
 *       <app>-<attempt>} (apache/spark-kubernetes-operator {@code SparkAppSubmissionWorker
 *       .generateSparkAppId}).
 * </ul>
 */
class NamesAndLossesTest {

  private static final Instant NOW = Fixtures.T0.plusSeconds(600);
  private static final Diagnoser DIAGNOSER = Diagnoser.ofDefaults();

  private static DiagnosisInput.Builder stuck() {
    return DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.QUEUED, NOW)
        .waited(Duration.ofMinutes(5));
  }

  private static DiagnosisInput.Builder failed() {
    return DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.FAILED, NOW)
        .waited(Duration.ofMinutes(5));
  }

  private static Diagnosis diagnose(DiagnosisInput.Builder input) {
    return DIAGNOSER.diagnose(input.build()).orElseThrow();
  }

  private static JsonObject meta(JsonObject pod, String field) {
    JsonObject metadata = pod.getAsJsonObject("metadata");
    if (!metadata.has(field)) {
      metadata.add(field, new JsonObject());
    }
    return metadata.getAsJsonObject(field);
  }

  @Nested
  class NodeLostFromThePodsCondition {
    private JsonObject disrupted(String reason, String message) {
      JsonObject pod =
          DriverPodBuilder.kubeflow("app")
              .terminated(137, Fixtures.T0.plusSeconds(20), Fixtures.T0.plusSeconds(300))
              .terminationReason("Error", null)
              .build();
      pod.getAsJsonObject("spec").addProperty("nodeName", "node-7");
      JsonObject c = new JsonObject();
      c.addProperty("type", "DisruptionTarget");
      c.addProperty("status", "True");
      c.addProperty("reason", reason);
      c.addProperty("message", message);
      c.addProperty("lastTransitionTime", "2026-01-01T00:05:00Z");
      pod.getAsJsonObject("status").getAsJsonArray("conditions").add(c);
      return pod;
    }

    @Test
    void aDriverPodTheGarbageCollectorDeletedForItsGoneNodeIsNodeLost() {
      Diagnosis d =
          diagnose(
              failed().driverPod(disrupted("DeletionByPodGC", "PodGC: node no longer exists")));

      assertThat(d.cause()).isEqualTo(Cause.NODE_LOST);
      assertThat(d.summary())
          .startsWith(
              "Driver pod jobs/app-driver was lost with its node node-7 (the node no longer"
                  + " exists; the pod garbage collector deleted the pod)");
      assertThat(d.evidence().get(0).reason()).isEqualTo("DeletionByPodGC");
      assertThat(d.evidence().get(0).message()).isEqualTo("PodGC: node no longer exists");
    }

    @Test
    void theTaintManagersDeletionIsNodeLostToo() {
      Diagnosis d =
          diagnose(
              failed()
                  .driverPod(
                      disrupted(
                          "DeletionByTaintManager",
                          "Taint manager: deleting due to NoExecute taint")));

      assertThat(d.cause()).isEqualTo(Cause.NODE_LOST);
      assertThat(d.summary()).contains("node-7").contains("tainted NoExecute");
    }

    @Test
    void aDisruptionForAnotherReasonIsNotNodeLost() {
      Diagnosis d =
          diagnose(
              failed().driverPod(disrupted("EvictionByEvictionAPI", "Eviction API: evicting")));

      assertThat(d.cause()).isEqualTo(Cause.DRIVER_EXITED_WITH_ERROR);
    }
  }

  @Nested
  class ExecutorsThatNeverStarted {
    private JsonObject failedScheduling(String pod, String message, int second) {
      return EventBuilder.about("Pod", "jobs", pod)
          .warning("FailedScheduling", message)
          .reportedBy("default-scheduler")
          .seen(3, Fixtures.T0.plusSeconds(10), Fixtures.T0.plusSeconds(second))
          .buildSeries();
    }

    @Test
    void theGoneExecutorPodsFailedSchedulingEventsAreQuoted() {
      String cpu =
          "0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are"
              + " available: 4 No preemption victims found for incoming pod.";
      Diagnosis d =
          DIAGNOSER
              .diagnoseExecutorsNotStarted(
                  failed()
                      .events(
                          List.of(
                              failedScheduling("app-0-exec-1", cpu, 200),
                              failedScheduling("app-0-exec-2", cpu, 210),
                              failedScheduling("other-0-exec-1", "elsewhere", 220),
                              failedScheduling("app-2-0-exec-1", "another app's", 230)))
                      .build())
              .orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_PENDING);
      assertThat(d.summary())
          .startsWith(
              "The executors of SparkApplication jobs/app never started: 2 executor pods (their"
                  + " pods are gone; events remain) could not start, app-0-exec-2 last with"
                  + " FailedScheduling: 0/4 nodes are available: 4 Insufficient cpu.")
          .contains("spark.executor.cores");
      assertThat(d.evidence()).hasSize(2);
      assertThat(d.evidence().get(0).object()).isEqualTo("Pod jobs/app-0-exec-2");
    }

    @Test
    void aFailedSchedulingAScaleUpResolvedIsNoCause() {
      JsonObject placed =
          EventBuilder.about("Pod", "jobs", "app-0-exec-1")
              .normal("Scheduled", "Successfully assigned jobs/app-0-exec-1 to node-9")
              .reportedBy("default-scheduler")
              .build();
      DiagnosisInput input =
          failed()
              .events(
                  List.of(
                      failedScheduling(
                          "app-0-exec-1", "0/4 nodes are available: 4 Insufficient cpu.", 200),
                      placed))
              .build();

      assertThat(DIAGNOSER.diagnoseExecutorsNotStarted(input)).isEmpty();
    }

    @Test
    void executorPodsStillThereAreDiagnosedAsPods() {
      JsonObject executor =
          DriverPodBuilder.kubeflow("app")
              .name("app-0-exec-1")
              .unschedulable("0/4 nodes are available: 4 Insufficient cpu.")
              .build();

      Diagnosis d =
          DIAGNOSER
              .diagnoseExecutorsNotStarted(failed().executorPods(List.of(executor)).build())
              .orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_PENDING);
      assertThat(d.summary())
          .isEqualTo(
              "The executors of SparkApplication jobs/app never started (1 executor pod stuck):"
                  + " Executor pod jobs/app-0-exec-1 cannot be scheduled: 0/4 nodes are"
                  + " available: 4 Insufficient cpu. Lower its requests, fix its node selector,"
                  + " affinity or tolerations, or add nodes that fit.");
    }
  }

  @Test
  void podsOfAnApplicationAreToldFromThoseOfAnotherWithALongerName() {
    java.util.regex.Pattern exec = java.util.regex.Pattern.compile("-exec-\\d+$");
    java.util.regex.Pattern driver = java.util.regex.Pattern.compile("-driver$");
    assertThat(Diagnoser.podOfApp("app-0-exec-12", "app", exec)).isTrue();
    assertThat(Diagnoser.podOfApp("app-exec-1", "app", exec)).isTrue();
    assertThat(Diagnoser.podOfApp("app-5f1e2a8c9d-exec-1", "app", exec)).isTrue();
    assertThat(Diagnoser.podOfApp("app-2-0-exec-1", "app", exec)).isFalse();
    assertThat(Diagnoser.podOfApp("apple-exec-1", "app", exec)).isFalse();
    assertThat(Diagnoser.podOfApp("app-0-driver", "app", driver)).isTrue();
    assertThat(Diagnoser.podOfApp("app-driver", "app", driver)).isTrue();
    assertThat(Diagnoser.podOfApp("app-2-0-driver", "app", driver)).isFalse();
  }

  @Nested
  class Names {
    @Test
    void anUnboundClaimIsNamedFromThePodsVolumesAndQuotedFromItsEvents() {
      JsonObject pod =
          DriverPodBuilder.kubeflow("app")
              .unschedulable(
                  "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."
                      + " preemption: 0/3 nodes are available: 3 Preemption is not helpful for"
                      + " scheduling.")
              .build();
      JsonObject volume = new JsonObject();
      volume.addProperty("name", "data");
      JsonObject claim = new JsonObject();
      claim.addProperty("claimName", "app-data");
      volume.add("persistentVolumeClaim", claim);
      JsonArray volumes = new JsonArray();
      volumes.add(volume);
      pod.getAsJsonObject("spec").add("volumes", volumes);
      JsonObject provisioning =
          EventBuilder.about("PersistentVolumeClaim", "jobs", "app-data")
              .warning("ProvisioningFailed", "storageclass.storage.k8s.io \"fast\" not found")
              .reportedBy("persistentvolume-controller")
              .build();
      JsonObject unrelated =
          EventBuilder.about("PersistentVolumeClaim", "jobs", "other-data")
              .warning("ProvisioningFailed", "storageclass.storage.k8s.io \"slow\" not found")
              .build();

      Diagnosis d = diagnose(stuck().driverPod(pod).events(List.of(provisioning, unrelated)));

      assertThat(d.cause()).isEqualTo(Cause.UNSCHEDULABLE);
      assertThat(d.summary())
          .contains(
              "PersistentVolumeClaim app-data is not bound (ProvisioningFailed event on"
                  + " PersistentVolumeClaim app-data: storageclass.storage.k8s.io \"fast\" not"
                  + " found)")
          .doesNotContain("slow");
      assertThat(d.evidence()).extracting(Evidence::reason).contains("ProvisioningFailed");
    }

    @Test
    void theYuniKornQueueIsNamed() {
      JsonObject pod =
          DriverPodBuilder.kubeflow("app").notScheduled("SchedulingSkipped", "").build();
      meta(pod, "labels").addProperty("queue", "root.sandbox");

      Diagnosis d = diagnose(stuck().driverPod(pod));

      assertThat(d.summary()).contains("because its queue root.sandbox's quota is exceeded");
    }

    @Test
    void aGatedPodQuotesItsKueueWorkloadAndNamesTheLocalQueue() {
      JsonObject pod =
          DriverPodBuilder.kubeflow("app").schedulingGated("kueue.x-k8s.io/admission").build();
      meta(pod, "labels").addProperty("kueue.x-k8s.io/queue-name", "team-a");
      JsonObject pending =
          EventBuilder.about("Workload", "jobs", "pod-app-driver-3f2a1")
              .warning(
                  "Pending",
                  "couldn't assign flavors to pod set main: insufficient unused quota for cpu in"
                      + " flavor default-flavor, 3 more needed")
              .reportedBy("kueue-admission")
              .build();

      Diagnosis d = diagnose(stuck().driverPod(pod).events(List.of(pending)));

      assertThat(d.cause()).isEqualTo(Cause.WAITING_FOR_ADMISSION);
      assertThat(d.summary())
          .startsWith(
              "SparkApplication jobs/app waits for Kueue to admit it (Workload"
                  + " pod-app-driver-3f2a1, LocalQueue team-a): couldn't assign flavors to pod set"
                  + " main: insufficient unused quota for cpu in flavor default-flavor, 3 more"
                  + " needed.")
          .contains("[kueue.x-k8s.io/admission]");
      assertThat(d.evidence())
          .extracting(Evidence::reason)
          .containsExactly("Pending", "SchedulingGated");
    }

    @Test
    void theLocalQueueIsReadFromTheApplicationsLabel() {
      JsonObject pending =
          EventBuilder.about("Workload", "jobs", "sparkapplication-app-9c1d2")
              .warning(
                  "Pending",
                  "couldn't assign flavors to pod set driver: insufficient unused quota for"
                      + " memory in flavor default-flavor, 2Gi more needed")
              .build();

      Diagnosis d =
          diagnose(
              stuck()
                  .applicationLabels(Map.of("kueue.x-k8s.io/queue-name", "team-b"))
                  .events(List.of(pending)));

      assertThat(d.summary())
          .contains("(Workload sparkapplication-app-9c1d2, LocalQueue team-b)")
          .contains("2Gi more needed");
    }

    @Test
    void theVolcanoPodGroupIsFoundByTheDriverPodsAnnotation() {
      JsonObject pod = DriverPodBuilder.kubeflow("app").pending().build();
      meta(pod, "annotations").addProperty("scheduling.k8s.io/group-name", "batch-gang-7");
      JsonObject gang =
          EventBuilder.about("PodGroup", "jobs", "batch-gang-7")
              .warning(
                  "Unschedulable",
                  "3/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3"
                      + " minAvailable; Pending: 3 Unschedulable")
              .reportedBy("volcano")
              .build();

      Diagnosis d = diagnose(stuck().driverPod(pod).events(List.of(gang)));

      assertThat(d.cause()).isEqualTo(Cause.WAITING_FOR_ADMISSION);
      assertThat(d.summary()).contains("waits for Volcano to admit it (PodGroup batch-gang-7)");
    }
  }
}
