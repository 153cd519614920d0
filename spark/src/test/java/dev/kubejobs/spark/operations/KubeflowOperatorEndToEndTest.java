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
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Submit, status and cancel end to end with the real Kubeflow Spark operator kind, driven by the
 * fake Kubeflow operator, from two scheduler nodes.
 */
class KubeflowOperatorEndToEndTest {
  private static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
  private static final String NS = "etl";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().clock(CLOCK).build();

  private FakeKubernetesApiServer server;
  private FakeSparkOperator operator;
  private ResourceType type;
  private KubeJobs<SparkJobSpec> nodeA;
  private KubeJobs<SparkJobSpec> nodeB;

  @BeforeEach
  void setUp() {
    CLOCK.set(Instant.parse("2026-01-01T00:00:00Z"));
    server = KUBE.server();
    operator = FakeSparkOperator.kubeflow(server);
    type = operator.resourceType();
    nodeA = node(Duration.ZERO);
    nodeB = node(Duration.ofSeconds(30));
  }

  @AfterEach
  void tearDown() {
    operator.close();
  }

  private KubeJobs<SparkJobSpec> node(Duration cacheTtl) {
    return KubeJobs.builder(server.newClient(), SparkOperators.kubeflow())
        .cluster("prod")
        .deployment("gravitino-a")
        .clock(CLOCK)
        .statusCacheTtl(cacheTtl)
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
  void aHappyJobSubmittedOnOneNodeIsFollowedOnTheOther() {
    ExecutionId id = nodeA.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
    assertThat(id.toString()).isEqualTo("prod/sparkapplications.sparkoperator.k8s.io/etl/kj-job-1");

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
  void nodeBCancelsWhatNodeASubmittedAndTheJobIsGone() {
    ExecutionId id = nodeA.submitter().submit("job-1", spec(SparkAppPath.HAPPY));
    operator.moveTo(NS, id.name(), "RUNNING");

    assertThat(nodeB.canceller().cancel(id.toString())).isEqualTo(CancelResult.REQUESTED);

    assertThat(server.store().get(type, NS, id.name())).isEmpty();
    assertThatThrownBy(() -> nodeA.statusReader().get(id)).isInstanceOf(NoSuchJobException.class);
  }

  @Test
  void aStaleCachedNoStatusCopyOfAJobCancelledOnTheOtherNodeIsNoSuchJobNeverFailed() {
    ExecutionId id = nodeA.submitter().submit("job-1", spec(SparkAppPath.OPERATOR_DOWN));
    CLOCK.advance(Duration.ofSeconds(590));
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);

    nodeA.canceller().cancel(id);
    CLOCK.advance(Duration.ofSeconds(11));

    assertThatThrownBy(() -> nodeB.statusReader().get(id)).isInstanceOf(NoSuchJobException.class);
  }
}
