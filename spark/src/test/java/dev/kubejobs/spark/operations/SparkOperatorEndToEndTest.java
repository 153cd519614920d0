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
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import io.github.resilience4j.retry.RetryConfig;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import okhttp3.Interceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Submit, status and cancel end to end: kubejobs-core with the real Spark operator kinds on the
 * fake API server, driven by the fake operators. What both operators do is tested for each; the
 * Apache operator's cancel mark and finalizer, and the Kubeflow operator followed from two
 * scheduler nodes, in their nested classes.
 */
class SparkOperatorEndToEndTest {
  private static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
  private static final String NS = "etl";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().clock(CLOCK).build();

  /** An operator: its kind, its fake, its API group and the state names the tests move to. */
  enum Operator {
    APACHE(
        SparkOperators::apache,
        FakeSparkOperator::apache,
        "sparkapplications.spark.apache.org",
        "RunningHealthy"),
    KUBEFLOW(
        SparkOperators::kubeflow,
        FakeSparkOperator::kubeflow,
        "sparkapplications.sparkoperator.k8s.io",
        "RUNNING");

    final Supplier<JobKind<SparkJobSpec>> kind;
    final Function<FakeKubernetesApiServer, FakeSparkOperator> fake;
    final String resource;
    final String running;

    Operator(
        Supplier<JobKind<SparkJobSpec>> kind,
        Function<FakeKubernetesApiServer, FakeSparkOperator> fake,
        String resource,
        String running) {
      this.kind = kind;
      this.fake = fake;
      this.resource = resource;
      this.running = running;
    }
  }

  private FakeKubernetesApiServer server;
  private FakeSparkOperator operator;
  private ResourceType type;
  private KubeJobs<SparkJobSpec> nodeA;
  private KubeJobs<SparkJobSpec> nodeB;

  private void start(Operator op) {
    CLOCK.set(Instant.parse("2026-01-01T00:00:00Z"));
    server = KUBE.server();
    operator = op.fake.apply(server);
    type = operator.resourceType();
  }

  @AfterEach
  void tearDown() {
    if (operator != null) {
      operator.close();
    }
  }

  private KubeJobs<SparkJobSpec> jobs(Operator op, ApiClient client) {
    return jobs(op, client, Duration.ZERO);
  }

  private KubeJobs<SparkJobSpec> jobs(Operator op, ApiClient client, Duration cacheTtl) {
    return KubeJobs.builder(client, op.kind.get())
        .cluster("prod")
        .deployment("gravitino-a")
        .clock(CLOCK)
        .statusCacheTtl(cacheTtl)
        .retry(RetryConfig.custom().maxAttempts(3).waitDuration(Duration.ofMillis(1)).build())
        .build();
  }

  /** The client, its requests passing through {@code interceptor} first. */
  private static ApiClient withInterceptor(ApiClient client, Interceptor interceptor) {
    client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(interceptor).build());
    return client;
  }

  private static SparkJobSpec spec(SparkAppPath path) {
    return SparkJobSpec.builder()
        .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
        .mainClass("org.apache.spark.examples.SparkPi")
        .sparkVersion("4.0.1")
        .namespace(NS)
        .label(FakeSparkOperator.PATH_LABEL, path.name().toLowerCase())
        .build();
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void aHappyJobIsQueuedThenStartedThenSucceeded(Operator op) {
    start(op);
    KubeJobs<SparkJobSpec> jobs = jobs(op, server.newClient());
    ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
    assertThat(id.toString()).isEqualTo("prod/" + op.resource + "/etl/kj-job-1");
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);

    operator.moveTo(NS, id.name(), op.running);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    operator.runToEnd(NS, id.name());
    JobExecutionInfo info = jobs.statusReader().get(id);
    assertThat(info.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void anOperatorThatNeverWritesAStatusFailsTheJobOnlyAfterDeletingIt(Operator op) {
    start(op);
    KubeJobs<SparkJobSpec> jobs = jobs(op, server.newClient());
    ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.OPERATOR_DOWN));
    operator.step();
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);

    CLOCK.advance(Duration.ofSeconds(601));
    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.store().get(type, NS, id.name())).isEmpty();
  }

  /**
   * The driver exits after the cancel's mark and its second look at the pod, while the delete is on
   * its way; a status this version cannot parse leaves the exit code to decide, and the exit
   * changes the pod, not the application. The read that reports SUCCEEDED withdraws the mark first,
   * so the delete, locked to the marked copy, meets 409 and the cancel finds the job finished.
   * Without that, the cancel deleted a job its own instance had reported SUCCEEDED and answered
   * REQUESTED (the race simulation's seed 21537: the other node, finding the job gone after a
   * cancel, recorded CANCELLED).
   */
  @ParameterizedTest
  @EnumSource(Operator.class)
  void aDriverExitingWhileTheCancelsDeleteIsOnItsWayKeepsTheJobSucceededOnTheSameInstance(
      Operator op) {
    start(op);
    AtomicReference<KubeJobs<SparkJobSpec>> self = new AtomicReference<>();
    AtomicReference<JobStatus> readMeanwhile = new AtomicReference<>();
    ApiClient client =
        exitAtTheCancelsDelete(
            () -> readMeanwhile.set(self.get().statusReader().get(appId(op)).status()));
    KubeJobs<SparkJobSpec> a = jobs(op, client);
    self.set(a);
    ExecutionId id = a.submitter().submit("job-1", spec(SparkAppPath.UNPARSEABLE_STATUS));
    operator.moveTo(NS, id.name(), "unparseable-status");
    assertThat(a.statusReader().get(id).status()).isIn(JobStatus.QUEUED, JobStatus.STARTED);

    CancelResult result = a.canceller().cancel(id);

    assertThat(readMeanwhile.get()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(result).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(a.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertFinishedAndUnmarked(id);
  }

  /** As above, with the read that reports SUCCEEDED made by another node. */
  @ParameterizedTest
  @EnumSource(Operator.class)
  void aDriverExitingWhileTheCancelsDeleteIsOnItsWayKeepsTheJobSucceededOnBothNodes(Operator op) {
    start(op);
    KubeJobs<SparkJobSpec> b = jobs(op, server.newClient());
    AtomicReference<JobStatus> bMeanwhile = new AtomicReference<>();
    ApiClient client =
        exitAtTheCancelsDelete(() -> bMeanwhile.set(b.statusReader().get(appId(op)).status()));
    KubeJobs<SparkJobSpec> a = jobs(op, client);
    ExecutionId id = a.submitter().submit("job-1", spec(SparkAppPath.UNPARSEABLE_STATUS));
    operator.moveTo(NS, id.name(), "unparseable-status");

    CancelResult result = a.canceller().cancel(id);

    assertThat(bMeanwhile.get()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(result).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(a.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(b.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertFinishedAndUnmarked(id);
  }

  private static ExecutionId appId(Operator op) {
    return ExecutionId.parse("prod/" + op.resource + "/" + NS + "/kj-job-1");
  }

  /**
   * A client whose first DELETE of the application first lets the driver exit with code 0 (the
   * application unchanged), then runs {@code meanwhile}, then sends the delete.
   */
  private ApiClient exitAtTheCancelsDelete(Runnable meanwhile) {
    AtomicBoolean raced = new AtomicBoolean();
    return withInterceptor(
        server.newClient(),
        chain -> {
          if (chain.request().method().equals("DELETE")
              && chain.request().url().encodedPath().contains("/sparkapplications/")
              && raced.compareAndSet(false, true)) {
            String before = appResourceVersion();
            operator.runToEnd(NS, "kj-job-1");
            assertThat(appResourceVersion()).isEqualTo(before);
            meanwhile.run();
          }
          return chain.proceed(chain.request());
        });
  }

  private String appResourceVersion() {
    return server
        .store()
        .get(type, NS, "kj-job-1")
        .orElseThrow()
        .getAsJsonObject("metadata")
        .get("resourceVersion")
        .getAsString();
  }

  private void assertFinishedAndUnmarked(ExecutionId id) {
    JsonObject metadata =
        server.store().get(type, NS, id.name()).orElseThrow().getAsJsonObject("metadata");
    assertThat(metadata.has("deletionTimestamp")).isFalse();
    assertThat(
            metadata.has("annotations")
                && metadata
                    .getAsJsonObject("annotations")
                    .has(JobIdentity.ANNOTATION_CANCEL_REQUESTED))
        .isFalse();
  }

  /** The Apache operator: a cancel marks, the finalizer holds the application until released. */
  @Nested
  class Apache {
    @BeforeEach
    void apache() {
      start(Operator.APACHE);
    }

    @Test
    void aCancelledRunningJobEndsCancelledForEveryNodeAfterItIsGone() {
      KubeJobs<SparkJobSpec> jobs = jobs(Operator.APACHE, server.newClient());
      ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
      operator.moveTo(NS, id.name(), "RunningHealthy");

      assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
      operator.advance(NS, id.name()); // the operator releases the resources: shutdown as requested

      assertThat(jobs.statusReader().get(id).status())
          .isIn(JobStatus.CANCELLING, JobStatus.CANCELLED);
      operator.runToEnd(NS, id.name()); // the finalizer goes, the application is gone
      // A node that never saw it end reads kubejobs' record of the cancel (an Event), not "gone".
      assertThat(jobs(Operator.APACHE, server.newClient()).statusReader().get(id).status())
          .isEqualTo(JobStatus.CANCELLED);
    }

    @Test
    void aJobSucceedingBetweenTheCancelsReadAndItsMarkStaysSucceeded() {
      AtomicBoolean raced = new AtomicBoolean();
      ApiClient client =
          withInterceptor(
              server.newClient(),
              chain -> {
                if (chain.request().method().equals("PATCH") && raced.compareAndSet(false, true)) {
                  operator.moveTo(NS, "kj-job-1", "Succeeded");
                }
                return chain.proceed(chain.request());
              });
      KubeJobs<SparkJobSpec> jobs = jobs(Operator.APACHE, client);
      ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
      operator.moveTo(NS, id.name(), "RunningHealthy");

      assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);

      assertThat(raced).isTrue();
      assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(server.store().get(type, NS, id.name())).isPresent();
    }

    @Test
    void anUnparseableStatusKeepsTheJobUnfinishedAndItsApplication() {
      KubeJobs<SparkJobSpec> jobs = jobs(Operator.APACHE, server.newClient());
      ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.UNPARSEABLE_STATUS));
      operator.moveTo(NS, id.name(), "unparseable-status");

      CLOCK.advance(Duration.ofSeconds(601));

      assertThat(jobs.statusReader().get(id).status()).isIn(JobStatus.QUEUED, JobStatus.STARTED);
      assertThat(server.store().get(type, NS, id.name())).isPresent();

      // Once the driver exits, its exit code decides; the application is still never deleted.
      operator.runToEnd(NS, id.name());
      assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(server.store().get(type, NS, id.name())).isPresent();
    }

    @Test
    void aDriverThatNeverStartedIsDeletedBeforeTheJobIsFailed() {
      KubeJobs<SparkJobSpec> jobs = jobs(Operator.APACHE, server.newClient());
      ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.DRIVER_START_TIMEOUT));
      operator.moveTo(NS, id.name(), "DriverStartTimedOut");
      assertThat(server.store().list(ResourceType.POD, NS)).hasSize(1);

      JobExecutionInfo info = jobs.statusReader().get(id);

      assertThat(info.status()).isEqualTo(JobStatus.FAILED);
      assertThat(server.store().list(ResourceType.POD, NS))
          .allMatch(p -> p.getAsJsonObject("metadata").has("deletionTimestamp"));
    }
  }

  /** The Kubeflow operator followed from two scheduler nodes, B caching its list for 30 s. */
  @Nested
  class Kubeflow {
    @BeforeEach
    void kubeflow() {
      start(Operator.KUBEFLOW);
      nodeA = jobs(Operator.KUBEFLOW, server.newClient(), Duration.ZERO);
      nodeB = jobs(Operator.KUBEFLOW, server.newClient(), Duration.ofSeconds(30));
    }

    @Test
    void aHappyJobSubmittedOnOneNodeIsFollowedOnTheOther() {
      ExecutionId id = nodeA.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
      assertThat(id.toString())
          .isEqualTo("prod/sparkapplications.sparkoperator.k8s.io/etl/kj-job-1");

      operator.moveTo(NS, id.name(), "RUNNING");
      assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

      operator.runToEnd(NS, id.name());
      assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
      // B's list is cached for 30 s: it still says RUNNING, then the next list tells the outcome.
      assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
      CLOCK.advance(Duration.ofSeconds(30));
      assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    }

    @Test
    void nodeBCancelsWhatNodeASubmittedAndNodeAReadsItCancelledOnceItIsGone() {
      ExecutionId id = nodeA.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
      operator.moveTo(NS, id.name(), "RUNNING");

      assertThat(nodeB.canceller().cancel(id.toString())).isEqualTo(CancelResult.REQUESTED);

      // Kubeflow has no finalizer: the application is gone at once, and with it the cancel mark;
      // node A reads how it ended from kubejobs' record of the cancel.
      assertThat(server.store().get(type, NS, id.name())).isEmpty();
      assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
    }

    @Test
    void aStaleCachedNoStatusCopyOfAJobCancelledOnTheOtherNodeIsCancelledNeverFailed() {
      ExecutionId id = nodeA.submitter().submit("job-1", spec(SparkAppPath.OPERATOR_DOWN));
      CLOCK.advance(Duration.ofSeconds(590));
      assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);

      nodeA.canceller().cancel(id);
      CLOCK.advance(Duration.ofSeconds(11));

      assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
    }
  }
}
