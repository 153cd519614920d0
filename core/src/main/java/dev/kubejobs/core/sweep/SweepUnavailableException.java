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
package dev.kubejobs.core.sweep;

import dev.kubejobs.core.ApiUnavailableException;
import java.util.Objects;

/**
 * A sweep stopped because the API server could not be reached; {@link #partialReport()} tells what
 * it did before. Retry the sweep later: it picks up where this one stopped.
 *
 * <p>Like any exception, not meant to be shared between threads while being modified.
 */
public final class SweepUnavailableException extends ApiUnavailableException {
  private static final long serialVersionUID = 1L;

  private final transient SweepReport partialReport;

  /**
   * Creates the exception.
   *
   * @param partialReport what the sweep did before the server became unreachable
   * @param cause the failure that stopped it
   */
  public SweepUnavailableException(SweepReport partialReport, ApiUnavailableException cause) {
    super(
        null,
        "the orphan sweep stopped, the Kubernetes API server could not be reached: "
            + cause.getMessage()
            + ". Done before: "
            + partialReport.summary(),
        cause);
    this.partialReport = Objects.requireNonNull(partialReport, "partialReport");
  }

  /**
   * Returns what the sweep did before it stopped.
   *
   * @return the partial report
   */
  public SweepReport partialReport() {
    return partialReport;
  }
}
