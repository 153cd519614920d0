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
package dev.kubejobs.testkit.operator;

import static dev.kubejobs.testkit.operator.OperatorTestSupport.NS;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.finalizers;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A fake operator taken down and brought back, a path chosen per application in one line, and the
 * server clock moved by each transition.
 *
 * <p>Down and back mirrors a real operator restart: the Apache operator reconciles from the stored
 * status ({@code SparkAppReconciler#reconcile} in apache/spark-kubernetes-operator) and the
 * Kubeflow one from {@code status.applicationState} ({@code Reconciler.Reconcile} in
 * kubeflow/spark-operator {@code internal/controller/sparkapplication/controller.go}), so an
 * application goes on from where it was; an Apache application deleted meanwhile stays held by the
 * operator's finalizer until it is back.
 */
class DownUpPathAndTimeTest {

  private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

  private final MutableClock clock = MutableClock.at(START);
  private final FakeKubernetesApiServer server =
      FakeKubernetesApiServer.builder().clock(clock).build();
  private final FakeSparkOperator apache = FakeSparkOperator.apache(server);

  @AfterEach
  void tearDown() {
    apache.close();
    server.close();
  }

  private void submit(String name) {
    server
        .store()
        .create(
            apache.resourceType(), NS, ApacheFixtures.noStatus().name(name).namespace(NS).build());
  }

  private JsonObject app(String name) {
    return server.store().get(apache.resourceType(), NS, name).orElseThrow();
  }

  private String state(String name) {
    return str(app(name), "status", "currentState", "currentStateSummary");
  }

  @Test
  void aPathChosenInOneLineAfterCreateIsFollowed() {
    submit("kj-a");
    apache.path(NS, "kj-a", SparkAppPath.FAILED);

    apache.runToEnd(NS, "kj-a");

    assertThat(
            OperatorTestSupport.historyInOrder(
                app("kj-a").getAsJsonObject("status").getAsJsonObject("stateTransitionHistory")))
        .contains("Failed")
        .doesNotContain("Succeeded");
  }

  @Test
  void aPathChosenBeforeTheApplicationExistsIsFollowedAndWinsOverTheLabel() {
    apache.path(NS, "kj-a", SparkAppPath.DRIVER_START_TIMEOUT);
    server
        .store()
        .create(
            apache.resourceType(),
            NS,
            ApacheFixtures.noStatus()
                .name("kj-a")
                .namespace(NS)
                .label(FakeSparkOperator.PATH_LABEL, "HAPPY")
                .build());

    apache.moveTo(NS, "kj-a", "DriverStartTimedOut");

    assertThat(state("kj-a")).isEqualTo("DriverStartTimedOut");
  }

  @Test
  void aPathSeenButNotYetMovedIsScriptedAgain() {
    submit("kj-a");
    assertThat(apache.remainingTransitions(NS, "kj-a")).contains("Succeeded");

    apache.path(NS, "kj-a", SparkAppPath.FAILED);

    assertThat(apache.remainingTransitions(NS, "kj-a"))
        .contains("Failed")
        .doesNotContain("Succeeded");
  }

  @Test
  void choosingAPathAfterTheFirstTransitionIsRefusedWithWhatToDo() {
    submit("kj-a");
    apache.advance(NS, "kj-a");

    assertThatThrownBy(() -> apache.path(NS, "kj-a", SparkAppPath.FAILED))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already made transitions on path HAPPY")
        .hasMessageContaining("before stepping");
  }

  @Test
  void aDownOperatorMovesNothingAndResumesWhereItWasWhenUp() {
    submit("kj-a");
    apache.moveTo(NS, "kj-a", "DriverStarted");
    List<String> left = apache.remainingTransitions(NS, "kj-a");
    JsonObject before = app("kj-a");

    apache.down();

    assertThat(apache.isUp()).isFalse();
    assertThat(apache.step()).isFalse();
    assertThat(apache.advance(NS, "kj-a")).isFalse();
    assertThat(apache.stepUntilSettled()).isZero();
    assertThatThrownBy(() -> apache.moveTo(NS, "kj-a", "Succeeded"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is down; call up() first");
    assertThat(app("kj-a")).isEqualTo(before);

    apache.up();

    assertThat(apache.remainingTransitions(NS, "kj-a")).isEqualTo(left);
    apache.moveTo(NS, "kj-a", "Succeeded");
    assertThat(state("kj-a")).isEqualTo("Succeeded");
  }

  @Test
  void anApplicationCreatedWhileDownGetsItsFirstStatusWhenBack() {
    apache.down();
    submit("kj-a");
    apache.step();
    assertThat(app("kj-a").has("status")).isFalse();

    apache.up();
    apache.moveTo(NS, "kj-a", "Submitted");

    assertThat(state("kj-a")).isEqualTo("Submitted");
  }

  @Test
  void anApacheApplicationDeletedWhileDownIsHeldByTheFinalizerUntilBack() {
    submit("kj-a");
    apache.moveTo(NS, "kj-a", "RunningHealthy");
    apache.down();

    server.store().delete(apache.resourceType(), NS, "kj-a");
    apache.step();

    assertThat(finalizers(app("kj-a"))).containsExactly(ApacheStatuses.FINALIZER);
    apache.up();
    apache.stepUntilSettled();
    assertThat(server.store().get(apache.resourceType(), NS, "kj-a")).isEmpty();
  }

  @Test
  void eachTransitionMovesTheServerClockByTheStepDurationOncePerStep() {
    try (FakeKubernetesApiServer s = FakeKubernetesApiServer.builder().clock(clock).build();
        FakeSparkOperator op =
            FakeSparkOperator.builder(FakeSparkOperator.Flavor.KUBEFLOW, s)
                .stepDuration(Duration.ofSeconds(10))
                .build()) {
      for (String name : List.of("kj-a", "kj-b")) {
        s.store()
            .create(
                op.resourceType(),
                NS,
                KubeflowFixtures.noStatus().name(name).namespace(NS).build());
      }

      op.step(); // both move, the clock once

      assertThat(clock.instant()).isEqualTo(START.plusSeconds(10));
      assertThat(
              str(
                  s.store().get(op.resourceType(), NS, "kj-a").orElseThrow(),
                  "status",
                  "lastSubmissionAttemptTime"))
          .isEqualTo("2026-03-01T10:00:10Z");

      op.moveTo(NS, "kj-a", "COMPLETED"); // RUNNING, driver-exited, SUCCEEDING, COMPLETED
      assertThat(clock.instant()).isEqualTo(START.plusSeconds(50));

      op.runToEnd(NS, "kj-a"); // nothing left: the clock stays
      assertThat(clock.instant()).isEqualTo(START.plusSeconds(50));
    }
  }

  @Test
  void withoutAStepDurationTheClockMovesOnlyWhenTheTestMovesIt() {
    submit("kj-a");

    apache.runToEnd(NS, "kj-a");

    assertThat(clock.instant()).isEqualTo(START);
    assertThat(apache.stepDuration()).isZero();
  }

  @Test
  void aStepDurationNeedsAServerOnAMutableClock() {
    try (FakeKubernetesApiServer systemClock = FakeKubernetesApiServer.start()) {
      var builder =
          FakeSparkOperator.builder(FakeSparkOperator.Flavor.APACHE, systemClock)
              .stepDuration(Duration.ofSeconds(10));

      assertThatThrownBy(builder::build)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("needs a server on a MutableClock");
    }
    assertThatThrownBy(
            () ->
                FakeSparkOperator.builder(FakeSparkOperator.Flavor.APACHE, server)
                    .stepDuration(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("stepDuration must be zero or positive, but was PT-1S");
  }

  @Test
  void theResourceTypeConstantsAreWhatTheOperatorsServe() {
    assertThat(apache.resourceType()).isEqualTo(ResourceType.APACHE_SPARK_APPLICATION);
    assertThat(
            FakeSparkOperator.builder(FakeSparkOperator.Flavor.APACHE, server)
                .version("v1beta1")
                .build()
                .resourceType())
        .isEqualTo(ResourceType.APACHE_SPARK_APPLICATION_V1BETA1);
    assertThat(FakeSparkOperator.kubeflow(server).resourceType())
        .isEqualTo(ResourceType.KUBEFLOW_SPARK_APPLICATION);
    assertThat(ResourceType.APACHE_SPARK_APPLICATION.apiVersion()).isEqualTo("spark.apache.org/v1");
    assertThat(ResourceType.KUBEFLOW_SPARK_APPLICATION.apiVersion())
        .isEqualTo("sparkoperator.k8s.io/v1beta2");
  }

  @Test
  void resetForgetsApplicationsAndChosenPathsAndBringsTheOperatorUp() {
    submit("kj-a");
    apache.moveTo(NS, "kj-a", "Submitted");
    apache.path(NS, "kj-b", SparkAppPath.FAILED);
    apache.down();

    apache.reset();

    assertThat(apache.isUp()).isTrue();
    // kj-a has a status now, so it is adopted, not driven
    assertThat(apache.remainingTransitions(NS, "kj-a")).isEmpty();
    submit("kj-b");
    assertThat(apache.remainingTransitions(NS, "kj-b")).contains("Succeeded");
  }
}
