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

import com.google.gson.JsonObject;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import dev.kubejobs.testkit.fixtures.EventBuilder;
import dev.kubejobs.testkit.operator.DriverTrouble;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The diagnosis as the status pipeline's last step, for both operators on the fake API server: a
 * job waiting longer than the threshold, or that just failed, is explained from its driver pod and
 * its namespace's events; a healthy job costs no request more.
 *
 * <p>Shapes: the kubelet reports a container that cannot pull its image as waiting with reason
 * {@code ImagePullBackOff} and message {@code Back-off pulling image "<image>"}, after a Warning
 * event {@code Failed} "Failed to pull image "<image>": ..." (kubernetes/kubernetes
 * pkg/kubelet/images/image_manager.go, EnsureImageExists, commit 00a3928b); a container the kernel
 * killed for memory is terminated with reason {@code OOMKilled} (containerd
 * pkg/cri/server/helpers.go, {@code oomExitReason}, commit 4970bd6e); the testkit's {@link
 * DriverPodBuilder} writes both. The Kubeflow operator stays {@code SUBMITTED} while its driver
 * cannot pull; the Apache operator stays {@code DriverRequested} (until its start timeout).
 */
class DiagnosisOnTheStatusPathTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String NS = "etl";
  private static final String EVENTS = "/api/v1/namespaces/" + NS + "/events.*";
  private static final String PODS = "/api/v1/namespaces/" + NS + "/pods.*";
  private static final String IMAGE = "registry.example.com/spark:does-not-exist";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().clock(CLOCK).build();

  /** The operator a case runs on, with the states it waits and fails in. */
  enum Operator {
    APACHE("DriverRequested", "Failed"),
    KUBEFLOW("SUBMITTED", "FAILED");

    final String waiting;
    final String failed;

    Operator(String waiting, String failed) {
      this.waiting = waiting;
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

  private void start(Operator op, SparkAppPath path) {
    start(op, path, null);
  }

  private void start(Operator op, SparkAppPath path, Duration diagnoseAfter) {
    operator =
        op == Operator.APACHE
            ? FakeSparkOperator.apache(server)
            : FakeSparkOperator.kubeflow(server);
    KubeJobs.Builder<SparkJobSpec> builder =
        KubeJobs.builder(
                server.newClient(),
                op == Operator.APACHE ? SparkOperators.apache() : SparkOperators.kubeflow())
            .cluster("prod")
            .deployment("gravitino-a")
            .clock(CLOCK)
            .statusCacheTtl(Duration.ofSeconds(5))
            .retry(RetryConfig.custom().maxAttempts(2).waitDuration(Duration.ofMillis(1)).build());
    if (diagnoseAfter != null) {
      builder.diagnoseAfter(diagnoseAfter);
    }
    jobs = builder.build();
  }

  private ExecutionId submit(String name, SparkAppPath path) {
    return jobs.submitter()
        .submit(
            name,
            SparkJobSpec.builder()
                .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
                .mainClass("org.apache.spark.examples.SparkPi")
                .sparkVersion("4.0.1")
                .namespace(NS)
                .label(FakeSparkOperator.PATH_LABEL, path.name().toLowerCase())
                .build());
  }

  /** The driver pod the fake operator created for the job. */
  private String driverPod() {
    List<JsonObject> pods = server.store().list(ResourceType.POD, NS);
    assertThat(pods).hasSize(1);
    return pods.get(0).getAsJsonObject("metadata").get("name").getAsString();
  }

  /** Gives the operator's driver pod the status {@code builder} writes. */
  private void driverStatus(String pod, DriverPodBuilder builder) {
    JsonObject status = builder.buildStatus();
    server
        .store()
        .update(
            ResourceType.POD,
            NS,
            pod,
            p -> {
              p.add("status", status);
              return p;
            });
  }

  private static DriverPodBuilder builder(Operator op, String app) {
    return op == Operator.APACHE ? DriverPodBuilder.apache(app, 0) : DriverPodBuilder.kubeflow(app);
  }

  private Diagnosis diagnosisOf(JobExecutionInfo info) {
    assertThat(info.diagnosis()).as("diagnosis of %s", info).isPresent();
    return info.diagnosis().get();
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void aDriverThatCannotPullItsImageIsExplainedOnceItWaitedLongerThanTheThreshold(Operator op) {
    start(op, SparkAppPath.HAPPY);
    ExecutionId id = submit("job-1", SparkAppPath.HAPPY);
    operator.moveTo(NS, id.name(), op.waiting);
    String pod = driverPod();
    driverStatus(
        pod,
        builder(op, id.name())
            .image(IMAGE)
            .waiting("ImagePullBackOff", "Back-off pulling image \"" + IMAGE + "\""));
    server
        .store()
        .create(
            ResourceType.EVENT,
            NS,
            EventBuilder.about("Pod", NS, pod)
                .warning("Failed", "Failed to pull image \"" + IMAGE + "\": not found")
                .at(T0.plusSeconds(5))
                .build());

    // Before the threshold (60 s by default): QUEUED, nothing to explain, no request for it.
    CLOCK.set(T0.plusSeconds(30));
    server.journal().clear();
    JobExecutionInfo early = jobs.statusReader().get(id);
    assertThat(early.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(early.diagnosis()).isEmpty();
    assertThat(server.journal().count("GET", EVENTS)).isZero();

    // Past it: the driver pod and the namespace's events explain it, via get() and getAll().
    CLOCK.set(T0.plusSeconds(61));
    server.journal().clear();
    JobExecutionInfo late = jobs.statusReader().get(id);
    assertThat(late.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(diagnosisOf(late).cause()).isEqualTo(Cause.IMAGE_PULL_FAILED);
    // The image is named from the pod's spec (the operator's image), the reason from its status.
    assertThat(diagnosisOf(late).summary()).contains(pod).contains("ImagePullBackOff");
    assertThat(server.journal().count("GET", EVENTS)).isEqualTo(1);

    server.journal().clear();
    Map<ExecutionId, JobStatusResult> all = jobs.statusReader().getAll(List.of(id));
    assertThat(diagnosisOf(all.get(id).orElseThrow()).cause()).isEqualTo(Cause.IMAGE_PULL_FAILED);
    assertThat(server.journal().count("GET", EVENTS)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void theThresholdIsTheBuildersSetting(Operator op) {
    start(op, SparkAppPath.HAPPY, Duration.ofSeconds(10));
    ExecutionId id = submit("job-1", SparkAppPath.HAPPY);
    operator.moveTo(NS, id.name(), op.waiting);
    driverStatus(driverPod(), builder(op, id.name()).waiting("ErrImagePull", "not found"));

    CLOCK.set(T0.plusSeconds(9));
    assertThat(jobs.statusReader().get(id).diagnosis()).isEmpty();
    CLOCK.set(T0.plusSeconds(10));
    assertThat(diagnosisOf(jobs.statusReader().get(id)).cause()).isEqualTo(Cause.IMAGE_PULL_FAILED);
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void severalStuckJobsOfOneNamespaceShareOneEventsList(Operator op) {
    start(op, SparkAppPath.HAPPY);
    List<ExecutionId> ids =
        List.of(
            submit("job-1", SparkAppPath.HAPPY),
            submit("job-2", SparkAppPath.HAPPY),
            submit("job-3", SparkAppPath.HAPPY));
    for (ExecutionId id : ids) {
      operator.moveTo(NS, id.name(), op.waiting);
    }
    CLOCK.set(T0.plusSeconds(120));
    server.journal().clear();

    Map<ExecutionId, JobStatusResult> all = jobs.statusReader().getAll(ids);

    assertThat(all.values())
        .allSatisfy(r -> assertThat(r.orElseThrow().status()).isEqualTo(JobStatus.QUEUED));
    assertThat(server.journal().count("GET", EVENTS)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void aRunningJobCostsNoRequestForItsDiagnosis(Operator op) {
    start(op, SparkAppPath.HAPPY);
    ExecutionId id = submit("job-1", SparkAppPath.HAPPY);
    operator.moveTo(NS, id.name(), op == Operator.APACHE ? "RunningHealthy" : "RUNNING");
    CLOCK.set(T0.plus(Duration.ofMinutes(30)));
    server.journal().clear();

    JobExecutionInfo info = jobs.statusReader().get(id);
    Map<ExecutionId, JobStatusResult> all = jobs.statusReader().getAll(List.of(id));

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(info.diagnosis()).isEmpty();
    assertThat(all.get(id).orElseThrow().diagnosis()).isEmpty();
    assertThat(server.journal().count("GET", EVENTS)).isZero();
    assertThat(server.journal().count("GET", PODS)).isZero();
  }

  /** The testkit's refusals, as each operator reports them, each its own cause. */
  @ParameterizedTest
  @EnumSource(Operator.class)
  void aDriverPodTheApiServerRefusesIsExplainedWithTheQuotaOrWebhookNamed(Operator op) {
    start(op, SparkAppPath.HAPPY);
    operator.driverTrouble(NS, "kj-job-1", DriverTrouble.quotaExceeded("team-a"));
    operator.driverTrouble(NS, "kj-job-2", DriverTrouble.admissionDenied());
    ExecutionId quota = submit("job-1", SparkAppPath.HAPPY);
    ExecutionId denied = submit("job-2", SparkAppPath.HAPPY);
    operator.runToEnd(NS, quota.name());
    operator.runToEnd(NS, denied.name());
    CLOCK.set(T0.plusSeconds(30));

    JobExecutionInfo q = jobs.statusReader().get(quota);
    JobExecutionInfo d = jobs.statusReader().get(denied);

    assertThat(q.status()).isEqualTo(JobStatus.FAILED);
    assertThat(diagnosisOf(q).cause()).isEqualTo(Cause.QUOTA_EXCEEDED);
    assertThat(diagnosisOf(q).summary()).contains("ResourceQuota team-a in namespace " + NS);
    assertThat(d.status()).isEqualTo(JobStatus.FAILED);
    assertThat(diagnosisOf(d).cause()).isEqualTo(Cause.ADMISSION_DENIED);
    assertThat(diagnosisOf(d).summary())
        .contains("Admission webhook " + DriverTrouble.DEFAULT_WEBHOOK + " refuses the job");
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void aJobWhoseDriverWasOomKilledIsExplainedAsItIsReportedFailed(Operator op) {
    start(op, SparkAppPath.FAILED);
    ExecutionId id = submit("job-1", SparkAppPath.FAILED);
    operator.moveTo(NS, id.name(), op.failed);
    String pod = driverPod();
    driverStatus(
        pod,
        builder(op, id.name())
            .terminated(137, T0.plusSeconds(10), T0.plusSeconds(40))
            .terminationReason("OOMKilled", null));
    CLOCK.set(T0.plusSeconds(45));
    server.journal().clear();

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(diagnosisOf(info).cause()).isEqualTo(Cause.OOM_KILLED);
    assertThat(server.journal().count("GET", EVENTS)).isEqualTo(1);
    // Reported terminal: later reads answer from memory, diagnosis included, with no request.
    server.journal().clear();
    assertThat(jobs.statusReader().get(id)).isEqualTo(info);
    assertThat(server.journal().requests()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void eventsThatMayNotBeListedAreNamedInTheDiagnosisNotAFailure(Operator op) {
    start(op, SparkAppPath.HAPPY);
    server.rbac().deny("list", "", "events");
    ExecutionId id = submit("job-1", SparkAppPath.HAPPY);
    operator.moveTo(NS, id.name(), op.waiting);
    server.store().delete(ResourceType.POD, NS, driverPod());
    CLOCK.set(T0.plusSeconds(90));

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    Diagnosis d = diagnosisOf(info);
    assertThat(d.summary()).contains("list");
    assertThat(d.toString() + d.evidence()).contains("events");
  }

  /**
   * Writes the Kubeflow operator's {@code status.executorState}: {@code ExecutorPendingState =
   * "PENDING"} is what kubeflow/spark-operator's podPhaseToExecutorState writes for an executor pod
   * in phase Pending (api/v1beta2 ExecutorState constants).
   */
  private void executorState(ExecutionId id, String state) {
    JsonObject states = new JsonObject();
    states.addProperty(id.name() + "-exec-1", state);
    server
        .store()
        .update(
            operator.resourceType(),
            NS,
            id.name(),
            a -> {
              a.getAsJsonObject("status").add("executorState", states);
              return a;
            });
  }

  /**
   * An executor pod as kubeflow/spark-operator's executors carry labels: {@code
   * spark-role=executor} and {@code sparkoperator.k8s.io/app-name=<app>} (its controller tests
   * build executor pods with config.SparkRoleLabel: config.SparkExecutorRole and
   * config.SparkAppNameLabel: appName), unschedulable as kube-scheduler reports it.
   */
  private void unschedulableExecutor(String app, String podName) {
    server
        .store()
        .create(
            ResourceType.POD,
            NS,
            DriverPodBuilder.kubeflow(app)
                .name(podName)
                .label("spark-role", "executor")
                .createdAt(T0)
                .unschedulable("0/3 nodes are available: 3 Insufficient cpu.")
                .build());
  }

  @org.junit.jupiter.api.Test
  void executorsPendingWhileTheDriverRunsAreExplainedPastTheThreshold() {
    start(Operator.KUBEFLOW, SparkAppPath.HAPPY);
    ExecutionId id = submit("job-1", SparkAppPath.HAPPY);
    operator.moveTo(NS, id.name(), "RUNNING");
    executorState(id, "PENDING");
    unschedulableExecutor(id.name(), id.name() + "-exec-1");
    // Another application's executor, unschedulable too, is not this job's.
    unschedulableExecutor("other", "other-exec-1");

    CLOCK.set(T0.plusSeconds(30));
    server.journal().clear();
    JobExecutionInfo early = jobs.statusReader().get(id);
    assertThat(early.status()).isEqualTo(JobStatus.STARTED);
    assertThat(early.diagnosis()).isEmpty();
    assertThat(server.journal().count("GET", PODS)).isZero();

    CLOCK.set(T0.plusSeconds(120));
    server.journal().clear();
    JobExecutionInfo late = jobs.statusReader().get(id);
    assertThat(late.status()).isEqualTo(JobStatus.STARTED);
    Diagnosis d = diagnosisOf(late);
    assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_PENDING);
    assertThat(d.summary()).contains("1 of 1 executor pods").contains("Insufficient cpu");
    assertThat(server.journal().count("GET", "/api/v1/namespaces/" + NS + "/pods"))
        .as("one executor pod LIST")
        .isEqualTo(1);
  }

  /**
   * An executor the Kubeflow operator records {@code FAILED} ({@code ExecutorStateFailed}, set for
   * a pod in phase Failed) is read at once, with no threshold: the executor pods (one LIST) say it
   * was OOMKilled.
   */
  @org.junit.jupiter.api.Test
  void anExecutorRecordedFailedWhileTheDriverRunsIsExplainedFromItsPodAtOnce() {
    start(Operator.KUBEFLOW, SparkAppPath.HAPPY);
    ExecutionId id = submit("job-1", SparkAppPath.HAPPY);
    operator.moveTo(NS, id.name(), "RUNNING");
    executorState(id, "FAILED");
    server
        .store()
        .create(
            ResourceType.POD,
            NS,
            DriverPodBuilder.kubeflow(id.name())
                .name(id.name() + "-exec-1")
                .label("spark-role", "executor")
                .createdAt(T0)
                .terminated(137, T0.plusSeconds(5), T0.plusSeconds(20))
                .terminationReason("OOMKilled", null)
                .build());
    CLOCK.set(T0.plusSeconds(25));
    server.journal().clear();

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    Diagnosis d = diagnosisOf(info);
    assertThat(d.cause()).isEqualTo(Cause.OOM_KILLED);
    assertThat(d.summary())
        .contains(id.name() + "-exec-1 OOMKilled (exit code 137)")
        .contains("spark.executor.memoryOverhead");
    assertThat(server.journal().count("GET", "/api/v1/namespaces/" + NS + "/pods"))
        .as("one executor pod LIST")
        .isEqualTo(1);
    assertThat(server.journal().count("GET", EVENTS)).isEqualTo(1);
  }

  @org.junit.jupiter.api.Test
  void executorsAllRunningCostNoRequest() {
    start(Operator.KUBEFLOW, SparkAppPath.HAPPY);
    ExecutionId id = submit("job-1", SparkAppPath.HAPPY);
    operator.moveTo(NS, id.name(), "RUNNING");
    executorState(id, "RUNNING");
    CLOCK.set(T0.plus(Duration.ofMinutes(30)));
    server.journal().clear();

    JobExecutionInfo info = jobs.statusReader().get(id);
    jobs.statusReader().getAll(List.of(id));

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(info.diagnosis()).isEmpty();
    assertThat(server.journal().count("GET", PODS)).isZero();
    assertThat(server.journal().count("GET", EVENTS)).isZero();
  }

  /**
   * The Apache operator lists no executors in its status; it says {@code
   * RunningWithBelowThresholdExecutors} (apache/spark-kubernetes-operator's
   * ApplicationStateSummary) while fewer executors than the minimum run. Its executor pods carry
   * {@code spark-role=executor} and {@code spark.operator/spark-app-name=<app>}, as its driver pods
   * do.
   */
  @org.junit.jupiter.api.Test
  void apacheExecutorsBelowTheThresholdAreExplainedPastTheThreshold() {
    start(Operator.APACHE, SparkAppPath.HAPPY);
    ExecutionId id = submit("job-1", SparkAppPath.HAPPY);
    operator.moveTo(NS, id.name(), "RunningHealthy");
    // The fake's happy path has no below-threshold step: write the state as the operator would.
    server
        .store()
        .update(
            operator.resourceType(),
            NS,
            id.name(),
            a -> {
              a.getAsJsonObject("status")
                  .getAsJsonObject("currentState")
                  .addProperty("currentStateSummary", "RunningWithBelowThresholdExecutors");
              return a;
            });
    server
        .store()
        .create(
            ResourceType.POD,
            NS,
            DriverPodBuilder.apache(id.name(), 0)
                .name(id.name() + "-exec-1")
                .label("spark-role", "executor")
                .createdAt(T0)
                .unschedulable("0/3 nodes are available: 3 Insufficient memory.")
                .build());

    CLOCK.set(T0.plusSeconds(30));
    server.journal().clear();
    JobExecutionInfo early = jobs.statusReader().get(id);
    assertThat(early.status()).isEqualTo(JobStatus.STARTED);
    assertThat(early.diagnosis()).isEmpty();

    CLOCK.set(T0.plusSeconds(120));
    server.journal().clear();
    JobExecutionInfo late = jobs.statusReader().get(id);
    assertThat(late.status()).isEqualTo(JobStatus.STARTED);
    Diagnosis d = diagnosisOf(late);
    assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_PENDING);
    assertThat(d.summary()).contains("Insufficient memory");
  }
}
