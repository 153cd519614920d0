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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 6: pod logs with container, tailLines and limitBytes. */
class PodLogTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube = FakeKubernetesExtension.builder().build();

  private CoreV1Api core() {
    return new CoreV1Api(kube.client());
  }

  private void pod(String name, String... containers) throws ApiException {
    core().createNamespacedPod(NS, CreateTest.pod(name, containers)).execute();
  }

  @Test
  void aSingleContainerPodAnswersItsLogWithoutAContainerParameter() throws ApiException {
    pod("driver");
    kube.server().store().setPodLog(NS, "driver", "spark-kubernetes-driver", "one\ntwo\n");

    assertThat(core().readNamespacedPodLog("driver", NS).execute()).isEqualTo("one\ntwo\n");
  }

  @Test
  void tailLinesAndLimitBytesCutTheLog() throws ApiException {
    pod("driver");
    kube.server().store().setPodLog(NS, "driver", "spark-kubernetes-driver", "1\n2\n3\n4\n");

    assertThat(core().readNamespacedPodLog("driver", NS).tailLines(2).execute())
        .isEqualTo("3\n4\n");
    assertThat(core().readNamespacedPodLog("driver", NS).limitBytes(3).execute()).isEqualTo("1\n2");
    assertThat(core().readNamespacedPodLog("driver", NS).tailLines(2).limitBytes(2).execute())
        .isEqualTo("3\n");
    assertThat(core().readNamespacedPodLog("driver", NS).tailLines(10).execute())
        .isEqualTo("1\n2\n3\n4\n");
  }

  @Test
  void aPodWithSeveralContainersNeedsTheContainerParameter() throws ApiException {
    pod("driver", "spark", "sidecar");
    kube.server().store().setPodLog(NS, "driver", "sidecar", "side\n");

    assertThat(core().readNamespacedPodLog("driver", NS).container("sidecar").execute())
        .isEqualTo("side\n");
    assertThatThrownBy(() -> core().readNamespacedPodLog("driver", NS).execute())
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(400);
              assertThat(e.getResponseBody())
                  .contains(
                      "a container name must be specified for pod driver, choose one of: [spark"
                          + " sidecar]");
            });
    assertThatThrownBy(() -> core().readNamespacedPodLog("driver", NS).container("x").execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(400));
  }

  @Test
  void malformedParametersAnswer400() throws Exception {
    pod("driver");

    assertThat(
            Http.send(
                    kube.server(),
                    "GET",
                    ResourceType.POD.objectPath(NS, "driver") + "/log?tailLines=x",
                    null,
                    null)
                .code())
        .isEqualTo(400);
  }

  @Test
  void aContainerWaitingToStartAnswers400WithTheWaitingReason() throws ApiException {
    // The fake operator (or a test) says so in the pod's status, as the kubelet would.
    pod("driver");
    kube.server()
        .store()
        .update(
            ResourceType.POD,
            NS,
            "driver",
            p -> {
              p.add(
                  "status",
                  Kube.json(
                      "{'phase':'Pending','containerStatuses':[{'name':'spark-kubernetes-driver',"
                          + "'state':{'waiting':{'reason':'ContainerCreating'}}}]}"));
              return p;
            });

    assertThatThrownBy(() -> core().readNamespacedPodLog("driver", NS).execute())
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(400);
              assertThat(e.getResponseBody())
                  .contains(
                      "container \\\"spark-kubernetes-driver\\\" in pod \\\"driver\\\" is"
                          + " waiting to start: ContainerCreating");
            });
  }

  @Test
  void aMissingPodAnswers404() {
    assertThatThrownBy(() -> core().readNamespacedPodLog("ghost", NS).execute())
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(404);
              assertThat(e.getResponseBody()).contains("\"reason\":\"NotFound\"");
            });
  }

  @Test
  void anEmptyLogIsReadAsNull() throws ApiException {
    // client-java returns null for an empty text body.
    pod("driver");

    assertThat(core().readNamespacedPodLog("driver", NS).execute()).isNull();
  }

  @Test
  void aLogOfSeveralMegabytesIsServedWhole() throws ApiException {
    pod("driver");
    StringBuilder log = new StringBuilder();
    for (int i = 0; log.length() < 5_000_000; i++) {
      log.append("INFO line ").append(i).append(" of a rather chatty Spark driver\n");
    }
    kube.server().store().setPodLog(NS, "driver", "spark-kubernetes-driver", log.toString());

    String read = core().readNamespacedPodLog("driver", NS).execute();

    assertThat(read).hasSize(log.length()).isEqualTo(log.toString());
  }

  @Test
  void theLogGoesWithThePod() throws ApiException {
    pod("driver");
    kube.server().store().setPodLog(NS, "driver", "spark-kubernetes-driver", "old\n");
    kube.server().store().delete(ResourceType.POD, NS, "driver");
    pod("driver");

    assertThat(core().readNamespacedPodLog("driver", NS).execute()).isNull();
  }
}
