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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.fixtures.DriverLogs;
import dev.kubejobs.testkit.operator.DriverTrouble;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.gravitino.connector.job.JobContext;
import org.apache.gravitino.connector.job.JobExecutionInfo;
import org.apache.gravitino.exceptions.NoSuchJobException;
import org.apache.gravitino.job.JobHandle;
import org.apache.gravitino.job.ShellJobTemplate;
import org.apache.gravitino.job.SparkJobTemplate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The status contract Gravitino's job manager relies on, for {@link KubeJobsSparkExecutor} created
 * the way Gravitino creates it (no-argument constructor, {@code initialize} with the {@code
 * gravitino.jobExecutor.kubejobs.*} settings, here a kubeconfig pointing at the fake cluster).
 */
class KubeJobsSparkExecutorTest {
  static final String NS = "gravitino-jobs";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE = FakeKubernetesExtension.builder().build();

  @TempDir Path dir;

  private KubeJobsSparkExecutor executor;

  @AfterEach
  void closeExecutor() {
    if (executor != null) {
      executor.close();
    }
  }

  @ParameterizedTest
  @EnumSource(FakeSparkOperator.Flavor.class)
  void startAndFinishTimesComeFromTheClusterAndAreKeptInEveryLaterState(
      FakeSparkOperator.Flavor flavor) throws IOException {
    FakeSparkOperator operator = operator(flavor);
    executor = initialized(flavor, Map.of());
    String id = executor.submitJob(context(7), Templates.sparkPi());

    JobExecutionInfo queued = executor.getJobExecutionInfo(id);
    operator.moveTo(NS, "kj-job-7", running(flavor));
    JobExecutionInfo started = executor.getJobExecutionInfo(id);
    operator.runToEnd(NS, "kj-job-7");
    JobExecutionInfo succeeded = executor.getJobExecutionInfo(id);
    JobExecutionInfo again = executor.getJobExecutionInfo(id);

    assertThat(queued.status()).isEqualTo(JobHandle.Status.QUEUED);
    assertThat(queued.startedAt()).isNull();
    assertThat(queued.finishedAt()).isNull();
    assertThat(started.status()).isEqualTo(JobHandle.Status.STARTED);
    assertThat(started.startedAt()).isNotNull();
    assertThat(started.finishedAt()).isNull();
    assertThat(succeeded.status()).isEqualTo(JobHandle.Status.SUCCEEDED);
    assertThat(succeeded.startedAt()).as("kept after the end").isEqualTo(started.startedAt());
    assertThat(succeeded.finishedAt()).isNotNull().isAfterOrEqualTo(succeeded.startedAt());
    assertThat(again).isEqualTo(succeeded);
    assertThat(executor.getJobStatus(id)).isEqualTo(JobHandle.Status.SUCCEEDED);
  }

  @Test
  void theExecutionIdIsTheKubeJobsIdAndASecondSubmitOfTheSameJobLandsOnIt() throws IOException {
    operator(FakeSparkOperator.Flavor.APACHE);
    executor = initialized(FakeSparkOperator.Flavor.APACHE, Map.of());

    String id = executor.submitJob(context(42), Templates.sparkPi());
    String again = executor.submitJob(context(42), Templates.sparkPi());

    assertThat(id).isEqualTo("prod/sparkapplications.spark.apache.org/gravitino-jobs/kj-job-42");
    assertThat(again).isEqualTo(id);
    assertThat(KUBE.server().journal().count("POST", ".*/sparkapplications")).isEqualTo(2);
  }

  @Test
  void aCacheMissOrAnUnreachableServerIsNeverNoSuchJobOnlyAConfirmedGoneResourceIs()
      throws IOException {
    FakeSparkOperator operator = operator(FakeSparkOperator.Flavor.KUBEFLOW);
    // a long cache period: the job is first missing from a cached LIST, then confirmed by a GET
    executor =
        initialized(
            FakeSparkOperator.Flavor.KUBEFLOW,
            Map.of(ExecutorSettings.STATUS_CACHE_PERIOD_MS, "600000"));
    String other = executor.submitJob(context(1), Templates.sparkPi());
    assertThat(executor.getJobStatus(other)).isEqualTo(JobHandle.Status.QUEUED); // LIST cached
    String id = startedJob(operator, 2);

    assertThat(executor.getJobStatus(id))
        .as("missing from the cached list")
        .isEqualTo(JobHandle.Status.STARTED);

    KUBE.api(operator.resourceType()).delete(NS, "kj-job-2");
    assertThatThrownBy(() -> executor.getJobExecutionInfo(id))
        .isInstanceOf(NoSuchJobException.class)
        .hasMessageContaining("kj-job-2");
    assertThatThrownBy(() -> executor.cancelJob(id)).isInstanceOf(NoSuchJobException.class);
  }

  @Test
  void anUnreachableApiServerIsNotNoSuchJobTheStatusIsUnknown() throws IOException {
    operator(FakeSparkOperator.Flavor.APACHE);
    executor = initialized(FakeSparkOperator.Flavor.APACHE, Map.of());
    String id = executor.submitJob(context(9), Templates.sparkPi());
    KUBE.server().faults().add(Fault.on("GET", ".*").forever().connectionReset());

    assertThatThrownBy(() -> executor.getJobExecutionInfo(id))
        .isInstanceOf(ApiUnavailableException.class)
        .isNotInstanceOf(NoSuchJobException.class);
    assertThatThrownBy(() -> executor.cancelJob(id)).isInstanceOf(ApiUnavailableException.class);
  }

  @ParameterizedTest
  @EnumSource(FakeSparkOperator.Flavor.class)
  void cancellingAnEndedJobKeepsItsOutcome(FakeSparkOperator.Flavor flavor) throws IOException {
    FakeSparkOperator operator = operator(flavor);
    executor = initialized(flavor, Map.of());
    String id = executor.submitJob(context(3), Templates.sparkPi());
    operator.runToEnd(NS, "kj-job-3");
    JobExecutionInfo before = executor.getJobExecutionInfo(id);

    executor.cancelJob(id);
    executor.cancelJob(id);

    assertThat(before.status()).isEqualTo(JobHandle.Status.SUCCEEDED);
    assertThat(executor.getJobExecutionInfo(id)).isEqualTo(before);

    // deleted later by someone else: it keeps the outcome read, never taken for a cancel
    KUBE.api(operator.resourceType()).delete(NS, "kj-job-3");
    operator.runToEnd(NS, "kj-job-3");
    assertThat(executor.getJobExecutionInfo(id)).isEqualTo(before);
  }

  @ParameterizedTest
  @EnumSource(FakeSparkOperator.Flavor.class)
  void aJobCancelledHereReadsCancelledOnceGoneHereAndOnAnotherNode(FakeSparkOperator.Flavor flavor)
      throws IOException {
    FakeSparkOperator operator = operator(flavor);
    executor = initialized(flavor, Map.of());
    String id = startedJob(operator, 4);

    executor.cancelJob(id);
    if (flavor == FakeSparkOperator.Flavor.APACHE) {
      // its finalizer keeps it while the operator releases it: deleted with the cancel mark
      assertThat(executor.getJobStatus(id))
          .isIn(JobHandle.Status.CANCELLING, JobHandle.Status.CANCELLED);
    }
    operator.stepUntilSettled();

    // gone: this executor cancelled it; another node's finds it gone and reads the record of the
    // cancel (an Event kubejobs wrote before the delete)
    assertThat(executor.getJobStatus(id)).isEqualTo(JobHandle.Status.CANCELLED);
    try (KubeJobsSparkExecutor otherNode = initialized(flavor, Map.of())) {
      assertThat(otherNode.getJobStatus(id)).isEqualTo(JobHandle.Status.CANCELLED);
    }
  }

  @Test
  void aCancelThatWasRefusedIsNotTakenForTheJobsEnd() throws IOException {
    FakeSparkOperator operator = operator(FakeSparkOperator.Flavor.KUBEFLOW);
    executor = initialized(FakeSparkOperator.Flavor.KUBEFLOW, Map.of());
    String id = startedJob(operator, 5);
    KUBE.server().rbac().deny("patch", "*", "sparkapplications");

    assertThatThrownBy(() -> executor.cancelJob(id)).isInstanceOf(JobRejectedException.class);
    KUBE.server().rbac().reset();
    KUBE.api(operator.resourceType()).delete(NS, "kj-job-5"); // deleted by someone else

    assertThatThrownBy(() -> executor.getJobExecutionInfo(id))
        .isInstanceOf(NoSuchJobException.class);
  }

  /**
   * Gravitino's {@code JobManager.cancelJob} records the job CANCELLING only after {@code
   * cancelJob} returned, and its pull turns a {@code NoSuchJobException} of a job not recorded
   * CANCELLING into FAILED (apache/gravitino {@code core/.../job/JobManager.java} at {@code
   * f461aa31aa}). A pull of the same server while the cancel's delete has been applied but not
   * answered — a Kubeflow application, without a finalizer, is gone at once — reads CANCELLED.
   */
  @Test
  void aPullWhileThisExecutorsCancelIsOnItsWayRecordsCancelledNotFailed() throws Exception {
    FakeSparkOperator operator = operator(FakeSparkOperator.Flavor.KUBEFLOW);
    executor = initialized(FakeSparkOperator.Flavor.KUBEFLOW, Map.of());
    try (GravitinoJobManagerStandIn manager =
        new GravitinoJobManagerStandIn("lake", dir.toFile())) {
      manager.registerTemplate("spark-pi", Templates.sparkPi());
      long job = manager.runJob(executor, "spark-pi");
      operator.moveTo(NS, "kj-job-" + job, "RUNNING");
      manager.pull(executor);
      assertThat(manager.job(job).status()).isEqualTo(JobHandle.Status.STARTED);
      Hold delete =
          KUBE.server()
              .hold(Hold.on("DELETE", ".*/sparkapplications/kj-job-" + job).afterApplying());

      CompletableFuture<Void> cancel =
          CompletableFuture.runAsync(() -> manager.cancel(executor, job));
      delete.awaitArrived(); // applied: the application is gone, the cancel waits for its answer
      manager.pull(executor);
      delete.release();
      cancel.get(30, TimeUnit.SECONDS);

      assertThat(manager.job(job).status()).isEqualTo(JobHandle.Status.CANCELLED);
      assertThat(manager.pullErrors()).isEmpty();
    }
  }

  @Test
  void everyNodeOwnsEveryJobAndNoStateIsNodeLocal() {
    executor = new KubeJobsSparkExecutor();

    assertThat(executor.ownsJob("prod/sparkapplications.spark.apache.org/ns/kj-job-1")).isTrue();
    assertThat(executor.ownsJob("another/x/y/z")).isTrue();
    assertThat(executor.isJobStateNodeLocal()).isFalse();
  }

  @ParameterizedTest
  @CsvSource({"3, 100000", "50, 60", "1, 1"})
  void stdoutIsTheDriverLogTailWithinTheLineAndByteCaps(int maxLines, int maxBytes)
      throws IOException {
    FakeSparkOperator operator = operator(FakeSparkOperator.Flavor.APACHE);
    executor = initialized(FakeSparkOperator.Flavor.APACHE, Map.of());
    String id = executor.submitJob(context(5), Templates.sparkPi());
    operator.moveTo(
        NS, "kj-job-5", "Succeeded"); // the driver pod is kept until resources are released

    List<String> out = executor.getJobStdout(id, maxLines, maxBytes);
    List<String> all = executor.getJobStdout(id, 1000, 1 << 20);

    assertThat(all).hasSizeGreaterThan(3).contains(DriverLogs.PI_LINE);
    assertThat(out).isNotEmpty().hasSizeLessThanOrEqualTo(maxLines);
    assertThat(String.join("\n", out).getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(maxBytes);
    assertThat(all.get(all.size() - 1)).endsWith(out.get(out.size() - 1));
    assertThat(executor.getJobStderr(id, 10, 1000)).isEmpty();
  }

  /**
   * The Apache operator releases the driver pod when the job ends unless {@code
   * spec.applicationTolerations.resourceRetainPolicy} retains it, for {@code
   * resourceRetainDurationMillis} (v1 CRD, /work/shared/reference/apache-spark-operator); the fake
   * operator keeps a retained pod, and deleting it stands for the operator's release once the
   * period passed. Gravitino's own Kubernetes executor keeps the pod a day the same way
   * ("resourceRetainPolicy", "Always" in its SparkApplicationUtils).
   */
  @Test
  void aFinishedApacheJobsOutputIsReadableWhileItsPodIsKeptAndSaysWhyOnceItIsGone()
      throws Exception {
    FakeSparkOperator operator = operator(FakeSparkOperator.Flavor.APACHE);
    executor = initialized(FakeSparkOperator.Flavor.APACHE, Map.of());
    String id = executor.submitJob(context(11), Templates.sparkPi());
    operator.runToEnd(NS, "kj-job-11");
    assertThat(executor.getJobExecutionInfo(id).status()).isEqualTo(JobHandle.Status.SUCCEEDED);

    List<String> kept = executor.getJobStdout(id, 1000, 1 << 20);
    deleteDriverPods();
    List<String> gone = executor.getJobStdout(id, 1000, 1 << 20);
    List<String> goneCapped = executor.getJobStdout(id, 10, 40);

    JsonObject tolerations =
        KUBE.api(operator.resourceType())
            .get(NS, "kj-job-11")
            .getObject()
            .getRaw()
            .getAsJsonObject("spec")
            .getAsJsonObject("applicationTolerations");
    assertThat(tolerations.get("resourceRetainPolicy").getAsString()).isEqualTo("Always");
    assertThat(tolerations.get("resourceRetainDurationMillis").getAsLong()).isEqualTo(86_400_000L);
    assertThat(kept).contains(DriverLogs.PI_LINE);
    assertThat(gone)
        .singleElement()
        .asString()
        .contains("driver pod of job " + id + " is gone")
        .contains("gravitino.jobExecutor.kubejobs.driverPodRetentionMs = 86400000 ms");
    assertThat(goneCapped).singleElement().asString().hasSize(40);
  }

  @Test
  void aRetentionOfZeroReleasesTheDriverPodWhenTheJobEndsAndTheOutputSaysSo() throws Exception {
    FakeSparkOperator operator = operator(FakeSparkOperator.Flavor.APACHE);
    executor =
        initialized(
            FakeSparkOperator.Flavor.APACHE, Map.of(ExecutorSettings.DRIVER_POD_RETENTION_MS, "0"));
    String id = executor.submitJob(context(12), Templates.sparkPi());
    operator.runToEnd(NS, "kj-job-12");

    assertThat(executor.getJobExecutionInfo(id).status()).isEqualTo(JobHandle.Status.SUCCEEDED);
    assertThat(executor.getJobStdout(id, 1000, 1 << 20))
        .singleElement()
        .asString()
        .contains("released it when the job ended because")
        .contains("driverPodRetentionMs = 0");
  }

  private void deleteDriverPods() throws Exception {
    CoreV1Api core = new CoreV1Api(KUBE.client());
    for (V1Pod pod : core.listNamespacedPod(NS).execute().getItems()) {
      core.deleteNamespacedPod(pod.getMetadata().getName(), NS).execute();
    }
    assertThat(core.listNamespacedPod(NS).execute().getItems()).isEmpty();
  }

  @Test
  void outputOfAMalformedJobIsEmptyAndOfAGoneOneSaysWhyNeverAnError() throws IOException {
    operator(FakeSparkOperator.Flavor.APACHE);
    executor = initialized(FakeSparkOperator.Flavor.APACHE, Map.of());

    // a SparkApplication that is gone: removed past driverPodRetentionMs, or by hand
    assertThat(
            executor.getJobStdout(
                "prod/sparkapplications.spark.apache.org/gravitino-jobs/kj-nope", 10, 1000))
        .singleElement()
        .asString()
        .contains("SparkApplication of job")
        .contains("is gone");
    assertThat(executor.getJobStdout("not an id", 10, 1000)).isEmpty();
    assertThat(executor.getJobStdout("prod/sparkapplications.spark.apache.org/ns/x", -1, -1))
        .isEmpty();
    assertThat(executor.getJobStderr("not an id", 10, 1000)).isEmpty();
  }

  /**
   * Gravitino's own Kubernetes executor ({@code K8sJobExecutor.parseJobExecutionId} in
   * apache/gravitino's {@code org.apache.gravitino.job.k8s} package) throws {@code
   * NoSuchJobException} for an id of another cluster (here: whose resource is not in the configured
   * cluster either), which Gravitino's {@code JobManager.pullAndUpdateJobStatus} turns into FAILED
   * once; an id it cannot track never becomes an error pulled again and again.
   */
  @Test
  void anIdOfAnotherClusterOrNoKubeJobsIdFailsTheJobOnceWithAMessageNamingIt() throws IOException {
    operator(FakeSparkOperator.Flavor.APACHE);
    executor = initialized(FakeSparkOperator.Flavor.APACHE, Map.of());
    String foreign = "staging/sparkapplications.spark.apache.org/gravitino-jobs/kj-job-8";
    try (GravitinoJobManagerStandIn manager =
        new GravitinoJobManagerStandIn("lake", dir.toFile())) {
      long otherCluster = manager.recordJob("spark-pi", foreign);
      long notOurs = manager.recordJob("spark-pi", "local-job-123");
      KUBE.server().journal().clear();

      manager.pull(executor);
      manager.pull(executor);

      assertThat(manager.job(otherCluster).status()).isEqualTo(JobHandle.Status.FAILED);
      assertThat(manager.job(notOurs).status()).isEqualTo(JobHandle.Status.FAILED);
      assertThat(manager.pullErrors()).isEmpty();
      assertThat(KUBE.server().journal().requests())
          .as("only a look for the other cluster's resource in this one")
          .map(r -> r.verb() + " " + r.path())
          .containsExactly(
              "GET /apis/spark.apache.org/v1/namespaces/gravitino-jobs/sparkapplications/kj-job-8");
    }
    assertThatThrownBy(() -> executor.getJobExecutionInfo(foreign))
        .isInstanceOf(NoSuchJobException.class)
        .hasMessageContaining("cluster 'staging'")
        .hasMessageContaining("connected to cluster 'prod'")
        .hasMessageContaining("where it has no SparkApplication gravitino-jobs/kj-job-8")
        .hasMessageContaining("gravitino.jobExecutor.kubejobs.cluster");
    assertThatThrownBy(() -> executor.cancelJob("local-job-123"))
        .isInstanceOf(NoSuchJobException.class)
        .hasMessageContaining("local-job-123 is not a kubejobs execution id");
  }

  @Test
  void aTemplateThatIsNotSparkIsRefused() throws IOException {
    executor = initialized(FakeSparkOperator.Flavor.APACHE, Map.of());
    ShellJobTemplate shell =
        ShellJobTemplate.builder().withName("sh").withExecutable("/bin/true").build();

    assertThatThrownBy(() -> executor.submitJob(context(6), shell))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Spark job templates only")
        .hasMessageContaining("'sh'");
  }

  @Test
  void initializeReadsTheDocumentedKeysAndIgnoresGravitinosOwn() throws IOException {
    operator(FakeSparkOperator.Flavor.KUBEFLOW);
    Map<String, String> conf = new HashMap<>();
    conf.put("class", KubeJobsSparkExecutor.class.getName());
    conf.put(ExecutorSettings.DEPLOYMENT, "gravitino-eu");
    conf.put(ExecutorSettings.NAMESPACE, "etl");
    conf.put(ExecutorSettings.IMAGE, "repo/spark:4");
    conf.put(ExecutorSettings.SERVICE_ACCOUNT, "spark-driver");
    conf.put(ExecutorSettings.SPARK_VERSION, "3.5.7");
    conf.put(ExecutorSettings.REQUEST_TIMEOUT_MS, "5000");
    conf.put(ExecutorSettings.RETRY_MAX_ATTEMPTS, "2");
    conf.put(ExecutorSettings.BREAKER_OPEN_MS, "1000");
    conf.put("someFutureKey", "x");
    executor = initialized(FakeSparkOperator.Flavor.KUBEFLOW, conf);

    String id =
        executor.submitJob(
            context(8),
            SparkJobTemplate.builder()
                .withName("pi")
                .withExecutable("local:///opt/spark/examples/jars/spark-examples.jar")
                .withClassName("org.apache.spark.examples.SparkPi")
                .build());

    assertThat(id).isEqualTo("prod/sparkapplications.sparkoperator.k8s.io/etl/kj-job-8");
    String app = KUBE.server().journal().requests("POST", ".*/sparkapplications").get(0).body();
    assertThat(app)
        .contains("\"kubejobs.dev/deployment\":\"gravitino-eu\"")
        .contains("repo/spark:4")
        .contains("spark-driver")
        .contains("3.5.7")
        .contains("\"gravitino.apache.org/metalake\":\"lake\"");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "statusCachePeriodMs | soon   | must be a whole number from 0 to 600000",
        "statusCachePeriodMs | -1     | must be a whole number from 0 to 600000",
        "requestTimeoutMs    | 0      | must be a whole number from 1 to 600000",
        "retry.maxAttempts   | 0      | must be a whole number from 1 to 10",
        "circuitBreaker.openMs | 1e3  | must be a whole number from 1 to 600000",
        "driverPodRetentionMs | 2592000001 | must be a whole number from 0 to 2592000000",
        "operator            | spark  | must be apache or kubeflow",
        "cluster             | a b    | is refused",
        "deployment          | Prod!  | is refused",
        "kubeconfig          | /nope/kubeconfig | no such file",
      })
  void aBadValueFailsWithOneMessageNamingTheKey(String key, String value, String rule)
      throws IOException {
    Map<String, String> conf = new HashMap<>(settings(FakeSparkOperator.Flavor.APACHE));
    conf.put(key, value);
    KubeJobsSparkExecutor fresh = new KubeJobsSparkExecutor();

    assertThatThrownBy(() -> fresh.initialize(conf))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("gravitino.jobExecutor.kubejobs." + key)
        .hasMessageContaining(rule)
        .hasMessageContaining(value);
  }

  @Test
  void aDirectoryAsKubeconfigOrNoClusterSaySo() throws IOException {
    Map<String, String> directory = new HashMap<>(settings(FakeSparkOperator.Flavor.APACHE));
    directory.put(ExecutorSettings.KUBECONFIG, dir.toString());
    Map<String, String> noCluster = new HashMap<>(settings(FakeSparkOperator.Flavor.APACHE));
    noCluster.remove(ExecutorSettings.CLUSTER);

    assertThatThrownBy(() -> new KubeJobsSparkExecutor().initialize(directory))
        .hasMessageContaining("gravitino.jobExecutor.kubejobs.kubeconfig")
        .hasMessageContaining("it is a directory");
    assertThatThrownBy(() -> new KubeJobsSparkExecutor().initialize(noCluster))
        .hasMessageContaining("gravitino.jobExecutor.kubejobs.cluster must be set");
  }

  @Test
  void closeReleasesTheClientItBuiltAndLaterCallsSaySo() throws IOException {
    executor = initialized(FakeSparkOperator.Flavor.APACHE, Map.of());
    ApiClient client = executor.ownedClient();

    executor.close();
    executor.close();

    assertThat(client.getHttpClient().dispatcher().executorService().isShutdown()).isTrue();
    assertThat(client.getHttpClient().connectionPool().connectionCount()).isZero();
    assertThatThrownBy(() -> executor.getJobStatus("prod/sparkapplications.spark.apache.org/a/b"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThat(executor.getJobStdout("prod/sparkapplications.spark.apache.org/a/b", 1, 1))
        .isEmpty();
  }

  @Test
  void aCallerBuiltInstanceIsLeftOpenByClose() {
    ApiClient client = KUBE.server().newClient();
    KubeJobsSparkExecutor handed =
        new KubeJobsSparkExecutor(
            dev.kubejobs.core.KubeJobs.builder(client, dev.kubejobs.spark.SparkOperators.apache())
                .cluster("prod")
                .deployment("gravitino")
                .build(),
            new GravitinoMapping.Defaults("default", "4.0.1", null));

    handed.close();

    assertThat(client.getHttpClient().dispatcher().executorService().isShutdown()).isFalse();
  }

  /**
   * A job whose driver image cannot be pulled fails (Apache: DriverStartTimedOut) without a driver
   * log; its diagnosis, made by kubejobs' status pipeline on {@code get()}, is what {@code
   * getJobStderr} returns.
   */
  @Test
  void aJobWhoseDriverImageCannotBePulledHasItsDiagnosisOnStderr() throws IOException {
    FakeSparkOperator operator = operator(FakeSparkOperator.Flavor.APACHE);
    executor = initialized(FakeSparkOperator.Flavor.APACHE, Map.of());
    String id = executor.submitJob(context(11), Templates.sparkPi());
    operator.driverTrouble(NS, "kj-job-11", DriverTrouble.imagePull());
    operator.moveTo(NS, "kj-job-11", "DriverStartTimedOut");

    JobExecutionInfo failed = executor.getJobExecutionInfo(id);
    List<String> stderr = executor.getJobStderr(id, 20, 64 * 1024);

    assertThat(failed.status()).isEqualTo(JobHandle.Status.FAILED);
    assertThat(stderr.get(0)).startsWith("[kubejobs] Job " + id + ": IMAGE_PULL_FAILED: ");
    assertThat(stderr).anySatisfy(l -> assertThat(l).contains("apache/spark:4.0.1-typo"));
    assertThat(executor.getJobStderr(id, 1, 64 * 1024)).hasSize(1);
  }

  /**
   * Each testkit trouble that fails a job, under each operator: {@code getJobStderr} starts with
   * its cause and names what to fix, read as the operator records the failure (the template keeps
   * an Apache application's resources on failure).
   */
  @ParameterizedTest
  @CsvSource({
    "APACHE, quota-exceeded, QUOTA_EXCEEDED, compute-quota, SchedulingFailure",
    "KUBEFLOW, quota-exceeded, QUOTA_EXCEEDED, compute-quota, FAILED",
    "APACHE, admission-denied, ADMISSION_DENIED, validation.gatekeeper.sh, SchedulingFailure",
    "KUBEFLOW, webhook-unreachable, ADMISSION_WEBHOOK_UNREACHABLE, validate.kyverno.svc-fail,"
        + " FAILED",
    "APACHE, webhook-unreachable, ADMISSION_WEBHOOK_UNREACHABLE, validate.kyverno.svc-fail,"
        + " SchedulingFailure",
    "KUBEFLOW, forbidden-by-rbac, FORBIDDEN_BY_RBAC, spark-operator-controller, FAILED",
    "APACHE, forbidden-by-rbac, FORBIDDEN_BY_RBAC, spark-operator-controller, SchedulingFailure",
    "APACHE, executor-oom-killed, OOM_KILLED, kj-job-12-0-exec-1, Failed",
    "KUBEFLOW, executor-oom-killed, OOM_KILLED, kj-job-12-exec-1, FAILED",
    "APACHE, node-lost, NODE_LOST, node-1, Failed",
    "KUBEFLOW, node-lost, NODE_LOST, node-1, FAILED",
    "APACHE, executors-unschedulable, EXECUTORS_PENDING, Insufficient cpu, ExecutorsStartTimedOut"
  })
  void eachTroubleThatFailsAJobHasItsCauseOnStderr(
      FakeSparkOperator.Flavor flavor, String trouble, String cause, String named, String last)
      throws IOException {
    FakeSparkOperator operator = operator(flavor);
    executor = initialized(flavor, Map.of());
    String id = executor.submitJob(context(12), Templates.sparkPi());
    operator.driverTrouble(NS, "kj-job-12", DriverTrouble.parse(trouble));
    operator.moveTo(NS, "kj-job-12", last);

    JobExecutionInfo failed = executor.getJobExecutionInfo(id);
    List<String> stderr = executor.getJobStderr(id, 20, 64 * 1024);

    assertThat(failed.status()).isEqualTo(JobHandle.Status.FAILED);
    assertThat(stderr.get(0)).startsWith("[kubejobs] Job " + id + ": " + cause + ": ");
    assertThat(String.join("\n", stderr)).contains(named);
  }

  private FakeSparkOperator operator(FakeSparkOperator.Flavor flavor) {
    return FakeSparkOperator.builder(flavor, KUBE.server()).build();
  }

  /** Submits job {@code n} through the executor and has the operator start it. */
  private String startedJob(FakeSparkOperator operator, long n) throws IOException {
    String id = executor.submitJob(context(n), Templates.sparkPi());
    operator.moveTo(NS, "kj-job-" + n, running(operator.flavor()));
    return id;
  }

  private static String running(FakeSparkOperator.Flavor flavor) {
    return flavor == FakeSparkOperator.Flavor.APACHE ? "RunningHealthy" : "RUNNING";
  }

  private JobContext context(long jobId) {
    return new JobContext(jobId, "lake", dir.toFile());
  }

  private KubeJobsSparkExecutor initialized(
      FakeSparkOperator.Flavor flavor, Map<String, String> extra) throws IOException {
    Map<String, String> conf = new HashMap<>(settings(flavor));
    conf.putAll(extra);
    KubeJobsSparkExecutor e = new KubeJobsSparkExecutor();
    e.initialize(conf);
    return e;
  }

  private Map<String, String> settings(FakeSparkOperator.Flavor flavor) throws IOException {
    return Map.of(
        ExecutorSettings.KUBECONFIG,
        kubeconfig(dir, KUBE.server()).toString(),
        ExecutorSettings.CLUSTER,
        "prod",
        ExecutorSettings.OPERATOR,
        flavor == FakeSparkOperator.Flavor.APACHE ? "apache" : "kubeflow",
        ExecutorSettings.STATUS_CACHE_PERIOD_MS,
        "0");
  }

  /**
   * Writes a kubeconfig file whose current context points at the fake server.
   *
   * @param dir where to write it
   * @param server the server
   * @return the file
   */
  static Path kubeconfig(Path dir, FakeKubernetesApiServer server) throws IOException {
    Path file = dir.resolve("kubeconfig-" + server.port());
    Files.writeString(
        file,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: fake",
            "  cluster:",
            "    server: " + server.url(),
            "users:",
            "- name: fake",
            "  user:",
            "    token: not-a-real-token",
            "contexts:",
            "- name: fake",
            "  context:",
            "    cluster: fake",
            "    user: fake",
            "current-context: fake",
            ""));
    return file;
  }
}
