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

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link StatusMappingBenchmark} once, briefly and in this JVM, so the build keeps it working.
 */
class StatusMappingBenchmarkTest {
  @Test
  void theBenchmarkRunsForBothOperators() throws Exception {
    Options options =
        new OptionsBuilder()
            .include(StatusMappingBenchmark.class.getName())
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(200))
            .shouldFailOnError(true)
            .build();

    Collection<RunResult> results = new Runner(options).run();

    assertThat(results).hasSize(2);
    assertThat(results).allSatisfy(r -> assertThat(r.getPrimaryResult().getScore()).isPositive());
  }
}
