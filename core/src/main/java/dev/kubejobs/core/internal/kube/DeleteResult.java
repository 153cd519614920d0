package dev.kubejobs.core.internal.kube;

/** What a delete request achieved. */
public enum DeleteResult {
  /** The server accepted the delete: the object is gone or now has a deletionTimestamp. */
  ACCEPTED,
  /**
   * The object did not exist (404): deleted earlier, perhaps by this very request's lost answer.
   */
  GONE
}
