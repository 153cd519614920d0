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
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.gravitino.connector.job.JobContext;
import org.apache.gravitino.job.JobHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The executor deletes the SparkApplications of jobs ended longer ago than {@code
 * driverPodRetentionMs}, from within its own calls at most once per {@code
 * endedJobsSweepIntervalMs}, on the fake cluster's clock. Gravitino's own Kubernetes executor keeps
 * a finished job's resources a day the same way (apache/gravitino, {@code SparkApplicationUtils},
 * "resourceRetainPolicy" "Always"); here the SparkApplication itself goes once that day has passed.
 */
class EndedJobsRemovalTest {
  private static final String NS = KubeJobsSparkExecutorTest.NS;
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
  private static final MutableClock CLOCK = MutableClock.at(T0);

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().clock(CLOCK).build();

  @TempDir Path dir;

  private KubeJobsSparkExecutor executor;

  @BeforeEach
  void resetClock() {
    CLOCK.set(T0);
  }

  @AfterEach
  void closeExecutor() {
    if (executor != null) {
      executor.close();
    }
  }

  @ParameterizedTest
  @EnumSource(FakeSparkOperator.Flavor.class)
  void anEndedJobsApplicationIsDeletedOncePastRetentionAndItsOutputSaysWhy(
      FakeSparkOperator.Flavor flavor) throws Exception {
    // given: one job ends at T0, another runs on
    FakeSparkOperator operator = FakeSparkOperator.builder(flavor, KUBE.server()).build();
    executor = initialized(flavor, Map.of());
    String done = executor.submitJob(context(1), Templates.sparkPi());
    String running = executor.submitJob(context(2), Templates.sparkPi());
    operator.runToEnd(NS, "kj-job-1");
    operator.moveTo(
        NS, "kj-job-2", flavor == FakeSparkOperator.Flavor.APACHE ? "RunningHealthy" : "RUNNING");
    assertThat(executor.getJobStatus(done)).isEqualTo(JobHandle.Status.SUCCEEDED);
    Instant finished = executor.getJobExecutionInfo(done).finishedAt();

    // when: a pull 23 hours after the end (a sweep is due: more than ten minutes passed)
    CLOCK.set(finished.plus(Duration.ofHours(23)));
    executor.getJobExecutionInfo(running);

    // then: ended inside retention, kept
    assertThat(exists(operator, "kj-job-1")).isTrue();

    // when: a pull 25 hours after the end
    CLOCK.set(finished.plus(Duration.ofHours(25)));
    assertThat(executor.getJobStatus(running)).isEqualTo(JobHandle.Status.STARTED);

    // then: the ended job's application is deleted (the operator removes its finalizer, as the
    // real ones do), the running one (older than a day) stays
    operator.stepUntilSettled();
    assertThat(exists(operator, "kj-job-1")).isFalse();
    assertThat(exists(operator, "kj-job-2")).isTrue();
    assertThat(KUBE.server().journal().count("DELETE", ".*/sparkapplications/kj-job-1"))
        .isEqualTo(1);
    assertThat(executor.getJobStdout(done, 10, 1 << 20))
        .singleElement()
        .asString()
        .contains("of job " + done + " is gone")
        .contains("driverPodRetentionMs = 86400000 ms");
  }

  @Test
  void theSweepRunsAtMostOncePerIntervalAndAFailedOneNeverFailsThePull() throws Exception {
    FakeSparkOperator operator =
        FakeSparkOperator.builder(FakeSparkOperator.Flavor.APACHE, KUBE.server()).build();
    executor =
        initialized(
            FakeSparkOperator.Flavor.APACHE,
            Map.of(
                ExecutorSettings.DRIVER_POD_RETENTION_MS, "3600000",
                ExecutorSettings.ENDED_JOBS_SWEEP_INTERVAL_MS, "600000",
                // one attempt per call, so the failed DELETE is not retried within the sweep
                ExecutorSettings.RETRY_MAX_ATTEMPTS, "1"));
    String done = executor.submitJob(context(3), Templates.sparkPi());
    operator.runToEnd(NS, "kj-job-3");
    assertThat(executor.getJobStatus(done)).isEqualTo(JobHandle.Status.SUCCEEDED);
    Instant finished = executor.getJobExecutionInfo(done).finishedAt();

    // when: past retention, the sweep's DELETE answers 500
    CLOCK.set(finished.plus(Duration.ofHours(2)));
    KUBE.server()
        .faults()
        .add(
            Fault.on("DELETE", ".*/sparkapplications/kj-job-3")
                .times(1)
                .status(500, "InternalError", "etcd hiccup"));
    assertThat(executor.getJobStatus(done)).isEqualTo(JobHandle.Status.SUCCEEDED);
    // then: the pull answered, the application is still there
    assertThat(exists(operator, "kj-job-3")).isTrue();

    // when: more pulls within the same interval: no second sweep
    CLOCK.advance(Duration.ofMinutes(9));
    executor.getJobExecutionInfo(done);
    assertThat(exists(operator, "kj-job-3")).isTrue();
    assertThat(KUBE.server().journal().count("DELETE", ".*/sparkapplications/kj-job-3"))
        .isEqualTo(1);

    // when: the next interval
    CLOCK.advance(Duration.ofMinutes(2));
    executor.getJobExecutionInfo(done);

    // then: deleted now
    operator.stepUntilSettled();
    assertThat(exists(operator, "kj-job-3")).isFalse();
    assertThat(KUBE.server().journal().count("DELETE", ".*/sparkapplications/kj-job-3"))
        .isEqualTo(2);
  }

  @Test
  void aRetentionOfZeroNeverDeletesApplications() throws Exception {
    FakeSparkOperator operator =
        FakeSparkOperator.builder(FakeSparkOperator.Flavor.KUBEFLOW, KUBE.server()).build();
    executor =
        initialized(
            FakeSparkOperator.Flavor.KUBEFLOW,
            Map.of(ExecutorSettings.DRIVER_POD_RETENTION_MS, "0"));
    String done = executor.submitJob(context(4), Templates.sparkPi());
    operator.runToEnd(NS, "kj-job-4");
    assertThat(executor.getJobStatus(done)).isEqualTo(JobHandle.Status.SUCCEEDED);

    CLOCK.advance(Duration.ofDays(30));
    assertThat(executor.getJobStatus(done)).isEqualTo(JobHandle.Status.SUCCEEDED);

    assertThat(exists(operator, "kj-job-4")).isTrue();
    assertThat(KUBE.server().journal().count("DELETE", ".*/sparkapplications/.*")).isZero();
  }

  private static boolean exists(FakeSparkOperator operator, String name) {
    return KUBE.server().store().get(operator.resourceType(), NS, name).isPresent();
  }

  private JobContext context(long jobId) {
    return new JobContext(jobId, "lake", dir.toFile());
  }

  private KubeJobsSparkExecutor initialized(
      FakeSparkOperator.Flavor flavor, Map<String, String> extra) throws IOException {
    Map<String, String> conf = new HashMap<>();
    conf.put(
        ExecutorSettings.KUBECONFIG,
        KubeJobsSparkExecutorTest.kubeconfig(dir, KUBE.server()).toString());
    conf.put(ExecutorSettings.CLUSTER, "prod");
    conf.put(
        ExecutorSettings.OPERATOR,
        flavor == FakeSparkOperator.Flavor.APACHE ? "apache" : "kubeflow");
    conf.put(ExecutorSettings.NAMESPACE, NS);
    conf.put(ExecutorSettings.STATUS_CACHE_PERIOD_MS, "0");
    conf.putAll(extra);
    KubeJobsSparkExecutor e = new KubeJobsSparkExecutor(CLOCK);
    e.initialize(conf);
    return e;
  }
}
