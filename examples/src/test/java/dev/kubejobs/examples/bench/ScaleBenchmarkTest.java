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

import dev.kubejobs.examples.bench.ScaleBenchmark.Mode;
import dev.kubejobs.examples.bench.ScaleBenchmark.Requests;
import dev.kubejobs.examples.bench.ScaleBenchmark.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the scale benchmark tiny (40 jobs in 2 namespaces) and checks the request counts it returns
 * and prints, never its times: issue 10's request counts for polling, issue 11's for watch mode.
 */
class ScaleBenchmarkTest {
  @Test
  void aGetAllListsEachNamespaceOnceEndingStormsSendNoGetAndAWatchedPollSendsNothing() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<Result> results =
        ScaleBenchmark.run(
            new int[] {40}, 2, 1, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    assertThat(results)
        .extracting(r -> r.operator() + " " + r.mode())
        .containsExactly(
            "APACHE POLLING",
            "APACHE PARALLEL",
            "APACHE WATCH",
            "KUBEFLOW POLLING",
            "KUBEFLOW PARALLEL",
            "KUBEFLOW WATCH");
    for (Result r : results) {
      String what = r.operator() + " " + r.mode();
      // a tenth of the jobs end in each storm
      assertThat(r.storm()).isEqualTo(4);
      assertThat(r.allSucceededJobs()).isEqualTo(36);
      if (r.mode() == Mode.WATCH) {
        // the first read of each namespace: one LIST and one WATCH, nothing else
        assertThat(r.getAll().appLists()).as("%s getAll LISTs", what).isEqualTo(2);
        assertThat(r.getAll().watches()).as("%s getAll WATCHes", what).isEqualTo(2);
        assertThat(r.getAll().total()).as("%s getAll requests", what).isEqualTo(4);
        // reads look at the watched view: no LIST, no GET of an application
        for (Requests storm : List.of(r.succeededStorm(), r.failedStorm())) {
          assertThat(storm.appLists() + storm.appGets()).as("%s storm", what).isZero();
          assertThat(storm.podGets() + storm.podLists())
              .as("%s storm pods", what)
              .isLessThanOrEqualTo(4);
        }
        assertThat(r.allSucceeded().appGets()).isZero();
        assertThat(r.allSucceeded().appLists()).isEqualTo(2);
        // followed for 10 polls: not one request
        assertThat(r.followRequests().total()).as("%s follow", what).isZero();
        continue;
      }
      // 20 jobs per namespace fit one page: one LIST per namespace, nothing else.
      assertThat(r.getAll().appLists()).as("%s getAll LISTs", what).isEqualTo(2);
      assertThat(r.getAll().total()).as("%s getAll requests", what).isEqualTo(2);
      // jobs that just succeeded end on the poll's own lists: no GET
      assertThat(r.succeededStorm().appLists()).isEqualTo(2);
      assertThat(r.succeededStorm().appGets()).isZero();
      assertThat(r.succeededStorm().podGets() + r.succeededStorm().podLists()).isZero();
      assertThat(r.succeededStorm().other()).isZero();
      // failed jobs: their driver pods with one pod LIST per namespace (2 failed jobs in each);
      // the Kubeflow operator records every executor FAILED when the driver fails, so the
      // diagnosis reads their pods too, one more LIST per namespace
      assertThat(r.failedStorm().appLists()).isEqualTo(2);
      assertThat(r.failedStorm().appGets()).isZero();
      assertThat(r.failedStorm().podLists())
          .as("%s failed storm pod LISTs", what)
          .isEqualTo(r.operator() == ScaleBenchmark.Operator.KUBEFLOW ? 4 : 2);
      assertThat(r.failedStorm().podGets()).isZero();
      // and the failures' diagnosis: one events LIST per namespace, shared by its failed jobs
      assertThat(r.failedStorm().other()).isEqualTo(2);
      // all 36 succeeded jobs, read by a fresh instance: its lists, no GET
      assertThat(r.allSucceeded().appLists()).isEqualTo(2);
      assertThat(r.allSucceeded().appGets()).isZero();
      assertThat(r.allSucceeded().podGets() + r.allSucceeded().podLists()).isZero();
      // followed for 10 polls: one LIST per namespace per poll
      assertThat(r.followRequests().appLists()).as("%s follow", what).isEqualTo(20);
      assertThat(r.followRequests().appGets()).as("%s follow", what).isZero();
    }
    // the Apache fake writes realistic histories (5 entries while running)
    assertThat(results.get(0).jsonBytesPerJob()).isGreaterThan(1500);
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("SIMULATED")
        .contains("getAll, cache expired: 2 requests (app LIST 2, app GET 0")
        .contains("Ratios (kubejobs / floor");
  }
}
