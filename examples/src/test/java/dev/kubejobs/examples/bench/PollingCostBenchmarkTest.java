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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs the polling-cost benchmark small and checks its request counts (never its times). */
class PollingCostBenchmarkTest {
  @Test
  void cachedPollingListsOncePerNamespaceAndTheBreakerStopsRequestsToAHungServer() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PollingCostBenchmark.Result result =
        PollingCostBenchmark.run(
            40, 4, 3, 20, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    // 3 polls x 4 namespaces: one LIST each; without the cache one GET per job per poll.
    assertThat(result.cachedRequests()).isEqualTo(12);
    assertThat(result.uncachedRequests()).isEqualTo(120);
    // Without a breaker every one of the 20 queries reaches the hung server; with it, only the
    // attempts before it opens (5 by default).
    assertThat(result.noBreakerRequests()).isEqualTo(20);
    assertThat(result.breakerRequests()).isLessThanOrEqualTo(6);
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("SIMULATED")
        .contains("ratio without/with: 10.0x the requests")
        .contains("ratio without/with the breaker");
  }
}
