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
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubejobs.examples.Errors;
import dev.kubejobs.examples.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The {@code fake-cluster} command serves a simulated cluster that the CLI, kubectl and a user's
 * own code reach through the kubeconfig it writes, until it is stopped.
 */
class FakeClusterTest {
  static final Path KUBECTL = Path.of("/usr/bin/kubectl");

  @TempDir Path dir;
  final ExecutorService thread = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopTheCommandThread() throws InterruptedException {
    thread.shutdownNow();
    assertThat(thread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void theCommandServesAClusterTheCliUsesThroughItsKubeconfigUntilStopped() throws Exception {
    Path kubeconfig = dir.resolve("fake.yaml");
    StringWriter served = new StringWriter();
    Future<Integer> command =
        thread.submit(
            () -> {
              CommandLine cli = Main.commandLine();
              cli.setOut(new PrintWriter(served, true));
              return cli.execute(
                  "fake-cluster", "--kubeconfig", kubeconfig.toString(), "--step", "20ms");
            });
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> served.toString().contains("Stop with Ctrl-C."));
    assertThat(served.toString())
        .contains("kubeconfig: " + kubeconfig.toAbsolutePath())
        // not run from a jar: the jar the build makes, as a path from the repository's root
        .contains(
            "  java -jar examples/target/kubejobs-examples.jar --kubeconfig "
                + kubeconfig.toAbsolutePath()
                + " submit job-1")
        .contains("kubectl --kubeconfig " + kubeconfig.toAbsolutePath() + " get sparkapplications");

    Result submit = cli("--kubeconfig", kubeconfig.toString(), "submit", "job-1");
    assertThat(submit.exit()).as(submit.err()).isZero();
    // the namespace comes from the written kubeconfig's context
    assertThat(submit.out().strip())
        .isEqualTo("default/sparkapplications.spark.apache.org/spark-jobs/kj-job-1");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                cli("--kubeconfig", kubeconfig.toString(), "status", "job-1")
                    .out()
                    .contains("status:    SUCCEEDED"));

    command.cancel(true); // as Ctrl-C stops the program
    await().atMost(Duration.ofSeconds(30)).until(command::isDone);
    Result afterStop = cli("--kubeconfig", kubeconfig.toString(), "status", "job-1");
    assertThat(afterStop.exit()).isEqualTo(Errors.UNAVAILABLE);
    assertThat(afterStop.err()).contains("connection refused");
  }

  @Test
  void kubectlGetsTheSparkApplicationsOfTheFakeCluster() throws Exception {
    assumeTrue(
        Files.isExecutable(KUBECTL),
        "kubectl is not installed at "
            + KUBECTL
            + ": the kubectl check of fake-cluster is skipped");
    Path kubeconfig = dir.resolve("fake.yaml");
    try (FakeCluster cluster = FakeCluster.start(0, Duration.ofHours(1), kubeconfig)) {
      // The cluster wrote its kubeconfig where it was asked to; kubectl and the CLI read it.
      Path config = cluster.kubeconfig();
      assertThat(config).isEqualTo(kubeconfig);
      assertThat(cli("--kubeconfig", config.toString(), "submit", "job-1").exit()).isZero();
      assertThat(
              cli("--kubeconfig", config.toString(), "--operator", "kubeflow", "submit", "j-2")
                  .exit())
          .isZero();

      Result apache = kubectl(config, "get", "sparkapplications.spark.apache.org", "-o", "name");
      Result kubeflow =
          kubectl(config, "get", "sparkapplications.sparkoperator.k8s.io", "-o", "name");
      Result either = kubectl(config, "get", "sparkapplications", "-o", "name");

      assertThat(apache.exit()).as(apache.err()).isZero();
      assertThat(apache.out().strip()).isEqualTo("sparkapplication.spark.apache.org/kj-job-1");
      assertThat(kubeflow.exit()).as(kubeflow.err()).isZero();
      assertThat(kubeflow.out().strip()).isEqualTo("sparkapplication.sparkoperator.k8s.io/kj-j-2");
      assertThat(either.exit()).as(either.err()).isZero();
      assertThat(either.out()).contains("kj-");
    }
  }

  /**
   * With the operators' real CRDs registered, kubectl reads the schema ({@code explain}) and the
   * printer columns ({@code get}) as on a cluster where the operators are installed.
   */
  @Test
  void kubectlExplainsTheSparkApplicationSchemaAndPrintsItsColumns() throws Exception {
    assumeTrue(
        Files.isExecutable(KUBECTL),
        "kubectl is not installed at " + KUBECTL + ": the kubectl explain check is skipped");
    try (FakeCluster cluster = FakeCluster.start(0, Duration.ofHours(1), dir.resolve("k.yaml"))) {
      Path config = cluster.kubeconfig();
      assertThat(cli("--kubeconfig", config.toString(), "submit", "job-1").exit()).isZero();

      Result explain = kubectl(config, "explain", "sparkapplication.spec");
      Result get = kubectl(config, "get", "sparkapplications.spark.apache.org");

      assertThat(explain.exit()).as(explain.err()).isZero();
      assertThat(explain.out())
          .containsPattern("(?m)^KIND: +SparkApplication$")
          .containsPattern("(?m)^FIELD: +spec <Object>$")
          .containsPattern("(?m)^  mainClass\\t<string>$");
      assertThat(get.exit()).as(get.err()).isZero();
      assertThat(get.out().lines().findFirst().orElseThrow())
          .containsPattern("NAME +AGE +CURRENT STATE");
    }
  }

  /**
   * The root README's stuck job, as it says to reproduce it on {@code fake-cluster}: a submit with
   * the testkit's driver-trouble label ends FAILED, and {@code watch} shows why.
   */
  @Test
  void aJobSubmittedWithTheImagePullTroubleLabelFailsWithItsDiagnosis() {
    try (FakeCluster cluster = FakeCluster.start(0, Duration.ofMillis(20), dir.resolve("k.yaml"))) {
      String config = cluster.kubeconfig().toString();
      Result submit =
          cli(
              "--kubeconfig",
              config,
              "submit",
              "nightly-etl",
              "--image",
              "apache/spark:4.0.1-typo",
              "--label",
              "testkit.kubejobs.dev/driver-trouble=image-pull");
      assertThat(submit.exit()).as(submit.err()).isZero();

      Result watch = cli("--kubeconfig", config, "watch", "nightly-etl", "--interval", "20ms");

      assertThat(watch.exit()).as(watch.err()).isEqualTo(Errors.FAILED);
      assertThat(watch.out()).contains("FAILED", "IMAGE_PULL_FAILED", "apache/spark:4.0.1-typo");
    }
  }

  /**
   * Each testkit trouble that fails a job, under each operator: {@code watch} prints the job FAILED
   * with its cause and the name a user needs (the quota, the webhook, the user, the node, the
   * executor). An Apache job's OOMKilled executor is named while the job runs past the threshold
   * and when its failure is read before the operator releases the pods (TroubleOnTheStatusPathTest
   * in the spark module); here, stepping every 20 ms, the pods are often released first.
   */
  @ParameterizedTest
  @CsvSource({
    "apache, quota-exceeded, QUOTA_EXCEEDED, compute-quota",
    "kubeflow, quota-exceeded, QUOTA_EXCEEDED, compute-quota",
    "apache, admission-denied, ADMISSION_DENIED, validation.gatekeeper.sh",
    "kubeflow, admission-denied, ADMISSION_DENIED, validation.gatekeeper.sh",
    "apache, webhook-unreachable, ADMISSION_WEBHOOK_UNREACHABLE, validate.kyverno.svc-fail",
    "kubeflow, webhook-unreachable, ADMISSION_WEBHOOK_UNREACHABLE, validate.kyverno.svc-fail",
    "apache, forbidden-by-rbac, FORBIDDEN_BY_RBAC, system:serviceaccount:spark-operator",
    "kubeflow, forbidden-by-rbac, FORBIDDEN_BY_RBAC, system:serviceaccount:spark-operator",
    "kubeflow, executor-oom-killed, OOM_KILLED, -exec-1",
    "apache, node-lost, NODE_LOST, node-1",
    "kubeflow, node-lost, NODE_LOST, node-1",
    "apache, executors-unschedulable, EXECUTORS_PENDING, Insufficient cpu"
  })
  void eachTroubleThatFailsAJobIsPrintedWithItsCause(
      String operator, String trouble, String cause, String named) {
    try (FakeCluster cluster = FakeCluster.start(0, Duration.ofMillis(20), dir.resolve("k.yaml"))) {
      String config = cluster.kubeconfig().toString();
      Result submit =
          cli(
              "--kubeconfig",
              config,
              "--operator",
              operator,
              "submit",
              "nightly-etl",
              "--label",
              "testkit.kubejobs.dev/driver-trouble=" + trouble);
      assertThat(submit.exit()).as(submit.err()).isZero();

      Result watch =
          cli(
              "--kubeconfig",
              config,
              "--operator",
              operator,
              "watch",
              "nightly-etl",
              "--interval",
              "20ms");

      assertThat(watch.exit()).as(watch.err()).isEqualTo(Errors.FAILED);
      assertThat(watch.out()).contains("FAILED", "diagnosis: " + cause + ": ", named);
    }
  }

  private static Result kubectl(Path kubeconfig, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(KUBECTL.toString(), "--kubeconfig", kubeconfig.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).start();
    p.getOutputStream().close();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("kubectl " + String.join(" ", args) + " did not end in 60 s");
    }
    return new Result(
        p.exitValue(),
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  private static Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(Main.globalOptionsAfterCommand(args));
    return new Result(exit, out.toString(), err.toString());
  }

  record Result(int exit, String out, String err) {}
}
