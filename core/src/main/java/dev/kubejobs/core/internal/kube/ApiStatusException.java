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
package dev.kubejobs.core.internal.kube;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.KubeJobsException;

/**
 * A 4xx answer with a Kubernetes {@code Status} body that the operation itself must interpret (404
 * of a named object, 409 conflict or precondition failure). The operations of kubejobs catch it; it
 * is not part of the published API.
 */
public final class ApiStatusException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String reason;
  private final String serverMessage;
  private final String detailsName;
  private final String detailsKind;

  ApiStatusException(
      ExecutionId about,
      String operation,
      int code,
      String reason,
      String serverMessage,
      String detailsName,
      String detailsKind) {
    super(
        about,
        "'"
            + operation
            + "' answered "
            + code
            + (reason.isEmpty() ? "" : " " + reason)
            + ": "
            + serverMessage,
        null);
    this.code = code;
    this.reason = reason;
    this.serverMessage = serverMessage;
    this.detailsName = detailsName;
    this.detailsKind = detailsKind;
  }

  /**
   * Returns the HTTP status code.
   *
   * @return the code
   */
  public int code() {
    return code;
  }

  /**
   * Returns the Status reason, for example {@code AlreadyExists} or {@code Conflict}.
   *
   * @return the reason, possibly empty
   */
  public String reason() {
    return reason;
  }

  /**
   * Returns the server's message.
   *
   * @return the message, possibly empty
   */
  public String serverMessage() {
    return serverMessage;
  }

  /**
   * Returns {@code details.name} of the Status: the object the answer is about.
   *
   * @return the name, empty when the answer names no object
   */
  public String detailsName() {
    return detailsName;
  }

  /**
   * Returns {@code details.kind} of the Status, for example {@code namespaces}.
   *
   * @return the kind, possibly empty
   */
  public String detailsKind() {
    return detailsKind;
  }

  /**
   * Returns whether this is a 404.
   *
   * @return true for 404
   */
  public boolean isNotFound() {
    return code == 404;
  }

  /**
   * Returns whether this is a 409 (already exists, stale resourceVersion, failed precondition).
   *
   * @return true for 409
   */
  public boolean isConflict() {
    return code == 409;
  }
}
