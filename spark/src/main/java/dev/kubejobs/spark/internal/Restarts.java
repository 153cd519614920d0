package dev.kubejobs.spark.internal;

/**
 * Whether the operator may start another attempt after the current one ended, read from the
 * application's restart policy the way the operator reads it. Decides whether a terminated driver
 * container's exit code is the job's outcome when the operator's state cannot tell it. Not a
 * published API.
 *
 * @param afterSuccess whether an attempt whose driver exited with code 0 may be followed by another
 * @param afterFailure whether an attempt whose driver exited with another code may be followed by
 *     another
 */
record Restarts(boolean afterSuccess, boolean afterFailure) {
  /** Restarts after neither outcome (restart policy Never). */
  static final Restarts NEVER = new Restarts(false, false);

  /** Returns whether another attempt may follow a driver that exited with the given code. */
  boolean after(int exitCode) {
    return exitCode == 0 ? afterSuccess : afterFailure;
  }

  /** Returns whether some exit code of the driver ends the job (so the driver pod may decide). */
  boolean someExitEnds() {
    return !afterSuccess || !afterFailure;
  }
}
