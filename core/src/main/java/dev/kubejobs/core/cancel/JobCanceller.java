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
package dev.kubejobs.core.cancel;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ClusterMismatchException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.NoSuchJobException;

/**
 * Cancels jobs: marks the job's resource as cancelled by kubejobs, then deletes it.
 *
 * <p>Cancelling is idempotent and never waits for the job to end. A job that has already finished
 * keeps its outcome: the mark is put with a resourceVersion-locked patch, so a job that succeeds
 * between the read and the mark is left alone and stays SUCCEEDED. Implementations are thread safe.
 */
public interface JobCanceller {
  /**
   * Cancels a job.
   *
   * @param id the job's execution id
   * @return what the cancel found and did
   * @throws IllegalArgumentException if {@code id} is null or of another resource kind
   * @throws ClusterMismatchException if {@code id} is of another cluster; nothing was touched
   * @throws NoSuchJobException if a fresh GET confirms the job's resource is gone
   * @throws ApiUnavailableException if the API server cannot be reached. The cancel mark may have
   *     been put and the delete may have been applied; cancelling again is safe.
   * @throws JobRejectedException if the service account may not patch or delete the resource; the
   *     mark was removed again (unless the resource is being deleted)
   * @throws JobConflictException with reason {@link JobConflictException.Reason#NOT_MANAGED} if the
   *     resource is not managed by kubejobs (it lacks the label {@code
   *     app.kubernetes.io/managed-by=kubejobs}); nothing was changed
   */
  CancelResult cancel(ExecutionId id);

  /**
   * Cancels a job given its id as text.
   *
   * @param id the execution id as written by {@link ExecutionId#toString()}
   * @return what the cancel found and did
   * @throws IllegalArgumentException if {@code id} is null, blank or malformed
   * @throws ClusterMismatchException if {@code id} is of another cluster
   * @throws NoSuchJobException if a fresh GET confirms the job's resource is gone
   * @throws ApiUnavailableException if the API server cannot be reached
   * @throws JobRejectedException if forbidden
   * @throws JobConflictException if the resource is not managed by kubejobs; nothing was changed
   */
  default CancelResult cancel(String id) {
    return cancel(ExecutionId.parse(id));
  }
}
