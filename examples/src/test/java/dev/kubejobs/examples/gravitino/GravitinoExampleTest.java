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
package dev.kubejobs.examples.gravitino;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The Gravitino example program, which runs kubejobs-gravitino's executor. */
class GravitinoExampleTest {

  @Test
  void theGravitinoExampleRunsSparkPiToSucceeded() {
    StringWriter out = new StringWriter();

    int exit = GravitinoExample.run(new PrintWriter(out, true));

    assertThat(exit).as(out.toString()).isZero();
    assertThat(out.toString())
        .contains("SIMULATED")
        .contains("handle:    simulated/sparkapplications.spark.apache.org/gravitino-jobs/kj-job-1")
        .contains("status:    QUEUED", "status:    STARTED", "status:    SUCCEEDED")
        .contains("log:       ");
  }
}
