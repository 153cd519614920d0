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
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 8: RBAC rules, self-subject access reviews and 403 Forbidden. */
class RbacTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  private boolean review(String verb, String group, String resource, String subresource)
      throws ApiException {
    V1SelfSubjectAccessReview review =
        new V1SelfSubjectAccessReview()
            .spec(
                new V1SelfSubjectAccessReviewSpec()
                    .resourceAttributes(
                        new V1ResourceAttributes()
                            .namespace(NS)
                            .verb(verb)
                            .group(group)
                            .resource(resource)
                            .subresource(subresource)));
    return new AuthorizationV1Api(kube.client())
        .createSelfSubjectAccessReview(review)
        .execute()
        .getStatus()
        .getAllowed();
  }

  @Test
  void everythingIsAllowedByDefault() throws ApiException {
    assertThat(review("delete", "spark.apache.org", "sparkapplications", null)).isTrue();
    assertThat(review("get", "", "pods", "log")).isTrue();
  }

  @Test
  void accessReviewsAnswerFromDenyRules() throws ApiException {
    kube.server().rbac().deny("delete", "spark.apache.org", "sparkapplications");

    assertThat(review("delete", "spark.apache.org", "sparkapplications", null)).isFalse();
    assertThat(review("create", "spark.apache.org", "sparkapplications", null)).isTrue();
  }

  @Test
  void accessReviewsAnswerFromAllowOnlyRules() throws ApiException {
    kube.server()
        .rbac()
        .allowOnly(Rbac.Rule.of("get", "", "pods"), Rbac.Rule.of("*", "", "pods/log"));

    assertThat(review("get", "", "pods", null)).isTrue();
    assertThat(review("get", "", "pods", "log")).isTrue();
    assertThat(review("list", "", "pods", null)).isFalse();
    assertThat(review("create", "spark.apache.org", "sparkapplications", null)).isFalse();
  }

  @Test
  void aDeniedRequestAnswers403ForbiddenWithTheRealServersMessage() {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    kube.server().rbac().deny("delete", "spark.apache.org", "sparkapplications");

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).delete(NS, "pi");

    assertThat(response.getHttpStatusCode()).isEqualTo(403);
    assertThat(response.getStatus().getReason()).isEqualTo("Forbidden");
    assertThat(response.getStatus().getMessage())
        .isEqualTo(
            "sparkapplications.spark.apache.org \"pi\" is forbidden: User"
                + " \"system:serviceaccount:default:kubejobs\" cannot delete resource"
                + " \"sparkapplications\" in API group \"spark.apache.org\" in the namespace"
                + " \"jobs\"");
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isPresent();
  }

  @Test
  void aDeniedListAtClusterScopeNamesTheScope() {
    kube.server().rbac().user("system:serviceaccount:jobs:scheduler");
    kube.server().rbac().allowOnly(Rbac.Rule.of("list", "spark.apache.org", "*").inNamespace(NS));

    KubernetesApiResponse<DynamicKubernetesListObject> all = Kube.apps(kube.client()).list();
    KubernetesApiResponse<DynamicKubernetesListObject> inNs = Kube.apps(kube.client()).list(NS);

    assertThat(all.getHttpStatusCode()).isEqualTo(403);
    assertThat(all.getStatus().getMessage())
        .isEqualTo(
            "sparkapplications.spark.apache.org is forbidden: User"
                + " \"system:serviceaccount:jobs:scheduler\" cannot list resource"
                + " \"sparkapplications\" in API group \"spark.apache.org\" at the cluster scope");
    assertThat(inNs.getHttpStatusCode()).isEqualTo(200);
  }

  @Test
  void aDeniedPodLogThrowsApiException403() throws ApiException {
    new CoreV1Api(kube.client()).createNamespacedPod(NS, CreateTest.pod("driver")).execute();
    kube.server().rbac().deny("get", "", "pods/log");

    assertThatThrownBy(
            () -> new CoreV1Api(kube.client()).readNamespacedPodLog("driver", NS).execute())
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(403);
              assertThat(e.getResponseBody()).contains("cannot get resource \\\"pods/log\\\"");
            });
  }

  @Test
  void resetAllowsEverythingAgain() throws ApiException {
    kube.server().rbac().allowOnly();
    kube.server().rbac().reset();

    assertThat(review("create", "spark.apache.org", "sparkapplications", null)).isTrue();
  }
}
