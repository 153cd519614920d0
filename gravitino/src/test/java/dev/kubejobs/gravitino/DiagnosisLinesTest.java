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
package dev.kubejobs.gravitino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.Evidence;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What {@code getJobStderr} returns for a diagnosed job, within Gravitino's line and byte caps. */
class DiagnosisLinesTest {

  private static final String ID =
      "prod/sparkapplications.spark.apache.org/gravitino-jobs/kj-job-9";
  private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

  private static final Diagnosis IMAGE_PULL =
      Diagnosis.of(
          Cause.IMAGE_PULL_FAILED,
          "The driver image \"apache/spark:4.0.1-typo\" cannot be pulled: not found.",
          List.of(
              Evidence.builder(
                      Evidence.Source.CONTAINER_STATE,
                      "container spark-kubernetes-driver of Pod gravitino-jobs/kj-job-9-0-driver")
                  .reason("ImagePullBackOff")
                  .message("Back-off pulling image \"apache/spark:4.0.1-typo\"")
                  .build(),
              Evidence.builder(Evidence.Source.EVENT, "Pod gravitino-jobs/kj-job-9-0-driver")
                  .type("Warning")
                  .reason("Failed")
                  .message("Failed to pull image \"apache/spark:4.0.1-typo\":\n... not found")
                  .count(3)
                  .firstSeen(T)
                  .lastSeen(T.plusSeconds(90))
                  .build()));

  @Test
  void theCauseAndSentenceComeFirstThenOneLinePerEvidence() {
    List<String> lines = DiagnosisLines.of(ID, IMAGE_PULL, 100, 100_000);

    assertThat(lines)
        .containsExactly(
            "[kubejobs] Job "
                + ID
                + ": IMAGE_PULL_FAILED: The driver image \"apache/spark:4.0.1-typo\" cannot be"
                + " pulled: not found.",
            "[kubejobs]   CONTAINER_STATE ImagePullBackOff container spark-kubernetes-driver of Pod"
                + " gravitino-jobs/kj-job-9-0-driver: Back-off pulling image"
                + " \"apache/spark:4.0.1-typo\"",
            "[kubejobs]   EVENT Warning Failed (x3, 2026-03-01T10:00:00Z to 2026-03-01T10:01:30Z)"
                + " Pod gravitino-jobs/kj-job-9-0-driver: Failed to pull image"
                + " \"apache/spark:4.0.1-typo\": | ... not found");
  }

  @ParameterizedTest
  @CsvSource({"1, 100000, 1", "2, 100000, 2", "100, 120, 1", "100, 200, 2"})
  void linesStopAtTheLineAndByteCaps(int maxLines, int maxBytes, int expectedLines) {
    List<String> lines = DiagnosisLines.of(ID, IMAGE_PULL, maxLines, maxBytes);

    assertThat(lines).hasSize(expectedLines);
    assertThat(String.join("", lines).getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(maxBytes);
  }

  @Test
  void aCutNeverSplitsACharacter() {
    Diagnosis d = Diagnosis.of(Cause.UNDETERMINED, "ééééé", List.of());

    // "[kubejobs] Job <id>: UNDETERMINED: " is ASCII; one byte more than it leaves half an é
    int head = ("[kubejobs] Job " + ID + ": UNDETERMINED: ").length();
    List<String> lines = DiagnosisLines.of(ID, d, 10, head + 3);

    assertThat(lines).singleElement().asString().endsWith(": é");
  }
}
