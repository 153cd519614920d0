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
package dev.kubejobs.testkit.operator;

import java.util.Arrays;
import java.util.Locale;

/**
 * The scripted life of one SparkApplication under a {@link FakeSparkOperator}, chosen per
 * application with the label {@value FakeSparkOperator#PATH_LABEL} (for example {@code
 * testkit.kubejobs.dev/path=FAILED}) or operator-wide with {@link
 * FakeSparkOperator.Builder#defaultPath(SparkAppPath)}.
 *
 * <p>Each constant lists the transitions, one per {@link FakeSparkOperator#step()}. Apache
 * transitions start with {@code finalizer} (the operator adds its finalizer at first sight); {@code
 * driver-exited} changes only the driver pod, as a real operator notices a pod change one reconcile
 * later.
 */
public enum SparkAppPath {

  /**
   * Runs and succeeds. Apache: {@code finalizer, Submitted, DriverRequested, DriverStarted,
   * DriverReady, RunningHealthy, driver-exited(0), Succeeded, ResourceReleased} (the driver pod is
   * deleted on release, or kept with {@code TerminatedWithoutReleaseResources} when the spec's
   * {@code resourceRetainPolicy} is {@code Always}). Kubeflow: {@code SUBMITTED, RUNNING,
   * driver-exited(0), SUCCEEDING, COMPLETED} (the driver pod is kept).
   */
  HAPPY,

  /**
   * Runs and fails with driver exit code 1. Apache: as {@link #HAPPY} with {@code Failed} and
   * release (or retention when {@code resourceRetainPolicy} is {@code Always} or {@code
   * OnFailure}). Kubeflow: {@code SUBMITTED, RUNNING, driver-exited(1), FAILING, FAILED}.
   */
  FAILED,

  /**
   * The driver never starts. Apache: {@code finalizer, Submitted, DriverRequested} (pod stays
   * pending){@code , DriverStartTimedOut} (the pending pod's status as {@code
   * lastObservedDriverStatus}){@code , ResourceReleased}. For a driver stuck with a cause (image,
   * scheduling, configuration) and its events, see {@link DriverTrouble}. Kubeflow, which has no
   * such state: {@code SUBMITTED} without a driver pod, then {@code FAILING} ("driver pod not
   * found"), {@code FAILED}.
   */
  DRIVER_START_TIMEOUT,

  /**
   * Fails and keeps its resources. Apache: as {@link #FAILED} but ending in {@code
   * TerminatedWithoutReleaseResources} with the terminated driver pod kept. Kubeflow: the same as
   * {@link #FAILED}, as Kubeflow always keeps the driver pod.
   */
  RETAINED_ON_FAILURE,

  /**
   * The first attempt fails, the second succeeds. Apache: {@code finalizer, Submitted,
   * DriverRequested, DriverStarted, driver-exited(1), Failed, ScheduledToRestart} (attempt 1,
   * history trimmed into {@code previousAttemptSummary}, pod of attempt 0 deleted){@code ,
   * DriverRequested} (pod {@code <name>-1-driver}){@code , DriverStarted, DriverReady,
   * RunningHealthy, driver-exited(0), Succeeded, ResourceReleased}. Kubeflow: {@code SUBMITTED,
   * RUNNING, driver-exited(1), FAILING, PENDING_RERUN} (pod deleted, status reset){@code ,
   * SUBMITTED} (submission 2){@code , RUNNING, driver-exited(0), SUCCEEDING, COMPLETED}.
   */
  RESTARTED_THEN_SUCCEEDED,

  /**
   * No operator runs: never a status (not even {@code {}}), no finalizer, no pod, no reaction to
   * deletion.
   */
  OPERATOR_DOWN,

  /**
   * Writes a status no operator writes ({@code {"phase":"Running"}} unless configured) and a
   * running driver pod, then {@code driver-exited(0)}; the status never changes again. Apache adds
   * its finalizer first.
   */
  UNPARSEABLE_STATUS,

  /**
   * Passes through a state from a newer operator version ({@code RunningWithQuantumExecutors} /
   * {@code RUNNING_WITH_QUANTUM_EXECUTORS} unless configured) while the driver runs, then succeeds.
   * Apache: {@code finalizer, Submitted, DriverRequested, DriverStarted, <newer>, driver-exited(0),
   * Succeeded, ResourceReleased}. Kubeflow: {@code SUBMITTED, RUNNING, <newer>, driver-exited(0),
   * SUCCEEDING, COMPLETED}.
   */
  NEWER_STATE;

  /**
   * Parses a path label value: the constant name, case-insensitive, {@code -} accepted for {@code
   * _}.
   *
   * @param value the label value, for example {@code failed} or {@code RESTARTED_THEN_SUCCEEDED}
   * @return the path
   * @throws IllegalArgumentException naming the label, the value and the accepted values
   */
  public static SparkAppPath parse(String value) {
    String normalized = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (SparkAppPath p : values()) {
      if (p.name().equals(normalized)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        FakeSparkOperator.PATH_LABEL
            + " must be one of "
            + Arrays.toString(values())
            + ", but was '"
            + value
            + "'");
  }
}
