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
 * The cluster refuses the job's resource as it is (400, 403, 404, 422): retrying the same request
 * cannot succeed. {@link #reason()} tells which fix applies.
 */
public class JobRejectedException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  /** Why the cluster refused the resource. */
  public enum Reason {
    /** The resource kind is not served: install the operator's CRD (or the right version). */
    CRD_NOT_INSTALLED,
    /** The namespace does not exist: create it or submit to another namespace. */
    NAMESPACE_MISSING,
    /** The service account may not do this: grant the permission named in the message. */
    FORBIDDEN,
    /** The resource is invalid (400 or 422): fix the job spec as the message says. */
    INVALID
  }

  private final Reason reason;
  private final int code;

  /**
   * Creates the exception.
   *
   * @param executionId the job concerned, or null
   * @param reason why the cluster refused
   * @param code the HTTP status code
   * @param message the message, including the server's own message
   * @param cause the cause, or null
   */
  public JobRejectedException(
      ExecutionId executionId, Reason reason, int code, String message, Throwable cause) {
    super(executionId, message, cause);
    this.reason = reason;
    this.code = code;
  }

  /**
   * Returns why the cluster refused the resource.
   *
   * @return the reason
   */
  public Reason reason() {
    return reason;
  }

  /**
   * Returns the HTTP status code of the refusal.
   *
   * @return the code, for example 422
   */
  public int code() {
    return code;
  }
}
