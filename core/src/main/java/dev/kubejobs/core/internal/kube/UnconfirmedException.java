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

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;

/**
 * A create got no answer after the request may have reached the server: the object may or may not
 * exist. The submitter reads it back. Not part of the published API; seen by callers, if ever, as
 * the {@link ApiUnavailableException} it is.
 */
public final class UnconfirmedException extends ApiUnavailableException {
  private static final long serialVersionUID = 1L;

  UnconfirmedException(ExecutionId executionId, String message, Throwable cause) {
    super(executionId, message, cause);
  }
}
