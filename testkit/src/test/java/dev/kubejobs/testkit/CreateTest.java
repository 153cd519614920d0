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

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 1: custom resources and pods, create, identity fields, AlreadyExists. */
class CreateTest {

  static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-03-01T10:15:30.123Z"));

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).clock(CLOCK).build();

  @Test
  void createSetsUidResourceVersionGenerationAndCreationTimestampFromTheClock() {
    // given a clock at a known instant (Kubernetes timestamps have second precision, in UTC)
    CLOCK.set(Instant.parse("2026-03-01T10:15:30.123Z"));

    // when
    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).create(Kube.app("pi"));

    // then
    assertThat(response.isSuccess()).isTrue();
    V1ObjectMeta meta = response.getObject().getMetadata();
    assertThat(UUID.fromString(meta.getUid())).isNotNull();
    assertThat(Long.parseLong(meta.getResourceVersion())).isPositive();
    assertThat(meta.getGeneration()).isEqualTo(1L);
    assertThat(meta.getCreationTimestamp())
        .isEqualTo(OffsetDateTime.of(2026, 3, 1, 10, 15, 30, 0, ZoneOffset.UTC));
    JsonObject stored = kube.server().store().get(SPARK_APP, NS, "pi").orElseThrow();
    assertThat(stored.getAsJsonObject("metadata").get("creationTimestamp").getAsString())
        .isEqualTo("2026-03-01T10:15:30Z");
    assertThat(stored.get("spec")).isEqualTo(Kube.appJson("pi").get("spec"));
  }

  @Test
  void createOfAnExistingNameAnswers409AlreadyExistsWithAStatusBody() {
    // given
    Kube.apps(kube.client()).create(Kube.app("pi"));

    // when
    KubernetesApiResponse<DynamicKubernetesObject> again =
        Kube.apps(kube.client()).create(Kube.app("pi"));

    // then
    assertThat(again.getHttpStatusCode()).isEqualTo(409);
    assertThat(again.getStatus().getReason()).isEqualTo("AlreadyExists");
    assertThat(again.getStatus().getMessage())
        .isEqualTo("sparkapplications.spark.apache.org \"pi\" already exists");
    assertThat(again.getStatus().getDetails().getName()).isEqualTo("pi");
    assertThat(again.getStatus().getDetails().getGroup()).isEqualTo("spark.apache.org");
    assertThat(again.getStatus().getDetails().getKind()).isEqualTo("sparkapplications");
  }

  @Test
  void resourceVersionIsOneIncreasingCounterAcrossAllTypes() throws ApiException {
    // when objects of two types are created one after the other
    String first =
        Kube.apps(kube.client())
            .create(Kube.app("a"))
            .getObject()
            .getMetadata()
            .getResourceVersion();
    V1Pod pod = new CoreV1Api(kube.client()).createNamespacedPod(NS, pod("driver")).execute();
    String third =
        Kube.apps(kube.client())
            .create(Kube.app("b"))
            .getObject()
            .getMetadata()
            .getResourceVersion();

    // then
    long a = Long.parseLong(first);
    long p = Long.parseLong(pod.getMetadata().getResourceVersion());
    long b = Long.parseLong(third);
    assertThat(List.of(a, p, b)).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void podsAreAlwaysServedAndStartPendingThroughTheTypedApi() throws ApiException {
    // Assumption: like the real pod strategy, a created pod's status is reset to phase Pending.
    V1Pod created = new CoreV1Api(kube.client()).createNamespacedPod(NS, pod("driver")).execute();

    assertThat(created.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(created.getKind()).isEqualTo("Pod");
    assertThat(
            new CoreV1Api(kube.client())
                .readNamespacedPod("driver", NS)
                .execute()
                .getSpec()
                .getContainers())
        .extracting(V1Container::getName)
        .containsExactly("spark-kubernetes-driver");
  }

  @Test
  void typedCreateOfAnExistingPodThrowsApiException409() throws ApiException {
    new CoreV1Api(kube.client()).createNamespacedPod(NS, pod("driver")).execute();

    assertThatThrownBy(
            () -> new CoreV1Api(kube.client()).createNamespacedPod(NS, pod("driver")).execute())
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(409);
              assertThat(e.getResponseBody()).contains("\"reason\":\"AlreadyExists\"");
            });
  }

  @Test
  void postDropsTheStatusOfACustomResourceButTheStoreKeepsIt() {
    // Assumption: the CRDs have a status subresource, so the real server ignores status on create.
    JsonObject withStatus = Kube.appJson("pi");
    withStatus.add("status", Kube.json("{'state':'RUNNING'}"));

    DynamicKubernetesObject created =
        Kube.apps(kube.client()).create(new DynamicKubernetesObject(withStatus)).getObject();
    JsonObject direct = kube.server().store().create(SPARK_APP, NS, withStatusNamed("direct"));

    assertThat(created.getRaw().has("status")).isFalse();
    assertThat(direct.getAsJsonObject("status").get("state").getAsString()).isEqualTo("RUNNING");
  }

  @Test
  void generateNameGetsARandomSuffixAndAMissingNameAnswers422() {
    JsonObject generated = Kube.appJson("x");
    generated.getAsJsonObject("metadata").remove("name");
    generated.getAsJsonObject("metadata").addProperty("generateName", "pi-");
    JsonObject nameless = Kube.appJson("x");
    nameless.getAsJsonObject("metadata").remove("name");

    var ok = Kube.apps(kube.client()).create(new DynamicKubernetesObject(generated));
    var invalid = Kube.apps(kube.client()).create(new DynamicKubernetesObject(nameless));

    assertThat(ok.getObject().getMetadata().getName()).matches("pi-[a-z0-9]{5}");
    assertThat(invalid.getHttpStatusCode()).isEqualTo(422);
    assertThat(invalid.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(invalid.getStatus().getMessage())
        .contains("metadata.name: Required value: name or generateName is required");
  }

  @Test
  void creationTimestampFollowsTheInjectedClock() {
    CLOCK.set(Instant.parse("2026-03-01T00:00:00Z"));
    Kube.apps(kube.client()).create(Kube.app("early"));
    CLOCK.advance(Duration.ofHours(1));
    Kube.apps(kube.client()).create(Kube.app("late"));

    assertThat(
            kube.server().store().list(SPARK_APP, NS).stream()
                .map(o -> o.getAsJsonObject("metadata").get("creationTimestamp").getAsString()))
        .containsExactly("2026-03-01T00:00:00Z", "2026-03-01T01:00:00Z");
  }

  private static JsonObject withStatusNamed(String name) {
    JsonObject o = Kube.appJson(name);
    o.add("status", Kube.json("{'state':'RUNNING'}"));
    return o;
  }

  static V1Pod pod(String name, String... containers) {
    V1PodSpec spec = new V1PodSpec();
    if (containers.length == 0) {
      containers = new String[] {"spark-kubernetes-driver"};
    }
    for (String c : containers) {
      spec.addContainersItem(new V1Container().name(c).image("spark:4.0.0"));
    }
    return new V1Pod()
        .apiVersion("v1")
        .kind("Pod")
        .metadata(new V1ObjectMeta().name(name).namespace(NS).putLabelsItem("role", "driver"))
        .spec(spec);
  }
}
