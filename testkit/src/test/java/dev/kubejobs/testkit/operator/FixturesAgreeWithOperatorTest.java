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
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.Fixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The canned fixtures and the fake operators write status through the same writers; this checks
 * that a fixture in state S looks like what the fake operator writes when it reaches S (times and
 * ids aside).
 */
class FixturesAgreeWithOperatorTest {

  private static final Set<String> VOLATILE =
      Set.of(
          "lastTransitionTime",
          "lastObservedDriverStatus",
          "lastSubmissionAttemptTime",
          "terminationTime",
          "submissionID");

  private final FakeKubernetesApiServer server = FakeKubernetesApiServer.start();

  @AfterEach
  void tearDown() {
    server.close();
  }

  @Test
  void apacheFixturesMatchTheFakeOperatorAtEveryStateOfTheHappyAndFailedPaths() {
    FakeSparkOperator operator = FakeSparkOperator.apache(server);
    for (String path :
        new String[] {"HAPPY", "FAILED", "DRIVER_START_TIMEOUT", "RETAINED_ON_FAILURE"}) {
      String name = "kj-" + path.toLowerCase().replace('_', '-');
      server
          .store()
          .create(
              operator.resourceType(),
              NS,
              ApacheFixtures.noStatus()
                  .name(name)
                  .namespace(NS)
                  .label(FakeSparkOperator.PATH_LABEL, path)
                  .build());
      int checked = 0;
      while (operator.advance(NS, name)) {
        JsonObject app = server.store().get(operator.resourceType(), NS, name).orElseThrow();
        String state = ApacheStatuses.currentState(app.getAsJsonObject("status")).orElse(null);
        if (state == null) {
          continue;
        }
        JsonObject fixture =
            ApacheFixtures.inState(state).history(historyOf(app)).name(name).namespace(NS).build();
        assertThat(stripped(app.getAsJsonObject("status")))
            .as(path + " at " + state)
            .isEqualTo(stripped(fixture.getAsJsonObject("status")));
        checked++;
      }
      assertThat(checked).as(path).isPositive();
    }
  }

  @Test
  void apacheRestartFixtureMatchesTheFakeOperatorsRestart() {
    FakeSparkOperator operator = FakeSparkOperator.apache(server);
    server
        .store()
        .create(
            operator.resourceType(),
            NS,
            ApacheFixtures.noStatus()
                .namespace(NS)
                .label(FakeSparkOperator.PATH_LABEL, "RESTARTED_THEN_SUCCEEDED")
                .build());

    operator.moveTo(NS, Fixtures.DEFAULT_NAME, "ScheduledToRestart");

    JsonObject app =
        server.store().get(operator.resourceType(), NS, Fixtures.DEFAULT_NAME).orElseThrow();
    assertThat(stripped(app.getAsJsonObject("status")))
        .isEqualTo(
            stripped(
                ApacheFixtures.inState("ScheduledToRestart")
                    .namespace(NS)
                    .build()
                    .getAsJsonObject("status")));
  }

  @Test
  void kubeflowFixturesMatchTheFakeOperatorAtEveryStateOfTheHappyAndFailedPaths() {
    FakeSparkOperator operator = FakeSparkOperator.kubeflow(server);
    for (String path : new String[] {"HAPPY", "FAILED"}) {
      server
          .store()
          .create(
              operator.resourceType(),
              NS,
              KubeflowFixtures.noStatus()
                  .namespace(NS)
                  .label(FakeSparkOperator.PATH_LABEL, path)
                  .build());
      while (operator.advance(NS, Fixtures.DEFAULT_NAME)) {
        JsonObject app =
            server.store().get(operator.resourceType(), NS, Fixtures.DEFAULT_NAME).orElseThrow();
        String state = KubeflowStatuses.state(app.getAsJsonObject("status")).orElseThrow();
        JsonObject fixture = KubeflowFixtures.inState(state).namespace(NS).build();
        assertThat(stripped(app.getAsJsonObject("status")))
            .as(path + " at " + state)
            .isEqualTo(stripped(fixture.getAsJsonObject("status")));
      }
      server.store().delete(operator.resourceType(), NS, Fixtures.DEFAULT_NAME);
    }
  }

  private static String[] historyOf(JsonObject app) {
    return OperatorTestSupport.historyInOrder(
            app.getAsJsonObject("status").getAsJsonObject("stateTransitionHistory"))
        .toArray(String[]::new);
  }

  private static JsonElement stripped(JsonElement e) {
    if (e.isJsonObject()) {
      JsonObject copy = new JsonObject();
      for (var entry : e.getAsJsonObject().entrySet()) {
        if (!VOLATILE.contains(entry.getKey())) {
          copy.add(entry.getKey(), stripped(entry.getValue()));
        }
      }
      return copy;
    }
    return e;
  }
}
