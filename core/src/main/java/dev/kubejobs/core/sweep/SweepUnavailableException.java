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
