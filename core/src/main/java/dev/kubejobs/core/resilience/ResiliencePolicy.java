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

import java.util.function.Supplier;

/**
 * Wraps every request kubejobs sends to the Kubernetes API server: decides whether and when a
 * failed attempt is retried and whether a request is sent at all (circuit breaker).
 *
 * <p>The contract between kubejobs and a policy:
 *
 * <ul>
 *   <li>{@code attempt} sends one request. It throws {@link ApiCallFailure} for a transient failure
 *       and any other exception for a final one.
 *   <li>A policy may call {@code attempt} again after an {@link ApiCallFailure}, but only when
 *       {@code retryable} is true (a create is never retryable: kubejobs reads back what landed
 *       instead). It must pass every other exception through unchanged and never retry it.
 *   <li>When it gives up it throws the last {@link ApiCallFailure}; when it refuses to send the
 *       request (an open circuit) it throws {@link dev.kubejobs.core.ApiUnavailableException}.
 * </ul>
 *
 * <p>{@link Resilience4jPolicy} is the default. Implementations must be thread safe: one policy
 * serves all operations of a {@link dev.kubejobs.core.KubeJobs} instance concurrently.
 */
public interface ResiliencePolicy {
  /**
   * Runs one request under this policy.
   *
   * @param operation what the request does, for logs and messages, for example {@code get
   *     sparkapplications etl/kj-1}
   * @param retryable whether a transient failure may be answered by sending the request again
   * @param attempt sends the request once
   * @param <T> the result type
   * @return the result of the first successful attempt
   * @throws ApiCallFailure the last transient failure, once the policy gives up
   * @throws dev.kubejobs.core.ApiUnavailableException when the policy refuses to send the request
   */
  <T> T execute(String operation, boolean retryable, Supplier<T> attempt);

  /**
   * Returns a policy that sends each request once and never short-circuits: no retry, no breaker.
   *
   * @return the policy
   */
  static ResiliencePolicy none() {
    return new ResiliencePolicy() {
      @Override
      public <T> T execute(String operation, boolean retryable, Supplier<T> attempt) {
        return attempt.get();
      }

      @Override
      public String toString() {
        return "ResiliencePolicy.none()";
      }
    };
  }
}
