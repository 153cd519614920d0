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
package dev.kubejobs.core.internal.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.diagnosis.Messages;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A refusal of the API server reaches the caller as a rejection whose cause is typed: the HTTP
 * code, the {@code Status} reason and, for 401/403, the {@link Permission} the request needed, all
 * found with {@link ApiStatusException#in(Throwable)}, so no caller reads message text; the
 * messages themselves are the ones callers and operators already read.
 */
class RejectionCausesTest {
  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).build();

  private KubeGateway gateway;

  @BeforeEach
  void setUp() {
    gateway = KubeGateway.create(KUBE.client(), Duration.ofSeconds(5), ResiliencePolicy.none());
  }

  @Test
  void aForbiddenDeleteCarriesTheMissingPermissionAsAValue() {
    KUBE.server().rbac().deny("delete", "", "pods");

    assertThatThrownBy(() -> gateway.deletePod(null, "etl", "d-1", "uid-1"))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.FORBIDDEN);
              ApiStatusException cause = ApiStatusException.in(e).orElseThrow();
              assertThat(cause.code()).isEqualTo(403);
              assertThat(cause.reason()).isEqualTo("Forbidden");
              assertThat(cause.permission()).contains(new Permission("delete", "pods", "etl"));
              assertThat(e.getMessage())
                  .isEqualTo(
                      "missing permission: delete pods in namespace etl (server said: "
                          + cause.serverMessage()
                          + ")");
            });
  }

  /**
   * kube-apiserver answers a request it cannot authenticate with a {@code Status} of code 401,
   * reason and message {@code Unauthorized} ({@code Unauthorized} in kubernetes/kubernetes
   * staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go, commit
   * 02cf58102a61b6d1e021e256381ff750573ce55d, writes {@code
   * apierrors.NewUnauthorized("Unauthorized")}). The one 401/403 branch blames the credentials and
   * still names what the request needed.
   */
  @Test
  void anUnauthorizedReadBlamesTheCredentialsAndStillNamesThePermission() {
    KUBE.server()
        .faults()
        .add(Fault.on("GET", ".*/testjobs/kj-1").status(401, "Unauthorized", "Unauthorized"));

    assertThatThrownBy(() -> gateway.get(null, TestJobKind.KIND, "etl", "kj-1"))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.FORBIDDEN);
              assertThat(e.code()).isEqualTo(401);
              assertThat(ApiStatusException.in(e).flatMap(ApiStatusException::permission))
                  .contains(new Permission("get", "testjobs.kubejobs.dev", "etl"));
            })
        .hasMessage(
            "the API server refused the ApiClient's credentials (401) to get testjobs.kubejobs.dev"
                + " in namespace etl (server said: Unauthorized)");
  }

  @Test
  void aRefusedAccessReviewNamesTheOperationAndNoPermission() {
    KUBE.server()
        .faults()
        .add(
            Fault.on("POST", ".*/selfsubjectaccessreviews")
                .status(403, "Forbidden", "no reviews for you"));

    assertThatThrownBy(() -> gateway.selfSubjectAccessReview("get", "", "pods", "log", "etl"))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.FORBIDDEN);
              assertThat(ApiStatusException.in(e).orElseThrow().permission()).isEmpty();
            })
        .hasMessage(
            "'review access get pods/log in namespace etl' was forbidden (server said: no reviews"
                + " for you)");
  }

  @Test
  void anotherRefusalIsInvalidWithItsCodeAndReason() {
    KUBE.server()
        .faults()
        .add(Fault.on("GET", ".*/testjobs/kj-1").status(409, "Conflict", "try again"));

    assertThatThrownBy(() -> gateway.get(null, TestJobKind.KIND, "etl", "kj-1"))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.INVALID);
              ApiStatusException cause = ApiStatusException.in(e).orElseThrow();
              assertThat(cause.code()).isEqualTo(409);
              assertThat(cause.reason()).isEqualTo("Conflict");
              assertThat(cause.permission()).isEmpty();
            })
        .hasMessage(
            "'get testjobs.kubejobs.dev etl/kj-1' was rejected with 409 Conflict (server said: try"
                + " again)");
  }

  /**
   * A kind nobody serves answers Go's plain-text {@code 404 page not found}, and so does discovery
   * of its group (the fake mirrors kube-apiserver here; see the testkit's {@code ConformanceTest}
   * and {@code DiscoveryTest} for the sources). The check against discovery is made once: the
   * discovery request is about no kind, so its own plain 404 is not checked again.
   */
  @Test
  void aPlainNotFoundIsCheckedAgainstDiscoveryOnceAndSaysSoInItsCause() {
    ResourceKind nobodys = new ResourceKind("nothing.example.com", "v1", "things", "Thing");

    assertThatThrownBy(() -> gateway.get(null, nobodys, "etl", "a"))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.CRD_NOT_INSTALLED);
              assertThat(ApiStatusException.in(e).orElseThrow().isPlainTextPageNotFound()).isTrue();
            });
    assertThat(KUBE.server().journal().count("GET", "/apis/nothing.example.com/v1")).isEqualTo(1);
    assertThat(KUBE.server().journal().count("GET", ".*")).isEqualTo(2);
  }

  /**
   * A refusal's text is passed on capped (head and tail kept): a 5 MB {@code Status.message}, as an
   * admission webhook quoting a whole object may write, does not travel whole in the exception of a
   * read or a delete.
   */
  @Test
  void aServersFiveMegabyteMessageIsPassedOnCappedWithItsHeadAndTail() {
    String huge = "HEAD " + "x".repeat(5 * 1024 * 1024) + " TAIL";
    KUBE.server().faults().add(Fault.on("GET", ".*/testjobs/kj-1").status(409, "Conflict", huge));
    KUBE.server().faults().add(Fault.on("DELETE", ".*/pods/d-1").status(500, "", huge));

    assertThatThrownBy(() -> gateway.get(null, TestJobKind.KIND, "etl", "kj-1"))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> {
              String said = ApiStatusException.in(e).orElseThrow().serverMessage();
              assertThat(said).hasSize(Messages.MAX_MESSAGE_CHARS).startsWith("HEAD ");
              assertThat(said).endsWith(" TAIL").contains("chars cut");
              assertThat(e.getMessage()).hasSizeLessThan(Messages.MAX_MESSAGE_CHARS + 200);
            });
    assertThatThrownBy(() -> gateway.deletePod(null, "etl", "d-1", "uid-1"))
        .satisfies(
            e ->
                assertThat(e.getMessage())
                    .hasSizeLessThan(Messages.MAX_MESSAGE_CHARS + 200)
                    .contains("HEAD ", " TAIL"));
  }

  @Test
  void aStatusFoundBehindNothingIsEmpty() {
    assertThat(ApiStatusException.in(null)).isEmpty();
    assertThat(ApiStatusException.in(new IllegalStateException(new RuntimeException()))).isEmpty();
  }
}
