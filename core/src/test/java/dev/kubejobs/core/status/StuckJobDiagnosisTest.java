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
package dev.kubejobs.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.DiagnosisRule;
import dev.kubejobs.core.diagnosis.Evidence;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobKindVariant;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A job that waits too long, or has just failed, says why — from what core reads for it on the
 * status path: its copy, its driver pod, its namespace's executor pods and events, and the job
 * kind's rules. Shown here with core's test kind; {@code spark}'s {@code
 * DiagnosisOnTheStatusPathTest} shows the same step with the real operators' shapes. A diagnosis
 * never fails a status read: what cannot be read is left out, or named.
 */
class StuckJobDiagnosisTest {
  private static final Duration AFTER = Duration.ofMinutes(5);
  private static final Instant T0 = Fixture.T0;
  private static final String NS = "etl";
  private static final String PODS = "/api/v1/namespaces/etl/pods";
  private static final String EVENTS = "/api/v1/namespaces/etl/events";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE = KubeJobsHarness.testJobs().build();

  private static final MutableClock CLOCK = KUBE.clock();
  private static final JobStatusMapper TEST_MAPPER = new TestJobKind().statusMapper();

  private FakeKubernetesApiServer server;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
  }

  // ------------------------------------------------------------------ executors that wait

  @Test
  void theExecutorsOfAJobAreThoseNamedForItOrOwnedByItsDriverPod() {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> true, List::of));
    ExecutionId id = runningJob("kj-job-1");
    // Named by Spark's label, or by either operator's app-name label.
    executor("kj-job-1-exec-1", Map.of("spark-app-name", "kj-job-1"), null);
    executor("kj-job-1-exec-2", Map.of("sparkoperator.k8s.io/app-name", "kj-job-1"), null);
    executor("kj-job-1-exec-3", Map.of("spark.operator/spark-app-name", "kj-job-1"), null);
    // Owned by the job's driver pod (Spark makes the driver the executors' owner).
    executor("kj-job-1-exec-4", Map.of(), owner("Pod", "kj-job-1-driver"));
    // Another application's executor, by name and by owner; and an owner of another kind.
    executor("other-exec-1", Map.of("spark-app-name", "other"), owner("Pod", "other-driver"));
    executor("stray-exec-1", Map.of(), owner("ReplicaSet", "kj-job-1-driver"));

    CLOCK.set(T0.plus(AFTER));
    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    Diagnosis d = info.diagnosis().orElseThrow();
    assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_PENDING);
    assertThat(d.summary()).contains("4 of 4 executor pods").contains("Insufficient cpu");
  }

  @Test
  void executorsWaitingAreExplainedOnlyOnceTheJobWaitedTheThresholdAndCostNoRequestBefore() {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> true, List::of));
    ExecutionId id = runningJob("kj-job-1");
    executor("kj-job-1-exec-1", Map.of("spark-app-name", "kj-job-1"), null);

    CLOCK.set(T0.plus(AFTER).minusSeconds(1));
    server.journal().clear();
    JobExecutionInfo early = jobs.statusReader().get(id);
    assertThat(early.status()).isEqualTo(JobStatus.STARTED);
    assertThat(early.diagnosis()).isEmpty();
    assertThat(server.journal().count("GET", PODS)).isZero();
    assertThat(server.journal().count("GET", EVENTS)).isZero();

    CLOCK.set(T0.plus(AFTER));
    assertThat(jobs.statusReader().get(id).diagnosis())
        .map(Diagnosis::cause)
        .contains(Cause.EXECUTORS_PENDING);
  }

  /**
   * Polled with a cache (its listing keeps the copy of a STARTED job only while its executors wait)
   * and with one GET per job (the copy is at hand).
   */
  static Stream<Duration> cachePeriods() {
    return Stream.of(Duration.ofSeconds(5), Duration.ZERO);
  }

  @ParameterizedTest(name = "cache period {0}")
  @MethodSource("cachePeriods")
  void aJobWhoseExecutorsDoNotWaitIsNotDiagnosedWhateverItsAge(Duration cachePeriod) {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> false, List::of), cachePeriod);
    ExecutionId id = runningJob("kj-job-1");
    executor("kj-job-1-exec-1", Map.of("spark-app-name", "kj-job-1"), null);
    CLOCK.set(T0.plus(Duration.ofHours(2)));
    server.journal().clear();

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(info.diagnosis()).isEmpty();
    assertThat(server.journal().count("GET", PODS)).isZero();
    assertThat(server.journal().count("GET", EVENTS)).isZero();
  }

  @Test
  void severalWaitingJobsOfANamespaceShareOneExecutorPodListAndOneEventsList() {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> true, List::of));
    ExecutionId one = runningJob("kj-job-1");
    ExecutionId two = runningJob("kj-job-2");
    executor("kj-job-1-exec-1", Map.of("spark-app-name", "kj-job-1"), null);
    executor("kj-job-2-exec-1", Map.of(), owner("Pod", "kj-job-2-driver"));
    executor("kj-job-2-exec-2", Map.of(), owner("Pod", "kj-job-2-driver"));
    CLOCK.set(T0.plus(AFTER));
    server.journal().clear();

    Map<ExecutionId, JobExecutionInfo> infos = jobs.statusReader().getAllInfos(List.of(one, two));

    assertThat(infos.get(one).diagnosis().orElseThrow().summary()).contains("1 of 1 executor");
    assertThat(infos.get(two).diagnosis().orElseThrow().summary()).contains("2 of 2 executor");
    assertThat(server.journal().requests("GET", PODS))
        .extracting(r -> r.queryParameter("labelSelector"))
        .containsExactly("spark-role=executor");
    assertThat(server.journal().count("GET", EVENTS)).isEqualTo(1);
  }

  @Test
  void executorPodsThatCannotBeListedLeaveTheStatusReadAsItWas() {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> true, List::of));
    ExecutionId id = runningJob("kj-job-1");
    executor("kj-job-1-exec-1", Map.of("spark-app-name", "kj-job-1"), null);
    server.faults().add(Fault.on("GET", PODS).forever().status(500, "InternalError", "etcd"));
    CLOCK.set(T0.plus(AFTER));

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(info.diagnosis()).as("no executor pod was read: none is pending").isEmpty();
    assertThat(server.journal().count("GET", PODS))
        .as("the executor pod LIST was sent")
        .isPositive();
  }

  @ParameterizedTest(name = "cache period {0}")
  @MethodSource("cachePeriods")
  void aMapperThatFailsToTellWhetherExecutorsWaitLeavesTheJobUndiagnosed(Duration cachePeriod) {
    KubeJobs<TestJobSpec> jobs =
        instance(
            mapper(
                () -> {
                  throw new IllegalStateException("a bug of the job kind");
                },
                List::of),
            cachePeriod);
    ExecutionId id = runningJob("kj-job-1");
    executor("kj-job-1-exec-1", Map.of("spark-app-name", "kj-job-1"), null);
    CLOCK.set(T0.plus(AFTER));
    server.journal().clear();

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(info.diagnosis()).isEmpty();
    assertThat(server.journal().count("GET", PODS)).isZero();
  }

  @ParameterizedTest(name = "cache period {0}")
  @MethodSource("cachePeriods")
  void aJobThatSucceededOrIsBeingCancelledCostsNoRequestForADiagnosis(Duration cachePeriod) {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> true, List::of), cachePeriod);
    ExecutionId succeeded = job("kj-job-1", "{\"state\":\"SUCCEEDED\"}");
    ExecutionId cancelling = runningJob("kj-job-2");
    Fixture.annotate(
        server, NS, "kj-job-2", JobIdentity.ANNOTATION_CANCEL_REQUESTED, "by someone else");
    executor("kj-job-2-exec-1", Map.of("spark-app-name", "kj-job-2"), null);
    CLOCK.set(T0.plus(Duration.ofHours(2)));
    server.journal().clear();

    assertThat(jobs.statusReader().get(succeeded).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(jobs.statusReader().get(cancelling).status()).isEqualTo(JobStatus.CANCELLING);

    assertThat(server.journal().count("GET", EVENTS)).isZero();
    assertThat(server.journal().count("GET", PODS)).isZero();
  }

  // ------------------------------------------------------------------ a queued job

  @Test
  void aQueuedJobIsExplainedByItsDriverPodLookedUpForTheDiagnosisAtTheThreshold() {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> false, List::of));
    ExecutionId id = job("kj-job-1", "{\"state\":\"QUEUED\",\"driverPod\":\"kj-job-1-driver\"}");
    server
        .store()
        .create(
            ResourceType.POD,
            NS,
            DriverPodBuilder.kubeflow("kj-job-1")
                .name("kj-job-1-driver")
                .namespace(NS)
                .createdAt(T0)
                .waiting("ImagePullBackOff", "Back-off pulling image \"busybox:nope\"")
                .build());

    CLOCK.set(T0.plus(AFTER).minusSeconds(1));
    server.journal().clear();
    assertThat(jobs.statusReader().get(id).diagnosis()).isEmpty();
    assertThat(server.journal().count("GET", PODS + "/kj-job-1-driver")).isZero();

    CLOCK.set(T0.plus(AFTER));
    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.diagnosis()).map(Diagnosis::cause).contains(Cause.IMAGE_PULL_FAILED);
    assertThat(server.journal().count("GET", PODS + "/kj-job-1-driver")).isEqualTo(1);
  }

  @Test
  void aDriverPodThatCannotBeReadForTheDiagnosisLeavesTheStatusReadAsItWas() {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> false, List::of));
    ExecutionId id = job("kj-job-1", "{\"state\":\"QUEUED\",\"driverPod\":\"kj-job-1-driver\"}");
    server
        .faults()
        .add(Fault.on("GET", PODS + "/.*").forever().status(500, "InternalError", "etcd"));
    CLOCK.set(T0.plus(AFTER));

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(server.journal().count("GET", PODS + "/kj-job-1-driver"))
        .as("the driver pod was looked up for the diagnosis")
        .isPositive();
  }

  static Stream<Arguments> eventsThatCannotBeRead() {
    return Stream.of(
        Arguments.of(
            Fault.on("GET", EVENTS).forever().status(403, "Forbidden", "events denied"),
            "missing permission: list events in namespace etl"),
        Arguments.of(
            Fault.on("GET", EVENTS).forever().status(400, "BadRequest", "bad selector"),
            "the events of namespace etl could not be listed (400)"),
        Arguments.of(
            Fault.on("GET", EVENTS).forever().status(500, "InternalError", "etcd"),
            "the events of namespace etl could not be read (API unavailable)"),
        Arguments.of(
            Fault.on("GET", EVENTS).forever().connectionReset(),
            "the events of namespace etl could not be read (API unavailable)"));
  }

  @ParameterizedTest
  @MethodSource("eventsThatCannotBeRead")
  void eventsThatCannotBeReadAreNamedInTheDiagnosis(Fault fault, String named) {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> false, List::of));
    ExecutionId id = job("kj-job-1", null);
    server.faults().add(fault);
    CLOCK.set(T0.plus(AFTER));

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    Diagnosis d = info.diagnosis().orElseThrow();
    assertThat(d.cause()).isEqualTo(Cause.OPERATOR_NOT_RUNNING);
    assertThat(d.evidence())
        .filteredOn(e -> e.source() == Evidence.Source.NOT_READ)
        .extracting(Evidence::message)
        .containsExactly(named);
  }

  // ------------------------------------------------------------------ the job kind's rules

  @Test
  void theKindsRulesSeeTheOperatorStatusOfAJobThatFailed() {
    DiagnosisRule operatorSays =
        (input, diagnoser) ->
            input
                .operatorStatus()
                .map(
                    s ->
                        Diagnosis.of(
                            Cause.OPERATOR_REPORTED_FAILURE,
                            "the operator says " + s.get("reason").getAsString(),
                            List.of()));
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> false, () -> List.of(operatorSays)));
    ExecutionId id = job("kj-job-1", "{\"state\":\"FAILED\",\"reason\":\"quota exceeded\"}");

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.diagnosis())
        .map(Diagnosis::summary)
        .contains("the operator says quota exceeded");
  }

  @Test
  void aRuleThatFailsLeavesTheStatusWithoutADiagnosisAndIsWarnedOf() {
    DiagnosisRule broken =
        (input, diagnoser) -> {
          throw new IllegalStateException("a bug of the rule");
        };
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> false, () -> List.of(broken)));
    ExecutionId id = job("kj-job-1", "{\"state\":\"FAILED\"}");

    try (LogCapture logs = LogCapture.start()) {
      JobExecutionInfo info = jobs.statusReader().get(id);

      assertThat(info.status()).isEqualTo(JobStatus.FAILED);
      assertThat(info.diagnosis()).isEmpty();
      assertThat(logs.warnings())
          .anyMatch(w -> w.contains("Diagnosing job") && w.contains("without a diagnosis"));
    }
  }

  static Stream<Arguments> rulesThatCannotBeHad() {
    Supplier<List<DiagnosisRule>> none = () -> null;
    Supplier<List<DiagnosisRule>> failing =
        () -> {
          throw new IllegalStateException("a bug of the job kind");
        };
    return Stream.of(Arguments.of("none (null)", none), Arguments.of("failing", failing));
  }

  @ParameterizedTest(name = "rules: {0}")
  @MethodSource("rulesThatCannotBeHad")
  void aKindWithoutRulesIsDiagnosedWithCoresOwn(String what, Supplier<List<DiagnosisRule>> rules) {
    KubeJobs<TestJobSpec> jobs = instance(mapper(() -> false, rules));
    ExecutionId id = job("kj-job-1", null);
    CLOCK.set(T0.plus(AFTER));

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.diagnosis()).map(Diagnosis::cause).contains(Cause.OPERATOR_NOT_RUNNING);
  }

  // ------------------------------------------------------------------ set-up

  private KubeJobs<TestJobSpec> instance(JobStatusMapper mapper) {
    return instance(mapper, Duration.ofSeconds(5));
  }

  private KubeJobs<TestJobSpec> instance(JobStatusMapper mapper, Duration cachePeriod) {
    return KUBE.track(
        Fixture.builder(server, CLOCK, "gravitino-a", TestJobKindVariant.withMapper(mapper))
            .statusCacheTtl(cachePeriod)
            .diagnoseAfter(AFTER)
            .build());
  }

  /** The test kind's mapper, saying whether executors wait and which rules the kind brings. */
  private static JobStatusMapper mapper(
      Supplier<Boolean> executorsWait, Supplier<List<DiagnosisRule>> rules) {
    return new JobStatusMapper() {
      @Override
      public MappingDecision map(ResourceSnapshot app, DriverPod pod, Instant now) {
        return TEST_MAPPER.map(app, pod, now);
      }

      @Override
      public boolean executorsWaiting(ResourceSnapshot application) {
        return executorsWait.get();
      }

      @Override
      public List<DiagnosisRule> diagnosisRules() {
        return rules.get();
      }
    };
  }

  /** A job created at {@link #T0}, with this status (none when null). */
  private ExecutionId job(String name, String statusJson) {
    JsonObject job = Fixture.testJob(name, "gravitino-a", name, null);
    if (statusJson != null) {
      job.add("status", JsonParser.parseString(statusJson));
    }
    server.store().create(TestJobKind.TYPE, NS, job);
    return ExecutionId.of(Fixture.CLUSTER, TestJobKind.KIND, NS, name);
  }

  /** A running job whose driver pod {@code <name>-driver} runs. */
  private ExecutionId runningJob(String name) {
    ExecutionId id = job(name, "{\"state\":\"RUNNING\",\"driverPod\":\"" + name + "-driver\"}");
    server
        .store()
        .create(ResourceType.POD, NS, Fixture.driverPod(name + "-driver", name, "Running"));
    return id;
  }

  /**
   * An executor pod that kube-scheduler cannot place, created at {@link #T0}: labelled {@code
   * spark-role=executor} and {@code labels}, owned by {@code owner} (or by nothing).
   */
  private void executor(String name, Map<String, String> labels, JsonObject owner) {
    JsonObject pod =
        DriverPodBuilder.kubeflow("unused")
            .name(name)
            .namespace(NS)
            .createdAt(T0)
            .unschedulable("0/3 nodes are available: 3 Insufficient cpu.")
            .build();
    JsonObject meta = pod.getAsJsonObject("metadata");
    JsonObject podLabels = new JsonObject();
    podLabels.addProperty("spark-role", "executor");
    labels.forEach(podLabels::addProperty);
    meta.add("labels", podLabels);
    meta.remove("ownerReferences");
    if (owner != null) {
      JsonArray refs = new JsonArray();
      refs.add(owner);
      meta.add("ownerReferences", refs);
    }
    server.store().create(ResourceType.POD, NS, pod);
  }

  private static JsonObject owner(String kind, String name) {
    JsonObject ref = new JsonObject();
    ref.addProperty("apiVersion", "v1");
    ref.addProperty("kind", kind);
    ref.addProperty("name", name);
    ref.addProperty("uid", "uid-of-" + name);
    return ref;
  }
}
