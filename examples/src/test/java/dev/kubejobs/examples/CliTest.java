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

import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Runs the example program's real-cluster commands against the fake API server, given to them as a
 * generated kubeconfig file pointing at the fake's URL, with the fake Spark operators running the
 * jobs.
 */
class CliTest {
  static final ResourceType APACHE =
      new ResourceType("spark.apache.org", "v1", "sparkapplications", "SparkApplication");
  static final String NS = "spark-jobs";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(APACHE).build();

  @TempDir Path dir;
  Path kubeconfig;
  FakeSparkOperator apache;
  FakeSparkOperator kubeflow;

  @BeforeEach
  void writeKubeconfigAndAttachOperators() throws IOException {
    kubeconfig = writeKubeconfig(dir, KUBE.server());
    apache = FakeSparkOperator.apache(KUBE.server());
    kubeflow = FakeSparkOperator.kubeflow(KUBE.server());
  }

  @AfterEach
  void stopOperators() {
    apache.close();
    kubeflow.close();
  }

  @Test
  void submitPrintsTheExecutionIdAndStatusTellsItQueued() {
    Result submit = run("submit", "job-1");

    assertThat(submit.exit).isZero();
    assertThat(submit.out.strip())
        .isEqualTo("default/sparkapplications.spark.apache.org/spark-jobs/kj-job-1");
    Result status = run("status", submit.out.strip());
    assertThat(status.exit).isZero();
    assertThat(status.out).contains("status:    QUEUED");
    assertThat(run("status", "job-1").out).contains("status:    QUEUED");
  }

  @Test
  void statusAndLogsOfAJobThatSucceededShowSucceededAndThePiLine() {
    run("submit", "job-1");
    apache.moveTo(NS, "kj-job-1", "Succeeded");

    Result status = run("status", "job-1");
    Result logs = run("logs", "job-1", "--lines", "3");

    assertThat(status.out)
        .contains("status:    SUCCEEDED", "operator:  Succeeded", "driver:    kj-job-1-0-driver");
    assertThat(logs.exit).isZero();
    assertThat(logs.out.lines()).hasSize(3).anyMatch(l -> l.startsWith("Pi is roughly"));
  }

  @Test
  void watchPrintsOneLinePerChangeUntilTheJobSucceeds() {
    run("submit", "job-1");
    apache.start(Duration.ofMillis(10));

    Result watch = run("watch", "job-1", "--interval", "5ms");

    assertThat(watch.exit).isZero();
    assertThat(watch.out).startsWith("watching default/sparkapplications");
    assertThat(watch.out.lines().filter(l -> l.contains("SUCCEEDED"))).hasSize(1);
    assertThat(watch.out.lines().reduce((a, b) -> b).orElseThrow()).contains("SUCCEEDED");
  }

  @Test
  void cancelOfARunningJobIsRequestedAndTheJobEndsCancelled() {
    run("submit", "job-1");
    apache.moveTo(NS, "kj-job-1", "RunningHealthy");

    Result cancel = run("cancel", "job-1");

    assertThat(cancel.exit).isZero();
    assertThat(cancel.out).startsWith("REQUESTED: ");
    // until the operator has released it, the driver may still run: CANCELLING
    assertThat(run("status", "job-1").out).contains("status:    CANCELLING");
    apache.advance(NS, "kj-job-1");
    assertThat(run("status", "job-1").out).contains("status:    CANCELLED");
    assertThat(run("cancel", "job-1").out).startsWith("ALREADY_");
  }

  @Test
  void listShowsThisDeploymentsJobsOnly() {
    run("submit", "job-a");
    run("submit", "job-b");
    run("submit", "job-c", "--deployment", "someone-else");
    apache.moveTo(NS, "kj-job-a", "RunningHealthy");

    Result list = run("list");

    assertThat(list.exit).isZero();
    assertThat(list.out).contains("job-a", "job-b", "STARTED", "QUEUED", "2 job(s)");
    assertThat(list.out).doesNotContain("job-c");
  }

  @Test
  void sweepDeletesTheJobsNotKeptAndDryRunDeletesNothing() {
    run("submit", "job-a");
    run("submit", "job-b");

    Result dry = run("sweep", "--keep", "job-a", "--grace-period", "0s", "--dry-run");
    assertThat(dry.out).contains("WOULD_DELETE  spark-jobs/kj-job-b  job job-b");
    assertThat(KUBE.server().store().list(APACHE, NS)).hasSize(2);

    Result sweep = run("sweep", "--keep", "job-a", "--grace-period", "0s");

    assertThat(sweep.exit).isZero();
    assertThat(sweep.out).contains("DELETED  spark-jobs/kj-job-b  job job-b");
    assertThat(KUBE.server().store().list(APACHE, NS))
        .extracting(o -> o.getAsJsonObject("metadata").get("name").getAsString())
        .containsExactly("kj-job-a");
  }

  @Test
  void sweepKeepsJobsYoungerThanTheDefaultGracePeriod() {
    run("submit", "job-a");

    Result sweep = run("sweep");

    assertThat(sweep.exit).isZero();
    assertThat(KUBE.server().store().list(APACHE, NS)).hasSize(1);
  }

  @Test
  void checkIsOkWithAllPermissionsAndNamesAMissingOne() {
    Result ok = run("check");
    assertThat(ok.exit).isZero();
    assertThat(ok.out).contains("preflight OK");

    KUBE.server().rbac().deny("delete", "", "pods");
    Result missing = run("check");

    assertThat(missing.exit).isEqualTo(Errors.FAILED);
    assertThat(missing.out).contains("missing permissions: 1", "delete", "pods");
  }

  @Test
  void theKubeflowOperatorIsChosenWithTheOperatorOption() {
    Result submit = run("submit", "job-1", "--operator", "kubeflow");
    kubeflow.runToEnd(NS, "kj-job-1");

    assertThat(submit.out.strip())
        .isEqualTo("default/sparkapplications.sparkoperator.k8s.io/spark-jobs/kj-job-1");
    assertThat(run("status", "job-1", "--operator", "kubeflow").out)
        .contains("status:    SUCCEEDED", "operator:  COMPLETED");
  }

  @Test
  void anExecutionIdCarriesItsOperatorAndClusterSoNeitherOptionIsNeeded() {
    String id = run("submit", "job-1", "--operator", "kubeflow", "--cluster", "prod").out.strip();
    kubeflow.runToEnd(NS, "kj-job-1");

    Result status = runWith(List.of("--kubeconfig", kubeconfig.toString()), "status", id);

    assertThat(id).isEqualTo("prod/sparkapplications.sparkoperator.k8s.io/spark-jobs/kj-job-1");
    assertThat(status.exit).as(status.err).isZero();
    assertThat(status.out).contains("id:        " + id, "status:    SUCCEEDED");
    assertThat(run("logs", id).exit).isZero();
  }

  @Test
  void anOptionContradictingTheExecutionIdIsAUsageErrorNamingTheOptionToDrop() {
    String id = run("submit", "job-1", "--operator", "kubeflow").out.strip();

    Result r = run("status", id, "--operator", "apache");

    assertThat(r.exit).isEqualTo(Errors.CONFIGURATION);
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err).contains("says --operator kubeflow", "drop --operator");
  }

  @Test
  void aMalformedExecutionIdIsAUsageErrorExitingTwo() {
    for (String bad :
        List.of(
            "default/sparkapplications.spark.apache.org/kj-job-1",
            "default/pods/spark-jobs/kj-job-1",
            "default/deployments.apps/spark-jobs/kj-job-1")) {
      for (String command : List.of("status", "watch", "cancel", "logs")) {
        Result r = run(command, bad);
        assertThat(r.exit).as(command + " " + bad).isEqualTo(Errors.CONFIGURATION);
        assertThat(r.err.lines()).as(command + " " + bad).hasSize(1);
        assertThat(r.err).startsWith("error: ").doesNotContain("Exception");
      }
    }
    assertThat(run("status", "default/deployments.apps/spark-jobs/kj-job-1").err)
        .contains("which neither operator runs");
    assertThat(run("status", "default/pods/spark-jobs/kj-job-1").err)
        .contains("is not an execution id", "CLUSTER/PLURAL.GROUP/NAMESPACE/NAME");
  }

  @Test
  void statusAndWatchFollowOneExitCodeRuleForAJobThatFailedOrWasCancelled() {
    run("submit", "job-f");
    apache.path(NS, "kj-job-f", SparkAppPath.FAILED).runToEnd(NS, "kj-job-f");
    run("submit", "job-c");
    apache.moveTo(NS, "kj-job-c", "RunningHealthy");
    run("cancel", "job-c");
    apache.advance(NS, "kj-job-c");
    run("submit", "job-r");
    apache.moveTo(NS, "kj-job-r", "RunningHealthy");

    for (String job : List.of("job-f", "job-c")) {
      Result status = run("status", job);
      Result watch = run("watch", job, "--interval", "5ms");
      assertThat(status.out).as(job).containsPattern("status: +(FAILED|CANCELLED)");
      assertThat(status.exit).as(job).isEqualTo(Errors.FAILED);
      assertThat(watch.exit).as(job).isEqualTo(Errors.FAILED);
    }
    assertThat(run("status", "job-r").exit).isZero();
  }

  @Test
  void theHelpStatesTheExitCodesTheExamplesReadmeStates() throws IOException {
    Result help = runWith(List.of(), "--help");
    String readme = Files.readString(Path.of("README.md"));

    assertThat(help.out.replaceAll("\\s+", " ")).contains(Errors.EXIT_CODES);
    assertThat(readme.replaceAll("\\s+", " ")).contains(Errors.EXIT_CODES);
  }

  @Test
  void logsOfAJobWithoutADriverPodYetSaySoOnStandardError() {
    run("submit", "job-1");

    Result logs = run("logs", "job-1");

    assertThat(logs.exit).isZero();
    assertThat(logs.out).isEmpty();
    assertThat(logs.err).startsWith("no driver log of ").contains("kj-job-1");
  }

  @Test
  void statusOfANeverSubmittedJobSaysItWasNeverSubmittedHereOrDeletedNotThatItWasDeleted() {
    Result r = run("status", "never-submitted");

    assertThat(r.exit).isEqualTo(Errors.COMMAND_FAILED);
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err)
        .startsWith("error: no job kj-never-submitted in namespace spark-jobs")
        .contains("never submitted with this namespace, operator and deployment", "'list'")
        .contains("a job you cancelled ends here, as cancelled")
        .doesNotContain("Exception", "was deleted, by");
  }

  @Test
  void aJobOfTheOtherOperatorIsFoundAndTheOptionToPassIsNamed() {
    run("submit", "job-1", "--operator", "kubeflow");

    Result r = run("status", "job-1"); // the default operator is apache

    assertThat(r.exit).isEqualTo(Errors.COMMAND_FAILED);
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err)
        .contains("no job job-1 of the apache operator in namespace spark-jobs")
        .contains("sparkapplications.sparkoperator.k8s.io/spark-jobs/kj-job-1")
        .endsWith("add --operator kubeflow" + System.lineSeparator());
  }

  @Test
  void helpAndHelpCommandListTheCommandsAndTheClusterOptions() {
    for (String[] args : List.of(new String[] {"--help"}, new String[] {"help"})) {
      Result r = runWith(List.of(), args);

      assertThat(r.exit).as(args[0]).isZero();
      assertThat(r.out)
          .as(args[0])
          .contains("Commands:", "fake-cluster", "check")
          .contains("Options of the cluster commands, before or after the command:")
          .contains("--kubeconfig=PATH", "-n, --namespace=", "--operator=", "--deployment=");
      assertThat(r.out.lines()).as(args[0]).allMatch(l -> l.length() <= 80);
    }
    Result status = runWith(List.of(), "help", "status");
    assertThat(status.exit).isZero();
    assertThat(status.out).startsWith("Usage: kubejobs-examples status").contains("--kubeconfig");
  }

  @Test
  void listFitsEightyColumnsWithTimesToTheSecond() {
    run("submit", "a-job-id-much-longer-than-the-column-of-job-ids");
    run("submit", "job-b");
    apache.runToEnd(NS, "kj-job-b");

    Result list = run("list");

    assertThat(list.exit).isZero();
    assertThat(list.out.lines()).hasSize(4).allMatch(l -> l.length() <= 80);
    assertThat(list.out.lines().skip(1).limit(2))
        .anyMatch(l -> l.matches("a-job-id-mu~n-of-job-ids\\s+QUEUED\\s+-\\s+-\\s+-"))
        .anyMatch(
            l ->
                l.matches(
                    "job-b\\s+SUCCEEDED\\s+\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d"
                        + "\\s+\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+\\d+(s|m\\d\\ds|h\\d\\dm)"));
  }

  @Test
  void logsOfAnEndedApacheJobSayWhyThereIsNoLogAndWhatWouldKeepIt() {
    run("submit", "job-1");
    apache.runToEnd(NS, "kj-job-1"); // the operator releases the driver pod

    Result logs = run("logs", "job-1");

    assertThat(logs.exit).isZero();
    assertThat(logs.out).isEmpty();
    assertThat(logs.err)
        .startsWith("no driver log of ")
        .contains("the job ended SUCCEEDED and its driver pod is gone")
        .contains("resourceRetainPolicy is Always or OnFailure");
  }

  @Test
  void refusedCredentialsSayToLogInAgain() {
    run("submit", "job-1");
    KUBE.server()
        .faults()
        .add(
            Fault.on("GET", ".*/sparkapplications.*")
                .forever()
                .status(401, "Unauthorized", "Unauthorized"));

    Result r = run("status", "job-1");

    assertThat(r.exit).isEqualTo(Errors.COMMAND_FAILED);
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err).contains("credentials (401)", "log in again").doesNotContain("Exception");
  }

  @Test
  void aMissingPermissionNamesItAndTheRoleToGrant() {
    run("submit", "job-1");
    KUBE.server().rbac().deny("get", "spark.apache.org", "sparkapplications");

    Result r = run("status", "job-1");

    assertThat(r.exit).isEqualTo(Errors.COMMAND_FAILED);
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err).contains("get", "sparkapplications", "docs/rbac.yaml", "'check'");
  }

  @Test
  void theKubeconfigFileIsNeverWrittenBack() throws IOException {
    String before = Files.readString(kubeconfig);

    run("submit", "job-1");
    run("status", "job-1");
    run("cancel", "job-1");

    assertThat(Files.readString(kubeconfig)).isEqualTo(before);
  }

  @Test
  void clusterOptionsMayComeBeforeTheCommand() {
    List<String> args =
        List.of("--kubeconfig", kubeconfig.toString(), "--namespace=" + NS, "submit", "job-1");

    String[] reordered = Main.globalOptionsAfterCommand(args.toArray(String[]::new));
    Result r = runWith(List.of(), reordered);

    assertThat(reordered)
        .containsExactly(
            "submit", "--kubeconfig", kubeconfig.toString(), "--namespace=" + NS, "job-1");
    assertThat(r.exit).isZero();
    assertThat(r.out.strip()).endsWith("/spark-jobs/kj-job-1");
    assertThat(Main.globalOptionsAfterCommand("status", "x")).containsExactly("status", "x");
    assertThat(Main.globalOptionsAfterCommand()).isEmpty();
  }

  @Test
  void aMissingKubeconfigIsAOneLineError() {
    Result r = runWith(List.of("--kubeconfig", dir.resolve("nope").toString()), "submit", "job-1");

    assertThat(r.exit).isEqualTo(Errors.CONFIGURATION);
    assertThat(r.out).isEmpty();
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err).startsWith("error: kubeconfig ").contains("nope", "not found");
  }

  @Test
  void anAbsentCrdIsAOneLineErrorFromEveryCommand() {
    KUBE.server().unregisterResource(APACHE);

    for (String[] args :
        List.of(
            new String[] {"submit", "job-1"},
            new String[] {"status", "job-1"},
            new String[] {"list"})) {
      Result r = run(args);
      assertThat(r.exit).as(String.join(" ", args)).isEqualTo(Errors.COMMAND_FAILED);
      assertThat(r.err.lines()).as(String.join(" ", args)).hasSize(1);
      assertThat(r.err).startsWith("error: ").containsIgnoringCase("CRD");
    }
    Result check = run("check");
    assertThat(check.exit).isEqualTo(Errors.FAILED);
    assertThat(check.out).contains("sparkapplications.spark.apache.org");
  }

  @Test
  void aRefusedConnectionIsAOneLineErrorNamingTheAddressWithoutAClassName() throws IOException {
    Path dead = dir.resolve("dead-kubeconfig");
    Files.writeString(dead, kubeconfigYaml("http://127.0.0.1:1"));

    Result r = runWith(List.of("--kubeconfig", dead.toString()), "status", "job-1");

    assertThat(r.exit).isEqualTo(Errors.UNAVAILABLE);
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err)
        .startsWith("error: cannot reach the Kubernetes API server: connection refused at")
        .contains("127.0.0.1:1", "running")
        .doesNotContain("java.", "Exception");
  }

  @Test
  void anUnknownHostIsSaidSo() throws IOException {
    Path unknown = dir.resolve("unknown-host-kubeconfig");
    Files.writeString(unknown, kubeconfigYaml("https://no-such-host.invalid:6443"));

    Result r = runWith(List.of("--kubeconfig", unknown.toString()), "status", "job-1");

    assertThat(r.exit).isEqualTo(Errors.UNAVAILABLE);
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err)
        .contains("the host name 'no-such-host.invalid' is unknown")
        .doesNotContain("java.", "Exception");
  }

  @Test
  void httpsToAPlainHttpServerIsATlsError() throws IOException {
    Path tls = dir.resolve("tls-kubeconfig");
    Files.writeString(tls, kubeconfigYaml(KUBE.server().url().replace("http://", "https://")));

    Result r = runWith(List.of("--kubeconfig", tls.toString()), "status", "job-1");

    assertThat(r.exit).isEqualTo(Errors.UNAVAILABLE);
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err)
        .contains("the TLS handshake failed", "http://")
        .doesNotContain("javax.", "Exception:");
  }

  @Test
  void aCurrentContextTheKubeconfigLacksIsAConfigurationError() throws IOException {
    Path wrong = dir.resolve("wrong-context-kubeconfig");
    Files.writeString(
        wrong,
        kubeconfigYaml(KUBE.server().url())
            .replace("current-context: fake", "current-context: prod"));

    Result r = runWith(List.of("--kubeconfig", wrong.toString()), "status", "job-1");

    assertThat(r.exit).isEqualTo(Errors.CONFIGURATION);
    assertThat(r.err.lines()).hasSize(1);
    assertThat(r.err).contains("current-context 'prod'", "names no context");
  }

  Result run(String... args) {
    return runWith(List.of("--kubeconfig", kubeconfig.toString(), "-n", NS), args);
  }

  static Result runWith(List<String> options, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(options); // picocli mixins: options after the subcommand name
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(all.toArray(String[]::new));
    return new Result(exit, out.toString(), err.toString());
  }

  static Path writeKubeconfig(Path dir, FakeKubernetesApiServer server) throws IOException {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(file, kubeconfigYaml(server.url()));
    return file;
  }

  static String kubeconfigYaml(String url) {
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - name: fake
          cluster:
            server: %s
        contexts:
        - name: fake
          context:
            cluster: fake
            user: scheduler
        current-context: fake
        users:
        - name: scheduler
          user:
            token: not-a-real-token
        """
        .formatted(url);
  }

  record Result(int exit, String out, String err) {}
}
