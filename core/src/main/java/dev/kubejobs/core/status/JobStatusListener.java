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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;

/**
 * Told when the status kubejobs reports for a job changes, for schedulers that want pushes instead
 * of (or besides) polling. Registered with {@code KubeJobs.Builder#statusListener}.
 *
 * <p>Called on one kubejobs thread, never on the caller's or a watch's thread, one change at a time
 * and in the order the changes were reported: at least once per status change of each job this
 * instance reads (its first status included), never backwards (the statuses follow the same floor
 * as {@link JobStatusReader}: QUEUED, STARTED, CANCELLING, then one terminal status). A slow
 * listener delays the next calls, not reads. An exception it throws is logged and the next change
 * is delivered.
 *
 * <p>With polling ({@link StatusSource#polling()}) changes are seen when a read sees them; with
 * {@link StatusSource#watch()} a change of a job read before is seen when its watch event arrives,
 * without a read.
 */
@FunctionalInterface
public interface JobStatusListener {
  /**
   * Called when a job's reported status changed.
   *
   * @param id the job
   * @param info what is reported for it now
   */
  void onChange(ExecutionId id, JobExecutionInfo info);
}
