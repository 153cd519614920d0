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

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Behaviour 2: get, list, NotFound, label selectors, all namespaces, paging. */
class GetAndListTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  @BeforeEach
  void fiveApplicationsInTwoNamespaces() {
    ResourceStore store = kube.server().store();
    store.create(SPARK_APP, NS, labelled("a", "tier", "batch"));
    store.create(SPARK_APP, NS, labelled("b", "tier", "stream"));
    store.create(SPARK_APP, NS, labelled("c", null, null));
    store.create(SPARK_APP, "other", labelled("d", "tier", "batch"));
    store.create(SPARK_APP, "other", labelled("e", null, null));
  }

  @Test
  void getReturnsTheStoredObject() {
    KubernetesApiResponse<DynamicKubernetesObject> got = Kube.apps(kube.client()).get(NS, "a");

    assertThat(got.getHttpStatusCode()).isEqualTo(200);
    assertThat(got.getObject().getRaw())
        .isEqualTo(kube.server().store().get(SPARK_APP, NS, "a").orElseThrow());
  }

  @Test
  void getOfAMissingObjectAnswers404NotFoundNamingTheObject() {
    KubernetesApiResponse<DynamicKubernetesObject> got = Kube.apps(kube.client()).get(NS, "zz");

    assertThat(got.getHttpStatusCode()).isEqualTo(404);
    assertThat(got.getStatus().getReason()).isEqualTo("NotFound");
    assertThat(got.getStatus().getMessage())
        .isEqualTo("sparkapplications.spark.apache.org \"zz\" not found");
    assertThat(got.getStatus().getDetails().getName()).isEqualTo("zz");
    assertThat(got.getStatus().getDetails().getGroup()).isEqualTo("spark.apache.org");
    assertThat(got.getStatus().getDetails().getKind()).isEqualTo("sparkapplications");
  }

  @Test
  void getOfAMissingPodThrowsApiException404() {
    ApiException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ApiException.class,
            () -> new CoreV1Api(kube.client()).readNamespacedPod("zz", NS).execute());
    assertThat(e.getCode()).isEqualTo(404);
    assertThat(e.getResponseBody()).contains("pods \\\"zz\\\" not found");
  }

  @ParameterizedTest(name = "{0} selects {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "tier=batch | a",
        "tier==batch | a",
        "tier!=batch | b c",
        "tier in (batch,stream) | a b",
        "tier notin (batch) | b c",
        "tier | a b",
        "!tier | c",
        "app=a,tier=batch | a",
        "app in (a, b),tier!=stream | a"
      })
  void listSupportsEveryLabelSelectorOperator(String selector, String expected) {
    ListOptions options = new ListOptions();
    options.setLabelSelector(selector);

    KubernetesApiResponse<DynamicKubernetesListObject> list =
        Kube.apps(kube.client()).list(NS, options);

    assertThat(list.isSuccess()).isTrue();
    assertThat(names(list.getObject())).containsExactly(expected.split(" "));
  }

  @Test
  void listAcrossAllNamespacesIsSortedByNamespaceAndName() {
    KubernetesApiResponse<DynamicKubernetesListObject> list = Kube.apps(kube.client()).list();

    assertThat(list.getHttpStatusCode()).isEqualTo(200);
    assertThat(names(list.getObject())).containsExactly("a", "b", "c", "d", "e");
    assertThat(kube.server().journal().count("GET", "/apis/spark.apache.org/v1/sparkapplications"))
        .isEqualTo(1);
  }

  @Test
  void listReturnsTheServerResourceVersionAndItemsWithKind() {
    String latest =
        kube.server()
            .store()
            .create(SPARK_APP, "other", labelled("f", null, null))
            .getAsJsonObject("metadata")
            .get("resourceVersion")
            .getAsString();

    DynamicKubernetesListObject list = Kube.apps(kube.client()).list(NS).getObject();

    assertThat(list.getMetadata().getResourceVersion()).isEqualTo(latest);
    assertThat(list.getKind()).isEqualTo("SparkApplicationList");
    assertThat(list.getItems())
        .allSatisfy(
            o -> {
              assertThat(o.getKind()).isEqualTo("SparkApplication");
              assertThat(o.getApiVersion()).isEqualTo("spark.apache.org/v1");
            });
  }

  @Test
  void limitAndContinuePageThroughEveryItemOnce() {
    List<String> seen = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      ListOptions options = new ListOptions();
      options.setLimit(2);
      options.setContinue(token);
      DynamicKubernetesListObject page = Kube.apps(kube.client()).list(options).getObject();
      seen.addAll(names(page));
      token = page.getMetadata().getContinue();
      pages++;
    } while (token != null && !token.isEmpty());

    assertThat(pages).isEqualTo(3);
    assertThat(seen).containsExactly("a", "b", "c", "d", "e");
  }

  @Test
  void coreV1ListNamespacedPodFiltersByLabelSelector() throws ApiException {
    CoreV1Api core = new CoreV1Api(kube.client());
    core.createNamespacedPod(NS, CreateTest.pod("driver-1")).execute();
    V1Pod executor = CreateTest.pod("executor-1");
    executor.getMetadata().putLabelsItem("role", "executor");
    core.createNamespacedPod(NS, executor).execute();

    V1PodList drivers = core.listNamespacedPod(NS).labelSelector("role=driver").execute();

    assertThat(drivers.getItems())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("driver-1");
    assertThat(drivers.getMetadata().getResourceVersion()).isNotEmpty();
  }

  private static List<String> names(DynamicKubernetesListObject list) {
    return list.getItems().stream().map(o -> o.getMetadata().getName()).toList();
  }

  private static JsonObject labelled(String name, String key, String value) {
    JsonObject o = Kube.appJson(name);
    if (key != null) {
      o.getAsJsonObject("metadata").getAsJsonObject("labels").addProperty(key, value);
    }
    return o;
  }
}
