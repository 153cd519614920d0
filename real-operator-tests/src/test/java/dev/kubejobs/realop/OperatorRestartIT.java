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

import static dev.kubejobs.realop.RealApacheOperatorIT.follow;
import static dev.kubejobs.realop.RealApacheOperatorIT.path;
import static dev.kubejobs.realop.RealApacheOperatorIT.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.realop.RealApacheOperatorIT.Sample;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.SparkJobSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real operator stopped and started again while a job runs, on its own operator so that the
 * other scenarios keep theirs: the running job reads STARTED while no operator runs and SUCCEEDED
 * after the restart; a job submitted while it is down waits QUEUED and then runs.
 */
class OperatorRestartIT {
  private static final Logger LOG = LoggerFactory.getLogger(OperatorRestartIT.class);
  private static RealOperatorCluster cluster;

  @BeforeAll
  static void startTheOperator() {
    RealOperator.assumePresent();
    cluster =
        RealOperatorCluster.start(
            Path.of(System.getProperty("realop.workDir", "target/real-operator"), "restart"),
            "etl",
            Map.of("spark.kubernetes.operator.reconciler.intervalSeconds", "2"));
  }

  @AfterAll
  static void stopTheOperator() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aJobRunningAcrossAnOperatorRestartEndsSucceededAndOneSubmittedMeanwhileRuns() {
    KubeJobs<SparkJobSpec> jobs = RealApacheOperatorIT.jobs(cluster, ApacheOptions.ofDefaults());
    ExecutionId running = jobs.submitter().submit("across-restart", spec("succeeds-40s"));
    List<Sample> before = follow(jobs, running, s -> s.status() == JobStatus.STARTED);

    Duration stopped = cluster.operator().stop();
    ExecutionId meanwhile = jobs.submitter().submit("while-down", spec("succeeds-20s"));
    JobStatus runningWhileDown = jobs.statusReader().get(running).status();
    JobStatus meanwhileWhileDown = jobs.statusReader().get(meanwhile).status();
    Instant restartAt = Instant.now();
    cluster.operator().start(Duration.ofSeconds(90));
    Duration restart = Duration.between(restartAt, Instant.now());
    List<Sample> after = follow(jobs, running, s -> s.status() == JobStatus.SUCCEEDED);
    List<Sample> other = follow(jobs, meanwhile, s -> s.status() == JobStatus.SUCCEEDED);

    LOG.info(
        "restart: stopped in {}, ready again in {}; running job {} then {}; submitted meanwhile {}",
        stopped,
        restart,
        RealApacheOperatorIT.runs(before),
        RealApacheOperatorIT.runs(after),
        RealApacheOperatorIT.runs(other));
    assertThat(runningWhileDown).isEqualTo(JobStatus.STARTED);
    assertThat(meanwhileWhileDown).isEqualTo(JobStatus.QUEUED);
    assertThat(path(after)).containsExactly(JobStatus.STARTED, JobStatus.SUCCEEDED);
    assertThat(path(other))
        .endsWith(JobStatus.SUCCEEDED)
        .isSubsetOf(JobStatus.QUEUED, JobStatus.STARTED, JobStatus.SUCCEEDED);
  }
}
