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
package dev.kubejobs.core.resilience;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A transient failure of one request to the Kubernetes API server: it could not be reached, did not
 * answer in time, answered with a server error (5xx), or asked the client to slow down (429).
 *
 * <p>Only failures of this type are ever retried by a {@link ResiliencePolicy}; only {@link
 * Kind#UNREACHABLE} ones count towards opening the circuit breaker. Any other failure (a 4xx
 * answer, an invalid resource) is final. Callers of kubejobs never see this type: once the policy
 * gives up, kubejobs throws {@link dev.kubejobs.core.ApiUnavailableException} with this failure as
 * its cause.
 *
 * <p>Instances are immutable once thrown.
 */
public final class ApiCallFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Kind {
    /**
     * No answer: the connection failed, was reset, timed out, or the answer was empty. The request
     * may have been applied unless {@link ApiCallFailure#mayHaveApplied()} is false.
     */
    UNREACHABLE,
    /** The API server (or a proxy in front of it) answered with a 5xx error. */
    SERVER_ERROR,
    /** The API server answered 429 Too Many Requests; {@link #retryAfter()} may say how long. */
    THROTTLED
  }

  private final Kind kind;
  private final int code;
  private final transient Duration retryAfter;
  private final boolean mayHaveApplied;

  /**
   * Creates a failure.
   *
   * @param kind what went wrong
   * @param code the HTTP status code, or 0 when there was no answer
   * @param retryAfter how long the server asked to wait, or null
   * @param mayHaveApplied whether the request may have been applied by the server
   * @param message what happened, naming the request
   * @param cause the I/O failure, or null
   */
  public ApiCallFailure(
      Kind kind,
      int code,
      Duration retryAfter,
      boolean mayHaveApplied,
      String message,
      Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.code = code;
    this.retryAfter = retryAfter;
    this.mayHaveApplied = mayHaveApplied;
  }

  /**
   * Returns what went wrong.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * Returns the HTTP status code of the answer.
   *
   * @return the code, or 0 when no answer came
   */
  public int code() {
    return code;
  }

  /**
   * Returns how long the server asked the client to wait before retrying ({@code Retry-After}).
   *
   * @return the duration, or empty
   */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /**
   * Returns whether the server may have applied the request although no success answer came back
   * (the connection broke after the request was sent, or a 5xx arrived).
   *
   * @return false only when the request is known not to have reached the server
   */
  public boolean mayHaveApplied() {
    return mayHaveApplied;
  }

  /**
   * Returns whether this failure shows that the API server cannot be reached, which is what a
   * circuit breaker counts.
   *
   * @return true for {@link Kind#UNREACHABLE}
   */
  public boolean isUnreachable() {
    return kind == Kind.UNREACHABLE;
  }
}
