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
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
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

  @Test
  void anUnregisteredGroupAnswers404WithoutNamingAnObject() {
    // Assumption: the real server answers unknown API paths with a generic NotFound Status.
    KubernetesApiResponse<DynamicKubernetesObject> crdMissing =
        new DynamicKubernetesApi(
                "sparkoperator.k8s.io", "v1beta2", "sparkapplications", kube.client())
            .get(NS, "pi");
    KubernetesApiResponse<DynamicKubernetesObject> objectMissing =
        Kube.apps(kube.client()).get(NS, "pi");

    assertThat(crdMissing.getHttpStatusCode()).isEqualTo(404);
    assertThat(crdMissing.getStatus().getMessage())
        .isEqualTo("the server could not find the requested resource");
    assertThat(crdMissing.getStatus().getDetails().getName()).isNull();
    assertThat(objectMissing.getHttpStatusCode()).isEqualTo(404);
    assertThat(objectMissing.getStatus().getDetails().getName()).isEqualTo("pi");
  }

  @Test
  void anUnregisteredVersionOfAKnownGroupAnswers404() throws Exception {
    Http.Answer discovery =
        Http.send(kube.server(), "GET", "/apis/spark.apache.org/v2", null, null);
    KubernetesApiResponse<DynamicKubernetesObject> get =
        new DynamicKubernetesApi("spark.apache.org", "v2", "sparkapplications", kube.client())
            .get(NS, "pi");

    assertThat(discovery.code()).isEqualTo(404);
    assertThat(get.getHttpStatusCode()).isEqualTo(404);
    assertThat(get.getStatus().getMessage())
        .isEqualTo("the server could not find the requested resource");
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
}
