package dev.kubejobs.core.cancel;

/** What a cancel found and did. */
public enum CancelResult {
  /** The job was running or queued: it is marked cancelled and its resource is being deleted. */
  REQUESTED,
  /** The job had already finished: nothing was changed, it keeps its outcome. */
  ALREADY_FINISHED,
  /** The job's resource was already being deleted (an earlier cancel): nothing was changed. */
  ALREADY_DELETING
}
