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
package dev.kubejobs.spark.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.operator.DriverTrouble;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The testkit's troubles after the driver runs and its refusals, as each fake operator plays them
 * (see {@link DriverTrouble} for the shapes and their sources), read through the status pipeline:
 * each its own cause, naming what a user must fix, at the cost the pipeline promises.
 */
class TroubleOnTheStatusPathTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String NS = "etl";
  private static final String EVENTS = "/api/v1/namespaces/" + NS + "/events.*";
  private static final String POD_LIST = "/api/v1/namespaces/" + NS + "/pods";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().clock(CLOCK).build();

  /** The operator a case runs on, with the state it fails in. */
  enum Operator {
    APACHE("Failed"),
    KUBEFLOW("FAILED");

    final String failed;

    Operator(String failed) {
      this.failed = failed;
    }
  }

  private FakeKubernetesApiServer server;
  private FakeSparkOperator operator;
  private KubeJobs<SparkJobSpec> jobs;

  @BeforeEach
  void setUp() {
    CLOCK.set(T0);
    server = KUBE.server();
  }

  @AfterEach
  void tearDown() {
    if (operator != null) {
      operator.close();
    }
    if (jobs != null) {
      jobs.close();
    }
  }

  private void start(Operator op) {
    operator =
        op == Operator.APACHE
            ? FakeSparkOperator.apache(server)
            : FakeSparkOperator.kubeflow(server);
    jobs =
        KubeJobs.builder(
                server.newClient(),
                op == Operator.APACHE ? SparkOperators.apache() : SparkOperators.kubeflow())
            .cluster("prod")
            .deployment("gravitino-a")
            .clock(CLOCK)
            .statusCacheTtl(Duration.ofSeconds(5))
            .retry(RetryConfig.custom().maxAttempts(2).waitDuration(Duration.ofMillis(1)).build())
            .build();
  }

  private ExecutionId submit(String name, DriverTrouble trouble) {
    operator.driverTrouble(NS, "kj-" + name, trouble);
    return jobs.submitter()
        .submit(
            name,
            SparkJobSpec.builder()
                .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
                .mainClass("org.apache.spark.examples.SparkPi")
                .sparkVersion("4.0.1")
                .namespace(NS)
                .build());
  }

  private JobExecutionInfo readAt(ExecutionId id, long second) {
    CLOCK.set(T0.plusSeconds(second));
    return jobs.statusReader().get(id);
  }

  private static Diagnosis diagnosisOf(JobExecutionInfo info) {
    assertThat(info.diagnosis()).as("diagnosis of %s", info).isPresent();
    return info.diagnosis().get();
  }

  /**
   * An executor OOMKilled while the driver runs is named while the job runs, and again, from the
   * executor pod, when the job fails: a failed job's executor pods are read with one LIST.
   */
  @ParameterizedTest
  @EnumSource(Operator.class)
  void anExecutorKilledForItsMemoryIsNamedWhileTheJobRunsAndWhenItFails(Operator op) {
    start(op);
    ExecutionId id = submit("job-1", DriverTrouble.executorOomKilled());
    operator.moveTo(NS, id.name(), "executor-oom-killed");

    JobExecutionInfo running = readAt(id, 120);

    assertThat(running.status()).isEqualTo(JobStatus.STARTED);
    assertThat(diagnosisOf(running).cause()).isEqualTo(Cause.OOM_KILLED);
    assertThat(diagnosisOf(running).summary())
        .contains("OOMKilled (exit code 137)")
        .contains("spark.executor.memoryOverhead");

    operator.moveTo(NS, id.name(), op.failed);
    CLOCK.set(T0.plusSeconds(200));
    server.journal().clear();
    JobExecutionInfo failed = jobs.statusReader().get(id);

    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(diagnosisOf(failed).cause()).isEqualTo(Cause.OOM_KILLED);
    assertThat(diagnosisOf(failed).summary()).contains("-exec-1").contains("OOMKilled");
    assertThat(server.journal().count("GET", POD_LIST)).as("one executor pod LIST").isEqualTo(1);
    assertThat(server.journal().count("GET", EVENTS)).as("one events LIST").isEqualTo(1);
  }

  /** A driver lost with its node: each operator's failure, the node named from the events. */
  @ParameterizedTest
  @EnumSource(Operator.class)
  void aDriverLostWithItsNodeIsNodeLostNamingTheNode(Operator op) {
    start(op);
    ExecutionId id = submit("job-1", DriverTrouble.nodeLost("worker-3"));
    operator.runToEnd(NS, id.name());
    server.journal().clear();

    JobExecutionInfo info = readAt(id, 60);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(diagnosisOf(info).cause()).isEqualTo(Cause.NODE_LOST);
    assertThat(diagnosisOf(info).summary()).contains("was lost with its node worker-3");
    // A failed job whose operator records no executor trouble costs no executor LIST.
    assertThat(server.journal().requests("GET", POD_LIST))
        .noneMatch(r -> "spark-role=executor".equals(r.queryParameter("labelSelector")));
    assertThat(server.journal().count("GET", EVENTS)).isEqualTo(1);
  }

  /** The two refusals the testkit adds: an unreachable webhook and RBAC. */
  @ParameterizedTest
  @EnumSource(Operator.class)
  void anUnreachableWebhookAndAnRbacRefusalAreEachTheirOwnCause(Operator op) {
    start(op);
    ExecutionId unreachable = submit("job-1", DriverTrouble.webhookUnreachable());
    ExecutionId forbidden = submit("job-2", DriverTrouble.forbiddenByRbac());
    operator.runToEnd(NS, unreachable.name());
    operator.runToEnd(NS, forbidden.name());

    JobExecutionInfo u = readAt(unreachable, 30);
    JobExecutionInfo f = readAt(forbidden, 40);

    assertThat(u.status()).isEqualTo(JobStatus.FAILED);
    assertThat(diagnosisOf(u).cause()).isEqualTo(Cause.ADMISSION_WEBHOOK_UNREACHABLE);
    assertThat(diagnosisOf(u).summary())
        .contains("Admission webhook " + DriverTrouble.DEFAULT_UNREACHABLE_WEBHOOK);
    assertThat(f.status()).isEqualTo(JobStatus.FAILED);
    assertThat(diagnosisOf(f).cause()).isEqualTo(Cause.FORBIDDEN_BY_RBAC);
    assertThat(diagnosisOf(f).summary())
        .contains("Grant " + DriverTrouble.DEFAULT_USER + " the permission to create pods");
  }

  /**
   * The Apache operator gives up on executors that never start ({@code ExecutorsStartTimedOut}) and
   * releases the pods: the executor pods' FailedScheduling events still say why.
   */
  @Test
  void apachesExecutorsStartTimedOutIsExplainedFromTheGoneExecutorsEvents() {
    start(Operator.APACHE);
    ExecutionId id = submit("job-1", DriverTrouble.executorsUnschedulable());
    operator.runToEnd(NS, id.name());

    JobExecutionInfo info = readAt(id, 60);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    Diagnosis d = diagnosisOf(info);
    assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_PENDING);
    assertThat(d.summary())
        .contains("never started: 2 executor pods (their pods are gone; events remain)")
        .contains("4 Insufficient cpu")
        .contains("ExecutorsStartTimedOut");
  }

  /**
   * No operator watches the namespace: the job is failed at the mapper's no-status timeout (10 min
   * by default for both) and carries the cause a QUEUED job gets, naming the namespace.
   */
  @ParameterizedTest
  @EnumSource(Operator.class)
  void aJobFailedByTheNoStatusTimeoutSaysNoOperatorRuns(Operator op) {
    start(op);
    operator.down();
    ExecutionId id = submit("job-1", DriverTrouble.quotaExceeded());

    JobExecutionInfo info = readAt(id, 601);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(diagnosisOf(info).cause()).isEqualTo(Cause.OPERATOR_NOT_RUNNING);
    assertThat(diagnosisOf(info).summary()).contains("so it was failed", "watches namespace " + NS);
  }

  /**
   * An Apache executor that exited with an error while the driver runs (the operator says {@code
   * RunningWithBelowThresholdExecutors}) is named with how it died, past the threshold.
   */
  @Test
  void apachesExecutorThatExitedWithAnErrorIsNamedWithHowItDied() {
    start(Operator.APACHE);
    ExecutionId id = submit("job-1", DriverTrouble.executorOomKilled());
    operator.moveTo(NS, id.name(), "executor-oom-killed");
    server
        .store()
        .update(
            dev.kubejobs.testkit.ResourceType.POD,
            NS,
            id.name() + "-0-exec-1",
            p -> {
              p.add(
                  "status",
                  dev.kubejobs.testkit.fixtures.DriverPodBuilder.apache(id.name(), 0)
                      .terminated(1, T0.plusSeconds(5), T0.plusSeconds(20))
                      .terminationReason("Error", null)
                      .buildStatus());
              return p;
            });

    JobExecutionInfo info = readAt(id, 120);

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(diagnosisOf(info).cause()).isEqualTo(Cause.EXECUTORS_DIED);
    assertThat(diagnosisOf(info).summary())
        .contains(id.name() + "-0-exec-1 exited with code 1 (Error)")
        .contains("Read the executors' logs");
  }

  /** The Kubeflow operator has no executor timeout: the running job's executors are explained. */
  @Test
  void kubeflowsUnschedulableExecutorsAreExplainedWhileTheDriverRuns() {
    start(Operator.KUBEFLOW);
    ExecutionId id = submit("job-1", DriverTrouble.executorsUnschedulable());
    operator.runToEnd(NS, id.name());

    JobExecutionInfo info = readAt(id, 180);

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(diagnosisOf(info).cause()).isEqualTo(Cause.EXECUTORS_PENDING);
    assertThat(diagnosisOf(info).summary()).contains("2 of 2 executor pods cannot start");
  }
}
