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
package dev.kubejobs.core.spi;

import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.diagnosis.DiagnosisRule;
import java.time.Instant;
import java.util.List;

/**
 * Maps what the cluster holds for one job to the status a scheduler records.
 *
 * <p>A mapper is a pure function: it does no I/O, keeps no state and logs nothing, so the same
 * inputs always give the same result. What needs I/O it asks for in its {@link MappingDecision}:
 * {@link MappingDecision.NeedDriverPod} when it was given {@link DriverPod#notLookedUp()} and the
 * pod would change the answer, {@link MappingDecision.ReportAfter} when an outcome may be reported
 * only after the caller deleted something. Warnings it wants logged once travel with the decision.
 *
 * <p>kubejobs' status pipeline runs a mapper at most twice per copy of a resource for one status
 * read, whatever it decides: once with {@link DriverPod#notLookedUp()}, and once more with the
 * driver pod when the first decision asks for it.
 *
 * <p>Time: a mapper may let {@code now} change its answer only for a job it reports {@link
 * JobStatus#QUEUED} or {@link JobStatus#CANCELLING} (for example a timeout for a job no operator
 * picked up). kubejobs' status reader maps every other answer once per {@code resourceVersion} of
 * the resource and serves it again from its cache until the resource changes; a QUEUED or
 * CANCELLING answer it maps again for each later read of the same copy (still at most twice in that
 * read).
 *
 * <p>Implementations must be thread safe.
 */
@FunctionalInterface
public interface JobStatusMapper {
  /**
   * Decides a job's status from its resource and what is known of its driver pod.
   *
   * @param application the job's resource as last read
   * @param driverPod what is known of the driver pod
   * @param now the current time, for timeouts
   * @return the decision: a status to report, a request for the driver pod (only when given {@link
   *     DriverPod#notLookedUp()}), or a status to report after a follow-up
   */
  MappingDecision map(ResourceSnapshot application, DriverPod driverPod, Instant now);

  /**
   * Returns the kind's own rules for explaining a stuck or failed job (for example what an operator
   * writes in its status when a submission failed), run by kubejobs' status pipeline after the
   * rules every job shares (driver pod, events); see {@link dev.kubejobs.core.diagnosis.Diagnoser}.
   * Rules are pure, like the mapper.
   *
   * @return the rules, in the order to try them; none by default
   */
  default List<DiagnosisRule> diagnosisRules() {
    return List.of();
  }

  /**
   * Whether the operator's own status shows executors that wait to run (not yet running), read from
   * the copy alone with no request. The status pipeline uses it to decide whether a STARTED job is
   * worth diagnosing ("executors pending while the driver runs"); a kind whose operator does not
   * list executors keeps the default and such jobs are not diagnosed. Pure, like the mapper.
   *
   * @param application the copy of the job's resource
   * @return true when at least one executor waits; false by default
   */
  default boolean executorsWaiting(ResourceSnapshot application) {
    return false;
  }

  /**
   * Whether the operator's own status records executors that failed while the driver runs, read
   * from the copy alone with no request. The status pipeline then reads the executor pods (and the
   * namespace's events) to say which died and how ("executors that die while the driver runs"), at
   * once, with no threshold: a dead executor is a fact, not a wait. Also asked, with {@link
   * #executorsWaiting}, of a job that just failed: true has its executor pods read for the
   * diagnosis (an executor OOMKilled, executors that never started). A kind whose operator does not
   * record executors keeps the default. Pure, like the mapper.
   *
   * @param application the copy of the job's resource
   * @return true when at least one executor is recorded as failed; false by default
   */
  default boolean executorsFailed(ResourceSnapshot application) {
    return false;
  }
}
