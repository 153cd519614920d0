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
import java.util.Optional;

/**
 * A 4xx answer with a Kubernetes {@code Status} body that the operation itself must interpret (404
 * of a named object, 409 conflict or precondition failure). The operations of kubejobs catch it; it
 * is not part of the published API.
 *
 * <p>It is also the cause of every {@link dev.kubejobs.core.JobRejectedException} the gateway
 * throws for an answer with a status: {@link #in(Throwable)} finds it, and its accessors give the
 * HTTP code, the {@code Status} reason and, for 401/403, the {@link Permission} the request needed,
 * so that no caller reads message text.
 */
public final class ApiStatusException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String reason;
  private final String serverMessage;
  private final String detailsName;
  private final String detailsKind;
  private final transient Permission permission;
  private final boolean plainTextPage;

  ApiStatusException(
      ExecutionId about,
      String operation,
      int code,
      String reason,
      String serverMessage,
      String detailsName,
      String detailsKind) {
    this(about, operation, code, reason, serverMessage, detailsName, detailsKind, null, false);
  }

  private ApiStatusException(
      ExecutionId about,
      String operation,
      int code,
      String reason,
      String serverMessage,
      String detailsName,
      String detailsKind,
      Permission permission,
      boolean plainTextPage) {
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
    this.permission = permission;
    this.plainTextPage = plainTextPage;
  }

  /**
   * An answer with a {@code Status} body; for 401/403 it carries the permission the request needed.
   */
  static ApiStatusException of(
      ExecutionId about,
      String operation,
      int code,
      String reason,
      String serverMessage,
      String detailsName,
      String detailsKind,
      Permission needed) {
    return new ApiStatusException(
        about,
        operation,
        code,
        reason,
        serverMessage,
        detailsName,
        detailsKind,
        code == 401 || code == 403 ? needed : null,
        false);
  }

  /**
   * Go's plain-text {@code 404 page not found}, which the API server's not-found handler writes for
   * a path nothing serves (no {@code Status} body).
   */
  static ApiStatusException plainTextNotFound(ExecutionId about, String operation, String page) {
    return new ApiStatusException(about, operation, 404, "NotFound", page, "", "", null, true);
  }

  /**
   * Finds the answer with a status behind an error of the gateway: the error itself or its nearest
   * cause of this type.
   *
   * @param error an error thrown by the gateway, or null
   * @return the answer, or empty when the error came from no answer with a status (unreachable,
   *     garbage, bad input)
   */
  public static Optional<ApiStatusException> in(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ApiStatusException status) {
        return Optional.of(status);
      }
    }
    return Optional.empty();
  }

  /**
   * Returns the permission a 401 or 403 answer refused: the verb, resource and namespace the
   * request needed, as {@code delete pods in namespace etl}.
   *
   * @return the permission, empty for another code or for a request that names none (an access
   *     review, discovery)
   */
  public Optional<Permission> permission() {
    return Optional.ofNullable(permission);
  }

  /**
   * Returns whether the answer was Go's plain-text {@code 404 page not found} rather than a {@code
   * Status}: the API server serves nothing at the path (a kind that is not installed), or something
   * in front of it answered.
   *
   * @return whether it was the plain-text page
   */
  public boolean isPlainTextPageNotFound() {
    return plainTextPage;
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
