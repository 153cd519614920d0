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

import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.gravitino.job.JobHandle;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A Gravitino node started with another {@code cluster} value than the one its jobs were submitted
 * under (a misconfigured node, or a renamed setting) does not fail every running job: for an id of
 * another cluster it looks for the resource the id names in its own cluster, tracks it when it is
 * that job's (kubejobs labels, this deployment, the job id its name derives from), warns once
 * naming both values and the setting, and fails only the ids whose resource is not found (or not
 * the job's).
 */
class OtherClusterValueTest {
  static final String NS = "gravitino-jobs";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE = FakeKubernetesExtension.builder().build();

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(FakeSparkOperator.Flavor.class)
  void aNodeWithAnotherClusterValueTracksTheJobsItFindsAndFailsOnlyTheOthers(
      FakeSparkOperator.Flavor flavor) throws Exception {
    FakeSparkOperator operator = FakeSparkOperator.builder(flavor, KUBE.server()).build();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    try (KubeJobsSparkExecutor staging = node(flavor, "staging", "gravitino");
        KubeJobsSparkExecutor otherScheduler = node(flavor, "staging", "other-scheduler");
        KubeJobsSparkExecutor prod = node(flavor, "prod", "gravitino");
        GravitinoJobManagerStandIn manager = new GravitinoJobManagerStandIn("lake", dir.toFile())) {
      // given: two running jobs submitted under cluster 'staging', one job of another deployment
      // under 'staging' too, and an id of 'staging' whose resource does not exist
      manager.registerTemplate("spark-pi", Templates.sparkPi());
      long running = manager.runJob(staging, "spark-pi");
      long cancelled = manager.runJob(staging, "spark-pi");
      long notOurs = manager.runJob(otherScheduler, "spark-pi");
      String resource = manager.job(running).executionId();
      long missing =
          manager.recordJob(
              "spark-pi", resource.substring(0, resource.lastIndexOf('/')) + "/kj-job-99");
      for (long id : new long[] {running, cancelled, notOurs}) {
        operator.moveTo(NS, "kj-job-" + id, running(flavor));
      }
      assertThat(resource).startsWith("staging/");

      // when: only the node configured with cluster 'prod' pulls, twice, and cancels one job
      System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
      manager.pull(prod);
      manager.pull(prod);
      manager.cancel(prod, cancelled);
      operator.runToEnd(NS, "kj-job-" + cancelled);
      manager.pull(prod);
      System.setErr(stderr);

      // then
      assertThat(manager.job(running).status()).isEqualTo(JobHandle.Status.STARTED);
      assertThat(manager.job(running).startedAt()).isNotNull();
      assertThat(manager.job(cancelled).status()).isEqualTo(JobHandle.Status.CANCELLED);
      assertThat(manager.job(notOurs).status()).isEqualTo(JobHandle.Status.FAILED);
      assertThat(manager.job(missing).status()).isEqualTo(JobHandle.Status.FAILED);
      assertThat(manager.pullErrors()).isEmpty();
      String logged = log.toString(StandardCharsets.UTF_8);
      assertThat(logged.split("was submitted with cluster 'staging'", -1))
          .as("warned once: %s", logged)
          .hasSize(2);
      assertThat(logged)
          .contains("gravitino.jobExecutor.kubejobs.cluster = 'prod'")
          .contains("where it has no SparkApplication " + NS + "/kj-job-99");
      assertThat(prod.getJobStderr(resource, 10, 1000)).isEmpty();
      assertThat(prod.getJobStdout(resource, 10, 1000)).isNotEmpty();
    } finally {
      System.setErr(stderr);
    }
  }

  private KubeJobsSparkExecutor node(
      FakeSparkOperator.Flavor flavor, String cluster, String deployment) throws IOException {
    Map<String, String> conf = new HashMap<>();
    conf.put(
        ExecutorSettings.KUBECONFIG,
        KubeJobsSparkExecutorTest.kubeconfig(dir, KUBE.server()).toString());
    conf.put(ExecutorSettings.CLUSTER, cluster);
    conf.put(ExecutorSettings.DEPLOYMENT, deployment);
    conf.put(ExecutorSettings.OPERATOR, flavor.name().toLowerCase(Locale.ROOT));
    conf.put(ExecutorSettings.STATUS_CACHE_PERIOD_MS, "0");
    KubeJobsSparkExecutor e = new KubeJobsSparkExecutor();
    e.initialize(conf);
    return e;
  }

  private static String running(FakeSparkOperator.Flavor flavor) {
    return flavor == FakeSparkOperator.Flavor.APACHE ? "RunningHealthy" : "RUNNING";
  }
}
