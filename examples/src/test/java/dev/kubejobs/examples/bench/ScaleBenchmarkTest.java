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

import dev.kubejobs.examples.bench.ScaleBenchmark.Operator;
import dev.kubejobs.examples.bench.ScaleBenchmark.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the scale benchmark tiny (40 jobs in 2 namespaces) and checks the request counts it returns
 * and prints, never its times. The bounds are today's counts: fewer requests pass, more fail.
 */
class ScaleBenchmarkTest {
  @Test
  void aGetAllListsEachNamespaceOnceAndEndingStormsStayWithinOneReadPerEndedJob() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<Result> results =
        ScaleBenchmark.run(
            new int[] {40}, 2, 1, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    assertThat(results)
        .extracting(Result::operator)
        .containsExactly(Operator.APACHE, Operator.KUBEFLOW);
    for (Result r : results) {
      // 20 jobs per namespace fit one page: one LIST per namespace, nothing else.
      assertThat(r.getAll().appLists()).as("%s getAll LISTs", r.operator()).isEqualTo(2);
      assertThat(r.getAll().total()).as("%s getAll requests", r.operator()).isEqualTo(2);
      // a tenth of the jobs end in each storm
      assertThat(r.storm()).isEqualTo(4);
      assertThat(r.succeededStorm().appLists()).isEqualTo(2);
      assertThat(r.succeededStorm().appGets()).isLessThanOrEqualTo(4);
      assertThat(r.succeededStorm().podGets() + r.succeededStorm().podLists()).isZero();
      assertThat(r.succeededStorm().other()).isZero();
      // failed jobs: at most one re-read each and two driver-pod reads each (today's count)
      assertThat(r.failedStorm().appLists()).isEqualTo(2);
      assertThat(r.failedStorm().appGets()).isLessThanOrEqualTo(4);
      assertThat(r.failedStorm().podGets() + r.failedStorm().podLists()).isLessThanOrEqualTo(8);
      assertThat(r.failedStorm().other()).isZero();
      // all 36 succeeded jobs, read by a fresh instance
      assertThat(r.allSucceededJobs()).isEqualTo(36);
      assertThat(r.allSucceeded().appLists()).isEqualTo(2);
      assertThat(r.allSucceeded().appGets()).isLessThanOrEqualTo(36);
      assertThat(r.allSucceeded().podGets() + r.allSucceeded().podLists()).isZero();
    }
    // the Apache fake writes realistic histories (5 entries while running)
    assertThat(results.get(0).jsonBytesPerJob()).isGreaterThan(1500);
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("SIMULATED")
        .contains("getAll, cache expired: 2 requests (app LIST 2, app GET 0")
        .contains("Ratios (kubejobs / floor");
  }
}
