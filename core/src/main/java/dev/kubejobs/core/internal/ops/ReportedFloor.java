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
package dev.kubejobs.core.internal.ops;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;

/**
 * The status reader's bookkeeping of what it reported: a decided status is held against the {@link
 * ReportedStatuses} before it is reported, so a status never goes backwards, a terminal one never
 * changes, and a resource reported gone does not come back. Shared by the namespace reads ({@link
 * NamespaceRead}) and the cancel's decisions ({@link CancelDecider}). Thread safe.
 */
final class ReportedFloor {
  private final ReportedStatuses reported;

  ReportedFloor(ReportedStatuses reported) {
    this.reported = reported;
  }

  /**
   * Holds a decided status against what this reader reported before.
   *
   * @param before what the reader remembered of the job as the read began, or null to look now
   */
  JobExecutionInfo floor(
      ExecutionId id, JobExecutionInfo info, String uid, ReportedStatuses.Seen before) {
    if (before != null && before.holds(info.status(), uid)) {
      return info;
    }
    if (reported.raise(id, info, uid) instanceof ReportedStatuses.Raised.Report report) {
      return report.info();
    }
    // Raised.GoneBefore: this reader reported this very resource gone, so the copy is older.
    throw StatusPipeline.goneBefore(id);
  }
}
