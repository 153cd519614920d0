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
 * The job's resource was read but its status could not be told: the job kind's status mapper failed
 * on it (a bug of the job kind, or data from the server it cannot handle). The job's state is
 * unknown, not failed: keep the job as it was, report the message to the job kind's maintainers and
 * read again later.
 */
public class JobStatusUnknownException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param executionId the job concerned
   * @param message the message, which says what to do
   * @param cause the mapper's failure
   */
  public JobStatusUnknownException(ExecutionId executionId, String message, Throwable cause) {
    super(executionId, message, cause);
  }
}
