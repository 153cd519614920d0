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
package dev.kubejobs.testkit;

import static dev.kubejobs.testkit.Kube.NS;
import static dev.kubejobs.testkit.Kube.SPARK_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.util.generic.options.DeleteOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fake kubelet moves pods that a client created through the API as a node would, read back
 * through client-java's typed API: phases, conditions, container states, logs and Events.
 */
class FakeKubeletTest {

  static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-03-01T12:00:00Z"));

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).clock(CLOCK).build();

  private final List<FakeKubelet> kubelets = new ArrayList<>();

  @AfterEach
  void closeKubelets() {
    kubelets.forEach(FakeKubelet::close);
  }

  private FakeKubelet kubelet(FakeKubelet.Builder builder) {
    FakeKubelet k = builder.build();
    kubelets.add(k);
    return k;
  }

  private CoreV1Api core() {
    return new CoreV1Api(kube.client());
  }

  @Test
  void aPodIsScheduledCreatedRunAndSucceedsOneTransitionPerStep() throws ApiException {
    FakeKubelet kubelet =
        kubelet(FakeKubelet.builder(kube.server()).stepDuration(Duration.ofSeconds(5)));
    Instant created = CLOCK.instant();
    createPod("pi-driver", "apache/spark:4.0.1", Map.of("spark-role", "driver"));

    assertThat(kubelet.step()).isTrue();
    V1Pod pod = read("pi-driver");
    assertThat(pod.getSpec().getNodeName()).isEqualTo(FakeKubelet.DEFAULT_NODE);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(condition(pod, "PodScheduled").getStatus()).isEqualTo("True");
    assertThat(events("pi-driver"))
        .contains(
            "Normal Scheduled default-scheduler Successfully assigned jobs/pi-driver to "
                + FakeKubelet.DEFAULT_NODE);

    kubelet.step();
    pod = read("pi-driver");
    assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(driver(pod).getState().getWaiting().getReason()).isEqualTo("ContainerCreating");
    assertThat(condition(pod, "Ready").getStatus()).isEqualTo("False");
    assertThatThrownBy(() -> core().readNamespacedPodLog("pi-driver", NS).execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(400));

    kubelet.step();
    pod = read("pi-driver");
    assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
    assertThat(condition(pod, "Ready").getStatus()).isEqualTo("True");
    assertThat(driver(pod).getReady()).isTrue();
    assertThat(driver(pod).getState().getRunning().getStartedAt().toInstant())
        .isEqualTo(created.plusSeconds(15));
    assertThat(pod.getStatus().getPodIP()).isNotBlank();
    assertThat(core().readNamespacedPodLog("pi-driver", NS).execute())
        .isEqualTo("Container spark-kubernetes-driver of pod pi-driver started\n");
    assertThat(events("pi-driver"))
        .contains(
            "Normal Started kubelet Started container spark-kubernetes-driver",
            "Normal Created kubelet Created container: spark-kubernetes-driver");

    kubelet.step();
    assertThat(read("pi-driver").getStatus().getPhase()).isEqualTo("Running");
    kubelet.step();
    pod = read("pi-driver");
    assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
    assertThat(driver(pod).getState().getTerminated().getExitCode()).isZero();
    assertThat(driver(pod).getState().getTerminated().getReason()).isEqualTo("Completed");
    assertThat(driver(pod).getState().getTerminated().getFinishedAt().toInstant())
        .isEqualTo(created.plusSeconds(25));
    assertThat(condition(pod, "Ready").getReason()).isEqualTo("PodCompleted");
    assertThat(core().readNamespacedPodLog("pi-driver", NS).execute())
        .endsWith("exited with code 0\n");

    assertThat(kubelet.step()).isFalse();
  }

  @Test
  void rulesChooseEachPodsScriptTheFirstMatchWinning() throws ApiException {
    FakeKubelet kubelet =
        kubelet(
            FakeKubelet.builder(kube.server())
                .script(
                    FakeKubelet.labelled("spark-role", "driver"),
                    FakeKubelet.Script.exits(3)
                        .runningFor(1)
                        .log("Exception in thread \"main\" java.lang.IllegalStateException\n"))
                .script(
                    FakeKubelet.nameMatches(".*-exec-.*"), FakeKubelet.Script.runsUntilDeleted())
                .script(
                    FakeKubelet.labelled("spark-role", "driver"), FakeKubelet.Script.succeeds()));
    createPod("fails-driver", "apache/spark:4.0.1", Map.of("spark-role", "driver"));
    createPod("pi-exec-1", "apache/spark:4.0.1", Map.of("spark-role", "executor"));
    createPod("plain", "busybox", Map.of());

    kubelet.stepUntilSettled();

    V1Pod driver = read("fails-driver");
    assertThat(driver.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(driver(driver).getState().getTerminated().getExitCode()).isEqualTo(3);
    assertThat(driver(driver).getState().getTerminated().getReason()).isEqualTo("Error");
    assertThat(core().readNamespacedPodLog("fails-driver", NS).execute())
        .contains("IllegalStateException");
    assertThat(read("pi-exec-1").getStatus().getPhase()).isEqualTo("Running");
    assertThat(read("plain").getStatus().getPhase()).isEqualTo("Succeeded");
  }

  /**
   * An image that cannot be pulled: {@code ErrImagePull}, then {@code ImagePullBackOff} for good,
   * with the kubelet's Events ({@code pkg/kubelet/images/image_manager.go}).
   */
  @Test
  void anImageThatCannotBePulledWaitsInImagePullBackOffWithTheKubeletsEvents() throws ApiException {
    FakeKubelet kubelet =
        kubelet(
            FakeKubelet.builder(kube.server())
                .script(FakeKubelet.imageContains(":typo"), FakeKubelet.Script.imagePullFails()));
    createPod("pi-driver", "apache/spark:typo", Map.of());

    kubelet.stepUntil(() -> waitingReason("pi-driver").equals("ErrImagePull"));
    assertThat(driver(read("pi-driver")).getState().getWaiting().getMessage())
        .contains("not found");
    kubelet.stepUntilSettled();

    V1Pod pod = read("pi-driver");
    assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(driver(pod).getState().getWaiting().getReason()).isEqualTo("ImagePullBackOff");
    assertThat(driver(pod).getState().getWaiting().getMessage())
        .isEqualTo("Back-off pulling image \"apache/spark:typo\"");
    assertThat(events("pi-driver"))
        .contains(
            "Normal Pulling kubelet Pulling image \"apache/spark:typo\"",
            "Warning Failed kubelet Error: ErrImagePull",
            "Normal BackOff kubelet Back-off pulling image \"apache/spark:typo\"",
            "Warning Failed kubelet Error: ImagePullBackOff");
    assertThat(kubelet.step()).isFalse();
  }

  /** No node fits: {@code Unschedulable} and the scheduler's {@code FailedScheduling} Event. */
  @Test
  void anUnschedulablePodStaysPendingWithTheSchedulersEvent() throws ApiException {
    FakeKubelet kubelet =
        kubelet(
            FakeKubelet.builder(kube.server()).defaultScript(FakeKubelet.Script.unschedulable()));
    createPod("pi-driver", "apache/spark:4.0.1", Map.of());

    kubelet.stepUntilSettled();

    V1Pod pod = read("pi-driver");
    assertThat(pod.getSpec().getNodeName()).isNull();
    assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
    V1PodCondition scheduled = condition(pod, "PodScheduled");
    assertThat(scheduled.getStatus()).isEqualTo("False");
    assertThat(scheduled.getReason()).isEqualTo("Unschedulable");
    assertThat(events("pi-driver"))
        .containsExactly(
            "Warning FailedScheduling default-scheduler "
                + FakeKubelet.Script.DEFAULT_UNSCHEDULABLE_MESSAGE);
  }

  /**
   * A running pod's DELETE marks it with a grace period (the pod strategy's {@code
   * CheckGracefulDelete}, {@code pkg/registry/core/pod/strategy.go}); the kubelet stops its
   * containers (exit 143, Event {@code Killing}) and removes it at its next step.
   */
  @Test
  void aDeletedRunningPodTerminatesGracefullyAndTheKubeletRemovesIt() throws ApiException {
    FakeKubelet kubelet =
        kubelet(
            FakeKubelet.builder(kube.server())
                .defaultScript(FakeKubelet.Script.runsUntilDeleted()));
    createPod("pi-exec-1", "apache/spark:4.0.1", Map.of());
    kubelet.stepUntilSettled();
    List<JsonObject> seen = new ArrayList<>();
    ResourceListener listener = e -> seen.add(e.object());
    kube.server().store().addListener(listener);

    V1Pod answer = core().deleteNamespacedPod("pi-exec-1", NS).execute();

    assertThat(answer.getMetadata().getDeletionTimestamp().toInstant())
        .isEqualTo(CLOCK.instant().plusSeconds(30));
    assertThat(answer.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
    assertThat(read("pi-exec-1").getStatus().getPhase()).isEqualTo("Running");

    assertThat(kubelet.step()).isTrue();
    kube.server().store().removeListener(listener);

    assertThat(kube.server().store().get(ResourceType.POD, NS, "pi-exec-1")).isEmpty();
    JsonObject last = seen.get(seen.size() - 1);
    JsonObject terminated =
        last.getAsJsonObject("status")
            .getAsJsonArray("containerStatuses")
            .get(0)
            .getAsJsonObject()
            .getAsJsonObject("state")
            .getAsJsonObject("terminated");
    assertThat(terminated.get("exitCode").getAsInt()).isEqualTo(143);
    assertThat(last.getAsJsonObject("status").get("phase").getAsString()).isEqualTo("Failed");
    assertThat(events("pi-exec-1"))
        .contains("Normal Killing kubelet Stopping container spark-kubernetes-driver");
  }

  /**
   * The chain a real operator relies on: an application deleted in the foreground holds its {@code
   * foregroundDeletion} finalizer while its driver pod (owner reference with {@code
   * blockOwnerDeletion}) terminates, the pod's Service is collected with the pod, and the
   * application goes when the kubelet has removed the pod.
   */
  @Test
  void aForegroundDeleteOfAnApplicationWaitsForTheKubeletToRemoveItsDriver() throws ApiException {
    FakeKubelet kubelet =
        kubelet(
            FakeKubelet.builder(kube.server())
                .defaultScript(FakeKubelet.Script.runsUntilDeleted()));
    JsonObject app = kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    JsonObject pod = DeleteTest.ownedPod("pi-driver", app);
    pod.getAsJsonObject("metadata")
        .getAsJsonArray("ownerReferences")
        .get(0)
        .getAsJsonObject()
        .addProperty("blockOwnerDeletion", true);
    JsonObject driver = kube.server().store().create(ResourceType.POD, NS, pod);
    JsonObject service = DeleteTest.ownedPod("pi-driver-svc", driver);
    service.remove("spec");
    kube.server().store().create(ResourceType.SERVICE, NS, service);
    kubelet.stepUntilSettled();

    DeleteOptions foreground = new DeleteOptions();
    foreground.setPropagationPolicy("Foreground");
    Kube.apps(kube.client()).delete(NS, "pi", foreground);

    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isPresent();
    assertThat(read("pi-driver").getMetadata().getDeletionTimestamp()).isNotNull();

    kubelet.step();

    assertThat(kube.server().store().get(ResourceType.POD, NS, "pi-driver")).isEmpty();
    assertThat(kube.server().store().get(ResourceType.SERVICE, NS, "pi-driver-svc")).isEmpty();
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
  }

  /** {@code gracePeriodSeconds=0} removes a pod at once (a force delete), kubelet or not. */
  @Test
  void aDeleteWithGracePeriodZeroRemovesARunningPodAtOnce() throws ApiException {
    FakeKubelet kubelet =
        kubelet(
            FakeKubelet.builder(kube.server())
                .defaultScript(FakeKubelet.Script.runsUntilDeleted()));
    createPod("pi-exec-1", "apache/spark:4.0.1", Map.of());
    kubelet.stepUntilSettled();
    assertThat(read("pi-exec-1").getStatus().getQosClass()).isEqualTo("BestEffort");

    core().deleteNamespacedPod("pi-exec-1", NS).gracePeriodSeconds(0).execute();

    assertThat(kube.server().store().get(ResourceType.POD, NS, "pi-exec-1")).isEmpty();
    assertThat(kubelet.step()).isFalse();
  }

  @Test
  void podsWrittenWholeByAFakeOperatorOrBoundElsewhereAreLeftAlone() {
    FakeKubelet kubelet = kubelet(FakeKubelet.builder(kube.server()));
    JsonObject written = DeleteTest.ownedPod("written", null);
    written.add(
        "status",
        Kube.json("{'phase':'Running','conditions':[{'type':'PodScheduled','status':'True'}]}"));
    kube.server().store().create(ResourceType.POD, NS, written);
    JsonObject elsewhere = DeleteTest.ownedPod("elsewhere", null);
    elsewhere.getAsJsonObject("spec").addProperty("nodeName", "other-node");
    kube.server().store().create(ResourceType.POD, NS, elsewhere);

    assertThat(kubelet.step()).isFalse();

    assertThat(
            kube.server()
                .store()
                .get(ResourceType.POD, NS, "elsewhere")
                .orElseThrow()
                .has("status"))
        .isFalse();
    assertThat(kube.server().store().delete(ResourceType.POD, NS, "elsewhere")).isTrue();
  }

  @Test
  void onATimerItMovesPodsByItselfAndOnceClosedPodsAreRemovedAtOnce() throws ApiException {
    FakeKubelet kubelet =
        kubelet(
            FakeKubelet.builder(kube.server())
                .defaultScript(FakeKubelet.Script.runsUntilDeleted()));
    kubelet.start(Duration.ofMillis(20));
    createPod("pi-driver", "apache/spark:4.0.1", Map.of());

    await().atMost(Duration.ofSeconds(10)).until(() -> "Running".equals(phase("pi-driver")));

    kubelet.close();
    V1Pod answer = core().deleteNamespacedPod("pi-driver", NS).execute();
    assertThat(answer.getMetadata().getName()).isEqualTo("pi-driver");
    assertThat(kube.server().store().get(ResourceType.POD, NS, "pi-driver")).isEmpty();
    assertThatThrownBy(kubelet::step).isInstanceOf(IllegalStateException.class);
  }

  /**
   * The example testkit/README.md quotes: a node on its own server, whose drivers fail, whose
   * images with a typo never pull and whose other pods (executors) run until deleted.
   */
  @Test
  void theReadmesNodeMovesEachPodByTheFirstScriptThatMatches() throws ApiException {
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
        FakeKubelet kubelet =
            FakeKubelet.builder(server)
                .script(FakeKubelet.imageContains(":typo"), FakeKubelet.Script.imagePullFails())
                .script(
                    FakeKubelet.labelled("spark-role", "driver"),
                    FakeKubelet.Script.exits(1).runningFor(3).log("Exception in thread main\n"))
                .defaultScript(FakeKubelet.Script.runsUntilDeleted()) // executors
                .build()) {
      CoreV1Api api = new CoreV1Api(server.newClient());
      createPod(api, "pi-driver", "apache/spark:4.0.1", Map.of("spark-role", "driver"));
      createPod(api, "pi-exec-1", "apache/spark:4.0.1", Map.of("spark-role", "executor"));
      createPod(api, "typo-driver", "apache/spark:typo", Map.of("spark-role", "driver"));

      kubelet.stepUntilSettled(); // every pod as far as its script goes (deterministic tests)

      V1Pod driver = api.readNamespacedPod("pi-driver", NS).execute();
      assertThat(driver.getStatus().getPhase()).isEqualTo("Failed");
      assertThat(driver(driver).getState().getTerminated().getExitCode()).isEqualTo(1);
      assertThat(api.readNamespacedPodLog("pi-driver", NS).execute())
          .isEqualTo("Exception in thread main\n");
      assertThat(api.readNamespacedPod("pi-exec-1", NS).execute().getStatus().getPhase())
          .isEqualTo("Running");
      V1Pod typo = api.readNamespacedPod("typo-driver", NS).execute();
      assertThat(driver(typo).getState().getWaiting().getReason()).isEqualTo("ImagePullBackOff");
    }
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private void createPod(String name, String image, Map<String, String> labels)
      throws ApiException {
    createPod(core(), name, image, labels);
  }

  private static void createPod(
      CoreV1Api api, String name, String image, Map<String, String> labels) throws ApiException {
    api.createNamespacedPod(
            NS,
            new V1Pod()
                .metadata(new V1ObjectMeta().name(name).labels(labels))
                .spec(
                    new V1PodSpec()
                        .restartPolicy("Never")
                        .addContainersItem(
                            new V1Container().name("spark-kubernetes-driver").image(image))))
        .execute();
  }

  private V1Pod read(String name) throws ApiException {
    return core().readNamespacedPod(name, NS).execute();
  }

  private String phase(String name) {
    return kube.server()
        .store()
        .get(ResourceType.POD, NS, name)
        .map(p -> p.getAsJsonObject("status").get("phase").getAsString())
        .orElse("");
  }

  private String waitingReason(String name) {
    JsonObject status =
        kube.server()
            .store()
            .get(ResourceType.POD, NS, name)
            .orElseThrow()
            .getAsJsonObject("status");
    JsonElement statuses = status.get("containerStatuses");
    if (!(statuses instanceof JsonArray a) || a.isEmpty()) {
      return "";
    }
    JsonObject state = a.get(0).getAsJsonObject().getAsJsonObject("state");
    return state.has("waiting") ? state.getAsJsonObject("waiting").get("reason").getAsString() : "";
  }

  private static V1ContainerStatus driver(V1Pod pod) {
    return pod.getStatus().getContainerStatuses().get(0);
  }

  private static V1PodCondition condition(V1Pod pod, String type) {
    return pod.getStatus().getConditions().stream()
        .filter(c -> c.getType().equals(type))
        .findFirst()
        .orElseThrow();
  }

  private List<String> events(String pod) throws ApiException {
    List<String> result = new ArrayList<>();
    for (CoreV1Event e :
        core()
            .listNamespacedEvent(NS)
            .fieldSelector("involvedObject.name=" + pod)
            .execute()
            .getItems()) {
      result.add(
          e.getType()
              + " "
              + e.getReason()
              + " "
              + e.getReportingComponent()
              + " "
              + e.getMessage());
    }
    return result;
  }
}
