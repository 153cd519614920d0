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
package dev.kubejobs.core.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the classes of the operations package small enough to hold one job each: a source file of
 * {@code internal/ops} over {@value #MAX_LINES} lines (as {@code wc -l} counts them) fails the
 * build unless it is on {@link #LONGER}, a short list of classes that hold one job at more length.
 * A class that grows past the limit is split by job (as the status reader is: its API in {@link
 * StatusOperation}, the per-namespace protocol in {@link NamespaceRead}, the refresher thread in
 * {@link WatchRefresher}, the cancel's decisions in {@link CancelDecider}, the bookkeeping of what
 * was reported in {@link ReportedFloor}; and its cache: the single flight in {@link SingleFlight},
 * the eviction in {@link ListEviction}, the memo in {@link JobMemo}, the page-by-page list in
 * {@link ListConsumer}), or, if it holds one job, added to the list with that job named.
 */
class OneJobPerClassTest {
  private static final int MAX_LINES = 300;

  private static final Path OPS = Path.of("src/main/java/dev/kubejobs/core/internal/ops");

  /**
   * The files that may be longer, each with the one job it holds. Measured with {@code wc -l} when
   * the list was written: all were over the limit then.
   */
  private static final Map<String, String> LONGER =
      Map.of(
          // 410 lines: one cancel, from the mark through the locked delete to its confirmation.
          "CancelOperation.java", "the cancel",
          // 406 lines: the sweep of orphaned and ended jobs' resources.
          "DefaultOrphanSweeper.java", "the orphan sweep",
          // 313 lines: the diagnosis of a job stuck in QUEUED or just failed.
          "DiagnosisStep.java", "the diagnosis",
          // 440 lines: carrying out a mapper's follow-up (deletes, end marks) on a locked copy.
          "FollowUpExecutor.java", "the follow-ups",
          // 430 lines: kubejobs' record of how it ended a job, written, withdrawn and read back.
          "OutcomeRecord.java", "the outcome record",
          // 420 lines: deciding one job's status from one copy, with its trace in the Javadoc.
          "StatusPipeline.java", "the status pipeline",
          // 488 lines: one submit, from the spec to the created resource.
          "SubmitOperation.java", "the submit");

  @Test
  void noFileOfTheOperationsPackageIsLongerThanTheLimitUnlessListed() throws IOException {
    Map<String, Integer> lines = lineCounts();
    assertThat(lines)
        .as("the sources of %s", OPS.toAbsolutePath())
        .containsKey("StatusOperation.java");
    Map<String, Integer> over = new TreeMap<>();
    lines.forEach(
        (file, count) -> {
          if (count > MAX_LINES && !LONGER.containsKey(file)) {
            over.put(file, count);
          }
        });
    assertThat(over)
        .as(
            "files of internal/ops over %d lines: split each by job, or list it in LONGER with the"
                + " one job it holds",
            MAX_LINES)
        .isEmpty();
  }

  @Test
  void theListHoldsOnlyFilesStillLongerThanTheLimit() throws IOException {
    Map<String, Integer> lines = lineCounts();
    Map<String, Integer> listed = new TreeMap<>();
    for (String file : LONGER.keySet()) {
      listed.put(file, lines.getOrDefault(file, 0));
    }
    assertThat(listed)
        .as("listed files that are gone or at most %d lines long come off LONGER", MAX_LINES)
        .allSatisfy((file, count) -> assertThat(count).as(file).isGreaterThan(MAX_LINES));
  }

  private static Map<String, Integer> lineCounts() throws IOException {
    Map<String, Integer> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(OPS)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        List<String> text = Files.readAllLines(file);
        out.put(file.getFileName().toString(), text.size());
      }
    }
    return out;
  }
}
