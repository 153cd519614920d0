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

import java.util.Optional;

/**
 * The base of the typed errors kubejobs throws from its operations. Each subclass tells the caller
 * what to do; {@link #executionId()} names the job when there is one.
 *
 * <p>Instances are not meant to be shared between threads while being modified, like any exception.
 */
public abstract class KubeJobsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ExecutionId executionId;

  /**
   * Creates an exception.
   *
   * @param executionId the job concerned, or null
   * @param message the message
   * @param cause the cause, or null
   */
  protected KubeJobsException(ExecutionId executionId, String message, Throwable cause) {
    super(message, cause);
    this.executionId = executionId;
  }

  /**
   * Returns the job this error concerns.
   *
   * @return the id, or empty when the error is not about one job
   */
  public Optional<ExecutionId> executionId() {
    return Optional.ofNullable(executionId);
  }
}
