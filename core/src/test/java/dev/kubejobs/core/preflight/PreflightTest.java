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
package dev.kubejobs.core.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.testing.FakeAppKind;
import dev.kubejobs.core.testing.FakeApps;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.Rbac;
import dev.kubejobs.testkit.ResourceType;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PreflightTest {
  private static final String SSAR = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
  private static final String GROUP = FakeAppKind.KIND.group();

  @RegisterExtension static final KubeJobsHarness<String> KUBE = KubeJobsHarness.fakeApps().build();

  private static final MutableClock CLOCK = KUBE.clock();

  @Test
  void everyPermissionGrantedAndCrdServedIsOk() {
    PreflightReport report = KUBE.jobs().preflight().check("etl", "ml");

    assertThat(report.isOk()).isTrue();
    assertThat(report.crdServed()).isTrue();
    assertThat(report.missingPermissions()).isEmpty();
    assertThat(report.checkedPermissions()).hasSize(22);
    assertThat(report.summary()).startsWith("kubejobs preflight OK");
    // one access review per permission and namespace, one discovery request
    assertThat(KUBE.server().journal().count("POST", SSAR)).isEqualTo(22);
    assertThat(KUBE.server().journal().count("GET", "/apis/" + GROUP + "/v1")).isEqualTo(1);
  }

  static Stream<Arguments> permissionsKubejobsUses() {
    return Stream.of(
        Arguments.of("create", GROUP, "fakeapps"),
        Arguments.of("get", GROUP, "fakeapps"),
        Arguments.of("list", GROUP, "fakeapps"),
        Arguments.of("patch", GROUP, "fakeapps"),
        Arguments.of("delete", GROUP, "fakeapps"),
        Arguments.of("get", "", "pods"),
        Arguments.of("list", "", "pods"),
        Arguments.of("delete", "", "pods"),
        Arguments.of("get", "", "pods/log"));
  }

  @ParameterizedTest(name = "{0} {2} {1}")
  @MethodSource("permissionsKubejobsUses")
  void eachRemovedRuleIsReportedAloneWithItsNamespace(String verb, String group, String resource) {
    KUBE.server().rbac().deny(Rbac.Rule.of(verb, group, resource).inNamespace("ml"));

    PreflightReport report = KUBE.jobs().preflight().check("etl", "ml");

    Permission missing = new Permission(verb, group, resource, "ml");
    assertThat(report.isOk()).isFalse();
    assertThat(report.crdServed()).isTrue();
    assertThat(report.missingPermissions()).containsExactly(missing);
    assertThat(report.unverifiedPermissions()).isEmpty();
    assertThat(report.summary())
        .contains("missing permissions: 1")
        .contains(missing.toString())
        .contains("apiGroups: [\"" + group + "\"] resources: [\"" + resource + "\"]")
        .contains("docs/rbac.yaml");
  }

  @Test
  void everyMissingPermissionIsReported() {
    KUBE.server().rbac().allowOnly(Rbac.Rule.of("get", "", "pods"));

    PreflightReport report = KUBE.jobs().preflight().check(List.of("etl"));

    assertThat(report.missingPermissions()).hasSize(8);
    assertThat(report.missingPermissions())
        .doesNotContain(new Permission("get", "", "pods", "etl"));
  }

  @Test
  void crdNotInstalledIsReported() {
    try (FakeKubernetesApiServer bare = FakeKubernetesApiServer.start()) {
      PreflightReport report =
          FakeApps.jobs(bare.newClient(), CLOCK, "prod").preflight().check("etl");

      assertThat(report.crdServed()).isFalse();
      assertThat(report.isOk()).isFalse();
      assertThat(report.crdProblem()).get().asString().contains("CRD not installed");
      assertThat(report.summary()).contains("install the operator's CRD");
      assertThat(report.missingPermissions()).isEmpty();
    }
  }

  @Test
  void groupServedWithoutThePluralIsReported() {
    try (FakeKubernetesApiServer other = FakeKubernetesApiServer.start()) {
      other.registerResource(new ResourceType(GROUP, "v1", "otherthings", "OtherThing"));

      PreflightReport report =
          FakeApps.jobs(other.newClient(), CLOCK, "prod").preflight().check("etl");

      assertThat(report.crdServed()).isFalse();
      assertThat(report.crdProblem()).get().asString().contains("but not fakeapps");
    }
  }

  @Test
  void refusedAccessReviewIsReportedAsUnverified() {
    KUBE.server()
        .faults()
        .add(Fault.on("POST", SSAR).status(403, "Forbidden", "selfsubjectaccessreviews denied"));

    PreflightReport report = KUBE.jobs().preflight().check("etl");

    assertThat(report.isOk()).isFalse();
    assertThat(report.unverifiedPermissions()).hasSize(1);
    assertThat(report.unverifiedPermissions().values().iterator().next())
        .contains("selfsubjectaccessreviews denied");
    assertThat(report.summary()).contains("could not be checked");
  }

  @Test
  void unreachableApiServerThrowsApiUnavailable() {
    KUBE.server().faults().add(Fault.on("*", ".*").forever().connectionReset());

    assertThatThrownBy(() -> KUBE.jobs().preflight().check("etl"))
        .isInstanceOf(ApiUnavailableException.class);
  }

  @Test
  void badNamespacesAreRejected() {
    assertThatThrownBy(() -> KUBE.jobs().preflight().check(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one namespace");
    assertThatThrownBy(() -> KUBE.jobs().preflight().check("etl", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("null");
    assertThatThrownBy(() -> KUBE.jobs().preflight().check("Bad_Name"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Bad_Name'");
  }
}
