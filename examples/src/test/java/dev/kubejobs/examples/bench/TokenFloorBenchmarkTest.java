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
import dev.kubejobs.examples.bench.TokenFloorBenchmark.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the token floor briefly for both operators and checks what it read, never its times. */
class TokenFloorBenchmarkTest {
  @Test
  void bothParsersReadEveryItemOfEachOperatorsPage() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<Result> results =
        TokenFloorBenchmark.run(
            7,
            3,
            EnumSet.allOf(Operator.class),
            new PrintStream(bytes, true, StandardCharsets.UTF_8));

    assertThat(results).extracting(Result::operator).containsExactly(Operator.values());
    for (Result r : results) {
      assertThat(r.itemsSeen()).as("%s items read", r.operator()).containsExactly(7, 7);
      // a running application of either operator is more than a kilobyte of JSON
      assertThat(r.bytesPerItem()).as("%s JSON per item", r.operator()).isGreaterThan(1_000);
      assertThat(r.gsonAllocated())
          .as("%s: Gson's tree allocates more than the page's bytes", r.operator())
          .isGreaterThan(r.bytesPerItem());
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("APACHE page of 7 running applications")
        .contains("KUBEFLOW page of 7 running applications");
  }
}
