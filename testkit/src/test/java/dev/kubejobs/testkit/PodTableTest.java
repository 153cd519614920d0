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
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pods printed as a {@code Table} as kube-apiserver's built-in printer prints them: {@code
 * printPod} and {@code podColumnDefinitions} in kubernetes {@code
 * pkg/printers/internalversion/printers.go} (commit 51652d1c). Each case below is a branch of
 * {@code printPod}; the expected cells are what that code computes for the pod.
 */
class PodTableTest {

  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  static final MutableClock CLOCK = MutableClock.at(T0.plusSeconds(600));

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().clock(CLOCK).build();

  private static JsonObject table(String path) throws IOException {
    okhttp3.Request request =
        new okhttp3.Request.Builder()
            .url(kube.server().url() + path)
            .header("Accept", TableTest.KUBECTL_ACCEPT)
            .build();
    try (okhttp3.Response r = new okhttp3.OkHttpClient().newCall(request).execute()) {
      assertThat(r.code()).as(path).isEqualTo(200);
      return com.google.gson.JsonParser.parseString(r.body().string()).getAsJsonObject();
    }
  }

  private static List<String> cells(String pod) throws IOException {
    JsonArray cells =
        table("/api/v1/namespaces/" + NS + "/pods/" + pod)
            .getAsJsonArray("rows")
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("cells");
    List<String> out = new ArrayList<>();
    for (JsonElement c : cells) {
      out.add(c.getAsString());
    }
    return out;
  }

  /** Creates a pod created at {@code T0} with one container and the given status. */
  private static void pod(String name, String extraSpec, String status, String extraMeta) {
    JsonObject pod =
        Kube.json(
            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                + name
                + "'"
                + extraMeta
                + "},'spec':{"
                + extraSpec
                + "'containers':[{'name':'spark-kubernetes-driver','image':'spark'}]},"
                + "'status':"
                + status
                + "}");
    CLOCK.set(T0);
    kube.server().store().create(ResourceType.POD, NS, pod);
    CLOCK.set(T0.plusSeconds(600));
  }

  /** The columns: five shown, four wide ones (priority 1), all strings. */
  @Test
  void theColumnsAreThePodPrintersColumns() throws IOException {
    pod("p", "", "{'phase':'Pending'}", "");

    JsonArray defs =
        table("/api/v1/namespaces/" + NS + "/pods").getAsJsonArray("columnDefinitions");

    List<String> names = new ArrayList<>();
    List<Integer> priorities = new ArrayList<>();
    for (JsonElement d : defs) {
      names.add(d.getAsJsonObject().get("name").getAsString());
      priorities.add(d.getAsJsonObject().get("priority").getAsInt());
    }
    assertThat(names)
        .containsExactly(
            "Name",
            "Ready",
            "Status",
            "Restarts",
            "Age",
            "IP",
            "Node",
            "Nominated Node",
            "Readiness Gates");
    assertThat(priorities).containsExactly(0, 0, 0, 0, 0, 1, 1, 1, 1);
  }

  /** A pending pod without container statuses: 0/1, its phase, 0 restarts, wide cells none. */
  @Test
  void aPendingPodShowsItsPhase() throws IOException {
    pod("p", "", "{'phase':'Pending'}", "");

    assertThat(cells("p"))
        .containsExactly("p", "0/1", "Pending", "0", "10m", "<none>", "<none>", "<none>", "<none>");
  }

  /** A running, ready container counts as ready; the node and IP show in the wide cells. */
  @Test
  void aRunningReadyPodIsOneOfOneRunning() throws IOException {
    pod(
        "p",
        "'nodeName':'node-1',",
        "{'phase':'Running','podIPs':[{'ip':'10.0.0.7'}],'containerStatuses':[{'name':'spark-kubernetes-driver',"
            + "'ready':true,'restartCount':0,'state':{'running':{'startedAt':'2026-03-01T10:00:05Z'}}}]}",
        "");

    assertThat(cells("p"))
        .containsExactly(
            "p", "1/1", "Running", "0", "10m", "10.0.0.7", "node-1", "<none>", "<none>");
  }

  /** A waiting container's reason is the status: ImagePullBackOff. */
  @Test
  void aWaitingContainersReasonIsTheStatus() throws IOException {
    pod(
        "p",
        "",
        "{'phase':'Pending','containerStatuses':[{'name':'spark-kubernetes-driver','ready':false,"
            + "'restartCount':0,'state':{'waiting':{'reason':'ImagePullBackOff'}}}]}",
        "");

    assertThat(cells("p").subList(1, 4)).containsExactly("0/1", "ImagePullBackOff", "0");
  }

  /**
   * A container that ended: its terminated reason (Completed), or {@code ExitCode:N} without one; a
   * succeeded pod's row carries the Completed condition.
   */
  @Test
  void aTerminatedContainerShowsItsReasonOrExitCode() throws IOException {
    pod(
        "done",
        "",
        "{'phase':'Succeeded','containerStatuses':[{'name':'spark-kubernetes-driver','ready':false,"
            + "'restartCount':0,'state':{'terminated':{'exitCode':0,'reason':'Completed'}}}]}",
        "");
    pod(
        "failed",
        "",
        "{'phase':'Failed','containerStatuses':[{'name':'spark-kubernetes-driver','ready':false,"
            + "'restartCount':0,'state':{'terminated':{'exitCode':137}}}]}",
        "");

    assertThat(cells("done").subList(1, 3)).containsExactly("0/1", "Completed");
    assertThat(cells("failed").subList(1, 3)).containsExactly("0/1", "ExitCode:137");
    JsonObject row =
        table("/api/v1/namespaces/" + NS + "/pods/done")
            .getAsJsonArray("rows")
            .get(0)
            .getAsJsonObject();
    assertThat(row.getAsJsonArray("conditions").get(0))
        .isEqualTo(
            Kube.json(
                "{'type':'Completed','status':'True','reason':'Succeeded',"
                    + "'message':'The pod has completed successfully.'}"));
  }

  /** Restarts with a last termination show how long ago: {@code 2 (5m ago)}. */
  @Test
  void restartsShowHowLongAgoTheLastWas() throws IOException {
    pod(
        "p",
        "",
        "{'phase':'Running','containerStatuses':[{'name':'spark-kubernetes-driver','ready':true,"
            + "'restartCount':2,'state':{'running':{}},"
            + "'lastState':{'terminated':{'exitCode':1,'finishedAt':'2026-03-01T10:05:00Z'}}}]}",
        "");

    assertThat(cells("p").subList(1, 4)).containsExactly("1/1", "Running", "2 (5m ago)");
  }

  /** An init container still running: {@code Init:0/1}; one waiting with a reason: that reason. */
  @Test
  void anInitContainerShowsInitProgressOrItsReason() throws IOException {
    String init = "'initContainers':[{'name':'init','image':'busybox'}],";
    pod(
        "running-init",
        init,
        "{'phase':'Pending','initContainerStatuses':[{'name':'init','ready':false,'restartCount':0,"
            + "'state':{'running':{}}}]}",
        "");
    pod(
        "crashing-init",
        init,
        "{'phase':'Pending','initContainerStatuses':[{'name':'init','ready':false,'restartCount':3,"
            + "'state':{'waiting':{'reason':'CrashLoopBackOff'}}}]}",
        "");

    assertThat(cells("running-init").subList(1, 4)).containsExactly("0/1", "Init:0/1", "0");
    assertThat(cells("crashing-init").subList(1, 4))
        .containsExactly("0/1", "Init:CrashLoopBackOff", "3");
  }

  /** A pod being deleted that has not finished shows Terminating. */
  @Test
  void aPodBeingDeletedShowsTerminating() throws IOException {
    pod("p", "", "{'phase':'Running'}", ",'finalizers':['example.com/hold']");
    kube.server().store().delete(ResourceType.POD, NS, "p");

    assertThat(cells("p").get(2)).isEqualTo("Terminating");
  }
}
