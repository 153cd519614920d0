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
import static dev.kubejobs.testkit.operator.OperatorTestSupport.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClockModeTest {

  private final FakeKubernetesApiServer server = FakeKubernetesApiServer.start();

  @AfterEach
  void tearDown() {
    server.close();
  }

  @Test
  void startedOperatorDrivesApplicationsToTheEndByItselfAndStopsOnClose() {
    FakeSparkOperator apache = FakeSparkOperator.apache(server);
    FakeSparkOperator kubeflow = FakeSparkOperator.kubeflow(server);
    try (apache;
        kubeflow) {
      apache.start(Duration.ofMillis(5));
      kubeflow.start(Duration.ofMillis(5));
      server
          .store()
          .create(
              apache.resourceType(),
              NS,
              ApacheFixtures.noStatus().name("kj-a").namespace(NS).build());
      server
          .store()
          .create(
              kubeflow.resourceType(),
              NS,
              KubeflowFixtures.noStatus().name("kj-k").namespace(NS).build());

      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                assertThat(
                        str(
                            server.store().get(apache.resourceType(), NS, "kj-a").orElseThrow(),
                            "status",
                            "currentState",
                            "currentStateSummary"))
                    .isEqualTo("ResourceReleased");
                assertThat(
                        str(
                            server.store().get(kubeflow.resourceType(), NS, "kj-k").orElseThrow(),
                            "status",
                            "applicationState",
                            "state"))
                    .isEqualTo("COMPLETED");
              });
    }

    // close() returns only once the timer threads have exited, not merely their tasks
    assertThat(operatorThreads()).isEmpty();
  }

  @Test
  void closeLeavesNoThreadEvenWhenCalledRightAfterStart() {
    for (int i = 0; i < 50; i++) {
      FakeSparkOperator op = FakeSparkOperator.apache(server).start(Duration.ofMillis(1));
      op.close();

      assertThat(operatorThreads()).as("round %d", i).isEmpty();
    }
  }

  @Test
  void aClosedOperatorCanBeStartedAgain() {
    FakeSparkOperator op = FakeSparkOperator.apache(server);
    try {
      op.start(Duration.ofMillis(5));
      op.close();
      op.start(Duration.ofMillis(5));
      server
          .store()
          .create(
              op.resourceType(), NS, ApacheFixtures.noStatus().name("kj-a").namespace(NS).build());

      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> op.remainingTransitions(NS, "kj-a").isEmpty());
    } finally {
      op.close();
    }
    assertThat(operatorThreads()).isEmpty();
  }

  private static List<Thread> operatorThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("fake-spark-operator-") && t.isAlive())
        .toList();
  }

  @Test
  void startingTwiceIsRefused() {
    try (FakeSparkOperator op = FakeSparkOperator.apache(server).start(Duration.ofSeconds(1))) {
      assertThatThrownBy(() -> op.start(Duration.ofSeconds(1)))
          .isInstanceOf(IllegalStateException.class);
    }
  }
}
