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
import java.util.Objects;

/**
 * An action a {@link JobStatusMapper} asks the caller to carry out before an outcome may be
 * reported: the outcome holds only once the action is confirmed done.
 *
 * <p>Until then the job keeps the status of the {@link MappingDecision.ReportAfter} that carries
 * this follow-up. Instances are immutable and thread safe.
 *
 * @param action what to do
 * @param outcome the status to report once the action is confirmed
 * @param message the message to report with the outcome
 */
public record FollowUp(Action action, JobStatus outcome, String message) {
  /** What the caller must do. */
  public enum Action {
    /**
     * Delete the job's resource (with a uid precondition), so the operator cannot start it later;
     * the outcome holds once the resource is confirmed gone or being deleted.
     */
    DELETE_APPLICATION,
    /** Delete the driver pod that still runs; the outcome holds once the pod is being deleted. */
    DELETE_DRIVER_POD
  }

  /**
   * Creates a follow-up.
   *
   * @throws NullPointerException if a part is null
   * @throws IllegalArgumentException if {@code outcome} is not terminal
   */
  public FollowUp {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(message, "message");
    if (!outcome.isTerminal()) {
      throw new IllegalArgumentException("outcome must be terminal, but was " + outcome);
    }
  }
}
