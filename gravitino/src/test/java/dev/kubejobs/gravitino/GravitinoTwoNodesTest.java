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
import static org.awaitility.Awaitility.await;

import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.gravitino.job.JobHandle;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two Gravitino server nodes sharing one job store, each with its own {@link KubeJobsSparkExecutor}
 * (its own {@code ApiClient}, from its own {@code initialize}), run the job manager's loop of
 * {@link GravitinoJobManagerStandIn} against one fake cluster: register a template, submit from
 * either node, pull every 20 ms on both nodes on their own threads, cancel from the node that did
 * not submit, pull on. Gravitino's rules are those of {@code JobManager.pullAndUpdateJobStatus} and
 * {@code JobManager.cancelJob} in apache/gravitino {@code
 * core/src/main/java/org/apache/gravitino/job/JobManager.java}.
 */
class GravitinoTwoNodesTest {
  static final String NS = "gravitino-jobs";
  static final Duration PULL_INTERVAL = Duration.ofMillis(20);

  @RegisterExtension
  static final FakeKubernetesExtension KUBE = FakeKubernetesExtension.builder().build();

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(FakeSparkOperator.Flavor.class)
  void twoNodesTrackAndCancelEachOthersJobsWithTheSameOutcomesAndTimes(
      FakeSparkOperator.Flavor flavor) throws Exception {
    FakeSparkOperator operator = FakeSparkOperator.builder(flavor, KUBE.server()).build();
    try (KubeJobsSparkExecutor nodeA = node(flavor);
        KubeJobsSparkExecutor nodeB = node(flavor);
        GravitinoJobManagerStandIn manager = new GravitinoJobManagerStandIn("lake", dir.toFile())) {
      // given: a template, one job submitted on each node, both nodes pulling
      manager.registerTemplate("spark-pi", Templates.sparkPi());
      long fromA = manager.runJob(nodeA, "spark-pi");
      long fromB = manager.runJob(nodeB, "spark-pi");
      String nameA = "kj-job-" + fromA;
      String nameB = "kj-job-" + fromB;
      manager.startPulling(nodeA, PULL_INTERVAL);
      manager.startPulling(nodeB, PULL_INTERVAL);

      // when both start
      operator.moveTo(NS, nameA, running(flavor));
      operator.moveTo(NS, nameB, running(flavor));

      // then both are STARTED with the cluster's start time
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                assertThat(manager.job(fromA).status()).isEqualTo(JobHandle.Status.STARTED);
                assertThat(manager.job(fromB).status()).isEqualTo(JobHandle.Status.STARTED);
              });
      var startedA = manager.job(fromA).startedAt();
      var startedB = manager.job(fromB).startedAt();
      assertThat(startedA).isNotNull();
      assertThat(startedB).isNotNull();

      // when node B cancels the job node A submitted, and node A's job B runs to its end. Both
      // nodes keep pulling: a pull of node A while the cancel is on its way (Gravitino records
      // CANCELLING only after cancelJob returned) may find a Kubeflow application (no finalizer)
      // gone, and reads the record of B's cancel (anotherNodesPullInTheCancelsWindow...).
      manager.cancel(nodeB, fromA);
      assertThat(manager.job(fromA).status())
          .isIn(JobHandle.Status.CANCELLING, JobHandle.Status.CANCELLED);
      operator.runToEnd(NS, nameB);
      operator.runToEnd(NS, nameA); // the operator's reaction to the delete: the resource goes

      // then job A is CANCELLED and job B SUCCEEDED, with the times the cluster recorded
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                assertThat(manager.job(fromA).status()).isEqualTo(JobHandle.Status.CANCELLED);
                assertThat(manager.job(fromB).status()).isEqualTo(JobHandle.Status.SUCCEEDED);
              });
      assertThat(manager.job(fromA).startedAt()).isEqualTo(startedA);
      assertThat(manager.job(fromB).startedAt()).isEqualTo(startedB);
      assertThat(manager.job(fromB).finishedAt()).isNotNull().isAfterOrEqualTo(startedB);
      assertThat(KUBE.api(operator.resourceType()).get(NS, nameA).isSuccess())
          .as("the cancelled job's resource is gone")
          .isFalse();

      // and a cancel of the ended job, from either node, keeps its outcome on both
      nodeA.cancelJob(manager.job(fromB).executionId());
      nodeB.cancelJob(manager.job(fromB).executionId());
      for (KubeJobsSparkExecutor node : new KubeJobsSparkExecutor[] {nodeA, nodeB}) {
        assertThat(node.getJobExecutionInfo(manager.job(fromB).executionId()).status())
            .isEqualTo(JobHandle.Status.SUCCEEDED);
      }
      assertThat(manager.pullErrors()).isEmpty();
    }
  }

  /**
   * The cross-node cancel window: node B's cancel of a job has deleted its application (its answer
   * not yet back, so Gravitino has not recorded CANCELLING), and node A pulls. A Kubeflow
   * application has no finalizer and is gone at once; the Apache operator's finalizer keeps it,
   * with its cancel mark. Either way node A records CANCELLED: for the gone one, from the record of
   * B's cancel (an Event kubejobs wrote before the delete, docs/outcome-record.md).
   */
  @ParameterizedTest
  @EnumSource(FakeSparkOperator.Flavor.class)
  void anotherNodesPullInTheCancelsWindowRecordsCancelledNotFailed(FakeSparkOperator.Flavor flavor)
      throws Exception {
    FakeSparkOperator operator = FakeSparkOperator.builder(flavor, KUBE.server()).build();
    try (KubeJobsSparkExecutor nodeA = node(flavor);
        KubeJobsSparkExecutor nodeB = node(flavor);
        GravitinoJobManagerStandIn manager = new GravitinoJobManagerStandIn("lake", dir.toFile())) {
      manager.registerTemplate("spark-pi", Templates.sparkPi());
      long job = manager.runJob(nodeA, "spark-pi");
      operator.moveTo(NS, "kj-job-" + job, running(flavor));
      manager.pull(nodeA);
      assertThat(manager.job(job).status()).isEqualTo(JobHandle.Status.STARTED);
      Hold delete =
          KUBE.server()
              .hold(Hold.on("DELETE", ".*/sparkapplications/kj-job-" + job).afterApplying());

      CompletableFuture<Void> cancel = CompletableFuture.runAsync(() -> manager.cancel(nodeB, job));
      delete.awaitArrived(); // applied; node B's cancel waits for its answer
      manager.pull(nodeA);
      delete.release();
      cancel.get(30, TimeUnit.SECONDS);

      // never FAILED: Kubeflow's is gone and read CANCELLED from the record, Apache's is being
      // deleted with the cancel mark until the operator releases it
      assertThat(manager.job(job).status())
          .isIn(JobHandle.Status.CANCELLING, JobHandle.Status.CANCELLED);
      operator.runToEnd(NS, "kj-job-" + job);
      manager.pull(nodeA);
      assertThat(manager.job(job).status()).isEqualTo(JobHandle.Status.CANCELLED);
      assertThat(manager.pullErrors()).isEmpty();
    }
  }

  private KubeJobsSparkExecutor node(FakeSparkOperator.Flavor flavor) throws Exception {
    KubeJobsSparkExecutor node = new KubeJobsSparkExecutor();
    node.initialize(
        Map.of(
            "class",
            KubeJobsSparkExecutor.class.getName(),
            ExecutorSettings.KUBECONFIG,
            KubeJobsSparkExecutorTest.kubeconfig(dir, KUBE.server()).toString(),
            ExecutorSettings.CLUSTER,
            "prod",
            ExecutorSettings.OPERATOR,
            flavor.name().toLowerCase(java.util.Locale.ROOT),
            ExecutorSettings.STATUS_CACHE_PERIOD_MS,
            "10"));
    return node;
  }

  private static String running(FakeSparkOperator.Flavor flavor) {
    return flavor == FakeSparkOperator.Flavor.APACHE ? "RunningHealthy" : "RUNNING";
  }
}
