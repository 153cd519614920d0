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

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shape of the OpenAPI v3 documents, as kube-apiserver serves them: the root of {@code
 * handler3} (k8s.io/kube-openapi {@code pkg/handler3/handler.go}, commit 8f35e442) and a CRD
 * version's document as apiextensions-apiserver builds it ({@code
 * pkg/controller/openapi/builder/builder.go}, kubernetes commit 6f137b77). kubectl reads the PATCH
 * operation's parameters and GVK extension ({@code supportsQueryParamV3} in cli-runtime {@code
 * pkg/resource/query_param_verifier_v3.go}) and finds a kind's schema by its {@code
 * x-kubernetes-group-version-kind}.
 */
class OpenApiTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube = FakeKubernetesExtension.builder().build();

  @BeforeAll
  static void registerTheApacheCrd() throws IOException {
    kube.server()
        .registerCrd(
            Files.readString(
                ConformanceTest.CRDS.resolve("apache-sparkapplications.spark.apache.org.yaml")));
  }

  private static JsonObject get(String path) throws IOException {
    Http.Answer answer = Http.send(kube.server(), "GET", path, "application/json", null);
    assertThat(answer.code()).as(path).isEqualTo(200);
    return answer.json();
  }

  /** The root names every served group version with a URL carrying the document's hash. */
  @Test
  void theRootNamesEachGroupVersionWithAHashedUrl() throws IOException {
    JsonObject paths = get("/openapi/v3").getAsJsonObject("paths");

    assertThat(paths.keySet())
        .contains("api/v1", "apis/spark.apache.org/v1", "apis/spark.apache.org/v1beta1");
    String url =
        paths.getAsJsonObject("apis/spark.apache.org/v1").get("serverRelativeURL").getAsString();
    assertThat(url).matches("/openapi/v3/apis/spark\\.apache\\.org/v1\\?hash=[0-9A-F]{128}");
    Http.Answer doc = Http.send(kube.server(), "GET", url, "application/json", null);
    assertThat(doc.code()).isEqualTo(200);
    assertThat(doc.json().get("openapi").getAsString()).isEqualTo("3.0.0");
  }

  /**
   * The CRD version's schema is named with the group reversed, carries its GVK, and gains {@code
   * apiVersion}, {@code kind} and a {@code metadata} reference to {@code ObjectMeta}, which the
   * document also holds.
   */
  @Test
  void theCustomResourceSchemaIsTheCrdsWithTypeAndObjectMeta() throws IOException {
    JsonObject schemas =
        get("/openapi/v3/apis/spark.apache.org/v1")
            .getAsJsonObject("components")
            .getAsJsonObject("schemas");

    JsonObject app = schemas.getAsJsonObject("org.apache.spark.v1.SparkApplication");
    assertThat(app.getAsJsonArray("x-kubernetes-group-version-kind").get(0))
        .isEqualTo(
            Kube.json("{'group':'spark.apache.org','kind':'SparkApplication','version':'v1'}"));
    JsonObject props = app.getAsJsonObject("properties");
    assertThat(props.keySet()).contains("apiVersion", "kind", "metadata", "spec", "status");
    assertThat(props.getAsJsonObject("metadata").toString())
        .contains("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    assertThat(props.getAsJsonObject("spec").getAsJsonObject("properties").has("mainClass"))
        .isTrue();
    assertThat(schemas.has("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")).isTrue();
    assertThat(
            schemas
                .getAsJsonObject("org.apache.spark.v1.SparkApplicationList")
                .getAsJsonArray("x-kubernetes-group-version-kind")
                .get(0)
                .getAsJsonObject()
                .get("kind")
                .getAsString())
        .isEqualTo("SparkApplicationList");
  }

  /**
   * The item path's PATCH carries the GVK, the {@code patch} action, the options parameters kubectl
   * looks for ({@code fieldValidation}, {@code dryRun}, {@code fieldManager}, {@code force}) and,
   * for a custom resource, the JSON, merge and apply patch media types only.
   */
  @Test
  void thePatchOperationCarriesItsGvkAndOptions() throws IOException {
    JsonObject paths = get("/openapi/v3/apis/spark.apache.org/v1").getAsJsonObject("paths");

    JsonObject patch =
        paths
            .getAsJsonObject(
                "/apis/spark.apache.org/v1/namespaces/{namespace}/sparkapplications/{name}")
            .getAsJsonObject("patch");
    assertThat(patch.get("x-kubernetes-action").getAsString()).isEqualTo("patch");
    assertThat(patch.getAsJsonObject("x-kubernetes-group-version-kind").get("kind").getAsString())
        .isEqualTo("SparkApplication");
    assertThat(names(patch.getAsJsonArray("parameters")))
        .contains("dryRun", "fieldManager", "fieldValidation", "force");
    assertThat(patch.getAsJsonObject("requestBody").getAsJsonObject("content").keySet())
        .containsExactlyInAnyOrder(
            "application/json-patch+json",
            "application/merge-patch+json",
            "application/apply-patch+yaml");
    assertThat(paths.keySet())
        .contains(
            "/apis/spark.apache.org/v1/sparkapplications",
            "/apis/spark.apache.org/v1/namespaces/{namespace}/sparkapplications",
            "/apis/spark.apache.org/v1/namespaces/{namespace}/sparkapplications/{name}/status");
  }

  /** The core document holds the fixed subset: pods, events and namespaces. */
  @Test
  void theCoreDocumentHoldsPodsEventsAndNamespaces() throws IOException {
    JsonObject schemas =
        get("/openapi/v3/api/v1").getAsJsonObject("components").getAsJsonObject("schemas");

    assertThat(schemas.keySet())
        .contains(
            "io.k8s.api.core.v1.Pod", "io.k8s.api.core.v1.Event", "io.k8s.api.core.v1.Namespace");
  }

  /** A group version that is not served, and OpenAPI v2, answer Go's plain 404. */
  @Test
  void anUnservedGroupVersionAndV2Answer404() throws IOException {
    assertThat(
            Http.send(
                    kube.server(),
                    "GET",
                    "/openapi/v3/apis/example.com/v1",
                    "application/json",
                    null)
                .code())
        .isEqualTo(404);
    assertThat(Http.send(kube.server(), "GET", "/openapi/v2", "application/json", null).code())
        .isEqualTo(404);
  }

  private static List<String> names(JsonArray params) {
    List<String> names = new ArrayList<>();
    for (JsonElement p : params) {
      names.add(p.getAsJsonObject().get("name").getAsString());
    }
    return names;
  }
}
