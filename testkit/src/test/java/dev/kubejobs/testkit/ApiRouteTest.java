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

import java.util.List;
import org.junit.jupiter.api.Test;

/** The route parser names what a path asks for, from the path alone. */
class ApiRouteTest {

  @Test
  void discoveryVersionAndOpenApiPathsAreNamed() {
    assertThat(ApiRoute.parse("/version")).isEqualTo(new ApiRoute.Version());
    assertThat(ApiRoute.parse("/api")).isEqualTo(new ApiRoute.CoreVersions());
    assertThat(ApiRoute.parse("/apis/")).isEqualTo(new ApiRoute.Groups());
    assertThat(ApiRoute.parse("/apis/spark.apache.org"))
        .isEqualTo(new ApiRoute.Group("spark.apache.org"));
    assertThat(ApiRoute.parse("/apis/spark.apache.org/v1"))
        .isEqualTo(new ApiRoute.Resources("spark.apache.org", "v1"));
    assertThat(ApiRoute.parse("/api/v1")).isEqualTo(new ApiRoute.Resources("", "v1"));
    assertThat(ApiRoute.parse("/openapi/v3/apis/spark.apache.org/v1"))
        .isEqualTo(new ApiRoute.OpenApiDocument(List.of("v3", "apis", "spark.apache.org", "v1")));
    assertThat(ApiRoute.parse("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"))
        .isEqualTo(new ApiRoute.AccessReview());
  }

  @Test
  void collectionsObjectsAndSubresourcesAreNamedWithTheirNamespace() {
    assertThat(ApiRoute.parse("/apis/spark.apache.org/v1/namespaces/jobs/sparkapplications"))
        .isEqualTo(
            new ApiRoute.Resource(
                "spark.apache.org", "v1", "jobs", "sparkapplications", null, null));
    assertThat(ApiRoute.parse("/apis/spark.apache.org/v1/sparkapplications"))
        .isEqualTo(
            new ApiRoute.Resource("spark.apache.org", "v1", null, "sparkapplications", null, null));
    assertThat(ApiRoute.parse("/api/v1/namespaces/jobs/pods/pi-driver/log"))
        .isEqualTo(new ApiRoute.Resource("", "v1", "jobs", "pods", "pi-driver", "log"));
    assertThat(ApiRoute.parse("/api/v1/namespaces/jobs"))
        .isEqualTo(new ApiRoute.Namespace("v1", "jobs"));
    // a namespace is an object of the core group only
    assertThat(ApiRoute.parse("/apis/spark.apache.org/v1/namespaces/jobs"))
        .isEqualTo(new ApiRoute.Unknown());
  }

  @Test
  void segmentsAreUrlDecoded() {
    assertThat(ApiRoute.parse("/api/v1/namespaces/jobs/pods/a%2Db"))
        .isEqualTo(new ApiRoute.Resource("", "v1", "jobs", "pods", "a-b", null));
  }

  @Test
  void pathsNoHandlerServesAreUnknown() {
    assertThat(ApiRoute.parse("/")).isEqualTo(new ApiRoute.Unknown());
    assertThat(ApiRoute.parse("/healthz")).isEqualTo(new ApiRoute.Unknown());
    assertThat(ApiRoute.parse("/version/x")).isEqualTo(new ApiRoute.Unknown());
    assertThat(ApiRoute.parse("/api/v1/namespaces/jobs/pods/p/log/more"))
        .isEqualTo(new ApiRoute.Unknown());
    assertThat(ApiRoute.parse("/api/v1/pods/p")).isEqualTo(new ApiRoute.Unknown());
  }
}
