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

/**
 * The six states a scheduler records for a job, as reported by kubejobs.
 *
 * <p>{@link #SUCCEEDED}, {@link #FAILED} and {@link #CANCELLED} are terminal: once a job reports
 * one of them it never reports another state.
 */
public enum JobStatus {
  /** Accepted by the cluster but not started yet (or waiting for a restart that has not begun). */
  QUEUED,
  /** The driver has started; the job is running or retrying. */
  STARTED,
  /** The job finished with success. */
  SUCCEEDED,
  /** The job finished with a failure, or was removed by someone other than kubejobs. */
  FAILED,
  /** A cancel was requested and the job has not stopped yet. */
  CANCELLING,
  /** The job was stopped by a cancel before it recorded an outcome. */
  CANCELLED;

  /**
   * Returns whether this state is final.
   *
   * @return true for {@link #SUCCEEDED}, {@link #FAILED} and {@link #CANCELLED}
   */
  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED;
  }
}
