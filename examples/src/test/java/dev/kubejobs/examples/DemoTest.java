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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.operator.DriverTrouble;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs the demo as {@code java -jar kubejobs-examples.jar} does, without arguments, in a separate
 * JVM on the test class path, and checks what a person sees.
 */
class DemoTest {
  @Test
  void theDemoWithoutArgumentsRunsEveryJobToItsEndAndPrintsOnlyForAPerson() throws Exception {
    Process process =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName()))
            .start();
    CompletableFuture<String> out = read(process.getInputStream());
    CompletableFuture<String> err = read(process.getErrorStream());

    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("demo ends within 60 s").isTrue();
    String stdout = out.get();
    assertThat(process.exitValue()).as(stdout + err.get()).isZero();

    assertThat(stdout).startsWith("kubejobs demo on a SIMULATED cluster");
    assertThat(stdout)
        .containsPattern("apache +spark-pi +SUCCEEDED +Succeeded")
        .containsPattern("kubeflow +spark-pi +SUCCEEDED +(SUCCEEDING|COMPLETED)")
        .contains("| Pi is roughly 3.14")
        .contains("cancel(kj-etl-nightly) -> REQUESTED")
        .containsPattern("apache +etl-nightly +CANCELLED")
        .containsPattern("kubeflow +ingest-raw +FAILED +\\(no status\\)")
        .containsPattern("apache +stuck-image +QUEUED +DriverRequested")
        .containsPattern(
            "apache +stuck-image +FAILED +DriverStartTimedOut +The Spark application failed")
        .contains("DELETED spark-jobs/kj-lost-report (job 'lost-report')")
        .contains("kubejobs preflight OK: sparkapplications.spark.apache.org v1")
        .contains("kubejobs preflight OK: sparkapplications.sparkoperator.k8s.io v1beta2");
    assertThat(stdout.lines().filter(l -> l.contains("preflight OK"))).hasSize(2);
    // the final table, one row per recorded job
    assertThat(stdout)
        .containsPattern("spark-pi +apache +SUCCEEDED +\\d\\d:\\d\\d:\\d\\d +\\d\\d:\\d\\d:\\d\\d")
        .containsPattern("spark-pi +kubeflow +SUCCEEDED")
        .containsPattern("etl-nightly +apache +CANCELLED .* kj-etl-nightly")
        .containsPattern("ingest-raw +kubeflow +FAILED +- +\\d\\d:\\d\\d:\\d\\d +kj-ingest-raw")
        .containsPattern("stuck-image +apache +FAILED +- +\\d\\d:\\d\\d:\\d\\d +kj-stuck-image");
    // two nodes, a cancel racing the job's end: both nodes tell the same outcome
    assertThat(stdout)
        .contains(
            "node A: cancel(kj-daily-report) put its cancel mark; its delete is on the way",
            "node A: cancel(kj-daily-report) -> ALREADY_FINISHED",
            "node A reads daily-report: SUCCEEDED",
            "node B reads daily-report: SUCCEEDED",
            "both nodes: SUCCEEDED (the outcome reached before the delete stands)",
            "node A: cancel(kj-hourly-sync) -> REQUESTED",
            "node A reads CANCELLING, node B reads CANCELLING",
            "both nodes: CANCELLED (the delete came first: the cancel stands)")
        .containsPattern("daily-report +apache +SUCCEEDED +\\d\\d:\\d\\d:\\d\\d")
        .containsPattern("hourly-sync +apache +CANCELLED +\\d\\d:\\d\\d:\\d\\d");
    // wherever the two nodes read the same job at the same moment, they tell the same status
    assertThat(stdout.lines().filter(l -> l.contains(", node B reads ")))
        .isNotEmpty()
        .allMatch(l -> l.matches(".*node A reads (\\S+), node B reads \\1$"));
    assertThat(stdout).doesNotContain("UNEXPECTED");
    // one line per state change: the same state is never printed twice in a row for a job
    assertThat(
            stdout.lines().filter(l -> l.matches(".*apache +spark-pi +STARTED +RunningHealthy.*")))
        .hasSize(1);
    // no stack traces, no log lines on standard output
    assertThat(stdout).doesNotContain("Exception", "\tat ", "[main]", "WARN", "DEBUG", "SLF4J");
    assertThat(err.get()).doesNotContain("\tat ");
  }

  /**
   * The demo's stuck job shows its diagnosis: {@code get()} fills {@code diagnosis()} for a job
   * like the demo's, and the demo prints that job's diagnosis below its state line.
   */
  @Test
  void theDemoPrintsTheStuckJobsDiagnosis() throws Exception {
    assertThat(getDiagnosesADriverWhoseImageCannotBePulled())
        .as("get() of a job that timed out on an image pull carries a diagnosis")
        .isTrue();

    String stdout = runDemo();

    assertThat(stdout)
        .containsPattern(
            "apache +stuck-image +FAILED +DriverStartTimedOut.*\\R +diagnosis: IMAGE_PULL_FAILED: "
                + ".*apache/spark:4.0.1-typo")
        .containsPattern("\\R +evidence: +\\S");
  }

  /** Whether {@code get()} of a job that timed out on an image pull carries a diagnosis. */
  private static boolean getDiagnosesADriverWhoseImageCannotBePulled() {
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
        FakeSparkOperator operator = FakeSparkOperator.apache(server);
        KubeJobs<SparkJobSpec> jobs =
            KubeJobs.builder(server.newClient(), SparkOperators.apache(ApacheOptions.ofDefaults()))
                .cluster("probe")
                .deployment("probe")
                .build()) {
      ExecutionId id =
          jobs.submitter()
              .submit(
                  "stuck",
                  SparkJobSpec.builder()
                      .namespace("jobs")
                      .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
                      .mainClass("org.apache.spark.examples.SparkPi")
                      .image(DriverTrouble.DEFAULT_BAD_IMAGE)
                      .sparkVersion("4.0.1")
                      .label(FakeSparkOperator.TROUBLE_LABEL, "image-pull")
                      .build());
      operator.moveTo(id.namespace(), id.name(), "DriverStartTimedOut");
      JobExecutionInfo info = jobs.statusReader().get(id);
      return info.status() == JobStatus.FAILED && info.diagnosis().isPresent();
    }
  }

  private static String runDemo() throws Exception {
    Process process =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName()))
            .start();
    CompletableFuture<String> out = read(process.getInputStream());
    CompletableFuture<String> err = read(process.getErrorStream());
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("demo ends within 60 s").isTrue();
    String stdout = out.get();
    assertThat(process.exitValue()).as(stdout + err.get()).isZero();
    return stdout;
  }

  private static CompletableFuture<String> read(java.io.InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
  }
}
