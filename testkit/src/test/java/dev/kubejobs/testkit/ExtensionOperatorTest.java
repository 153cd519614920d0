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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * The extension with operators registered in one call: a shared clock moved by each transition,
 * operators fresh for each test, timers stopped after it, and the server closed by JUnit's store.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExtensionOperatorTest {

  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  static final String NS = "jobs";

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder()
          .clock(MutableClock.at(T0))
          .operator(Flavor.APACHE)
          .operator(Flavor.KUBEFLOW, b -> b.defaultPath(SparkAppPath.FAILED))
          .build();

  private static FakeSparkOperator firstApache;

  @Test
  @Order(1)
  void registeredOperatorsServeTheirTypesAndMoveTheSharedClockOnEachTransition() {
    firstApache = kube.operator(Flavor.APACHE);
    FakeSparkOperator apache = kube.operator(Flavor.APACHE);
    Instant before = kube.clock().instant();
    kube.server()
        .store()
        .create(
            ResourceType.APACHE_SPARK_APPLICATION,
            NS,
            ApacheFixtures.noStatus().name("kj-a").namespace(NS).build());

    apache.moveTo(NS, "kj-a", "Submitted"); // finalizer, Submitted

    assertThat(kube.clock().instant())
        .isEqualTo(before.plus(FakeKubernetesExtension.OPERATOR_STEP.multipliedBy(2)));
    assertThat(kube.server().clock()).isSameAs(kube.clock());
    assertThat(kube.operator(Flavor.KUBEFLOW).resourceType())
        .isEqualTo(ResourceType.KUBEFLOW_SPARK_APPLICATION);
    // leave a started timer, a chosen path and a down operator behind
    apache.path(NS, "kj-b", SparkAppPath.FAILED);
    kube.operator(Flavor.KUBEFLOW).down();
    apache.start(Duration.ofMillis(5));
  }

  @Test
  @Order(2)
  void theNextTestGetsFreshOperatorsAndNoTimerThread() {
    assertThat(kube.operator(Flavor.APACHE)).isSameAs(firstApache);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("fake-spark-operator-") && t.isAlive());
    assertThat(kube.operator(Flavor.KUBEFLOW).isUp()).isTrue();
    kube.server()
        .store()
        .create(
            ResourceType.APACHE_SPARK_APPLICATION,
            NS,
            ApacheFixtures.noStatus().name("kj-b").namespace(NS).build());
    kube.server()
        .store()
        .create(
            ResourceType.KUBEFLOW_SPARK_APPLICATION,
            NS,
            KubeflowFixtures.noStatus().name("kj-k").namespace(NS).build());

    // the path chosen in the first test is forgotten; the Kubeflow setup's default path holds
    assertThat(kube.operator(Flavor.APACHE).remainingTransitions(NS, "kj-b")).contains("Succeeded");
    assertThat(kube.operator(Flavor.KUBEFLOW).remainingTransitions(NS, "kj-k")).contains("FAILED");
  }

  @Test
  @Order(3)
  void asksForAFlavorWhenSeveralAreRegistered() {
    assertThatThrownBy(kube::operator)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("pick one with operator(FakeSparkOperator.Flavor)");
  }

  @Test
  void registeringAFlavorTwiceIsRefused() {
    assertThatThrownBy(
            () -> FakeKubernetesExtension.builder().operator(Flavor.APACHE).operator(Flavor.APACHE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already registered");
  }

  @Test
  void theDefaultClockFollowsTheSystemClockAndCanBeAdvanced() {
    FakeKubernetesExtension ext = FakeKubernetesExtension.builder().build();
    Instant before = Instant.now();

    ext.clock().advance(Duration.ofMinutes(11));

    assertThat(ext.clock().instant()).isAfterOrEqualTo(before.plus(Duration.ofMinutes(11)));
  }

  @Test
  void aClassWithAnInstanceFieldExtensionHasItsServerStoppedAfterTheClass() {
    Inner.seen.set(null);
    SummaryGeneratingListener listener = new SummaryGeneratingListener();

    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Inner.class)).build(),
            listener);

    assertThat(listener.getSummary().getTestsSucceededCount()).isEqualTo(2);
    assertThat(Inner.seen.get()).isNotNull();
    assertThat(Inner.seen.get().toString()).endsWith("[stopped]");
    assertThat(Inner.operatorSeen.get().isUp()).isTrue();
  }

  /** Run only through the launcher above (surefire skips nested classes). */
  static class Inner {
    static final AtomicReference<FakeKubernetesApiServer> seen = new AtomicReference<>();
    static final AtomicReference<FakeSparkOperator> operatorSeen = new AtomicReference<>();

    @RegisterExtension
    final FakeKubernetesExtension ext =
        FakeKubernetesExtension.builder().operator(Flavor.KUBEFLOW).build();

    @Test
    void one() {
      seen.set(ext.server());
      operatorSeen.set(ext.operator());
      assertThat(ext.server().toString()).doesNotContain("stopped");
    }

    @Test
    void two() {
      assertThat(ext.operator()).isNotNull();
    }
  }
}
