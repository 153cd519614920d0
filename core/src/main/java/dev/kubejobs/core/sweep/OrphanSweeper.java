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
package dev.kubejobs.core.sweep;

import dev.kubejobs.core.ApiUnavailableException;

/**
 * Deletes orphaned job resources: resources labelled {@code app.kubernetes.io/managed-by=kubejobs}
 * and {@code kubejobs.dev/deployment=<this deployment>} whose raw job id (annotation {@code
 * kubejobs.dev/job-id}) the caller does not know and that are older than a grace period.
 *
 * <p>Orphans appear when a submit's answer was lost and the library could not clean up because the
 * API server was unreachable, or when the caller lost its record of a job. Run a sweep now and then
 * (say every 10 minutes) from one scheduler node, or from all of them: two concurrent sweeps are
 * safe, each delete carries a {@code uid} precondition, so a resource that was replaced by a new
 * one of the same name since it was listed is never deleted.
 *
 * <p>Resources of other deployments (another {@code kubejobs.dev/deployment} label) and resources
 * younger than the grace period ({@code metadata.creationTimestamp} against the instance's clock)
 * are never touched. Make the grace period longer than the time between a submit and the moment the
 * caller records the job id, so a job being submitted is not taken for an orphan.
 *
 * <p>With {@link SweepRequest.Builder#endedJobsKeptFor(java.time.Duration)} a sweep also deletes
 * this deployment's resources of jobs that ended (by the job kind's status mapper) longer ago than
 * that retention, known jobs included; a queued, running or cancelling job never. Each {@link
 * SweepEntry#cause()} tells orphans from these.
 *
 * <p>Implementations are thread safe.
 */
public interface OrphanSweeper {
  /**
   * Lists this deployment's job resources in the request's namespaces and deletes (or, for a dry
   * run, only reports) the orphans among them.
   *
   * <p>The failure of one resource (a 409 because it was replaced, a 404 because it is gone
   * already, a 403, a 5xx) or one namespace (a forbidden LIST) is reported in the {@link
   * SweepReport}, never thrown.
   *
   * @param request the namespaces, the known jobs, the grace period and whether to delete
   * @return what was deleted, what would be, what failed and why
   * @throws IllegalArgumentException if {@code request} is null
   * @throws SweepUnavailableException (an {@link ApiUnavailableException}) if the API server cannot
   *     be reached (no answer, 429, or the circuit breaker is open); it carries the report of what
   *     was done before. A delete in flight at that moment may have been applied; the next sweep
   *     settles it. A 5xx answer to one delete or one namespace's LIST is reported as that
   *     resource's or namespace's failure instead.
   */
  SweepReport sweep(SweepRequest request);
}
