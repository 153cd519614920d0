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

import java.util.Objects;

/**
 * The resource name kubejobs derives for a job is taken by another job or another deployment, or by
 * a resource that is being deleted, or a cancel addressed a resource kubejobs does not manage.
 * {@link #reason()} tells which, and so what to do: wait and retry for {@link
 * Reason#BEING_DELETED}; otherwise change the deployment name (and name prefix) or the job id.
 */
public class JobConflictException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  /** Why the name cannot be used. */
  public enum Reason {
    /** This very job's resource is being deleted: submit again once it is gone. */
    BEING_DELETED,
    /** Another job id of this deployment has the name (a name clash): use another job id. */
    OTHER_JOB,
    /**
     * A resource of another kubejobs deployment has the name: give each deployment its own
     * deployment name and name prefix.
     */
    OTHER_DEPLOYMENT,
    /**
     * The resource is not managed by kubejobs (no {@code app.kubernetes.io/managed-by=kubejobs}):
     * kubejobs never changes or deletes it.
     */
    NOT_MANAGED
  }

  private final Reason reason;

  /**
   * Creates the exception.
   *
   * @param executionId the job concerned, or null
   * @param reason why the name cannot be used
   * @param message the message, which says what to do
   * @param cause the cause, or null
   */
  public JobConflictException(
      ExecutionId executionId, Reason reason, String message, Throwable cause) {
    super(executionId, message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /**
   * Returns why the name cannot be used, which says what to do.
   *
   * @return the reason
   */
  public Reason reason() {
    return reason;
  }
}
