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
package dev.kubejobs.testkit;

/**
 * Signals that the fake API server refused an operation, with the HTTP status code and the
 * Kubernetes {@code Status} reason it would have answered over HTTP.
 *
 * <p>{@link ResourceStore} throws it for direct state changes, for example {@code 409
 * AlreadyExists} when creating an object that exists, or {@code 404 NotFound} when updating one
 * that does not. Instances are immutable and thread safe.
 */
public class FakeApiException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int code;
  private final String reason;

  /**
   * Creates an exception with the HTTP code, the Kubernetes reason and the server's message.
   *
   * @param code the HTTP status code, for example 409
   * @param reason the Kubernetes {@code Status} reason, for example {@code AlreadyExists}
   * @param message the message the server would answer
   */
  public FakeApiException(int code, String reason, String message) {
    super(message);
    this.code = code;
    this.reason = reason;
  }

  /**
   * Returns the HTTP status code the server would answer.
   *
   * @return the code, for example 404
   */
  public int code() {
    return code;
  }

  /**
   * Returns the Kubernetes {@code Status} reason the server would answer.
   *
   * @return the reason, for example {@code NotFound}
   */
  public String reason() {
    return reason;
  }
}
