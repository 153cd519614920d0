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
package dev.kubejobs.examples.gravitino;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.logs.DriverLog;
import dev.kubejobs.spark.SparkJobSpec;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.gravitino.job.JobHandle;
import org.apache.gravitino.job.JobTemplate;
import org.apache.gravitino.job.SparkJobTemplate;

/**
 * The shape of a job executor a Gravitino server could load to run its Spark job templates on
 * Kubernetes: submit, status, cancel and logs, each delegating to {@link KubeJobs}.
 *
 * <p>gravitino-api 1.3.0 holds no server-side executor interface (it lives in Gravitino's server
 * code), so this class implements none; its methods mirror what such an executor does. One
 * difference on purpose: {@link #submitJob(String, JobTemplate)} takes Gravitino's job id, so a
 * retried submit lands on the same SparkApplication instead of starting a second run.
 *
 * <pre>{@code
 * KubeJobsSparkExecutor executor = new KubeJobsSparkExecutor(
 *     KubeJobs.builder(apiClient, SparkOperators.apache()).cluster("prod").deployment("gravitino")
 *         .build(),
 *     new GravitinoMapping.Defaults("spark-jobs", "4.0.1", "apache/spark:4.0.1"));
 * String handle = executor.submitJob(jobId, template); // store it with the job
 * JobHandle.Status status = executor.getJobStatus(handle);
 * }</pre>
 *
 * <p>Thread safe; every Gravitino server node may hold one, and any node can tell the status of or
 * cancel a job another node submitted.
 */
public final class KubeJobsSparkExecutor {
  private final KubeJobs<SparkJobSpec> jobs;
  private final GravitinoMapping.Defaults defaults;
  private final Set<String> cancelled = ConcurrentHashMap.newKeySet();

  /**
   * Creates an executor over a kubejobs instance.
   *
   * @param jobs the instance, for one cluster and Spark operator
   * @param defaults what a template that does not say runs with
   */
  public KubeJobsSparkExecutor(KubeJobs<SparkJobSpec> jobs, GravitinoMapping.Defaults defaults) {
    this.jobs = jobs;
    this.defaults = defaults;
  }

  /**
   * Submits a Spark job template. Idempotent for the same job id.
   *
   * @param jobId Gravitino's id of the job
   * @param template the template, placeholders resolved; must be a {@link SparkJobTemplate}
   * @return the handle to store with the job: the kubejobs execution id
   * @throws IllegalArgumentException if the template is not a Spark template or is invalid
   * @throws dev.kubejobs.core.KubeJobsException if the cluster refuses or cannot be reached
   */
  public String submitJob(String jobId, JobTemplate template) {
    if (!(template instanceof SparkJobTemplate spark)) {
      throw new IllegalArgumentException(
          "this executor runs Spark job templates only, but got a " + template.jobType());
    }
    return jobs.submitter().submit(jobId, GravitinoMapping.toSpec(spark, defaults)).toString();
  }

  /**
   * Tells a job's status in Gravitino's terms. A job whose resource is gone is CANCELLED when this
   * executor cancelled it, else FAILED (deleted outside Gravitino); a Gravitino server with several
   * nodes should instead keep its last recorded status when it was CANCELLING.
   *
   * @param handle the handle {@link #submitJob} returned
   * @return the status
   * @throws dev.kubejobs.core.KubeJobsException if the cluster cannot be reached (the status is
   *     unknown, not failed)
   */
  public JobHandle.Status getJobStatus(String handle) {
    try {
      JobExecutionInfo info = jobs.statusReader().get(handle);
      return GravitinoMapping.toGravitino(info.status());
    } catch (NoSuchJobException e) {
      return cancelled.contains(handle) ? JobHandle.Status.CANCELLED : JobHandle.Status.FAILED;
    }
  }

  /**
   * Cancels a job; does not wait for it to stop. A finished job keeps its outcome.
   *
   * @param handle the handle {@link #submitJob} returned
   * @return what the cancel did
   * @throws dev.kubejobs.core.KubeJobsException if the cancel could not be made
   */
  public CancelResult cancelJob(String handle) {
    CancelResult result = jobs.canceller().cancel(ExecutionId.parse(handle));
    if (result != CancelResult.ALREADY_FINISHED) {
      cancelled.add(handle);
    }
    return result;
  }

  /**
   * Returns the last lines of a job's driver log; empty when there is none to read. Never throws
   * for the cluster's sake.
   *
   * @param handle the handle {@link #submitJob} returned
   * @param lines how many lines at most
   * @return the lines, oldest first
   */
  public List<String> getJobLog(String handle, int lines) {
    DriverLog log = jobs.driverLogs().tail(ExecutionId.parse(handle), lines, 1 << 20);
    return log.lines();
  }
}
