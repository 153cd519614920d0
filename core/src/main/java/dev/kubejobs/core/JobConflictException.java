package dev.kubejobs.core;

/**
 * The resource name kubejobs derives for a job is taken by another job or another deployment, or by
 * a resource that is being deleted. When two deployments share a namespace, give each its own
 * deployment name (and name prefix).
 */
public class JobConflictException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param executionId the job concerned, or null
   * @param message the message, which says what to do
   * @param cause the cause, or null
   */
  public JobConflictException(ExecutionId executionId, String message, Throwable cause) {
    super(executionId, message, cause);
  }
}
