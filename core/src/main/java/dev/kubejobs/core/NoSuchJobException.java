package dev.kubejobs.core;

/**
 * The job's resource is confirmed gone by a fresh read from the API server. A cache miss never
 * throws this; the caller may record the job as lost.
 */
public class NoSuchJobException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param executionId the job concerned, or null
   * @param message the message, which says what to do
   * @param cause the cause, or null
   */
  public NoSuchJobException(ExecutionId executionId, String message, Throwable cause) {
    super(executionId, message, cause);
  }
}
