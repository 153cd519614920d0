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
package dev.kubejobs.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the many-jobs simulation and checks what each poll of all unfinished jobs cost. */
class ManyJobsSimulationTest {
  @Test
  void pollingFourHundredJobsInFourNamespacesCostsOneListPerNamespaceAndNoGet() {
    StringWriter out = new StringWriter();

    int exit = ManyJobsSimulation.run(new PrintWriter(out, true), 400, 4);

    assertThat(exit).as(out.toString()).isZero();
    assertThat(out.toString()).contains("400 of 400 jobs SUCCEEDED");
    List<long[]> rounds =
        out.toString()
            .lines()
            .filter(l -> l.matches(" *\\d+( +\\d+){6} +\\d+"))
            .map(
                l ->
                    java.util.Arrays.stream(l.strip().split(" +"))
                        .mapToLong(Long::parseLong)
                        .toArray())
            .toList();
    assertThat(rounds).isNotEmpty();
    long previouslySucceeded = 0;
    for (long[] r : rounds) {
      // round, QUEUED, STARTED, SUCCEEDED (total), LIST, GET, pods, poll ms
      long endedThisRound = r[3] - previouslySucceeded;
      assertThat(r[4]).as("LISTs in round %d", r[0]).isLessThanOrEqualTo(4);
      // Jobs that ended this round end on the round's own (fresh) lists: no GET.
      assertThat(r[5]).as("GETs in round %d (%d ended)", r[0], endedThisRound).isZero();
      assertThat(r[6]).as("pod requests in round %d", r[0]).isZero();
      previouslySucceeded = r[3];
    }
    assertThat(rounds.get(rounds.size() - 1)[3]).isEqualTo(400);
  }
}
