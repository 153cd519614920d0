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

import dev.kubejobs.core.resilience.ApiCallFailure;

/**
 * The API server could not be reached, did not answer, or the circuit breaker is open after it
 * could not be reached. Retry later; the job's state on the cluster is unknown, not failed.
 *
 * <p>{@link #mayHaveBeenApplied()} tells whether a change kubejobs sent may have landed although
 * its answer was lost (a submit that may have created the resource, a cancel that may have deleted
 * it): retrying the same operation is safe either way, but do not conclude that nothing changed.
 */
public class ApiUnavailableException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  private final boolean mayHaveBeenApplied;

  /**
   * Creates the exception; whether a change may have been applied is taken from {@code cause} (an
   * {@link ApiCallFailure} or {@code ApiUnavailableException} saying so), false without one.
   *
   * @param executionId the job concerned, or null
   * @param message the message, which says what to do
   * @param cause the cause, or null
   */
  public ApiUnavailableException(ExecutionId executionId, String message, Throwable cause) {
    this(executionId, message, appliedPerCause(cause), cause);
  }

  /**
   * Creates the exception.
   *
   * @param executionId the job concerned, or null
   * @param message the message, which says what to do
   * @param mayHaveBeenApplied whether a change sent may have been applied by the server
   * @param cause the cause, or null
   */
  public ApiUnavailableException(
      ExecutionId executionId, String message, boolean mayHaveBeenApplied, Throwable cause) {
    super(executionId, message, cause);
    this.mayHaveBeenApplied = mayHaveBeenApplied;
  }

  /**
   * Returns whether a change kubejobs sent (create, patch, delete) may have been applied although
   * no answer confirmed it. False means nothing this operation sent changed the cluster: no change
   * was sent, or each was answered.
   *
   * @return true when the cluster may have changed
   */
  public boolean mayHaveBeenApplied() {
    return mayHaveBeenApplied;
  }

  private static boolean appliedPerCause(Throwable cause) {
    if (cause instanceof ApiCallFailure f) {
      return f.mayHaveApplied();
    }
    if (cause instanceof ApiUnavailableException u) {
      return u.mayHaveBeenApplied();
    }
    return false;
  }
}
