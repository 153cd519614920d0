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
import dev.kubejobs.core.JobStatusUnknownException;
import dev.kubejobs.core.NoSuchJobException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Tells the status of jobs.
 *
 * <p>Reads are served from one labelled LIST ({@code app.kubernetes.io/managed-by=kubejobs}, so
 * jobs of every deployment can be read by id) per namespace, cached for the status cache period and
 * shared by concurrent callers: polling many jobs costs one LIST per namespace, not one GET per
 * job. A job missing from the list is confirmed with a GET. A copy that would end the job (terminal
 * status, or an action that must be carried out first) is reported only from a list sent after the
 * question was asked: otherwise its namespace is listed again first (one LIST, not a GET per job).
 * With {@link StatusSource#watch()} the copies come from a watch instead, fresh while it is in
 * sync. Where the mapping asks for it, the driver pod is looked up (one pod LIST for a namespace's
 * jobs where the job kind allows), and deletes the mapping requires (a resource without status past
 * its timeout, a live driver of a failed job) are carried out and confirmed before the outcome is
 * reported. Implementations are thread safe.
 *
 * <p>The statuses one reader reports for a job never go backwards (QUEUED, then STARTED, then
 * CANCELLING, then a terminal status), and a terminal status, once reported, never changes — even
 * if the job's resource is deleted later. The reader keeps the highest status it reported per job
 * for its most recently read jobs (see {@code core/README.md}, "Decisions under races").
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
   * @throws JobStatusUnknownException if the job kind's mapper cannot tell the status of the
   *     resource read (the job's state is unknown, not failed)
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
   * @throws JobStatusUnknownException if the job kind's mapper cannot tell the status
   */
  default JobExecutionInfo get(String id) {
    return get(ExecutionId.parse(id));
  }

  /**
   * Returns the status of many jobs with one LIST per namespace (plus a GET for each job missing
   * from its list or whose cached copy would end it), each job's result on its own: one job's
   * failing step (its GET, driver-pod lookup, or a delete its status requires) is that job's {@link
   * JobStatusResult#error()} and never hides the others.
   *
   * @param ids the jobs' execution ids
   * @return a result for each distinct id, in the order of {@code ids}: the info, or the typed
   *     error {@link #get(ExecutionId)} would have thrown for that job ({@link NoSuchJobException}
   *     when a fresh GET confirmed its resource is gone, see {@link JobStatusResult#isGone()})
   * @throws IllegalArgumentException if an id is null or of another resource kind; nothing was sent
   * @throws ClusterMismatchException if an id is of another cluster; nothing was sent
   */
  Map<ExecutionId, JobStatusResult> getAll(Collection<ExecutionId> ids);

  /**
   * Returns the info of the jobs that could be read, for callers that only poll: like {@link
   * #getAll(Collection)}, but a job whose read failed (gone, unreachable, refused) is absent from
   * the map; call {@link #getAll(Collection)} to learn why.
   *
   * @param ids the jobs' execution ids
   * @return the info of each job read, in the order of {@code ids}
   * @throws IllegalArgumentException if an id is null or of another resource kind; nothing was sent
   * @throws ClusterMismatchException if an id is of another cluster; nothing was sent
   */
  default Map<ExecutionId, JobExecutionInfo> getAllInfos(Collection<ExecutionId> ids) {
    Map<ExecutionId, JobExecutionInfo> out = new LinkedHashMap<>();
    getAll(ids).forEach((id, result) -> result.info().ifPresent(info -> out.put(id, info)));
    return out;
  }
}
