/*
 * Copyright 2026 The kubejobs Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
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
