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
