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

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The JUnit extension: one server per class, fresh state per test, faults cleared after. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExtensionTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  private static FakeKubernetesApiServer firstServer;

  @Test
  @Order(1)
  void firstTestLeavesObjectsRulesAndJournalBehind() {
    firstServer = kube.server();
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    kube.server().rbac().deny("*", "*", "*");
    kube.server().faults().add(Fault.on("DELETE", ".*").forever().connectionReset());
    Kube.apps(kube.client()).list(NS);

    assertThat(kube.server().journal().requests()).hasSize(1);
  }

  @org.junit.jupiter.api.Nested
  @Order(3)
  class Nested {
    @Test
    void nestedTestsShareTheOuterServer() {
      assertThat(kube.server()).isSameAs(firstServer);
    }
  }

  @Test
  @Order(4)
  void laterTestsKeepTheSameServer() {
    assertThat(kube.server()).isSameAs(firstServer);
  }

  @Test
  @Order(2)
  void secondTestStartsFromAnEmptyServerOfTheSameClass() {
    assertThat(kube.server()).isSameAs(firstServer);
    assertThat(kube.server().store().list(SPARK_APP, null)).isEmpty();
    assertThat(kube.server().journal().requests()).isEmpty();
    assertThat(kube.server().faults().active()).isEmpty();
    assertThat(Kube.apps(kube.client()).create(Kube.app("pi")).getHttpStatusCode()).isEqualTo(200);
  }
}
