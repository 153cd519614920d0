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
package dev.kubejobs.core;

import java.time.Instant;
import java.util.function.Function;

/**
 * Maps what the cluster holds for one job to the status a scheduler records.
 *
 * <p>A mapper is a pure function: it does no I/O, keeps no state and logs nothing, so the same
 * inputs always give the same result. What needs I/O it asks for in the result: {@link
 * JobExecutionInfo#driverPodWanted()} when it was given {@link DriverPod#notLookedUp()} and the pod
 * would change the answer, and {@link JobExecutionInfo#followUp()} when an outcome may be reported
 * only after the caller deleted something. Warnings it wants logged once are in {@link
 * JobExecutionInfo#warnings()}.
 *
 * <p>Time: a mapper may let {@code now} change its answer only for a job it reports {@link
 * JobStatus#QUEUED} or {@link JobStatus#CANCELLING} (for example a timeout for a job no operator
 * picked up). kubejobs' status reader maps every other answer once per {@code resourceVersion} of
 * the resource and serves it again from its cache until the resource changes.
 *
 * <p>Implementations must be thread safe.
 */
@FunctionalInterface
public interface JobStatusMapper {
  /**
   * Maps a job's resource and driver pod to its execution info.
   *
   * @param application the job's resource as last read
   * @param driverPod what is known of the driver pod
   * @param now the current time, for timeouts
   * @return the execution info
   */
  JobExecutionInfo map(ResourceSnapshot application, DriverPod driverPod, Instant now);

  /**
   * Maps a job the way kubejobs' status reader and canceller do: first without the driver pod,
   * then, when that answer asks for the pod ({@link JobExecutionInfo#driverPodWanted()}), once more
   * with what {@code driverPods} finds. Calling {@link #map} alone with {@link
   * DriverPod#notLookedUp()} leaves such jobs QUEUED or STARTED — a failure, for example, is
   * reported only once its driver pod is known to have stopped.
   *
   * <p>The result may still carry a {@link JobExecutionInfo#followUp() follow-up}: its outcome is
   * final only after the caller carried it out (the status reader does; a test can assert it). Pure
   * as long as {@code driverPods} is; it is called at most once.
   *
   * <pre>{@code
   * JobExecutionInfo info =
   *     kind.statusMapper().resolve(app, a -> DriverPod.found(driverPod), clock.instant());
   * }</pre>
   *
   * @param application the job's resource as last read
   * @param driverPods looks up the driver pod of the application, for example {@code a ->
   *     DriverPod.absent()} in a test
   * @param now the current time, for timeouts
   * @return the execution info, with a follow-up still to carry out when one is needed
   */
  default JobExecutionInfo resolve(
      ResourceSnapshot application, Function<ResourceSnapshot, DriverPod> driverPods, Instant now) {
    JobExecutionInfo first = map(application, DriverPod.notLookedUp(), now);
    if (!first.driverPodWanted()) {
      return first;
    }
    return map(application, driverPods.apply(application), now);
  }
}
