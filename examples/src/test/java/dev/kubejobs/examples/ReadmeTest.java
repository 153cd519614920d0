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
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ClusterMismatchException;
import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.JobStatusUnknownException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.ResourceSnapshot;
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
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the root README and the spark module's README true: the README's program and test are the
 * consumer check's compiled files, its pom.xml is the consumer check's, the commands of its Quick
 * start exist, it stays short, and the status mapping tables of spark/README.md agree with the real
 * mappers. {@link DocsTest} checks the links and quotes of every doc.
 */
class ReadmeTest {
  static final Path ROOT = Path.of("..");
  static final Instant NOW = Fixtures.T0.plus(Duration.ofMinutes(5));
  static final Pattern STATUS_LIST =
      Pattern.compile(
          "^((?:QUEUED|STARTED|SUCCEEDED|FAILED|CANCELLING|CANCELLED)"
              + "(?:(?:, | or )(?:QUEUED|STARTED|SUCCEEDED|FAILED|CANCELLING|CANCELLED))*)");
  static final String NEWER = "any other state (a newer operator)";

  static final Path CONSUMER = ROOT.resolve("consumer-check/src/it/first-tests");

  static String readme;
  static String sparkReadme;

  @BeforeAll
  static void read() throws IOException {
    readme = Files.readString(ROOT.resolve("README.md"));
    sparkReadme = Files.readString(ROOT.resolve("spark/README.md"));
  }

  @Test
  void theProgramForARealClusterIsTheConsumerChecksWholeCompiledFile() throws IOException {
    assertThat(quoted("program"))
        .startsWith("package ")
        .isEqualTo(
            fromPackage(
                CONSUMER.resolve("src/main/java/com/example/scheduler/SparkPiOnACluster.java")));
  }

  @Test
  void theTestClassIsTheConsumerChecksWholeCompiledTest() throws IOException {
    assertThat(quoted("test"))
        .startsWith("package ")
        .contains("import org.junit.jupiter.api.Test;")
        .isEqualTo(
            fromPackage(
                CONSUMER.resolve("src/test/java/com/example/scheduler/SchedulerTest.java")));
  }

  @Test
  void thePomIsTheConsumerChecksWholePomWhichFailsWhenNoTestRan() throws IOException {
    Matcher block =
        Pattern.compile("<!-- snippet:pom -->\\n```xml\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(block.find()).as("the README's pom.xml").isTrue();
    String pom = Files.readString(CONSUMER.resolve("pom.xml"));

    assertThat(block.group(1)).isEqualTo(pom.replace("@project.version@", "0.1.0-SNAPSHOT"));
    assertThat(dependencies(block.group(1)))
        .containsExactly(
            "dev.kubejobs:kubejobs-bom:0.1.0-SNAPSHOT:import",
            "dev.kubejobs:kubejobs-spark::",
            "io.kubernetes:client-java:27.0.0:",
            "dev.kubejobs:kubejobs-testkit::test",
            "org.junit.jupiter:junit-jupiter:5.14.4:test");
    assertThat(pom)
        .contains("<maven.compiler.release>17</maven.compiler.release>")
        .contains("<failIfNoTests>true</failIfNoTests>")
        .containsPattern("maven-surefire-plugin</artifactId>\\s*<version>3\\.");
    // the project that checks a build without tests fails has the very same pom
    assertThat(Files.readString(ROOT.resolve("consumer-check/src/it/no-tests/pom.xml")))
        .isEqualTo(pom);
    assertThat(Files.readString(ROOT.resolve("consumer-check/src/it/no-tests/invoker.properties")))
        .contains("invoker.buildResult = failure");
  }

  @Test
  void quickStartsSecondCommandIsTheOneCiRuns() throws java.io.IOException {
    String quick = section(readme, "## Quick start");
    Matcher block = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL).matcher(quick);
    assertThat(block.find()).isTrue();
    List<String> commands = block.group(1).lines().toList();
    String ci = java.nio.file.Files.readString(ROOT.resolve(".ci/run"));

    assertThat(commands).hasSize(2);
    assertThat(commands.get(0)).endsWith("java -jar examples/target/kubejobs-examples.jar");
    assertThat(ci).contains(commands.get(1));
  }

  @Test
  void quickStartServesTheSimulatedClusterWithACommandTheProgramHas() {
    String quick = section(readme, "## Quick start");

    assertThat(quick)
        .contains(
            "`java -jar examples/target/kubejobs-examples.jar fake-cluster"
                + " --kubeconfig /tmp/kubejobs-fake.yaml`");
    assertThat(Main.commandLine().getSubcommands()).containsKeys("fake-cluster", "check", "list");
  }

  @Test
  void whyIsMyJobStuckNamesTheDiagnosisAccessorAndItsHome() throws NoSuchMethodException {
    String stuck = section(readme, "## Why is my job stuck");

    assertThat(stuck).contains("`JobExecutionInfo.diagnosis()`");
    assertThat(JobExecutionInfo.class.getMethod("diagnosis").getReturnType())
        .isEqualTo(Optional.class);
  }

  @Test
  void theRootReadmeStaysShortAndItsErrorTableNamesEverySubclass() {
    // 230: the complete consumer pom.xml included
    assertThat(readme.lines().count()).isLessThanOrEqualTo(230);
    String errors = section(readme, "## Errors and what to do");
    for (Class<?> type :
        List.of(
            ApiUnavailableException.class,
            JobRejectedException.class,
            JobConflictException.class,
            NoSuchJobException.class,
            ClusterMismatchException.class,
            JobStatusUnknownException.class,
            InvalidJobSpecException.class)) {
      assertThat(errors).contains("`" + type.getSimpleName() + "`");
    }
    assertThat(errors).contains("mayHaveBeenApplied()", "JobStatusResult");
  }

  @Test
  void coreReadmeQuotesTheCompiledUsageAndNamesOnlyExistingRaceTests() throws IOException {
    Path core = ROOT.resolve("core");
    String coreReadme = Files.readString(core.resolve("README.md"));
    Path usage = core.resolve("src/test/java/dev/kubejobs/core/UsageExampleTest.java");
    assertThat(coreReadme).contains(DocsTest.region(usage, "usage"));
    String races =
        coreReadme.substring(
            coreReadme.indexOf("## Decisions under races"), coreReadme.indexOf("## Configuration"));
    Path testsDir = core.resolve("src/test/java/dev/kubejobs/core");
    Matcher test = Pattern.compile("`([A-Z][A-Za-z]*Test)\\.([a-z][A-Za-z0-9]*)`").matcher(races);
    int tests = 0;
    while (test.find()) {
      String file = test.group(1) + ".java";
      Path source;
      try (Stream<Path> files = Files.walk(testsDir)) {
        source =
            files
                .filter(f -> f.getFileName().toString().equals(file))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no test class " + file + " in core"));
      }
      assertThat(Files.readString(source))
          .as("%s.%s", test.group(1), test.group(2))
          .contains("void " + test.group(2) + "(");
      tests++;
    }
    assertThat(tests).isGreaterThanOrEqualTo(10);
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
    return mapper.map(ResourceSnapshot.of(app), DriverPod.absent(), NOW).info().status();
  }

  /** Parses "| `State` | STATUS or STATUS ... |" rows of the table under a heading. */
  private static Map<String, Set<JobStatus>> mappingTable(String heading) {
    Map<String, Set<JobStatus>> rows = new LinkedHashMap<>();
    for (String line : section(sparkReadme, heading).lines().toList()) {
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
  static String section(String readme, String heading) {
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

  /** A source file from its package line on, as a user pastes it. */
  private static String fromPackage(Path source) throws IOException {
    String text = Files.readString(source);
    return text.substring(text.indexOf("package "));
  }

  /** groupId:artifactId:version:scope of each dependency of a POM or a POM snippet, in order. */
  private static List<String> dependencies(String xml) {
    List<String> result = new ArrayList<>();
    Matcher dependency =
        Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL).matcher(xml);
    while (dependency.find()) {
      String d = dependency.group(1);
      result.add(
          tag(d, "groupId")
              + ":"
              + tag(d, "artifactId")
              + ":"
              + tag(d, "version")
              + ":"
              + tag(d, "scope"));
    }
    return result;
  }

  private static String tag(String xml, String name) {
    Matcher m = Pattern.compile("<" + name + ">([^<]*)</" + name + ">").matcher(xml);
    return m.find() ? m.group(1).strip() : "";
  }
}
