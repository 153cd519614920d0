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
package dev.kubejobs.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The columns of the CLI's {@code list}: times to the second, run times short, 80 columns. */
class ListFormatTest {
  static final Instant T = Instant.parse("2026-12-04T01:52:03.123456789Z");

  @Test
  void timesAreToTheSecondInUtc() {
    assertThat(Commands.shortTime(T)).isEqualTo("12-04 01:52:03");
  }

  @Test
  void runTimesShowTheTwoLargestUnits() {
    assertThat(Commands.took(T, T.plusSeconds(45))).isEqualTo("45s");
    assertThat(Commands.took(T, T.plusSeconds(192))).isEqualTo("3m12s");
    assertThat(Commands.took(T, T.plusSeconds(7500))).isEqualTo("2h05m");
    assertThat(Commands.took(T, T.plusSeconds(2 * 86400 + 3600))).isEqualTo("2d01h");
    assertThat(Commands.took(T, T.minusSeconds(5))).isEqualTo("0s");
  }

  @Test
  void aRowFitsEightyColumnsAndALongJobIdIsShortenedInTheMiddle() {
    String row =
        Commands.listRow(
            "nightly-etl-of-the-warehouse-2026-12-04",
            "CANCELLING",
            "12-04 01:52:03",
            "12-04 02:52:03",
            "1h00m");

    assertThat(row).hasSizeLessThanOrEqualTo(80).startsWith("nightly-etl~e-2026-12-04  CANCELLING");
    assertThat(Commands.listRow("job-1", "QUEUED", "-", "-", "-")).doesNotEndWith(" ");
  }
}
