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

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 7: discovery, and telling "CRD not installed" from "object missing". */
class DiscoveryTest {

  static final ResourceType KUBEFLOW_APP =
      new ResourceType("sparkoperator.k8s.io", "v1beta2", "sparkapplications", "SparkApplication");

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  @Test
  void groupVersionDiscoveryListsTheRegisteredResources() throws ApiException {
    V1APIResourceList list =
        new CustomObjectsApi(kube.client()).getAPIResources("spark.apache.org", "v1").execute();

    assertThat(list.getGroupVersion()).isEqualTo("spark.apache.org/v1");
    assertThat(list.getResources())
        .extracting(V1APIResource::getName)
        .containsExactly("sparkapplications", "sparkapplications/status");
    V1APIResource apps = list.getResources().get(0);
    assertThat(apps.getKind()).isEqualTo("SparkApplication");
    assertThat(apps.getNamespaced()).isTrue();
    assertThat(apps.getVerbs()).contains("create", "get", "list", "patch", "delete");
  }

  /**
   * An unserved group answers Go's plain {@code 404 page not found}, not a {@code Status}: {@code
   * crdHandler.ServeHTTP} in apiextensions-apiserver's {@code customresource_handler.go} passes a
   * request for a CRD it does not know to its delegate, which ends in the not-found handler ({@code
   * http.NotFound}, via apiserver's {@code server/mux/pathrecorder.go}). A missing object of a
   * served resource answers a JSON {@code Status} naming it.
   */
  @Test
  void anUnregisteredGroupAnswersAPlainTextPageNotFound() throws Exception {
    Http.Answer crdMissing =
        Http.send(
            kube.server(),
            "GET",
            "/apis/sparkoperator.k8s.io/v1beta2/namespaces/" + NS + "/sparkapplications/pi",
            null,
            null);
    KubernetesApiResponse<DynamicKubernetesObject> objectMissing =
        Kube.apps(kube.client()).get(NS, "pi");

    assertThat(crdMissing.code()).isEqualTo(404);
    assertThat(crdMissing.contentType()).isEqualTo("text/plain; charset=utf-8");
    assertThat(crdMissing.body()).isEqualTo("404 page not found\n");
    assertThat(objectMissing.getHttpStatusCode()).isEqualTo(404);
    assertThat(objectMissing.getStatus().getDetails().getName()).isEqualTo("pi");
  }

  /**
   * An unserved version of a served group answers the plain 404 too, for its discovery document
   * ({@code versionDiscoveryHandler.ServeHTTP} in apiextensions-apiserver's {@code
   * customresource_discovery.go} delegates) and for its resources.
   */
  @Test
  void anUnregisteredVersionOfAKnownGroupAnswersAPlainTextPageNotFound() throws Exception {
    Http.Answer discovery =
        Http.send(kube.server(), "GET", "/apis/spark.apache.org/v2", null, null);
    Http.Answer get =
        Http.send(
            kube.server(),
            "GET",
            "/apis/spark.apache.org/v2/namespaces/" + NS + "/sparkapplications/pi",
            null,
            null);

    assertThat(discovery.code()).isEqualTo(404);
    assertThat(discovery.body()).isEqualTo("404 page not found\n");
    assertThat(get.code()).isEqualTo(404);
    assertThat(get.contentType()).startsWith("text/plain");
    assertThat(get.body()).isEqualTo("404 page not found\n");
  }

  @Test
  void registeringAResourceTypeMakesItDiscoverable() throws Exception {
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start()) {
      assertThat(Http.send(server, "GET", "/apis/sparkoperator.k8s.io/v1beta2", null, null).code())
          .isEqualTo(404);

      server.registerResource(KUBEFLOW_APP).registerResource(SPARK_APP);

      assertThat(Http.send(server, "GET", "/apis/sparkoperator.k8s.io/v1beta2", null, null).body())
          .contains("\"name\":\"sparkapplications\"");
      assertThat(Http.send(server, "GET", "/apis", null, null).body())
          .contains("sparkoperator.k8s.io/v1beta2", "spark.apache.org/v1");
      assertThat(Http.send(server, "GET", "/api/v1", null, null).body())
          .contains("\"name\":\"pods/log\"");
    }
  }

  /**
   * Every group version that {@code /api} and {@code /apis} list serves its {@code
   * APIResourceList}, as kube-apiserver installs a discovery handler per group version it lists
   * (kubernetes/apiserver {@code pkg/endpoints/discovery/version.go}, {@code APIVersionHandler},
   * commit 24a394e5): kubectl's {@code api-resources} fails and every kubectl command warns
   * "couldn't get resource list" when one of them answers 404.
   */
  @Test
  void everyListedGroupVersionServesItsResourceList() throws Exception {
    List<String> paths = new ArrayList<>();
    Http.send(kube.server(), "GET", "/api", null, null)
        .json()
        .getAsJsonArray("versions")
        .forEach(v -> paths.add("/api/" + v.getAsString()));
    Http.send(kube.server(), "GET", "/apis", null, null)
        .json()
        .getAsJsonArray("groups")
        .forEach(
            g ->
                g.getAsJsonObject()
                    .getAsJsonArray("versions")
                    .forEach(
                        v ->
                            paths.add(
                                "/apis/" + v.getAsJsonObject().get("groupVersion").getAsString())));

    assertThat(paths)
        .contains("/api/v1", "/apis/authorization.k8s.io/v1", "/apis/spark.apache.org/v1");
    for (String path : paths) {
      Http.Answer answer = Http.send(kube.server(), "GET", path, null, null);
      assertThat(answer.code()).as(path).isEqualTo(200);
      assertThat(answer.json().get("kind").getAsString()).as(path).isEqualTo("APIResourceList");
    }
  }

  /**
   * The CRD's {@code shortNames} and {@code categories} and the pods' {@code po}/{@code all}, as
   * apiextensions-apiserver's {@code DiscoveryController.sync} (kubernetes/apiextensions-apiserver
   * {@code pkg/apiserver/customresource_discovery_controller.go}, commit 1aa2717a) and the pod
   * storage's {@code ShortNames()}/{@code Categories()} serve them; client-java's {@code
   * Discovery.findAll()} reads every group version without failing.
   */
  @Test
  void discoveryServesShortNamesAndCategoriesAndClientJavaFindsEveryResource() throws Exception {
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start()) {
      server.registerCrd(
          java.nio.file.Files.readString(
              ConformanceTest.CRDS.resolve("apache-sparkapplications.spark.apache.org.yaml")));
      io.kubernetes.client.openapi.ApiClient client = server.newClient();

      java.util.Set<io.kubernetes.client.Discovery.APIResource> all =
          new io.kubernetes.client.Discovery(client).findAll();
      V1APIResourceList core =
          new io.kubernetes.client.openapi.apis.CoreV1Api(client).getAPIResources().execute();
      V1APIResourceList apache =
          new CustomObjectsApi(client).getAPIResources("spark.apache.org", "v1").execute();

      assertThat(all)
          .extracting(io.kubernetes.client.Discovery.APIResource::getResourcePlural)
          .contains("pods", "sparkapplications", "selfsubjectaccessreviews");
      assertThat(core.getResources().get(0).getShortNames()).containsExactly("po");
      assertThat(core.getResources().get(0).getCategories()).containsExactly("all");
      assertThat(apache.getResources().get(0).getShortNames()).containsExactly("sparkapp");
    }
  }

  /**
   * kubectl asks {@code /apis} for aggregated discovery first ({@code Accept:
   * application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,...,application/json}).
   * The fake does not serve that form; it answers the unaggregated {@code APIGroupList} as {@code
   * application/json}, as a server without aggregated discovery does, and client-go's {@code
   * downloadAPIs} (kubernetes/client-go {@code discovery/discovery_client.go}, commit 32ce75a7)
   * decides by the answer's {@code Content-Type} and reads each group version instead.
   */
  @Test
  void anAggregatedDiscoveryRequestGetsTheUnaggregatedListAsPlainJson() throws Exception {
    okhttp3.Request request =
        new okhttp3.Request.Builder()
            .url(kube.server().url() + "/apis")
            .header(
                "Accept",
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                    + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
                    + "application/json")
            .build();
    try (okhttp3.Response r = new okhttp3.OkHttpClient().newCall(request).execute()) {
      assertThat(r.code()).isEqualTo(200);
      assertThat(r.header("Content-Type")).isEqualTo("application/json");
      assertThat(
              com.google.gson.JsonParser.parseString(r.body().string())
                  .getAsJsonObject()
                  .get("kind")
                  .getAsString())
          .isEqualTo("APIGroupList");
    }
  }
}
