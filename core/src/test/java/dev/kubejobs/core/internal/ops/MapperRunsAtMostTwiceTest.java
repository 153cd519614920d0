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
package dev.kubejobs.core.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonParser;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The protocol step "map alone, then with the driver pod if the mapper asks" ({@link
 * StatusPipeline#complete}): the pod is looked up only when asked for, once, and the mapper runs at
 * most twice per copy.
 */
class MapperRunsAtMostTwiceTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final ResourceSnapshot APP =
      ResourceSnapshot.of(
          JsonParser.parseString(
                  "{\"apiVersion\":\"x/v1\",\"kind\":\"X\",\"metadata\":{\"name\":\"kj-a\","
                      + "\"namespace\":\"etl\",\"uid\":\"u1\",\"resourceVersion\":\"7\"}}")
              .getAsJsonObject());

  private final AtomicInteger mapped = new AtomicInteger();

  /** FAILED once the pod is known gone; asks for it before. */
  private final JobStatusMapper failedWhenThePodIsGone =
      (app, pod, now) -> {
        mapped.incrementAndGet();
        return switch (pod.lookup()) {
          case NOT_LOOKED_UP ->
              new MappingDecision.NeedDriverPod(
                  JobExecutionInfo.builder(JobStatus.STARTED).build(), List.of());
          case ABSENT -> MappingDecision.report(JobExecutionInfo.builder(JobStatus.FAILED).build());
          default -> MappingDecision.report(JobExecutionInfo.builder(JobStatus.STARTED).build());
        };
      };

  @Test
  void aMappingThatAsksForThePodGetsItOnceAndAnswersWithIt() {
    List<ResourceSnapshot> asked = new ArrayList<>();
    MappingDecision alone = failedWhenThePodIsGone.map(APP, DriverPod.notLookedUp(), NOW);

    StatusPipeline.Completed completed =
        StatusPipeline.complete(
            failedWhenThePodIsGone,
            APP,
            alone,
            app -> {
              asked.add(app);
              return DriverPod.absent();
            },
            NOW);

    assertThat(completed.decision().info().status()).isEqualTo(JobStatus.FAILED);
    assertThat(completed.pod()).isSameAs(DriverPod.absent());
    assertThat(asked).containsExactly(APP);
    assertThat(mapped).hasValue(2);
    assertThat(alone.info().status()).isEqualTo(JobStatus.STARTED);
  }

  @Test
  void aMappingThatDoesNotAskForThePodNeverLooksItUpNorMapsAgain() {
    JobStatusMapper queued =
        (app, pod, now) -> {
          mapped.incrementAndGet();
          return MappingDecision.report(JobExecutionInfo.builder(JobStatus.QUEUED).build());
        };
    MappingDecision alone = queued.map(APP, DriverPod.notLookedUp(), NOW);

    StatusPipeline.Completed completed =
        StatusPipeline.complete(
            queued,
            APP,
            alone,
            app -> {
              throw new AssertionError("looked up a pod nobody asked for");
            },
            NOW);

    assertThat(completed.decision()).isSameAs(alone);
    assertThat(completed.pod().lookup()).isEqualTo(DriverPod.Lookup.NOT_LOOKED_UP);
    assertThat(mapped).hasValue(1);
  }

  @Test
  void aMapperThatAsksAgainForThePodItWasGivenBreaksItsContract() {
    JobStatusMapper greedy =
        (app, pod, now) ->
            new MappingDecision.NeedDriverPod(
                JobExecutionInfo.builder(JobStatus.STARTED).build(), List.of());

    assertThatThrownBy(
            () ->
                StatusPipeline.complete(
                    greedy,
                    APP,
                    greedy.map(APP, DriverPod.notLookedUp(), NOW),
                    app -> DriverPod.absent(),
                    NOW))
        .isInstanceOf(StatusPipeline.MapperContractException.class)
        .hasMessageContaining("asked again for the driver pod")
        .hasMessageContaining("ABSENT");
  }
}
