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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Submit, status and cancel end to end: kubejobs-core with the real Apache Spark operator kind on
 * the fake API server, driven by the fake Apache operator.
 */
class ApacheOperatorEndToEndTest {
  private static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
  private static final String NS = "etl";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().clock(CLOCK).build();

  private FakeKubernetesApiServer server;
  private FakeSparkOperator operator;
  private ResourceType type;

  @BeforeEach
  void setUp() {
    CLOCK.set(Instant.parse("2026-01-01T00:00:00Z"));
    server = KUBE.server();
    operator = FakeSparkOperator.apache(server);
    type = operator.resourceType();
  }

  @AfterEach
  void tearDown() {
    operator.close();
  }

  private KubeJobs<SparkJobSpec> jobs(ApiClient client) {
    return KubeJobs.builder(client, SparkOperators.apache())
        .cluster("prod")
        .deployment("gravitino-a")
        .clock(CLOCK)
        .statusCacheTtl(Duration.ZERO)
        .retry(RetryConfig.custom().maxAttempts(3).waitDuration(Duration.ofMillis(1)).build())
        .build();
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

  @Test
  void aHappyJobIsQueuedThenStartedThenSucceeded() {
    KubeJobs<SparkJobSpec> jobs = jobs(server.newClient());
    ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
    assertThat(id.toString()).isEqualTo("prod/sparkapplications.spark.apache.org/etl/kj-job-1");
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);

    operator.moveTo(NS, id.name(), "RunningHealthy");
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    operator.runToEnd(NS, id.name());
    JobExecutionInfo info = jobs.statusReader().get(id);
    assertThat(info.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aCancelledRunningJobEndsCancelledThenGone() {
    KubeJobs<SparkJobSpec> jobs = jobs(server.newClient());
    ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
    operator.moveTo(NS, id.name(), "RunningHealthy");

    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
    operator.advance(NS, id.name()); // the operator releases the resources: shutdown as requested

    assertThat(jobs.statusReader().get(id).status())
        .isIn(JobStatus.CANCELLING, JobStatus.CANCELLED);
    operator.runToEnd(NS, id.name()); // the finalizer goes, the application is gone
    assertThatThrownBy(() -> jobs.statusReader().get(id)).isInstanceOf(NoSuchJobException.class);
  }

  @Test
  void aJobSucceedingBetweenTheCancelsReadAndItsMarkStaysSucceeded() {
    AtomicBoolean raced = new AtomicBoolean();
    ApiClient client = server.newClient();
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .addInterceptor(
                chain -> {
                  if (chain.request().method().equals("PATCH")
                      && raced.compareAndSet(false, true)) {
                    operator.moveTo(NS, "kj-job-1", "Succeeded");
                  }
                  return chain.proceed(chain.request());
                })
            .build());
    KubeJobs<SparkJobSpec> jobs = jobs(client);
    ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
    operator.moveTo(NS, id.name(), "RunningHealthy");

    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(raced).isTrue();
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(server.store().get(type, NS, id.name())).isPresent();
  }

  @Test
  void anOperatorThatNeverWritesAStatusFailsTheJobOnlyAfterDeletingIt() {
    KubeJobs<SparkJobSpec> jobs = jobs(server.newClient());
    ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.OPERATOR_DOWN));
    operator.step();
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);

    CLOCK.advance(Duration.ofSeconds(601));
    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.store().get(type, NS, id.name())).isEmpty();
  }

  @Test
  void anUnparseableStatusKeepsTheJobUnfinishedAndItsApplication() {
    KubeJobs<SparkJobSpec> jobs = jobs(server.newClient());
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
    KubeJobs<SparkJobSpec> jobs = jobs(server.newClient());
    ExecutionId id = jobs.submitter().submit("job-1", spec(SparkAppPath.DRIVER_START_TIMEOUT));
    operator.moveTo(NS, id.name(), "DriverStartTimedOut");
    assertThat(server.store().list(ResourceType.POD, NS)).hasSize(1);

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.store().list(ResourceType.POD, NS))
        .allMatch(p -> p.getAsJsonObject("metadata").has("deletionTimestamp"));
  }
}
