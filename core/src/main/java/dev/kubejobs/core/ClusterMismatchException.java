package dev.kubejobs.core;

/**
 * The execution id names another cluster than the one this instance talks to. Not a reason to fail
 * the job: route the request to an instance configured for that cluster, or check the cluster name
 * setting.
 */
public class ClusterMismatchException extends KubeJobsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param executionId the job concerned, or null
   * @param message the message, which says what to do
   * @param cause the cause, or null
   */
  public ClusterMismatchException(ExecutionId executionId, String message, Throwable cause) {
    super(executionId, message, cause);
  }
}
