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
package dev.kubejobs.examples.bench;

import com.google.gson.JsonObject;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.Fixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Status mapping cost: the real mapper of each operator ({@code @Param operator}) maps a
 * SparkApplication in each of the operator's states (the testkit's fixtures, 18 Apache and 14
 * Kubeflow, taken round-robin) with the driver pod not looked up — what the status reader does for
 * every job it polls, so its cost bounds how many jobs one node can follow.
 *
 * <p>Run it: {@code mvn -B -q -DskipTests -pl examples -am package && java -cp
 * examples/target/kubejobs-examples.jar org.openjdk.jmh.Main StatusMappingBenchmark}. {@code
 * StatusMappingBenchmarkTest} runs one short iteration of it in the build.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StatusMappingBenchmark {
  /** Which operator's mapper and fixtures. */
  @Param({"apache", "kubeflow"})
  public String operator;

  private JobStatusMapper mapper;
  private ResourceSnapshot[] applications;
  private Instant now;
  private int next;

  /** Builds the fixtures of every state. */
  @Setup
  public void setUp() {
    boolean apache = "apache".equals(operator);
    mapper = (apache ? SparkOperators.apache() : SparkOperators.kubeflow()).statusMapper();
    List<String> states = apache ? ApacheStatuses.STATES : KubeflowStatuses.STATES;
    applications =
        states.stream()
            .map(
                s -> {
                  JsonObject app =
                      apache
                          ? ApacheFixtures.inState(s).build()
                          : KubeflowFixtures.inState(s).build();
                  return ResourceSnapshot.of(app);
                })
            .toArray(ResourceSnapshot[]::new);
    now = Fixtures.T0.plus(Duration.ofMinutes(5));
  }

  /**
   * Maps the next application.
   *
   * @return the result, consumed by JMH
   */
  @Benchmark
  public MappingDecision map() {
    ResourceSnapshot app = applications[next];
    next = next + 1 == applications.length ? 0 : next + 1;
    return mapper.map(app, DriverPod.notLookedUp(), now);
  }
}
