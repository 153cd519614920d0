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

import dev.kubejobs.examples.bench.PullBenchmark.Case;
import dev.kubejobs.examples.bench.PullBenchmark.Mode;
import dev.kubejobs.examples.bench.PullBenchmark.Result;
import dev.kubejobs.examples.bench.ScaleBenchmark.Operator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the pull benchmark tiny (1,200 jobs in 2 namespaces: two list pages each, one round) for
 * both operators and both status sources, and checks the request counts of a pull of one {@code
 * get} per job, never its times.
 */
class PullBenchmarkTest {
  /**
   * Over HTTP/1.1, and over HTTP/2 as a client speaks it over TLS (h2c here: the fake is plain).
   */
  @ParameterizedTest(name = "h2c={0}")
  @ValueSource(booleans = {false, true})
  void aPullOfOneGetPerJobListsEachNamespaceOnceAndAWatchedPullSendsNothing(boolean h2c) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<Result> results =
        PullBenchmark.run(
            List.of(1_200),
            2,
            1,
            EnumSet.allOf(Operator.class),
            EnumSet.allOf(Mode.class),
            h2c,
            new PrintStream(bytes, true, StandardCharsets.UTF_8));

    assertThat(results)
        .extracting(r -> r.operator() + " " + r.mode())
        .containsExactly("APACHE POLLING", "APACHE WATCH", "KUBEFLOW POLLING", "KUBEFLOW WATCH");
    for (Result r : results) {
      String what = r.operator() + " " + r.mode();
      assertThat(r.cases())
          .extracting(Case::name)
          .containsExactlyElementsOf(
              r.mode() == Mode.WATCH
                  ? List.of("unchanged")
                  : List.of("unchanged", "1% changed", "100% changed"));
      for (Case c : r.cases()) {
        String pull = what + " " + c.name();
        assertThat(c.gets()).as("%s GETs", pull).isZero();
        assertThat(c.other()).as("%s other requests", pull).isZero();
        if (r.mode() == Mode.WATCH) {
          assertThat(c.pages()).as("%s LISTs", pull).isZero();
        } else {
          assertThat(c.lists()).as("%s LISTs", pull).isEqualTo(2);
          assertThat(c.pages()).as("%s pages", pull).isEqualTo(4);
        }
      }
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains(h2c ? "HTTP/2 (h2c)" : "HTTP/1.1")
        .contains("APACHE POLLING 1,200 jobs in 2 namespaces")
        .contains("unchanged    per pull: app LIST 2 (4 pages), app GET 0, other 0");
  }
}
