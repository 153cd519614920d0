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
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.generic.options.ListOptions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 10: the request journal counts and lists requests by verb and path. */
class JournalTest {

  static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-03-01T08:00:00Z"));

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).clock(CLOCK).build();

  @Test
  void countsOneListPerNamespaceAndNoGet() {
    for (String ns : List.of("a", "b", "c")) {
      ListOptions options = new ListOptions();
      options.setLabelSelector("kubejobs.dev/id");
      Kube.apps(kube.client()).list(ns, options);
    }

    assertThat(
            kube.server()
                .journal()
                .count("GET", "/apis/spark.apache.org/v1/namespaces/[^/]+/sparkapplications"))
        .isEqualTo(3);
    assertThat(kube.server().journal().count("GET", ".*/sparkapplications/[^/]+")).isZero();
    assertThat(kube.server().journal().requests())
        .extracting(RecordedRequest::path)
        .containsExactly(
            "/apis/spark.apache.org/v1/namespaces/a/sparkapplications",
            "/apis/spark.apache.org/v1/namespaces/b/sparkapplications",
            "/apis/spark.apache.org/v1/namespaces/c/sparkapplications");
  }

  @Test
  void recordsVerbPathQueryTimeAndBody() throws ApiException {
    new CoreV1Api(kube.client())
        .listNamespacedPod(NS)
        .labelSelector("role in (driver)")
        .limit(10)
        .execute();
    Kube.apps(kube.client()).create(Kube.app("pi"));

    List<RecordedRequest> requests = kube.server().journal().requests();
    assertThat(requests).hasSize(2);
    RecordedRequest list = requests.get(0);
    assertThat(list.verb()).isEqualTo("GET");
    assertThat(list.path()).isEqualTo("/api/v1/namespaces/jobs/pods");
    assertThat(list.queryParameter("labelSelector")).isEqualTo("role in (driver)");
    assertThat(list.queryParameter("limit")).isEqualTo("10");
    assertThat(list.time()).isEqualTo(Instant.parse("2026-03-01T08:00:00Z"));
    RecordedRequest create = requests.get(1);
    assertThat(create.verb()).isEqualTo("POST");
    assertThat(create.contentType()).startsWith("application/json");
    assertThat(create.body()).contains("\"name\":\"pi\"");
  }

  @Test
  void directStoreAccessIsNotRecordedButFaultedAndForbiddenRequestsAre() {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    kube.server().faults().add(Fault.on("GET", ".*").status(500, "InternalError", "x"));
    kube.server().rbac().deny("delete", "*", "*");

    Kube.apps(kube.client()).get(NS, "pi");
    Kube.apps(kube.client()).delete(NS, "pi");

    assertThat(kube.server().journal().requests())
        .extracting(RecordedRequest::toString)
        .containsExactly(
            "GET /apis/spark.apache.org/v1/namespaces/jobs/sparkapplications/pi",
            "DELETE /apis/spark.apache.org/v1/namespaces/jobs/sparkapplications/pi");
  }

  @Test
  void clearForgetsEverything() {
    Kube.apps(kube.client()).get(NS, "pi");

    kube.server().journal().clear();

    assertThat(kube.server().journal().requests()).isEmpty();
    assertThat(kube.server().journal().count("*", ".*")).isZero();
  }
}
