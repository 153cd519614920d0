package dev.kubejobs.core;

/**
 * The API server could not be reached, did not answer, or the circuit breaker is open after it
 * could not be reached. Retry later; the job's state on the cluster is unknown, not failed.
 */
public class ApiUnavailableException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param executionId the job concerned, or null
   * @param message the message, which says what to do
   * @param cause the cause, or null
   */
  public ApiUnavailableException(ExecutionId executionId, String message, Throwable cause) {
    super(executionId, message, cause);
  }
}
