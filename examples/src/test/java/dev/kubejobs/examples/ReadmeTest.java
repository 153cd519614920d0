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

import com.google.gson.JsonObject;
import dev.kubejobs.core.DriverPod;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.JobStatusMapper;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.Fixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README true: its quoted snippets equal the compiled sources, its status mapping tables
 * agree with the real mappers, and every test and file it links to exists.
 */
class ReadmeTest {
  static final Path ROOT = Path.of("..");
  static final Instant NOW = Fixtures.T0.plus(Duration.ofMinutes(5));
  static final Pattern STATUS_LIST =
      Pattern.compile(
          "^((?:QUEUED|STARTED|SUCCEEDED|FAILED|CANCELLING|CANCELLED)"
              + "(?:(?:, | or )(?:QUEUED|STARTED|SUCCEEDED|FAILED|CANCELLING|CANCELLED))*)");
  static final String NEWER = "any other state (a newer operator)";

  static String readme;

  @BeforeAll
  static void read() throws IOException {
    readme = Files.readString(ROOT.resolve("README.md"));
  }

  @Test
  void usageSnippetIsQuotedVerbatim() throws IOException {
    assertThat(quoted("usage"))
        .isEqualTo(
            region(
                ROOT.resolve("examples/src/main/java/dev/kubejobs/examples/UsageExample.java"),
                "usage"));
  }

  @Test
  void testkitSnippetIsQuotedVerbatim() throws IOException {
    assertThat(quoted("testkit"))
        .isEqualTo(
            region(
                ROOT.resolve("examples/src/test/java/dev/kubejobs/examples/TestkitUsageTest.java"),
                "testkit"));
  }

  @Test
  void quickStartHasTheTwoCommandsAndTheSecondIsWhatCiRuns() throws IOException {
    String quickStart = section("## Quick start");
    Matcher block = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL).matcher(quickStart);
    assertThat(block.find()).isTrue();
    List<String> commands = block.group(1).lines().toList();

    assertThat(commands)
        .containsExactly(
            "mvn -B -q -DskipTests -pl examples -am package"
                + " && java -jar examples/target/kubejobs-examples.jar",
            "mvn -B verify");
    assertThat(Files.readString(ROOT.resolve(".ci/run"))).contains("mvn -B -ntp verify");
  }

  @Test
  void everyLinkedTestMethodAndFileExists() throws IOException {
    Matcher link = Pattern.compile("\\[`?([^\\]`]+)`?\\]\\(([^)\\s]+)\\)").matcher(readme);
    int tests = 0;
    int files = 0;
    while (link.find()) {
      String text = link.group(1);
      String target = link.group(2);
      if (target.startsWith("http")) {
        continue;
      }
      Path file = ROOT.resolve(target);
      assertThat(file).as("link target of [%s]", text).exists();
      files++;
      Matcher test = Pattern.compile("^([A-Z][A-Za-z0-9]*)\\.([a-z][A-Za-z0-9]*)$").matcher(text);
      if (test.matches()) {
        assertThat(file.getFileName().toString()).isEqualTo(test.group(1) + ".java");
        assertThat(Files.readString(file))
            .as("%s in %s", test.group(2), target)
            .containsPattern("(void|Stream<DynamicTest>) " + test.group(2) + "\\(");
        tests++;
      }
    }
    assertThat(files).isGreaterThan(20);
    assertThat(tests).isGreaterThan(20);
  }

  @Test
  void apacheMappingTableAgreesWithTheMapper() {
    JobStatusMapper mapper = SparkOperators.apache().statusMapper();
    Map<String, Set<JobStatus>> table = mappingTable("### Apache Spark Kubernetes Operator");

    assertThat(table.keySet()).containsAll(ApacheStatuses.STATES).contains(NEWER);
    assertThat(table).hasSize(ApacheStatuses.STATES.size() + 1);
    checkRows(
        table,
        state ->
            state.equals(NEWER)
                ? ApacheFixtures.newerState().build()
                : ApacheFixtures.inState(state).build(),
        mapper);
    // what the ResourceReleased row says beyond "one of"
    assertThat(status(mapper, ApacheFixtures.succeededThenCancelled().build()))
        .isEqualTo(JobStatus.SUCCEEDED);
    assertThat(status(mapper, ApacheFixtures.cancelledWhileRunning().build()))
        .isEqualTo(JobStatus.CANCELLED);
    assertThat(status(mapper, ApacheFixtures.deletedElsewhere().build()))
        .isEqualTo(JobStatus.FAILED);
    // ScheduledToRestart: QUEUED when no earlier attempt started
    assertThat(
            status(
                mapper,
                ApacheFixtures.builder()
                    .history(
                        "Submitted", "DriverRequested", "SchedulingFailure", "ScheduledToRestart")
                    .build()))
        .isEqualTo(JobStatus.QUEUED);
  }

  @Test
  void kubeflowMappingTableAgreesWithTheMapper() {
    JobStatusMapper mapper = SparkOperators.kubeflow().statusMapper();
    Map<String, Set<JobStatus>> table = mappingTable("### Kubeflow Spark operator");

    assertThat(table.keySet()).containsAll(KubeflowStatuses.STATES).contains(NEWER);
    assertThat(table).hasSize(KubeflowStatuses.STATES.size() + 1);
    checkRows(
        table,
        state ->
            state.equals(NEWER)
                ? KubeflowFixtures.newerState().build()
                : KubeflowFixtures.inState(state).build(),
        mapper);
  }

  private static void checkRows(
      Map<String, Set<JobStatus>> table,
      Function<String, JsonObject> fixture,
      JobStatusMapper mapper) {
    table.forEach(
        (state, allowed) ->
            assertThat(status(mapper, fixture.apply(state)))
                .as("README row for operator state '%s'", state)
                .isIn(allowed));
  }

  private static JobStatus status(JobStatusMapper mapper, JsonObject app) {
    return mapper.map(ResourceSnapshot.of(app), DriverPod.absent(), NOW).status();
  }

  /** Parses "| `State` | STATUS or STATUS ... |" rows of the table under a heading. */
  private static Map<String, Set<JobStatus>> mappingTable(String heading) {
    Map<String, Set<JobStatus>> rows = new LinkedHashMap<>();
    for (String line : section(heading).lines().toList()) {
      if (!line.startsWith("| ") || line.startsWith("| operator state")) {
        continue;
      }
      String[] cells = line.split("\\|");
      String first = cells[1].strip();
      String state;
      if (first.equals(NEWER)) {
        state = NEWER;
      } else {
        Matcher m = Pattern.compile("^`([^`]*)`").matcher(first);
        assertThat(m.find()).as(line).isTrue();
        state = m.group(1).equals("\"\"") ? "" : m.group(1);
      }
      Matcher statuses = STATUS_LIST.matcher(cells[2].strip());
      assertThat(statuses.find()).as(line).isTrue();
      Set<JobStatus> allowed = EnumSet.noneOf(JobStatus.class);
      for (String s : statuses.group(1).split(", | or ")) {
        allowed.add(JobStatus.valueOf(s));
      }
      assertThat(rows.put(state, allowed)).as("one row per state: " + state).isNull();
    }
    return rows;
  }

  /** The text from a heading line to the next heading of the same or a higher level. */
  private static String section(String heading) {
    int start = readme.indexOf("\n" + heading);
    assertThat(start).as(heading).isNotNegative();
    String level = heading.substring(0, heading.indexOf(' ') + 1);
    int end = readme.length();
    for (String h : List.of("\n# ", "\n## ", "\n### ")) {
      if (h.length() - 1 <= level.length()) {
        int next = readme.indexOf(h, start + 1);
        if (next >= 0) {
          end = Math.min(end, next);
        }
      }
    }
    return readme.substring(start + 1, end);
  }

  /** The java block after {@code <!-- snippet:name -->} in the README. */
  private static String quoted(String name) {
    Matcher m =
        Pattern.compile(
                "<!-- snippet:" + Pattern.quote(name) + " -->\\n```java\\n(.*?)```", Pattern.DOTALL)
            .matcher(readme);
    assertThat(m.find()).as("snippet " + name).isTrue();
    return m.group(1);
  }

  /** The lines between the --8<-- markers of a source file, with their common indent removed. */
  private static String region(Path source, String name) throws IOException {
    List<String> lines = Files.readAllLines(source);
    int start =
        lines.indexOf(
            lines.stream()
                .filter(l -> l.contains("[start:" + name + "]"))
                .findFirst()
                .orElseThrow());
    int end =
        lines.indexOf(
            lines.stream().filter(l -> l.contains("[end:" + name + "]")).findFirst().orElseThrow());
    List<String> body = new ArrayList<>(lines.subList(start + 1, end));
    int indent =
        body.stream()
            .filter(l -> !l.isBlank())
            .mapToInt(l -> l.length() - l.stripLeading().length())
            .min()
            .orElse(0);
    StringBuilder s = new StringBuilder();
    for (String l : body) {
      s.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
    }
    return s.toString();
  }
}
