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
package com.example.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fake operator started by hand on a fake API server, without the JUnit extension, as the
 * testkit's README-operator.md shows it (this file is the quote's compiled source).
 */
class FakeOperatorWithoutJUnitTest {

  @Test
  void theOperatorMovesAnApplicationAlongTheFailedPathOnlyWhenTold() {
    List<String> seen = new ArrayList<>();
    // --8<-- [start:operator]
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
        FakeSparkOperator operator = FakeSparkOperator.apache(server)) {
      // a SparkApplication without status (created here in the store, or over HTTP), labelled
      //   testkit.kubejobs.dev/path: FAILED
      JsonObject app = ApacheFixtures.noStatus().label(FakeSparkOperator.PATH_LABEL, "FAILED").build();
      server.store().create(ResourceType.APACHE_SPARK_APPLICATION, "jobs", app);
      operator.moveTo("jobs", "kj-job-1", "RunningHealthy"); // exactly up to that state
      seen.add(state(server));                               // the code under test reads the job here
      operator.advance("jobs", "kj-job-1");                  // one more transition
      operator.runToEnd("jobs", "kj-job-1");                 // the rest of the path
      seen.add(state(server));
    }
    // --8<-- [end:operator]

    assertEquals(List.of("RunningHealthy", "ResourceReleased"), seen);
  }

  /** The operator state the fake operator last wrote into kj-job-1's status. */
  private static String state(FakeKubernetesApiServer server) {
    JsonObject app =
        server.store().get(ResourceType.APACHE_SPARK_APPLICATION, "jobs", "kj-job-1").orElseThrow();
    return app.getAsJsonObject("status")
        .getAsJsonObject("currentState")
        .get("currentStateSummary")
        .getAsString();
  }
}
