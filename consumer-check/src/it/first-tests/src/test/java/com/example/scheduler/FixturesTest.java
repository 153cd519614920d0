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
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * The canned fixtures as the testkit's README-operator.md shows them (this file is the quote's
 * compiled source), read by kubejobs' own status mappers.
 */
class FixturesTest {

  @Test
  void fixturesAreWhatTheMappersReadAsTheOperatorsWrite() {
    // --8<-- [start:fixtures]
    JsonObject app = ApacheFixtures.inState("RunningHealthy")
        .name("x").namespace("ns")
        .cancelMarked().deletionTimestamp(Fixtures.T0.plusSeconds(120))
        .build();
    JsonObject history = ApacheFixtures.builder()
        .history("Submitted", "DriverRequested", "DriverStarted", "Failed", "ScheduledToRestart")
        .build();
    JsonObject done = Fixtures.load("kubeflow/completed.json");
    JsonObject pod = ApacheFixtures.driverPod().withSidecar()
        .terminated(0, Fixtures.T0.plusSeconds(30), Fixtures.T0.plusSeconds(59)).build();
    // --8<-- [end:fixtures]

    assertEquals("ns", app.getAsJsonObject("metadata").get("namespace").getAsString());
    // cancel-marked, being deleted, no outcome and no driver pod left: the cancel has taken effect
    assertEquals(JobStatus.CANCELLED, status(SparkOperators.apache().statusMapper(), app));
    // an earlier attempt started, so a restart waiting for its driver is still STARTED
    assertEquals(JobStatus.STARTED, status(SparkOperators.apache().statusMapper(), history));
    assertEquals(JobStatus.SUCCEEDED, status(SparkOperators.kubeflow().statusMapper(), done));
    assertEquals(2, pod.getAsJsonObject("spec").getAsJsonArray("containers").size());
  }

  private static JobStatus status(JobStatusMapper mapper, JsonObject app) {
    return mapper
        .map(ResourceSnapshot.of(app), DriverPod.absent(), Fixtures.T0.plusSeconds(121))
        .info()
        .status();
  }
}
