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

import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A CRD's served versions share one store, as kube-apiserver keeps one etcd key per object whatever
 * version it is read or written at; without a conversion webhook only {@code apiVersion} changes
 * ({@code nopConverter} in kubernetes/apiextensions-apiserver {@code
 * pkg/apiserver/conversion/nop_converter.go}, commit 1aa2717a), and the preferred version is the
 * highest in Kubernetes' version order ({@code sortGroupDiscoveryByKubeAwareVersion} in {@code
 * pkg/apiserver/customresource_discovery_controller.go}, with {@code
 * CompareKubeAwareVersionStrings} of kubernetes/apimachinery {@code pkg/version/helpers.go}, commit
 * eed236ce).
 */
class ServedVersionsTest {

  static final ResourceType V1 = ResourceType.APACHE_SPARK_APPLICATION;
  static final ResourceType V1BETA1 = ResourceType.APACHE_SPARK_APPLICATION_V1BETA1;
  static final String AT_V1 = "/apis/spark.apache.org/v1/namespaces/" + NS + "/sparkapplications";
  static final String AT_V1BETA1 =
      "/apis/spark.apache.org/v1beta1/namespaces/" + NS + "/sparkapplications";

  @RegisterExtension
  static final FakeKubernetesExtension kube = FakeKubernetesExtension.builder().build();

  @BeforeAll
  static void registerTheApacheCrd() throws IOException {
    // The real CRD lists v1beta1 first and v1 second.
    kube.server()
        .registerCrd(
            Files.readString(
                ConformanceTest.CRDS.resolve("apache-sparkapplications.spark.apache.org.yaml")));
  }

  private static JsonObject app(String apiVersion, String name) {
    return Kube.json(
        "{'apiVersion':'"
            + apiVersion
            + "','kind':'SparkApplication','metadata':{'name':'"
            + name
            + "'},'spec':{'mainClass':'org.example.Pi','runtimeVersions':{'sparkVersion':'4.0.0'}}}");
  }

  @Test
  void anObjectCreatedAtOneVersionIsReadAtEveryServedVersionWithItsApiVersionRewritten()
      throws IOException {
    Http.Answer created =
        Http.send(
            kube.server(),
            "POST",
            AT_V1,
            "application/json",
            app("spark.apache.org/v1", "pi").toString());

    Http.Answer atBeta = Http.send(kube.server(), "GET", AT_V1BETA1 + "/pi", null, null);
    Http.Answer listAtBeta = Http.send(kube.server(), "GET", AT_V1BETA1, null, null);

    assertThat(created.code()).isEqualTo(201);
    assertThat(atBeta.code()).isEqualTo(200);
    assertThat(atBeta.json().get("apiVersion").getAsString()).isEqualTo("spark.apache.org/v1beta1");
    assertThat(atBeta.json().getAsJsonObject("metadata").get("uid"))
        .isEqualTo(created.json().getAsJsonObject("metadata").get("uid"));
    assertThat(atBeta.json().get("spec")).isEqualTo(created.json().get("spec"));
    assertThat(listAtBeta.json().getAsJsonArray("items")).hasSize(1);
    assertThat(
            listAtBeta
                .json()
                .getAsJsonArray("items")
                .get(0)
                .getAsJsonObject()
                .get("apiVersion")
                .getAsString())
        .isEqualTo("spark.apache.org/v1beta1");
    assertThat(kube.server().store().get(V1BETA1, NS, "pi")).isPresent();
  }

  @Test
  void anUpdateAtOneVersionChangesTheObjectEveryVersionShowsAndADeleteRemovesItEverywhere()
      throws IOException {
    kube.server().store().create(V1, NS, app("spark.apache.org/v1", "pi"));

    Http.Answer patched =
        Http.send(
            kube.server(),
            "PATCH",
            AT_V1BETA1 + "/pi",
            "application/merge-patch+json",
            "{\"metadata\":{\"labels\":{\"team\":\"a\"}}}");
    JsonObject atV1 = kube.server().store().get(V1, NS, "pi").orElseThrow();
    Http.Answer deleted = Http.send(kube.server(), "DELETE", AT_V1BETA1 + "/pi", null, null);

    assertThat(patched.code()).isEqualTo(200);
    assertThat(patched.json().get("apiVersion").getAsString())
        .isEqualTo("spark.apache.org/v1beta1");
    assertThat(atV1.get("apiVersion").getAsString()).isEqualTo("spark.apache.org/v1");
    assertThat(atV1.getAsJsonObject("metadata").getAsJsonObject("labels").get("team").getAsString())
        .isEqualTo("a");
    assertThat(deleted.code()).isEqualTo(200);
    assertThat(kube.server().store().get(V1, NS, "pi")).isEmpty();
    assertThat(Http.send(kube.server(), "GET", AT_V1 + "/pi", null, null).code()).isEqualTo(404);
  }

  @Test
  void aCreateAtAnotherVersionOfAnExistingNameAnswers409() throws IOException {
    kube.server().store().create(V1, NS, app("spark.apache.org/v1", "pi"));

    Http.Answer again =
        Http.send(
            kube.server(),
            "POST",
            AT_V1BETA1,
            "application/json",
            app("spark.apache.org/v1beta1", "pi").toString());

    assertThat(again.code()).isEqualTo(409);
    assertThat(again.json().get("reason").getAsString()).isEqualTo("AlreadyExists");
  }

  @Test
  void aWatchAtOneVersionSeesChangesMadeAtAnotherAtItsOwnVersion() throws Exception {
    JsonObject event;
    try (RawWatch watch = RawWatch.open(kube.server(), AT_V1BETA1 + "?watch=true")) {
      kube.server().store().create(V1, NS, app("spark.apache.org/v1", "pi"));
      event = watch.next();
    }

    assertThat(RawWatch.type(event)).isEqualTo("ADDED");
    assertThat(event.getAsJsonObject("object").get("apiVersion").getAsString())
        .isEqualTo("spark.apache.org/v1beta1");
  }

  @Test
  void thePreferredVersionIsTheHighestInKubernetesOrderNotTheFirstInTheCrd() throws IOException {
    JsonObject group = Http.send(kube.server(), "GET", "/apis/spark.apache.org", null, null).json();

    List<String> versions = new ArrayList<>();
    group
        .getAsJsonArray("versions")
        .forEach(v -> versions.add(v.getAsJsonObject().get("version").getAsString()));
    assertThat(versions).containsExactly("v1", "v1beta1");
    assertThat(group.getAsJsonObject("preferredVersion").get("version").getAsString())
        .isEqualTo("v1");
  }

  /** The examples of {@code CompareKubeAwareVersionStrings}'s doc and its test table. */
  @Test
  void versionsSortAsKubernetesSortsThem() {
    List<String> versions =
        new ArrayList<>(
            List.of(
                "v1alpha1",
                "foo1",
                "v1beta1",
                "v2",
                "v1",
                "v1beta2",
                "v10beta3",
                "v11alpha2",
                "foo10",
                "v12alpha1",
                "v3beta1",
                "v11beta2",
                "v10"));

    versions.sort(KubeVersions.PRIORITY);

    assertThat(versions)
        .containsExactly(
            "v10",
            "v2",
            "v1",
            "v11beta2",
            "v10beta3",
            "v3beta1",
            "v1beta2",
            "v1beta1",
            "v12alpha1",
            "v11alpha2",
            "v1alpha1",
            "foo1",
            "foo10");
  }

  @Test
  void everyVersionOfAResourceHasOneKind() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                kube.server()
                    .registerResource(
                        new ResourceType("spark.apache.org", "v2", "sparkapplications", "Other")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("every version of a resource has one kind");
  }
}
