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
package dev.kubejobs.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public map → look up the driver pod → map again protocol, {@link JobStatusMapper#resolve}.
 */
class JobStatusMapperResolveTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final ResourceSnapshot APP =
      ResourceSnapshot.of(
          JsonParser.parseString(
                  "{\"apiVersion\":\"x/v1\",\"kind\":\"X\",\"metadata\":{\"name\":\"kj-a\","
                      + "\"namespace\":\"etl\",\"uid\":\"u1\",\"resourceVersion\":\"7\"}}")
              .getAsJsonObject());

  /** FAILED once the pod is known gone; asks for it before. */
  private final JobStatusMapper failedWhenThePodIsGone =
      (app, pod, now) ->
          switch (pod.lookup()) {
            case NOT_LOOKED_UP ->
                JobExecutionInfo.builder(JobStatus.STARTED).driverPodWanted(true).build();
            case ABSENT -> JobExecutionInfo.builder(JobStatus.FAILED).build();
            default -> JobExecutionInfo.builder(JobStatus.STARTED).build();
          };

  @Test
  void aMappingThatAsksForThePodGetsItOnceAndAnswersWithIt() {
    List<ResourceSnapshot> asked = new ArrayList<>();

    JobExecutionInfo info =
        failedWhenThePodIsGone.resolve(
            APP,
            app -> {
              asked.add(app);
              return DriverPod.absent();
            },
            NOW);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(asked).containsExactly(APP);
    assertThat(failedWhenThePodIsGone.map(APP, DriverPod.notLookedUp(), NOW).status())
        .isEqualTo(JobStatus.STARTED);
  }

  @Test
  void aMappingThatDoesNotAskForThePodNeverLooksItUp() {
    JobStatusMapper queued = (app, pod, now) -> JobExecutionInfo.builder(JobStatus.QUEUED).build();

    JobExecutionInfo info =
        queued.resolve(
            APP,
            app -> {
              throw new AssertionError("looked up a pod nobody asked for");
            },
            NOW);

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
  }
}
