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
package dev.kubejobs.realop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.logs.DriverLog;
import dev.kubejobs.core.sweep.SweepEntry;
import dev.kubejobs.core.sweep.SweepReport;
import dev.kubejobs.core.sweep.SweepRequest;
import dev.kubejobs.gravitino.GravitinoOnRealOperator;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.ResourceType;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.gravitino.connector.job.JobExecutor;
import org.apache.gravitino.job.JobHandle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kubejobs (core and spark, the Apache kind) through the real Apache Spark Kubernetes Operator
 * 1.0.0 on the testkit's fake API server, the scenarios side by side on one operator. Skipped, with
 * one line saying what is missing, where there is no Java 21 or newer or no shared operator (see
 * {@link RealOperator#missing()}).
 */
class RealApacheOperatorIT {
  private static final Logger LOG = LoggerFactory.getLogger(RealApacheOperatorIT.class);
  private static final String NS = "etl";

  /** The retention scenario's namespace, so that its sweep meets no other scenario's job. */
  private static final String SWEPT_NS = "etl-swept";

  private static final Duration JOB_TIMEOUT = Duration.ofSeconds(240);

  /**
   * The kubejobs status each Apache operator state maps to, as spark/README's table says with the
   * restart policy Never; {@code ResourceReleased} takes the outcome before it. A resource without
   * a status yet (the operator's first reconcile not written) reads QUEUED.
   */
  private static final Map<String, Set<JobStatus>> README_TABLE =
      Map.ofEntries(
          Map.entry("", Set.of(JobStatus.QUEUED)),
          Map.entry("Submitted", Set.of(JobStatus.QUEUED)),
          Map.entry("DriverRequested", Set.of(JobStatus.QUEUED)),
          Map.entry("DriverStarted", Set.of(JobStatus.STARTED)),
          Map.entry("DriverReady", Set.of(JobStatus.STARTED)),
          Map.entry("InitializedBelowThresholdExecutors", Set.of(JobStatus.STARTED)),
          Map.entry("RunningHealthy", Set.of(JobStatus.STARTED)),
          Map.entry("RunningWithPartialCapacity", Set.of(JobStatus.STARTED)),
          Map.entry("RunningWithBelowThresholdExecutors", Set.of(JobStatus.STARTED)),
          Map.entry("Succeeded", Set.of(JobStatus.SUCCEEDED)),
          Map.entry("Failed", Set.of(JobStatus.FAILED)),
          Map.entry("SchedulingFailure", Set.of(JobStatus.FAILED)),
          Map.entry("DriverStartTimedOut", Set.of(JobStatus.FAILED)),
          Map.entry("DriverReadyTimedOut", Set.of(JobStatus.FAILED)),
          Map.entry("ExecutorsStartTimedOut", Set.of(JobStatus.FAILED)),
          Map.entry(
              "ResourceReleased",
              Set.of(JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED)),
          Map.entry(
              "TerminatedWithoutReleaseResources",
              Set.of(JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED)));

  private static RealOperatorCluster cluster;

  @BeforeAll
  static void startTheOperator() {
    RealOperator.assumePresent();
    cluster =
        RealOperatorCluster.start(
            Path.of(System.getProperty("realop.workDir", "target/real-operator"), "main"),
            String.join(",", NS, SWEPT_NS, GravitinoOnRealOperator.NAMESPACE),
            Map.of(
                "spark.kubernetes.operator.reconciler.intervalSeconds", "2",
                "spark.kubernetes.operator.reconciler.parallelism", "16"));
  }

  @AfterAll
  static void stopTheOperator() {
    if (cluster != null) {
      cluster.close();
    }
  }

  static KubeJobs<SparkJobSpec> jobs(RealOperatorCluster on, ApacheOptions options) {
    return KubeJobs.builder(on.server().newClient(), SparkOperators.apache(options))
        .cluster("prod")
        .deployment("realop")
        .statusCacheTtl(Duration.ZERO)
        .build();
  }

  /** A SparkPi job whose driver the kubelet runs as {@code script} says. */
  static SparkJobSpec spec(String script) {
    return SparkJobSpec.builder()
        .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
        .mainClass("org.apache.spark.examples.SparkPi")
        .sparkVersion("4.0.1")
        .image("apache/spark:4.0.1")
        .namespace(NS)
        .label(RealOperatorCluster.SCRIPT, script)
        .build();
  }

  /** One read: the status, the operator state, or "gone". */
  record Sample(Instant at, JobStatus status, String operatorState) {
    @Override
    public String toString() {
      return status + "(" + operatorState + ")";
    }
  }

  static Sample sample(KubeJobs<SparkJobSpec> jobs, ExecutionId id) {
    try {
      JobExecutionInfo info = jobs.statusReader().get(id);
      return new Sample(Instant.now(), info.status(), info.operatorState());
    } catch (NoSuchJobException e) {
      return new Sample(Instant.now(), null, "gone");
    }
  }

  /** Reads the job every 250 ms until {@code done} holds for a sample; returns every sample. */
  static List<Sample> follow(
      KubeJobs<SparkJobSpec> jobs, ExecutionId id, java.util.function.Predicate<Sample> done) {
    List<Sample> samples = new ArrayList<>();
    await()
        .atMost(JOB_TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              Sample s = sample(jobs, id);
              samples.add(s);
              return done.test(s);
            });
    return samples;
  }

  /** The samples as runs, for the log: {@code QUEUED(DriverRequested) x12, STARTED(...) x3}. */
  static String runs(List<?> samples) {
    List<String> out = new ArrayList<>();
    String last = null;
    int count = 0;
    for (Object s : samples) {
      String text = s.toString();
      if (text.equals(last)) {
        count++;
        continue;
      }
      if (last != null) {
        out.add(last + " x" + count);
      }
      last = text;
      count = 1;
    }
    if (last != null) {
      out.add(last + " x" + count);
    }
    return String.join(", ", out);
  }

  /** The distinct statuses in the order they were first read. */
  static List<JobStatus> path(List<Sample> samples) {
    List<JobStatus> out = new ArrayList<>();
    for (Sample s : samples) {
      if (s.status() != null && (out.isEmpty() || out.get(out.size() - 1) != s.status())) {
        out.add(s.status());
      }
    }
    return out;
  }

  static void assertEverySampleAgreesWithTheReadmeTable(List<Sample> samples) {
    for (Sample s : samples) {
      if (s.status() == null) {
        continue;
      }
      assertThat(README_TABLE)
          .as("a state spark/README's table names")
          .containsKey(s.operatorState());
      assertThat(README_TABLE.get(s.operatorState())).as("sample %s", s).contains(s.status());
    }
  }

  static JsonObject application(ExecutionId id) {
    return cluster
        .server()
        .store()
        .get(ResourceType.APACHE_SPARK_APPLICATION, id.namespace(), id.name())
        .orElse(null);
  }

  /** The driver pod found by the label the operator puts on it, whatever its name. */
  static JsonObject driverPodByLabel(ExecutionId id) {
    return cluster.server().store().list(ResourceType.POD, id.namespace()).stream()
        .filter(
            p -> {
              JsonObject labels = p.getAsJsonObject("metadata").getAsJsonObject("labels");
              return labels != null
                  && labels.has("spark.operator/spark-app-name")
                  && labels.get("spark.operator/spark-app-name").getAsString().equals(id.name());
            })
        .findFirst()
        .orElse(null);
  }

  static JsonObject driverPod(ExecutionId id) {
    return cluster
        .server()
        .store()
        .get(ResourceType.POD, id.namespace(), id.name() + "-0-driver")
        .orElse(null);
  }

  /**
   * The operator builds a driver from kubejobs' manifest (both pod templates carry a pod {@code
   * spec}: without one, Spark's template loader threw and every job ended in {@code
   * SchedulingFailure}), and the job reads QUEUED, then STARTED, then SUCCEEDED, each sample in
   * step with spark/README's table; the driver's log is read while it runs. The driver runs 40 s:
   * an operator that reconciles late on a loaded machine and never sees a shorter driver running
   * records it {@code Failed} ("terminated without SparkContext initialization"), as it would on a
   * cluster.
   */
  @Test
  void aJobRunsFromQueuedToSucceededInStepWithTheReadmeTable() {
    KubeJobs<SparkJobSpec> jobs = jobs(cluster, ApacheOptions.ofDefaults());
    ExecutionId id = jobs.submitter().submit("happy", spec("succeeds-40s"));
    List<String> logRead = new ArrayList<>();

    List<Sample> samples =
        follow(
            jobs,
            id,
            s -> {
              if (s.status() == JobStatus.STARTED && logRead.isEmpty()) {
                DriverLog log = jobs.driverLogs().tail(id, 10, 4096);
                if (!log.isEmpty()) {
                  logRead.add(log.text());
                }
              }
              return s.status() == JobStatus.SUCCEEDED;
            });

    LOG.info("happy path: {}", runs(samples));
    assertThat(path(samples))
        .containsExactly(JobStatus.QUEUED, JobStatus.STARTED, JobStatus.SUCCEEDED);
    assertEverySampleAgreesWithTheReadmeTable(samples);
    assertThat(logRead).singleElement().asString().contains(RealOperatorCluster.LOG_LINE);
  }

  /** Varied manifests: Java, Scala, Python, dependencies, resources, environment, every option. */
  static Stream<Arguments> manifests() {
    SparkJobSpec base = spec("runs");
    SparkJobSpec python =
        base.toBuilder()
            .type(SparkJobSpec.Type.PYTHON)
            .mainClass(null)
            .mainApplicationFile("local:///opt/spark/examples/src/main/python/pi.py")
            .build();
    ApacheOptions everyOption =
        ApacheOptions.builder()
            .resourceRetainPolicy(ApacheOptions.ResourceRetainPolicy.ON_FAILURE)
            .resourceRetainDuration(Duration.ofMinutes(5))
            .driverStartTimeout(Duration.ofMinutes(2))
            .driverReadyTimeout(Duration.ofMinutes(2))
            .executorStartTimeout(Duration.ofMinutes(2))
            .ttlAfterStop(Duration.ofHours(1))
            .build();
    return Stream.of(
        Arguments.of("java", base.toBuilder().arguments(List.of("1000")).build(), null),
        Arguments.of(
            "scala with dependencies",
            base.toBuilder()
                .type(SparkJobSpec.Type.SCALA)
                .jars(List.of("s3a://libs/delta.jar"))
                .files(List.of("s3a://conf/app.conf"))
                .archives(List.of("s3a://env/venv.tar.gz#venv"))
                .sparkConf("spark.sql.shuffle.partitions", "200")
                .build(),
            null),
        Arguments.of(
            "resources and service account",
            base.toBuilder()
                .driverCores(2)
                .driverMemory("2g")
                .executorCores(2)
                .executorMemory("4g")
                .executorInstances(3)
                .serviceAccount("spark-runner")
                .build(),
            null),
        Arguments.of(
            "environment, labels, annotations",
            base.toBuilder()
                .environment("AWS_REGION", "eu-west-1")
                .label("team", "data-platform")
                .annotation("example.com/owner", "someone@example.com")
                .build(),
            null),
        Arguments.of(
            "python with pyFiles and jars",
            python.toBuilder()
                .pyFiles(List.of("s3a://libs/helpers.zip"))
                .jars(List.of("s3a://libs/postgres.jar"))
                .arguments(List.of("--date", "2026-03-01"))
                .build(),
            null),
        Arguments.of("every Apache option", base, everyOption));
  }

  /**
   * The operator builds a driver pod from every variety of kubejobs' manifest (without a pod {@code
   * spec} in the templates, Spark's template loader threw and none got a driver).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("manifests")
  void theOperatorBuildsADriverFromEachVarietyOfManifest(
      String name, SparkJobSpec spec, ApacheOptions options) {
    KubeJobs<SparkJobSpec> jobs =
        jobs(cluster, options == null ? ApacheOptions.ofDefaults() : options);
    String jobId =
        "manifest " + name + " / a job id longer than a Kubernetes name allows, on purpose";
    ExecutionId id = jobs.submitter().submit(jobId, spec);

    // a driver pod, or the job's end (SchedulingFailure when the operator could not build one)
    await()
        .atMost(JOB_TIMEOUT)
        .until(() -> driverPodByLabel(id) != null || sample(jobs, id).status() != JobStatus.QUEUED);
    JsonObject pod = driverPodByLabel(id);

    assertThat(pod).as("the driver pod; the job reads %s", sample(jobs, id)).isNotNull();
    assertThat(
            pod.getAsJsonObject("metadata")
                .getAsJsonObject("labels")
                .get("spark-role")
                .getAsString())
        .isEqualTo("driver");
    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
  }

  @Test
  void theDriverPodIsBuiltFromKubejobsManifest() {
    KubeJobs<SparkJobSpec> jobs = jobs(cluster, ApacheOptions.ofDefaults());
    ExecutionId id = jobs.submitter().submit("driver-pod", spec("runs"));

    JsonObject pod = await().atMost(JOB_TIMEOUT).until(() -> driverPod(id), p -> p != null);

    JsonObject labels = pod.getAsJsonObject("metadata").getAsJsonObject("labels");
    assertThat(labels.get("kubejobs.dev/job-id").getAsString()).isEqualTo("driver-pod");
    assertThat(labels.get("spark-role").getAsString()).isEqualTo("driver");
    assertThat(
            pod.getAsJsonObject("spec")
                .getAsJsonArray("containers")
                .get(0)
                .getAsJsonObject()
                .get("image")
                .getAsString())
        .isEqualTo("apache/spark:4.0.1");
    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
  }

  @Test
  void aFailingDriverReadsFailedWithItsExitCode() {
    KubeJobs<SparkJobSpec> jobs = jobs(cluster, ApacheOptions.ofDefaults());
    SparkJobSpec spec = spec("exits-42");
    ExecutionId id = jobs.submitter().submit("failing", spec);

    List<Sample> samples = follow(jobs, id, s -> s.status() == JobStatus.FAILED);
    JobExecutionInfo info = jobs.statusReader().get(id);

    LOG.info("failing driver: {} -> {}", runs(samples), info);
    assertThat(path(samples))
        .startsWith(JobStatus.QUEUED)
        .endsWith(JobStatus.FAILED)
        .isSubsetOf(JobStatus.QUEUED, JobStatus.STARTED, JobStatus.FAILED);
    assertEverySampleAgreesWithTheReadmeTable(samples);
    assertThat(info.diagnosis()).isPresent();
    assertThat(info.diagnosis().orElseThrow().cause()).isEqualTo(Cause.DRIVER_EXITED_WITH_ERROR);
    assertThat(info.diagnosis().orElseThrow().summary()).contains("42");
  }

  /**
   * A cancel while the driver runs: the cancelling instance reads CANCELLING, then CANCELLED, at
   * every sample once its cancel returned (its mark landed and its delete was confirmed), while the
   * operator deletes the driver and removes the application (seconds later), and CANCELLED at every
   * sample once the resource is gone: that instance remembers how the job ended (core/README, "the
   * operator removes a cancelled application before the next poll"). Another node polling every 5 s
   * with the default status cache, as a scheduler does, knows nothing of that cancel: it reads
   * CANCELLING, CANCELLED if a poll falls in the operator's short window between {@code
   * ResourceReleased} and the removal, or the job gone; never FAILED nor SUCCEEDED.
   */
  @Test
  void aCancelWhileRunningReadsCancelledOnTheCancellingInstanceAfterTheResourceIsGone() {
    KubeJobs<SparkJobSpec> jobs = jobs(cluster, ApacheOptions.ofDefaults());
    KubeJobs<SparkJobSpec> otherNode =
        KubeJobs.builder(cluster.server().newClient(), SparkOperators.apache())
            .cluster("prod")
            .deployment("realop")
            .build();
    ExecutionId id = jobs.submitter().submit("cancelled", spec("runs"));
    follow(jobs, id, s -> s.status() == JobStatus.STARTED && driverPod(id) != null);

    Instant cancelledAt = Instant.now();
    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
    List<Sample> polled = new ArrayList<>();
    List<Sample> samples =
        follow(
            jobs,
            id,
            s -> {
              if (polled.isEmpty()
                  || Duration.between(polled.get(polled.size() - 1).at(), s.at()).toSeconds()
                      >= 5) {
                polled.add(sample(otherNode, id));
              }
              return application(id) == null;
            });
    Instant goneAt = samples.get(samples.size() - 1).at();
    List<Sample> afterGone = new ArrayList<>();
    follow(
        jobs,
        id,
        s -> {
          afterGone.add(s);
          return afterGone.size() >= 4;
        });
    polled.add(sample(otherNode, id));
    await().atMost(JOB_TIMEOUT).until(() -> driverPod(id) == null);

    LOG.info(
        "cancel: resource gone {} ms after the cancel; the cancelling instance read {}, then {}"
            + " once it was gone; another node polling every 5 s read {}",
        Duration.between(cancelledAt, goneAt).toMillis(),
        runs(samples),
        runs(afterGone),
        runs(polled));
    // CANCELLING while the operator has not written its end, CANCELLED from then on: never gone,
    // never back to CANCELLING, never another status
    List<Sample> all = new ArrayList<>(samples);
    all.addAll(afterGone);
    assertThat(all)
        .as("the cancelling instance's samples %s", runs(all))
        .extracting(Sample::status)
        .doesNotContainNull();
    assertThat(path(all))
        .as("the cancelling instance's samples %s", runs(all))
        .isSubsetOf(JobStatus.CANCELLING, JobStatus.CANCELLED)
        .endsWith(JobStatus.CANCELLED)
        .containsOnlyOnce(JobStatus.CANCELLED);
    assertThat(afterGone)
        .as("the cancelling instance's samples once the resource was gone")
        .extracting(Sample::status)
        .containsOnly(JobStatus.CANCELLED);
    assertThat(polled)
        .as("another node's polls %s", runs(polled))
        .extracting(Sample::status)
        .allMatch(
            s -> s == null || s == JobStatus.CANCELLING || s == JobStatus.CANCELLED,
            "CANCELLING, CANCELLED or gone");
  }

  /**
   * An image that never pulls: the job stays QUEUED with a diagnosis naming the pull, then fails at
   * the operator's driver-start timeout, set short through {@link ApacheOptions}.
   */
  @Test
  void anImageThatNeverPullsIsDiagnosedThenFailsAtTheDriverStartTimeout() {
    Duration timeout = Duration.ofSeconds(12);
    KubeJobs<SparkJobSpec> jobs =
        KubeJobs.builder(
                cluster.server().newClient(),
                SparkOperators.apache(ApacheOptions.builder().driverStartTimeout(timeout).build()))
            .cluster("prod")
            .deployment("realop")
            .statusCacheTtl(Duration.ZERO)
            .diagnoseAfter(Duration.ofSeconds(2))
            .build();
    Instant submittedAt = Instant.now();
    ExecutionId id = jobs.submitter().submit("never-pulls", spec("never-pulls"));

    JobExecutionInfo diagnosed =
        await()
            .atMost(JOB_TIMEOUT)
            .pollInterval(Duration.ofMillis(250))
            .until(
                () -> jobs.statusReader().get(id),
                i ->
                    i.status() != JobStatus.QUEUED
                        || i.diagnosis()
                            .map(d -> d.cause() == Cause.IMAGE_PULL_FAILED)
                            .orElse(false));
    List<Sample> samples = follow(jobs, id, s -> s.status() == JobStatus.FAILED);
    Duration toFailed = Duration.between(submittedAt, samples.get(samples.size() - 1).at());
    JobExecutionInfo failed = jobs.statusReader().get(id);

    LOG.info("never pulls: {} then {} after {}; {}", diagnosed, failed, toFailed, runs(samples));
    assertThat(diagnosed.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(diagnosed.diagnosis().orElseThrow().cause()).isEqualTo(Cause.IMAGE_PULL_FAILED);
    assertThat(path(samples)).containsExactly(JobStatus.QUEUED, JobStatus.FAILED);
    assertEverySampleAgreesWithTheReadmeTable(samples);
    assertThat(failed.message()).contains("DriverStartTimedOut");
    // well before the operator's default of 300 s; the rest is its first reconcile and interval
    assertThat(toFailed).isGreaterThanOrEqualTo(timeout).isLessThan(Duration.ofSeconds(200));
  }

  /**
   * Retained resources: with retain policy Always and a retain duration, the driver's log is still
   * read after the job SUCCEEDED, the operator releases the pod after the duration while the job
   * still reads SUCCEEDED, and the ended-jobs sweep then deletes the application.
   */
  @Test
  void aRetainedDriverLogIsReadAfterTheEndThenTheSweepDeletesTheEndedJob() {
    Duration retain = Duration.ofSeconds(10);
    KubeJobs<SparkJobSpec> jobs =
        jobs(
            cluster,
            ApacheOptions.builder()
                .resourceRetainPolicy(ApacheOptions.ResourceRetainPolicy.ALWAYS)
                .resourceRetainDuration(retain)
                .build());
    ExecutionId id =
        jobs.submitter()
            .submit("retained", spec("succeeds-20s").toBuilder().namespace(SWEPT_NS).build());
    follow(jobs, id, s -> s.status() == JobStatus.SUCCEEDED);

    DriverLog log = jobs.driverLogs().tail(id, 10, 4096);
    assertThat(log.text()).contains(RealOperatorCluster.LOG_LINE);
    await().atMost(JOB_TIMEOUT).until(() -> driverPod(id) == null);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);

    SweepReport kept =
        jobs.sweeper()
            .sweep(
                SweepRequest.builder()
                    .namespaces(SWEPT_NS)
                    .knownJobs(j -> true)
                    .endedJobsKeptFor(Duration.ofHours(1))
                    .build());
    SweepReport swept =
        jobs.sweeper()
            .sweep(
                SweepRequest.builder()
                    .namespaces(SWEPT_NS)
                    .knownJobs(j -> true)
                    .endedJobsKeptFor(Duration.ZERO)
                    .build());

    assertThat(kept.deleted()).extracting(SweepEntry::name).doesNotContain(id.name());
    assertThat(swept.deleted())
        .filteredOn(e -> e.name().equals(id.name()))
        .singleElement()
        .extracting(SweepEntry::cause)
        .isEqualTo(SweepEntry.Cause.ENDED_PAST_RETENTION);
    await().atMost(JOB_TIMEOUT).until(() -> application(id) == null);
    LOG.info("after the sweep the reader says {}", sample(jobs, id));
  }

  /**
   * The Gravitino executor (kubejobs-gravitino), created as a Gravitino server creates it with the
   * fake API server's kubeconfig, under the job manager stand-in of kubejobs-gravitino's tests
   * pulling every second, two jobs side by side: a SparkPi template's job (its driver running 40 s)
   * is recorded QUEUED, pulled STARTED, then SUCCEEDED with the start and end times, the operator's
   * history saying Succeeded; another, cancelled while running, ends CANCELLED, and the executor
   * itself reads it CANCELLED once the operator removed the application (not the {@code
   * NoSuchJobException} a manager turns into CANCELLED from its CANCELLING record).
   */
  @Test
  void theGravitinoExecutorSubmitsPullsAndCancelsThroughTheOperator(@TempDir Path staging)
      throws Exception {
    try (JobExecutor node =
            GravitinoOnRealOperator.createExecutor(
                Map.of(
                    "kubeconfig", cluster.kubeconfig().toString(),
                    "cluster", "prod",
                    "statusCachePeriodMs", "500"));
        GravitinoOnRealOperator manager = new GravitinoOnRealOperator("lake", staging.toFile())) {
      manager.registerTemplate(
          GravitinoOnRealOperator.sparkPi(
              "spark-pi-40s", RealOperatorCluster.scriptImage("succeeds-40s")));
      manager.registerTemplate(
          GravitinoOnRealOperator.sparkPi(
              "spark-pi-runs", RealOperatorCluster.scriptImage("runs")));
      long succeeding = manager.runJob(node, "spark-pi-40s");
      long cancelled = manager.runJob(node, "spark-pi-runs");
      ExecutionId cancelledId = ExecutionId.parse(manager.executionId(cancelled));
      manager.startPulling(node, Duration.ofSeconds(1));
      List<JobHandle.Status> succeedingRecords = new ArrayList<>();
      List<JobHandle.Status> cancelledRecords = new ArrayList<>();
      Runnable record =
          () -> {
            succeedingRecords.add(manager.status(succeeding));
            cancelledRecords.add(manager.status(cancelled));
          };

      await()
          .atMost(JOB_TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                record.run();
                return manager.status(cancelled) == JobHandle.Status.STARTED
                    && driverPod(cancelledId) != null;
              });
      manager.cancel(node, cancelled);
      await()
          .atMost(JOB_TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                record.run();
                return manager.status(succeeding) == JobHandle.Status.SUCCEEDED
                    && manager.status(cancelled) == JobHandle.Status.CANCELLED
                    && application(cancelledId) == null;
              });
      JobHandle.Status readOnceGone =
          node.getJobExecutionInfo(manager.executionId(cancelled)).status();

      LOG.info(
          "gravitino: the job manager recorded {} for the SparkPi job, {} for the cancelled one;"
              + " the executor read the cancelled one {} once it was gone",
          runs(succeedingRecords),
          runs(cancelledRecords),
          readOnceGone);
      assertThat(distinct(succeedingRecords))
          .containsExactly(
              JobHandle.Status.QUEUED, JobHandle.Status.STARTED, JobHandle.Status.SUCCEEDED);
      assertThat(manager.startAndEndRecordedInOrder(succeeding)).isTrue();
      // the operator agrees: it saw the driver run and succeed (a driver it never saw running, on
      // a loaded machine, it records Failed, "terminated without SparkContext initialization")
      assertThat(
              application(ExecutionId.parse(manager.executionId(succeeding)))
                  .getAsJsonObject("status")
                  .getAsJsonObject("stateTransitionHistory")
                  .toString())
          .contains("\"Succeeded\"")
          .doesNotContain("\"Failed\"");
      assertThat(distinct(cancelledRecords))
          .startsWith(JobHandle.Status.QUEUED, JobHandle.Status.STARTED)
          .endsWith(JobHandle.Status.CANCELLED)
          .isSubsetOf(
              JobHandle.Status.QUEUED,
              JobHandle.Status.STARTED,
              JobHandle.Status.CANCELLING,
              JobHandle.Status.CANCELLED);
      assertThat(readOnceGone).isEqualTo(JobHandle.Status.CANCELLED);
      assertThat(manager.pullErrors()).isEmpty();
    }
  }

  /** The values in order, consecutive repeats dropped. */
  static <T> List<T> distinct(List<T> values) {
    List<T> out = new ArrayList<>();
    for (T v : values) {
      if (out.isEmpty() || !out.get(out.size() - 1).equals(v)) {
        out.add(v);
      }
    }
    return out;
  }
}
