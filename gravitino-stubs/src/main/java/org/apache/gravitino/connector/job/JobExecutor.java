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
package org.apache.gravitino.connector.job;

import java.io.Closeable;
import java.util.List;
import java.util.Map;
import org.apache.gravitino.exceptions.NoSuchJobException;
import org.apache.gravitino.job.JobHandle;
import org.apache.gravitino.job.JobTemplate;

/**
 * Stand-in for Gravitino's {@code org.apache.gravitino.connector.job.JobExecutor}: the interface a
 * Gravitino server loads (by {@code gravitino.jobExecutor.<name>.class}) to submit, track and
 * cancel the jobs of its job system on an external runner. Same methods, parameters, return types,
 * exceptions and defaults as the original; see the {@linkplain org.apache.gravitino.connector.job
 * package} for the commits it mirrors.
 *
 * <p>Gravitino calls {@link #initialize} once with every {@code gravitino.jobExecutor.<name>.*}
 * setting (prefix stripped, the {@code class} key included), submits through {@link
 * #submitJob(JobContext, JobTemplate)}, and on every server node pulls the status of each active
 * job it {@link #ownsJob owns} every {@code gravitino.job.statusPullIntervalInMs}. A {@link
 * NoSuchJobException} from the pull ends the job: CANCELLED when Gravitino had recorded it
 * CANCELLING, else FAILED.
 */
public interface JobExecutor extends Closeable {

  /**
   * Initializes the executor with its settings.
   *
   * @param configs the {@code gravitino.jobExecutor.<name>.*} settings, prefix stripped
   */
  void initialize(Map<String, String> configs);

  /**
   * Submits a job to the external runner. The default delegates to the deprecated {@link
   * #submitJob(JobTemplate)} (Gravitino's default first localizes the template's files into the
   * staging directory).
   *
   * @param context the job run: Gravitino's job id, metalake and staging directory
   * @param jobTemplate the template, placeholders already replaced
   * @return the job execution id, unique in the runner, used for every later call
   */
  default String submitJob(JobContext context, JobTemplate jobTemplate) {
    return submitJob(jobTemplate);
  }

  /**
   * Submits a job to the external runner without its context.
   *
   * @param jobTemplate the template, placeholders already replaced
   * @return the job execution id
   * @deprecated Gravitino calls {@link #submitJob(JobContext, JobTemplate)}; implement that one.
   */
  @Deprecated
  default String submitJob(JobTemplate jobTemplate) {
    throw new UnsupportedOperationException(
        getClass().getName() + " implements submitJob(JobContext, JobTemplate) only");
  }

  /**
   * Returns a job's status with the times it actually started and finished.
   *
   * @param jobId the job execution id
   * @return the snapshot
   * @throws NoSuchJobException if the job does not exist
   */
  JobExecutionInfo getJobExecutionInfo(String jobId) throws NoSuchJobException;

  /**
   * Returns a job's status; the default is the status of {@link #getJobExecutionInfo(String)}.
   *
   * @param jobId the job execution id
   * @return the status
   * @throws NoSuchJobException if the job does not exist
   */
  default JobHandle.Status getJobStatus(String jobId) throws NoSuchJobException {
    return getJobExecutionInfo(jobId).status();
  }

  /**
   * Cancels a job without waiting for it to stop; returns directly for a job already completed.
   *
   * @param jobId the job execution id
   * @throws NoSuchJobException if the job does not exist
   */
  void cancelJob(String jobId) throws NoSuchJobException;

  /**
   * Tells whether this executor instance can query and cancel the job; the default is true (an
   * external runner every Gravitino server reaches).
   *
   * @param jobId the job execution id
   * @return whether this instance owns the job
   */
  default boolean ownsJob(String jobId) {
    return true;
  }

  /**
   * Tells whether a job's state lives only in the instance that owns it (processes on one node);
   * the default is false.
   *
   * @return whether job state is node local
   */
  default boolean isJobStateNodeLocal() {
    return false;
  }

  /**
   * Returns the last lines of a job's standard output; never throws for a job the executor does not
   * know. The default returns an empty list.
   *
   * @param jobId the job execution id
   * @param maxLines the most (newest) lines to return ({@code gravitino.job.outputMaxLines})
   * @param maxBytes the most (newest) bytes to read ({@code gravitino.job.outputMaxBytes})
   * @return the lines, or an empty list when not available
   */
  default List<String> getJobStdout(String jobId, int maxLines, int maxBytes) {
    return List.of();
  }

  /**
   * Returns the last lines of a job's standard error; never throws for a job the executor does not
   * know. The default returns an empty list.
   *
   * @param jobId the job execution id
   * @param maxLines the most (newest) lines to return
   * @param maxBytes the most (newest) bytes to read
   * @return the lines, or an empty list when not available
   */
  default List<String> getJobStderr(String jobId, int maxLines, int maxBytes) {
    return List.of();
  }
}
