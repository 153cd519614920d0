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
