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
package dev.kubejobs.core.internal.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.ResourceType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The gateway operations the sweeper, driver-log reader and preflight build on. */
class KubeGatewayTest {
  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).build();

  private KubeGateway gateway;

  @BeforeEach
  void setUp() {
    gateway = KubeGateway.create(KUBE.client(), Duration.ofSeconds(5), ResiliencePolicy.none());
  }

  @Test
  void listsByLabelSelectorAcrossPages() {
    for (int i = 0; i < 1200; i++) {
      KUBE.server()
          .store()
          .create(
              TestJobKind.TYPE,
              "etl",
              Fixture.testJob("kj-" + i, i % 2 == 0 ? "a" : "b", "job-" + i, null));
    }

    List<ResourceSnapshot> mine =
        gateway.list(null, TestJobKind.KIND, "etl", "kubejobs.dev/deployment=a");

    assertThat(mine)
        .hasSize(600)
        .allMatch(r -> r.labels().get("kubejobs.dev/deployment").equals("a"));
    assertThat(KUBE.server().journal().count("GET", ".*/testjobs")).isGreaterThan(1);
  }

  @Test
  void podsAreReadListedAndDeletedWithAUidPrecondition() {
    KUBE.server()
        .store()
        .create(ResourceType.POD, "etl", Fixture.driverPod("d-1", "kj-1", "Running"));

    ResourceSnapshot pod = gateway.getPod(null, "etl", "d-1").orElseThrow();
    assertThat(gateway.listPods(null, "etl", "test-app=kj-1"))
        .extracting(ResourceSnapshot::name)
        .containsExactly("d-1");
    assertThat(gateway.getPod(null, "etl", "nope")).isEmpty();
    assertThatThrownBy(() -> gateway.deletePod(null, "etl", "d-1", "not-its-uid"))
        .isInstanceOfSatisfying(ApiStatusException.class, e -> assertThat(e.isConflict()).isTrue());

    assertThat(gateway.deletePod(null, "etl", "d-1", pod.uid())).isEqualTo(DeleteResult.ACCEPTED);
    assertThat(gateway.deletePod(null, "etl", "d-1", pod.uid())).isEqualTo(DeleteResult.GONE);
  }

  @Test
  void podLogsAreStreamedFromTheNamedContainerWithTailAndByteCaps() {
    KUBE.server()
        .store()
        .create(ResourceType.POD, "etl", Fixture.driverPod("d-1", "kj-1", "Running"));
    KUBE.server().store().setPodLog("etl", "d-1", "driver", "one\ntwo\nthree\n");
    KUBE.server().store().setPodLog("etl", "d-1", "sidecar", "noise\n");

    String tail =
        gateway.readPodLog(
            null,
            "etl",
            "d-1",
            "driver",
            2,
            1000L,
            in -> {
              ByteArrayOutputStream out = new ByteArrayOutputStream();
              in.transferTo(out);
              return out.toString(StandardCharsets.UTF_8);
            });

    assertThat(tail).isEqualTo("two\nthree\n");
    assertThat(KUBE.server().journal().requests("GET", ".*/log").get(0).queryParameter("container"))
        .isEqualTo("driver");
  }

  @Test
  void accessReviewsAndDiscoveryAnswer() {
    KUBE.server().rbac().deny("delete", "", "pods");

    assertThat(gateway.selfSubjectAccessReview("delete", "", "pods", null, "etl").allowed())
        .isFalse();
    assertThat(gateway.selfSubjectAccessReview("get", "", "pods", "log", "etl").allowed()).isTrue();
    assertThat(gateway.servedResources("kubejobs.dev", "v1"))
        .hasValueSatisfying(r -> assertThat(r).contains("testjobs"));
    assertThat(gateway.servedResources("nope.kubejobs.dev", "v1")).isEmpty();
  }

  @Test
  void forbiddenListIsRejectedNamingThePermission() {
    KUBE.server().rbac().deny("list", "", "pods");

    assertThatThrownBy(() -> gateway.listPods(null, "etl", "a=b"))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.FORBIDDEN))
        .hasMessageContaining("missing permission: list pods in namespace etl");
  }
}
