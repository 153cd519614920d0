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

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ClusterMismatchException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.NoSuchJobException;
import java.util.Collection;
import java.util.Map;

/**
 * Tells the status of jobs.
 *
 * <p>Reads are served from one labelled LIST ({@code app.kubernetes.io/managed-by=kubejobs}, so
 * jobs of every deployment can be read by id) per namespace, cached for the status cache period and
 * shared by concurrent callers: polling many jobs costs one LIST per namespace, not one GET per
 * job. A job missing from the list is confirmed with a GET. A cached copy that would end the job
 * (terminal status, or an action that must be carried out first) is re-read fresh before it is
 * reported. Where the mapping asks for it, the driver pod is looked up, and deletes the mapping
 * requires (a resource without status past its timeout, a live driver of a failed job) are carried
 * out and confirmed before the outcome is reported. Implementations are thread safe.
 */
public interface JobStatusReader {
  /**
   * Returns the status of one job.
   *
   * @param id the job's execution id
   * @return the job's execution info
   * @throws IllegalArgumentException if {@code id} is null or of another resource kind
   * @throws ClusterMismatchException if {@code id} is of another cluster (never fail the job for
   *     it)
   * @throws NoSuchJobException if a fresh GET confirms the job's resource is gone
   * @throws ApiUnavailableException if the API server cannot be reached (retry later; the job's
   *     state is unknown, not failed). A delete the status required may have been applied.
   * @throws JobRejectedException if the service account may not read the resource, or the CRD is
   *     not installed
   */
  JobExecutionInfo get(ExecutionId id);

  /**
   * Returns the status of one job given its id as text.
   *
   * @param id the execution id as written by {@link ExecutionId#toString()}
   * @return the job's execution info
   * @throws IllegalArgumentException if {@code id} is null, blank or malformed (the message says
   *     which part)
   * @throws ClusterMismatchException if {@code id} is of another cluster
   * @throws NoSuchJobException if a fresh GET confirms the job's resource is gone
   * @throws ApiUnavailableException if the API server cannot be reached
   * @throws JobRejectedException if forbidden or the CRD is not installed
   */
  default JobExecutionInfo get(String id) {
    return get(ExecutionId.parse(id));
  }

  /**
   * Returns the status of many jobs with one LIST per namespace (plus a GET for each job missing
   * from its list or whose cached copy would end it).
   *
   * @param ids the jobs' execution ids
   * @return the execution info of each id, in the order of {@code ids}; an id is absent when a
   *     fresh GET confirmed its resource is gone (what {@link #get(ExecutionId)} reports as {@link
   *     NoSuchJobException})
   * @throws IllegalArgumentException if an id is null or of another resource kind; nothing was sent
   * @throws ClusterMismatchException if an id is of another cluster; nothing was sent
   * @throws ApiUnavailableException if the API server cannot be reached, or a step of one job
   *     failed after its retries (the GET of a job missing from its list or whose cached copy would
   *     end it, its driver-pod lookup, or a delete its status requires). <b>One job's failure fails
   *     the whole call</b>: the map has no room for a per-job error, an absent id means "confirmed
   *     gone", and an invented unfinished status could not be told apart from a real reading. The
   *     exception's {@link ApiUnavailableException#executionId()} names that job; to isolate it,
   *     call {@link #get(ExecutionId)} per job, which is served from the same cached LIST (no extra
   *     request for the others within the cache period). Permanent refusals of a job's own steps do
   *     not fail the call: a forbidden driver-pod lookup or driver-pod delete reports the outcome
   *     with a warning, a forbidden resource delete keeps the job unfinished with a message naming
   *     the permission.
   * @throws JobRejectedException if forbidden or the CRD is not installed
   */
  Map<ExecutionId, JobExecutionInfo> getAll(Collection<ExecutionId> ids);
}
