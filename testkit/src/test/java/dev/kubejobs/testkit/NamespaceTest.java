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

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Optional namespace modelling: a create in a missing namespace answers 404 namespaces. */
class NamespaceTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  @Test
  void everyNamespaceExistsByDefault() throws ApiException {
    assertThat(Kube.apps(kube.client()).create(Kube.app("pi")).getHttpStatusCode()).isEqualTo(200);
    assertThat(
            new CoreV1Api(kube.client()).readNamespace("anything").execute().getStatus().getPhase())
        .isEqualTo("Active");
  }

  @Test
  void aCreateInAMissingNamespaceAnswers404NamingTheNamespace() {
    // Assumption, as the NamespaceLifecycle admission plugin answers.
    kube.server().requireNamespaces("default");

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).create(Kube.app("pi"));

    assertThat(response.getHttpStatusCode()).isEqualTo(404);
    assertThat(response.getStatus().getMessage()).isEqualTo("namespaces \"jobs\" not found");
    assertThat(response.getStatus().getDetails().getKind()).isEqualTo("namespaces");
    assertThat(response.getStatus().getDetails().getName()).isEqualTo("jobs");
    assertThatThrownBy(() -> new CoreV1Api(kube.client()).readNamespace(NS).execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void createdNamespacesAcceptObjectsAndDeletingOneRemovesItsObjects() {
    kube.server().requireNamespaces().createNamespace(NS);
    assertThat(Kube.apps(kube.client()).create(Kube.app("pi")).getHttpStatusCode()).isEqualTo(200);

    kube.server().deleteNamespace(NS);

    assertThat(kube.server().store().list(SPARK_APP, NS)).isEmpty();
    assertThat(Kube.apps(kube.client()).create(Kube.app("pi")).getHttpStatusCode()).isEqualTo(404);
  }
}
