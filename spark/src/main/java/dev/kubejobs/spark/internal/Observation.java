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
package dev.kubejobs.spark.internal;

import dev.kubejobs.core.JobStatus;
import java.time.Instant;

/**
 * What an operator-specific reader found in a SparkApplication, before the rules shared by both
 * operators (deletion, cancel mark, driver pod, no-status timeout) decide the status. Not a
 * published API.
 *
 * @param kind how far the status could be read
 * @param operatorState the operator's state string, or an empty string
 * @param unfinished the status while the job has no outcome: QUEUED or STARTED
 * @param outcome the final outcome recorded by the operator, or null
 * @param released whether the operator ended the application without an outcome (for example Apache
 *     {@code ResourceReleased} after a deletion)
 * @param releasedAt when it did, or null
 * @param startedAt when the job started according to the application's own record, or null
 * @param message what the state means, for the unfinished case
 * @param warning a stable warning to log once, or null
 * @param driverPodName the driver pod's name as far as the application tells, or null
 * @param webUi the web UI address, or null
 */
record Observation(
    Kind kind,
    String operatorState,
    JobStatus unfinished,
    Outcome outcome,
    boolean released,
    Instant releasedAt,
    Instant startedAt,
    String message,
    String warning,
    String driverPodName,
    String webUi) {

  /** How far the status could be read. */
  enum Kind {
    /** No status at all (or Kubeflow's empty state): the operator has not picked it up. */
    NO_STATUS,
    /** A status without a state this version can read: never ends or deletes the job. */
    UNPARSEABLE,
    /** A state this version knows. */
    KNOWN,
    /** A state string this version has never seen: unfinished, with a warning. */
    UNKNOWN_STATE
  }

  /**
   * An outcome the operator recorded.
   *
   * @param status SUCCEEDED or FAILED
   * @param at when it was recorded, or null when unknown
   * @param message what happened and what to look at
   */
  record Outcome(JobStatus status, Instant at, String message) {}
}
