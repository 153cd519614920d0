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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import dev.kubejobs.testkit.fixtures.EventBuilder;
import dev.kubejobs.testkit.fixtures.Fixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The generic causes, each from the pod, events and messages as the real components write them.
 * Sources read (kubernetes/kubernetes at de663b934f1fadd966d4136ea515c298f1e7f34a unless noted):
 *
 * <ul>
 *   <li>kube-scheduler {@code pkg/scheduler/framework/types.go}: {@code FitError.Error()} writes
 *       {@code "0/%v nodes are available: "} + the sorted {@code "<count> <reason>"} histogram
 *       joined by {@code ", "} + {@code "."}, then {@code " " + PostFilterMsg} (DefaultPreemption:
 *       {@code "preemption: 0/3 nodes are available: 3 No preemption victims found for incoming
 *       pod."}); reasons {@code "Insufficient cpu"} ({@code plugins/noderesources/fit.go}), {@code
 *       "node(s) didn't match Pod's node affinity/selector"} ({@code plugins/nodeaffinity}); the
 *       VolumeBinding PreFilter {@code persistentvolumeclaim "%s" not found}.
 *   <li>kubelet {@code pkg/kubelet/images/image_manager.go}: {@code "Back-off pulling image %q"}
 *       for {@code ImagePullBackOff} (a {@code Normal} {@code BackOff} event), and a {@code Warning
 *       Failed} event {@code "Failed to pull image %q: %v"} carrying the runtime's answer
 *       (containerd: {@code "... not found"}; registry refusal: {@code "pull access denied,
 *       repository does not exist or may require authorization"}).
 *   <li>kubelet {@code pkg/kubelet/kubelet_pods.go} {@code makeEnvironmentVariables}: {@code
 *       CreateContainerConfigError} with {@code secret "%s" not found} or {@code "couldn't find key
 *       %s in Secret %s/%s"}.
 *   <li>kubelet {@code pkg/kubelet/eviction/helpers.go}: reason {@code Evicted}, message {@code
 *       "The node was low on resource: %v. "} + {@code "Threshold quantity: %v, available: %v. "} +
 *       {@code "Container %s was using %s, request is %s, has larger consumption of %v. "}.
 *   <li>kubelet {@code pkg/kubelet/kuberuntime/kuberuntime_manager.go}: {@code CrashLoopBackOff}
 *       waiting message {@code "back-off %s restarting failed container=%s pod=%s"}.
 *   <li>kubeflow/spark-operator issue #714 ({@code kubectl describe} pasted): {@code Warning
 *       FailedMount ... MountVolume.SetUp failed for volume "spark-conf-volume" : configmap
 *       "...-driver-conf-map" not found}.
 *   <li>kubernetes-sigs/kueue {@code pkg/scheduler/flavorassigner/flavorassigner.go}: {@code
 *       "insufficient unused quota for %s in flavor %s, %s more needed"}, on the Workload as a
 *       {@code Normal} {@code Pending} event; volcano-sh/volcano {@code
 *       pkg/scheduler/framework/session.go}: {@code "%v/%v tasks in gang unschedulable: %v"} as a
 *       {@code Warning Unschedulable} event on the PodGroup.
 * </ul>
 */
class DiagnoserTest {

  private static final Instant NOW = Fixtures.T0.plusSeconds(600);
  private static final Diagnoser DIAGNOSER = Diagnoser.ofDefaults();

  private static DiagnosisInput.Builder queued(Duration waited) {
    return DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.QUEUED, NOW)
        .waited(waited);
  }

  private static DiagnosisInput.Builder stuck() {
    return queued(Duration.ofMinutes(5));
  }

  private static DiagnosisInput.Builder failed() {
    return DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.FAILED, NOW);
  }

  private static DriverPodBuilder pod() {
    return DriverPodBuilder.kubeflow("app");
  }

  private static Diagnosis diagnose(DiagnosisInput.Builder input) {
    return DIAGNOSER.diagnose(input.build()).orElseThrow();
  }

  @Nested
  class Unschedulable {
    private static final String FIT_ERROR =
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No"
            + " preemption victims found for incoming pod.";

    @Test
    void podScheduledFalseGivesTheSchedulersMessage() {
      Diagnosis d = diagnose(stuck().driverPod(pod().unschedulable(FIT_ERROR).build()));

      assertThat(d.cause()).isEqualTo(Cause.UNSCHEDULABLE);
      assertThat(d.summary())
          .startsWith("Driver pod jobs/app-driver cannot be scheduled: " + FIT_ERROR)
          .contains("Lower its requests");
      assertThat(d.evidence().get(0).source()).isEqualTo(Evidence.Source.POD_CONDITION);
      assertThat(d.evidence().get(0).reason()).isEqualTo("Unschedulable");
      assertThat(d.evidence().get(0).message()).isEqualTo(FIT_ERROR);
    }

    @Test
    void failedSchedulingEventsOfTheSchedulerAreEvidenceWithCountAndTimes() {
      JsonObject p = pod().unschedulable(FIT_ERROR).build();
      JsonObject event =
          EventBuilder.about(p)
              .warning("FailedScheduling", FIT_ERROR)
              .reportedBy("default-scheduler")
              .seen(9, Fixtures.T0.plusSeconds(1), Fixtures.T0.plusSeconds(540))
              .buildSeries();

      Diagnosis d = diagnose(stuck().driverPod(p).events(List.of(event)));

      assertThat(d.cause()).isEqualTo(Cause.UNSCHEDULABLE);
      Evidence e = d.evidence().get(1);
      assertThat(e.source()).isEqualTo(Evidence.Source.EVENT);
      assertThat(e.reason()).isEqualTo("FailedScheduling");
      assertThat(e.count()).isEqualTo(9);
      assertThat(e.firstSeen()).contains(Fixtures.T0.plusSeconds(1));
      assertThat(e.lastSeen()).contains(Fixtures.T0.plusSeconds(540));
    }

    @Test
    void missingPersistentVolumeClaimIsNamed() {
      String message =
          "0/3 nodes are available: persistentvolumeclaim \"spark-data\" not found. preemption:"
              + " 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";

      Diagnosis d = diagnose(stuck().driverPod(pod().unschedulable(message).build()));

      assertThat(d.cause()).isEqualTo(Cause.UNSCHEDULABLE);
      assertThat(d.summary()).contains("Create PersistentVolumeClaim \"spark-data\"");
    }

    @Test
    void staleFailedSchedulingFromBeforeThePodWasScheduledExplainsNothing() {
      // The pod was unschedulable for a while, then placed; it now waits for its image to be
      // created (ContainerCreating), which is no cause.
      JsonObject p = pod().pending().build();
      JsonObject stale =
          EventBuilder.about(p)
              .warning("FailedScheduling", FIT_ERROR)
              .reportedBy("default-scheduler")
              .seen(3, Fixtures.T0.plusSeconds(1), Fixtures.T0.plusSeconds(30))
              .buildSeries();

      assertThat(DIAGNOSER.diagnose(stuck().driverPod(p).events(List.of(stale)).build())).isEmpty();
    }

    @Test
    void eventsAboutAnEarlierPodOfTheSameNameAreIgnored() {
      JsonObject earlier = pod().uid("uid-of-attempt-1").unschedulable(FIT_ERROR).build();
      JsonObject now =
          pod().uid("uid-of-attempt-2").createdAt(Fixtures.T0.plusSeconds(200)).pending().build();
      JsonObject event = EventBuilder.about(earlier).warning("FailedScheduling", FIT_ERROR).build();
      // The current pod has no PodScheduled condition yet.
      now.getAsJsonObject("status").remove("conditions");

      assertThat(DIAGNOSER.diagnose(stuck().driverPod(now).events(List.of(event)).build()))
          .isEmpty();
    }

    @Test
    void eventWithoutUidFromBeforeThePodExistedIsIgnored() {
      JsonObject now = pod().createdAt(Fixtures.T0.plusSeconds(200)).pending().build();
      now.getAsJsonObject("status").remove("conditions");
      JsonObject old =
          EventBuilder.about("Pod", "jobs", "app-driver")
              .warning("FailedScheduling", FIT_ERROR)
              .seen(2, Fixtures.T0.plusSeconds(10), Fixtures.T0.plusSeconds(100))
              .build();

      assertThat(DIAGNOSER.diagnose(stuck().driverPod(now).events(List.of(old)).build())).isEmpty();
      // The same event seen again after the pod was created is about it.
      JsonObject fresh =
          EventBuilder.about("Pod", "jobs", "app-driver")
              .warning("FailedScheduling", FIT_ERROR)
              .seen(2, Fixtures.T0.plusSeconds(10), Fixtures.T0.plusSeconds(300))
              .build();
      assertThat(diagnose(stuck().driverPod(now).events(List.of(fresh))).cause())
          .isEqualTo(Cause.UNSCHEDULABLE);
    }
  }

  @Nested
  class ImagePull {
    private static final String IMAGE = "apache/spark:4.0.1-typo";

    @Test
    void notFoundIsToldApartFromTheBackOffMessage() {
      JsonObject p =
          pod()
              .image(IMAGE)
              .waiting("ImagePullBackOff", "Back-off pulling image \"" + IMAGE + "\"")
              .build();
      JsonObject failed =
          EventBuilder.about(p)
              .warning(
                  "Failed",
                  "Failed to pull image \""
                      + IMAGE
                      + "\": rpc error: code = NotFound desc = failed to pull and unpack image"
                      + " \"docker.io/"
                      + IMAGE
                      + "\": failed to resolve reference \"docker.io/"
                      + IMAGE
                      + "\": docker.io/"
                      + IMAGE
                      + ": not found")
              .seen(4, Fixtures.T0.plusSeconds(3), Fixtures.T0.plusSeconds(400))
              .build();

      Diagnosis d = diagnose(stuck().driverPod(p).events(List.of(failed)));

      assertThat(d.cause()).isEqualTo(Cause.IMAGE_PULL_FAILED);
      assertThat(d.summary())
          .isEqualTo(
              "Driver pod jobs/app-driver cannot pull image \""
                  + IMAGE
                  + "\" for container spark-kubernetes-driver (ImagePullBackOff): the registry"
                  + " says it does not exist; check the image name and tag.");
      assertThat(d.evidence())
          .extracting(Evidence::reason)
          .containsExactly("ImagePullBackOff", "Failed");
      assertThat(d.evidence().get(1).count()).isEqualTo(4);
    }

    @Test
    void unauthorizedSaysToGiveCredentials() {
      JsonObject p =
          pod()
              .image("registry.example.com/team/spark:4.0.1")
              .waiting(
                  "ErrImagePull",
                  "failed to pull and unpack image \"registry.example.com/team/spark:4.0.1\":"
                      + " failed to resolve reference: pull access denied, repository does not"
                      + " exist or may require authorization: server message: insufficient_scope:"
                      + " authorization failed")
              .build();

      Diagnosis d = diagnose(stuck().driverPod(p));

      assertThat(d.cause()).isEqualTo(Cause.IMAGE_PULL_FAILED);
      assertThat(d.summary()).contains("the registry refused access").contains("imagePullSecrets");
    }

    @Test
    void invalidNameSaysWhichSettingToFix() {
      JsonObject p =
          pod()
              .image("Apache/Spark")
              .waiting(
                  "InvalidImageName",
                  "Failed to apply default image tag \"Apache/Spark\": couldn't parse image name"
                      + " \"Apache/Spark\": invalid reference format: repository name must be"
                      + " lowercase")
              .build();

      Diagnosis d = diagnose(stuck().driverPod(p));

      assertThat(d.summary())
          .contains("\"Apache/Spark\"")
          .contains("not a valid image reference; fix spark.kubernetes.container.image");
    }
  }

  @Nested
  class ConfigError {
    @Test
    void missingSecretIsNamed() {
      JsonObject p =
          pod().waiting("CreateContainerConfigError", "secret \"db-creds\" not found").build();

      Diagnosis d = diagnose(stuck().driverPod(p));

      assertThat(d.cause()).isEqualTo(Cause.CONFIG_ERROR);
      assertThat(d.summary())
          .isEqualTo(
              "Container spark-kubernetes-driver of driver pod jobs/app-driver cannot be created:"
                  + " secret \"db-creds\" not found. Create what it names or fix the reference in"
                  + " the job's spec.");
    }

    @Test
    void missingKeyIsNamed() {
      JsonObject p =
          pod()
              .waiting(
                  "CreateContainerConfigError",
                  "couldn't find key password in Secret jobs/db-creds")
              .build();

      assertThat(diagnose(stuck().driverPod(p)).summary())
          .contains("couldn't find key password in Secret jobs/db-creds");
    }

    @Test
    void missingDriverConfMapIsExplained() {
      JsonObject p = pod().pending().build();
      JsonObject mount =
          EventBuilder.about(p)
              .warning(
                  "FailedMount",
                  "MountVolume.SetUp failed for volume \"spark-conf-volume-driver\" : configmap"
                      + " \"spark-9c1e0d8a-driver-conf-map\" not found")
              .seen(12, Fixtures.T0.plusSeconds(2), Fixtures.T0.plusSeconds(500))
              .build();

      Diagnosis d = diagnose(stuck().driverPod(p).events(List.of(mount)));

      assertThat(d.cause()).isEqualTo(Cause.CONFIG_ERROR);
      assertThat(d.summary())
          .startsWith("Driver pod jobs/app-driver cannot mount a volume: MountVolume.SetUp failed")
          .contains("ConfigMap spark-9c1e0d8a-driver-conf-map holds the Spark conf")
          .contains("submit the job again");
      assertThat(d.evidence().get(0).count()).isEqualTo(12);
    }

    @Test
    void failedMountOfARunningPodIsHistory() {
      JsonObject p = pod().running(Fixtures.T0.plusSeconds(60)).build();
      JsonObject mount =
          EventBuilder.about(p).warning("FailedMount", "MountVolume.SetUp failed").build();

      assertThat(DIAGNOSER.diagnose(stuck().driverPod(p).events(List.of(mount)).build())).isEmpty();
    }
  }

  @Nested
  class Terminations {
    @Test
    void oomKilledDriverNamesTheSettingToRaise() {
      JsonObject p =
          pod()
              .terminated(137, Fixtures.T0.plusSeconds(20), Fixtures.T0.plusSeconds(90))
              .terminationReason("OOMKilled", null)
              .build();

      Diagnosis d = diagnose(failed().driverPod(p));

      assertThat(d.cause()).isEqualTo(Cause.OOM_KILLED);
      assertThat(d.summary())
          .isEqualTo(
              "Container spark-kubernetes-driver of driver pod jobs/app-driver was OOMKilled"
                  + " (exit code 137): it used more memory than its limit; raise spark.driver.memory"
                  + " or spark.driver.memoryOverhead.");
      assertThat(d.evidence().get(0).lastSeen()).contains(Fixtures.T0.plusSeconds(90));
    }

    @Test
    void evictedDriverIsNeverCalledOomKilled() {
      String kubelet =
          "The node was low on resource: memory. Threshold quantity: 100Mi, available: 60Mi."
              + " Container spark-kubernetes-driver was using 3Gi, request is 1Gi, has larger"
              + " consumption of memory. ";
      JsonObject p =
          pod().evicted(kubelet, Fixtures.T0.plusSeconds(20), Fixtures.T0.plusSeconds(90)).build();

      Diagnosis d = diagnose(failed().driverPod(p));

      assertThat(d.cause()).isEqualTo(Cause.EVICTED);
      assertThat(d.summary())
          .startsWith(
              "Driver pod jobs/app-driver was evicted by the kubelet: The node was low on"
                  + " resource: memory.")
          .doesNotContain("OOM");
      assertThat(d.evidence().get(0).message()).isEqualTo(kubelet);
    }

    @Test
    void diskPressureEvictionKeepsTheKubeletsWords() {
      JsonObject p =
          pod()
              .evicted(
                  "The node had condition: [DiskPressure]. ",
                  Fixtures.T0.plusSeconds(20),
                  Fixtures.T0.plusSeconds(90))
              .build();

      assertThat(diagnose(failed().driverPod(p)).summary())
          .contains("The node had condition: [DiskPressure].");
    }

    @Test
    void driverExitCodeAndTerminationMessageAreGiven() {
      JsonObject p =
          pod()
              .terminated(1, Fixtures.T0.plusSeconds(20), Fixtures.T0.plusSeconds(90))
              .terminationReason(
                  "Error",
                  "\tat org.apache.spark.deploy.SparkSubmit.main(SparkSubmit.scala)\n"
                      + "Exception in thread \"main\" java.io.FileNotFoundException: s3a://b/in.csv")
              .build();

      Diagnosis d = diagnose(failed().driverPod(p));

      assertThat(d.cause()).isEqualTo(Cause.DRIVER_EXITED_WITH_ERROR);
      assertThat(d.summary())
          .isEqualTo(
              "Driver container spark-kubernetes-driver of pod jobs/app-driver exited with code 1"
                  + " (Error): Exception in thread \"main\" java.io.FileNotFoundException:"
                  + " s3a://b/in.csv; read the driver log for the error.");
    }

    @Test
    void oomKilledExecutorExplainsADriverThatExitedWithAnError() {
      JsonObject driver =
          pod().terminated(1, Fixtures.T0.plusSeconds(20), Fixtures.T0.plusSeconds(90)).build();
      JsonObject executor =
          DriverPodBuilder.kubeflow("app")
              .name("app-exec-1")
              .terminated(137, Fixtures.T0.plusSeconds(30), Fixtures.T0.plusSeconds(80))
              .terminationReason("OOMKilled", null)
              .build();

      Diagnosis d = diagnose(failed().driverPod(driver).executorPods(List.of(executor)));

      assertThat(d.cause()).isEqualTo(Cause.OOM_KILLED);
      assertThat(d.summary())
          .contains("executor pod jobs/app-exec-1")
          .contains("spark.executor.memory");
      assertThat(d.evidence()).hasSize(2);
    }

    @Test
    void crashLoopingSidecarIsNamed() {
      JsonObject p = pod().sidecarCrashLooping(2).build();

      Diagnosis d = diagnose(stuck().driverPod(p));

      assertThat(d.cause()).isEqualTo(Cause.CONTAINER_CRASH_LOOP);
      assertThat(d.summary())
          .startsWith(
              "Sidecar container sidecar of driver pod jobs/app-driver keeps crashing (last exit"
                  + " code 2, Error)");
      assertThat(d.evidence().get(0).message())
          .startsWith("back-off 2m40s restarting failed container=sidecar");
    }

    @Test
    void crashLoopingInitContainerIsNamed() {
      JsonObject p = pod().initContainer("fetch-jars", 1).build();

      Diagnosis d = diagnose(stuck().driverPod(p));

      assertThat(d.cause()).isEqualTo(Cause.CONTAINER_CRASH_LOOP);
      assertThat(d.summary()).startsWith("Init container fetch-jars of driver pod jobs/app-driver");
    }
  }

  @Nested
  class Admission {
    @Test
    void kueueQuotaOnTheWorkloadIsReadFromANormalEvent() {
      JsonObject pending =
          EventBuilder.about("Workload", "jobs", "pod-app-driver-3f2a1")
              .normal(
                  "Pending",
                  "couldn't assign flavors to pod set main: insufficient unused quota for cpu in"
                      + " flavor default-flavor, 3 more needed")
              .reportedBy("kueue-admission")
              .build();
      JsonObject p = pod().schedulingGated("kueue.x-k8s.io/admission").build();

      Diagnosis d = diagnose(stuck().driverPod(p).events(List.of(pending)));

      // The gated pod is the first thing seen; it names the gate.
      assertThat(d.cause()).isEqualTo(Cause.WAITING_FOR_ADMISSION);
      assertThat(d.summary()).contains("[kueue.x-k8s.io/admission]");

      Diagnosis withoutPod = diagnose(stuck().events(List.of(pending)));
      assertThat(withoutPod.cause()).isEqualTo(Cause.WAITING_FOR_ADMISSION);
      assertThat(withoutPod.summary())
          .contains("waits for Kueue")
          .contains("insufficient unused quota for cpu in flavor default-flavor, 3 more needed");
      assertThat(withoutPod.evidence().get(0).type()).isEqualTo("Normal");
    }

    @Test
    void volcanoPodGroupPendingIsReadFromItsEvent() {
      JsonObject gang =
          EventBuilder.about("PodGroup", "jobs", "spark-app-pg")
              .warning(
                  "Unschedulable",
                  "1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1"
                      + " minAvailable; Pending: 1 Unschedulable")
              .reportedBy("volcano")
              .build();

      Diagnosis d = diagnose(stuck().events(List.of(gang)));

      assertThat(d.cause()).isEqualTo(Cause.WAITING_FOR_ADMISSION);
      assertThat(d.summary()).contains("waits for Volcano to admit it (PodGroup spark-app-pg)");
    }
  }

  @Nested
  class YuniKorn {
    @Test
    void queueQuotaSkipIsReadFromTheConditionAndTheNormalEvent() {
      // apache/yunikorn-k8shim at 23b6b47f9835211e7bfb82bfbd203a8a0e00958f, pkg/cache/context.go:
      // a SKIPPED scheduling state sets PodScheduled=False reason SchedulingSkipped and records a
      // Normal PodUnschedulable event "Task %s is skipped from scheduling because the queue quota
      // has been exceed", through the events.k8s.io recorder named "yunikorn"
      // (pkg/shim/scheduler.go).
      JsonObject p = pod().notScheduled("SchedulingSkipped", "").build();
      JsonObject skipped =
          EventBuilder.about(p)
              .normal(
                  "PodUnschedulable",
                  "Task app-driver is skipped from scheduling because the queue quota has been"
                      + " exceed")
              .reportedBy("yunikorn")
              .buildSeries();

      Diagnosis d = diagnose(stuck().driverPod(p).events(List.of(skipped)));

      assertThat(d.cause()).isEqualTo(Cause.WAITING_FOR_ADMISSION);
      assertThat(d.summary())
          .isEqualTo(
              "Driver pod jobs/app-driver is skipped by YuniKorn because its queue's quota is"
                  + " exceeded. It starts when the queue has room; free quota or raise the queue's"
                  + " limit.");
      assertThat(d.evidence())
          .extracting(Evidence::reason)
          .containsExactly("SchedulingSkipped", "PodUnschedulable");
      assertThat(d.evidence().get(1).type()).isEqualTo("Normal");
    }
  }

  @Nested
  class Operator {
    @Test
    void noStatusAndNoEventAfterTheThresholdMeansNoOperatorWatches() {
      Diagnosis d = diagnose(stuck());

      assertThat(d.cause()).isEqualTo(Cause.OPERATOR_NOT_RUNNING);
      assertThat(d.summary())
          .isEqualTo(
              "No operator has written a status or an event for SparkApplication jobs/app in 300"
                  + " s: check that the operator runs and watches namespace jobs.");
    }

    @Test
    void aJobFailedByTheNoStatusTimeoutHasTheSameCauseAndSaysItWasFailed() {
      Diagnosis d = diagnose(failed().waited(Duration.ofMinutes(10)));

      assertThat(d.cause()).isEqualTo(Cause.OPERATOR_NOT_RUNNING);
      assertThat(d.summary())
          .isEqualTo(
              "No operator has written a status or an event for SparkApplication jobs/app in 600"
                  + " s, so it was failed: check that the operator runs and watches namespace"
                  + " jobs.");
    }

    @Test
    void aStatusOfEmptyStringsIsNoStatus() {
      JsonObject state = new JsonObject();
      state.addProperty("state", "");
      JsonObject status = new JsonObject();
      status.add("applicationState", state);

      assertThat(diagnose(stuck().operatorStatus(status)).cause())
          .isEqualTo(Cause.OPERATOR_NOT_RUNNING);
      state.addProperty("state", "SUBMITTED");
      assertThat(DIAGNOSER.diagnose(stuck().operatorStatus(status).build())).isEmpty();
    }

    @Test
    void aJobFailedWithoutStatusBeforeTheThresholdIsNotBlamedOnTheOperator() {
      // Deleted by someone within seconds: no operator could have been expected to write yet.
      assertThat(DIAGNOSER.diagnose(failed().waited(Duration.ofSeconds(59)).build())).isEmpty();
    }

    @Test
    void anOperatorEventAboutTheApplicationMeansAnOperatorWatches() {
      JsonObject added =
          EventBuilder.about("SparkApplication", "jobs", "app")
              .normal(
                  "SparkApplicationAdded",
                  "SparkApplication app was added, enqueuing it for submission")
              .reportedBy("spark-operator")
              .build();

      assertThat(DIAGNOSER.diagnose(stuck().events(List.of(added)).build())).isEmpty();
    }

    @Test
    void eventsThatCouldNotBeReadAreNamed() {
      JsonObject status = new JsonObject();
      status.addProperty("phase", "whatever");
      Diagnosis d =
          diagnose(
              stuck()
                  .operatorStatus(status)
                  .eventsNotRead("events is forbidden: cannot list resource \"events\""));

      assertThat(d.cause()).isEqualTo(Cause.UNDETERMINED);
      assertThat(d.summary()).contains("Allow list on events in namespace jobs");
      assertThat(d.evidence().get(0).source()).isEqualTo(Evidence.Source.NOT_READ);
    }
  }

  @Nested
  class Executors {
    @Test
    void unschedulableExecutorsOfARunningDriverAreNamed() {
      JsonObject executor =
          DriverPodBuilder.kubeflow("app")
              .name("app-exec-2")
              .createdAt(Fixtures.T0.plusSeconds(60))
              .unschedulable("0/3 nodes are available: 3 Insufficient memory.")
              .build();
      JsonObject running =
          DriverPodBuilder.kubeflow("app")
              .name("app-exec-1")
              .running(Fixtures.T0.plusSeconds(60))
              .build();
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.STARTED, NOW)
              .driverPod(pod().running(Fixtures.T0.plusSeconds(30)).build())
              .executorPods(List.of(running, executor))
              .build();

      Diagnosis d = DIAGNOSER.diagnose(input).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_PENDING);
      assertThat(d.summary())
          .startsWith(
              "The driver of SparkApplication jobs/app runs, but 1 of 2 executor pods cannot start:"
                  + " Executor pod jobs/app-exec-2 cannot be scheduled: 0/3 nodes are available: 3"
                  + " Insufficient memory.");
    }

    private DiagnosisInput.Builder runningWith(JsonObject... executors) {
      return DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.STARTED, NOW)
          .driverPod(pod().running(Fixtures.T0.plusSeconds(30)).build())
          .executorPods(List.of(executors));
    }

    private JsonObject executor(String name, int exitCode, String reason) {
      return DriverPodBuilder.kubeflow("app")
          .name(name)
          .terminated(exitCode, Fixtures.T0.plusSeconds(60), Fixtures.T0.plusSeconds(300))
          .terminationReason(reason, null)
          .build();
    }

    /**
     * The kubelet reports a container the kernel killed at its cgroup's memory limit as terminated
     * with reason {@code OOMKilled} and exit code 137 (kubernetes {@code
     * pkg/kubelet/kuberuntime/kuberuntime_container.go}, the runtime's {@code OOMKilled} reason).
     */
    @Test
    void oomKilledExecutorsOfARunningDriverAreNamedWithTheOverheadToRaise() {
      JsonObject live =
          DriverPodBuilder.kubeflow("app")
              .name("app-exec-3")
              .running(Fixtures.T0.plusSeconds(60))
              .build();

      Diagnosis d =
          diagnose(
              runningWith(
                  executor("app-exec-1", 137, "OOMKilled"),
                  live,
                  executor("app-exec-2", 137, "OOMKilled")));

      assertThat(d.cause()).isEqualTo(Cause.OOM_KILLED);
      assertThat(d.summary())
          .isEqualTo(
              "The driver of SparkApplication jobs/app runs, but 2 executor pods died:"
                  + " jobs/app-exec-1 OOMKilled (exit code 137), jobs/app-exec-2 OOMKilled (exit"
                  + " code 137). An OOMKilled executor used more memory than its pod's limit,"
                  + " outside the JVM heap too: raise spark.executor.memoryOverhead (or"
                  + " spark.executor.memory).");
      assertThat(d.evidence())
          .extracting(Evidence::source)
          .containsExactly(Evidence.Source.CONTAINER_STATE, Evidence.Source.CONTAINER_STATE);
    }

    /**
     * Spark's executor exits with {@code SparkExitCode.OOM}, 52, when its JVM runs out of heap
     * (apache/spark {@code core/src/main/scala/org/apache/spark/util/SparkExitCode.scala}); other
     * exits are named with their code and the logs to read.
     */
    @Test
    void executorsThatDiedOtherwiseAreNamedWithHowAndWhatToDo() {
      Diagnosis d =
          diagnose(
              runningWith(executor("app-exec-1", 52, "Error"), executor("app-exec-2", 1, "Error")));

      assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_DIED);
      assertThat(d.summary())
          .contains(
              "2 executor pods died: jobs/app-exec-1 out of JVM heap (exit code 52),"
                  + " jobs/app-exec-2 exited with code 1 (Error).")
          .contains("larger spark.executor.memory")
          .contains("Read the executors' logs");
    }

    @Test
    void anExecutorThatEndedWellIsNoCause() {
      assertThat(DIAGNOSER.diagnose(runningWith(executor("app-exec-1", 0, "Completed")).build()))
          .isEmpty();
    }

    @Test
    void executorPendingForLessThanTheThresholdIsNoCause() {
      JsonObject executor =
          DriverPodBuilder.kubeflow("app")
              .name("app-exec-2")
              .createdAt(NOW.minusSeconds(10))
              .unschedulable("0/3 nodes are available: 3 Insufficient memory.")
              .build();
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.STARTED, NOW)
              .executorPods(List.of(executor))
              .build();

      assertThat(DIAGNOSER.diagnose(input)).isEmpty();
    }
  }

  /**
   * A node that stops reporting: the node lifecycle controller marks its pods not ready and records
   * {@code Warning NodeNotReady "Node is not ready"} on each (kubernetes {@code
   * pkg/controller/util/node/controller_utils.go}, {@code MarkPodsNotReady}); the taint eviction
   * controller records {@code Normal TaintManagerEviction "Marking for deletion Pod %s"}
   * (kubernetes {@code pkg/controller/tainteviction/taint_eviction.go}, {@code
   * emitPodDeletionEvent}); the scheduler's {@code Scheduled} event named the node.
   */
  @Nested
  class NodeLost {
    @Test
    void aFailedJobWhoseDriverPodWentWithItsNodeNamesTheNode() {
      JsonObject scheduled =
          EventBuilder.about("Pod", "jobs", "app-driver")
              .normal("Scheduled", "Successfully assigned jobs/app-driver to node-7")
              .build();
      JsonObject notReady =
          EventBuilder.about("Pod", "jobs", "app-driver")
              .warning("NodeNotReady", "Node is not ready")
              .reportedBy("node-controller")
              .build();
      JsonObject evicted =
          EventBuilder.about("Pod", "jobs", "app-driver")
              .normal("TaintManagerEviction", "Marking for deletion Pod jobs/app-driver")
              .reportedBy("taint-eviction-controller")
              .build();

      Diagnosis d = diagnose(failed().events(List.of(scheduled, notReady, evicted)));

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
    void anotherPodsLostNodeIsNoCause() {
      JsonObject notReady =
          EventBuilder.about("Pod", "jobs", "other-driver")
              .warning("NodeNotReady", "Node is not ready")
              .build();

      assertThat(DIAGNOSER.diagnose(failed().events(List.of(notReady)).build())).isEmpty();
    }
  }

  @Nested
  class Controls {
    @Test
    void healthyRunningJobGetsNone() {
      JsonObject p = pod().running(Fixtures.T0.plusSeconds(20)).build();
      JsonObject scheduled =
          EventBuilder.about(p)
              .normal("Scheduled", "Successfully assigned jobs/app-driver to node-1")
              .build();
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.STARTED, NOW)
              .driverPod(p)
              .events(List.of(scheduled))
              .build();

      assertThat(DIAGNOSER.diagnose(input)).isEmpty();
    }

    @Test
    void queuedJobUnderTheThresholdIsNotDiagnosedEvenWhenItsPodCannotPull() {
      JsonObject p = pod().waiting("ImagePullBackOff", "Back-off pulling image \"x\"").build();

      assertThat(DIAGNOSER.diagnose(queued(Duration.ofSeconds(59)).driverPod(p).build())).isEmpty();
      assertThat(DIAGNOSER.diagnose(queued(Duration.ofSeconds(60)).driverPod(p).build()))
          .isPresent();
    }

    @Test
    void succeededAndCancelledJobsGetNone() {
      JsonObject p =
          pod()
              .terminated(137, Fixtures.T0.plusSeconds(20), Fixtures.T0.plusSeconds(90))
              .terminationReason("OOMKilled", null)
              .build();
      for (JobStatus s : List.of(JobStatus.SUCCEEDED, JobStatus.CANCELLED, JobStatus.CANCELLING)) {
        DiagnosisInput input =
            DiagnosisInput.builder("jobs", "SparkApplication", "app", s, NOW).driverPod(p).build();
        assertThat(DIAGNOSER.diagnose(input)).as("%s", s).isEmpty();
      }
    }

    @Test
    void thresholdIsConfigurableAndValidated() {
      Diagnoser patient = Diagnoser.builder().stuckAfter(Duration.ofMinutes(10)).build();
      JsonObject p = pod().waiting("ImagePullBackOff", "Back-off pulling image \"x\"").build();

      assertThat(patient.diagnose(stuck().driverPod(p).build())).isEmpty();
      assertThatThrownBy(() -> Diagnoser.builder().stuckAfter(Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("stuckAfter must be positive, but was PT0S");
    }

    @Test
    void anEventsFiveMegabyteMessageIsPassedOnCappedWithItsHeadAndTail() {
      String huge = "0/3 nodes are available: " + "x".repeat(5 * 1024 * 1024) + " END.";
      JsonObject p = pod().unschedulable("0/3 nodes are available: 3 Insufficient cpu.").build();
      JsonObject event = EventBuilder.about(p).warning("FailedScheduling", huge).build();

      Diagnosis d = diagnose(stuck().driverPod(p).events(List.of(event)));

      assertThat(d.evidence()).hasSizeGreaterThan(1);
      assertThat(d.evidence())
          .allSatisfy(
              e -> assertThat(e.message()).hasSizeLessThanOrEqualTo(Messages.MAX_MESSAGE_CHARS));
      assertThat(d.evidence())
          .anySatisfy(e -> assertThat(e.message()).startsWith("0/3 nodes").endsWith(" END."));
    }

    @Test
    void everyMessagePassedOnIsCapped() {
      String huge = "x".repeat(3_000_000);
      JsonObject p = pod().waiting("CreateContainerConfigError", huge).build();

      Diagnosis d = diagnose(stuck().driverPod(p));

      assertThat(d.summary().length()).isLessThanOrEqualTo(Messages.MAX_MESSAGE_CHARS);
      assertThat(d.evidence())
          .allSatisfy(
              e ->
                  assertThat(e.message().length()).isLessThanOrEqualTo(Messages.MAX_MESSAGE_CHARS));
    }
  }
}
