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
package dev.kubejobs.core.submit;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobRejectedException;

/**
 * Submits jobs: builds the job's resource and creates it on the cluster.
 *
 * <p>Submitting is idempotent per job id: the resource name is derived from the job id, so a second
 * submit of the same id (a retry after a lost answer, another scheduler node) adopts the resource
 * the first one created and returns the same {@link ExecutionId}. Implementations are thread safe.
 *
 * @param <S> the job spec type
 */
public interface JobSubmitter<S> {
  /**
   * Submits a job, or adopts the resource an earlier submit of the same job id created.
   *
   * @param jobId the caller's job id, non-blank, at most 1024 characters
   * @param spec the job spec
   * @return the id of the job's resource, to store and pass to status and cancel
   * @throws InvalidJobSpecException if the job id is blank, longer than 1024 characters or not
   *     valid Unicode text (an unpaired surrogate), or the spec is invalid; nothing was sent
   * @throws JobRejectedException if the cluster refuses the resource (invalid, forbidden, CRD not
   *     installed, namespace missing); {@link JobRejectedException#reason()} says which
   * @throws JobConflictException if the name is taken by another job or deployment, or by a
   *     resource being deleted
   * @throws ApiUnavailableException if the API server could not be reached or did not confirm the
   *     create. The resource may have landed: kubejobs deleted what it could confirm was this
   *     job's; the orphan sweeper reconciles anything left. Retrying the submit is safe.
   */
  ExecutionId submit(String jobId, S spec);
}
