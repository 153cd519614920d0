package dev.kubejobs.core;

/**
 * A job spec or argument is invalid before anything is sent to the cluster. The message names the
 * setting, the rule and the value.
 */
public class InvalidJobSpecException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the message naming the setting, the rule and the value
   */
  public InvalidJobSpecException(String message) {
    super(message);
  }
}
