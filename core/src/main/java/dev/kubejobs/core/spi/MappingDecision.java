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

import dev.kubejobs.core.JobExecutionInfo;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link JobStatusMapper} decided for one copy of a job's resource: report a status; or look
 * up the driver pod and ask again; or report a status only after a follow-up action is confirmed
 * done. Each case carries the warnings the mapper wants logged once each (for example an operator
 * state this version does not know; the text names no job, so callers de-duplicate on it).
 *
 * <p>The decision is what the mapper tells kubejobs; {@link JobExecutionInfo} is what kubejobs
 * tells its caller, and carries none of it. Instances are immutable and thread safe.
 */
public sealed interface MappingDecision
    permits MappingDecision.Report, MappingDecision.NeedDriverPod, MappingDecision.ReportAfter {

  /**
   * Returns the status this decision shows now: the one to report ({@link Report}), or the status
   * the job keeps until the driver pod is known ({@link NeedDriverPod}) or the follow-up is done
   * ({@link ReportAfter}).
   *
   * @return the info
   */
  JobExecutionInfo info();

  /**
   * Returns the warnings to log once each.
   *
   * @return an unmodifiable list, usually empty
   */
  List<String> warnings();

  /**
   * Returns whether the mapper asks for the driver pod.
   *
   * @return true for {@link NeedDriverPod}
   */
  default boolean needsDriverPod() {
    return this instanceof NeedDriverPod;
  }

  /**
   * Returns the follow-up to carry out before the outcome is reported.
   *
   * @return the follow-up of a {@link ReportAfter}, else empty
   */
  default Optional<FollowUp> pendingFollowUp() {
    return this instanceof ReportAfter after ? Optional.of(after.followUp()) : Optional.empty();
  }

  /**
   * Reports {@code info} as it is.
   *
   * @param info the status to report
   * @return the decision
   */
  static Report report(JobExecutionInfo info) {
    return new Report(info, List.of());
  }

  /**
   * The mapper decided: report this status.
   *
   * @param info the status to report
   * @param warnings warnings to log once each
   */
  record Report(JobExecutionInfo info, List<String> warnings) implements MappingDecision {
    /**
     * Creates the decision.
     *
     * @throws NullPointerException if a part is null
     */
    public Report {
      Objects.requireNonNull(info, "info");
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * The mapper was given {@link DriverPod#notLookedUp()} and the driver pod would change its
   * answer: look the pod up and map again with it. A mapper given any other {@link DriverPod} never
   * asks for it again.
   *
   * @param info what the job shows without the pod (never reported as final: the caller maps again)
   * @param warnings warnings to log once each
   */
  record NeedDriverPod(JobExecutionInfo info, List<String> warnings) implements MappingDecision {
    /**
     * Creates the decision.
     *
     * @throws NullPointerException if a part is null
     */
    public NeedDriverPod {
      Objects.requireNonNull(info, "info");
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * The mapper decided an outcome that may be reported only once {@code followUp} is confirmed done
   * (for example the application deleted, so the operator cannot start it later).
   *
   * @param followUp what to do, and the outcome to report then
   * @param info the status the job keeps until then
   * @param warnings warnings to log once each
   */
  record ReportAfter(FollowUp followUp, JobExecutionInfo info, List<String> warnings)
      implements MappingDecision {
    /**
     * Creates the decision.
     *
     * @throws NullPointerException if a part is null
     */
    public ReportAfter {
      Objects.requireNonNull(followUp, "followUp");
      Objects.requireNonNull(info, "info");
      warnings = List.copyOf(warnings);
    }
  }
}
