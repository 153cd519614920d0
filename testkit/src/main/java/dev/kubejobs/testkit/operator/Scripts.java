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

import com.google.gson.JsonObject;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import java.time.Instant;
import java.util.List;

/**
 * The steps of each {@link SparkAppPath} for each operator, and each operator's reaction to
 * deletion. Stateless; steps act on the {@link AppRun} they are given.
 */
final class Scripts {

  static final String FINALIZER_STEP = "finalizer";
  static final String DRIVER_EXITED_STEP = "driver-exited";
  static final String UNPARSEABLE_STEP = "unparseable-status";
  static final String KUBELET_RETRY_STEP = "kubelet-retry";
  static final String EXECUTOR_OOM_STEP = "executor-oom-killed";
  static final String EXECUTORS_PENDING_STEP = "executors-unschedulable";
  static final String NODE_LOST_STEP = "node-lost";

  private Scripts() {}

  /** Fills in the steps of a new run. */
  static void script(AppRun run, String retainPolicy) {
    if (run.path == null || run.path == SparkAppPath.OPERATOR_DOWN) {
      return;
    }
    if (run.apache()) {
      apache(run, retainPolicy);
    } else {
      kubeflow(run);
    }
  }

  private static void apache(AppRun run, String retainPolicy) {
    List<AppRun.Step> s = run.steps;
    String newer = run.settings.newerState();
    boolean retainAlways = "Always".equals(retainPolicy);
    boolean retainOnFailure = retainAlways || "OnFailure".equals(retainPolicy);
    s.add(step(FINALIZER_STEP, r -> r.addFinalizer(ApacheStatuses.FINALIZER)));
    if (run.trouble != null && run.trouble.refusesDriver()) {
      // AppInitStep: the driver pod's creation fails, SchedulingFailure with the stack trace.
      s.add(step("Submitted", AppRun::apacheSubmitted));
      s.add(step("SchedulingFailure", AppRun::apacheSchedulingFailure));
      s.add(end(retainOnFailure));
      return;
    }
    if (run.trouble != null && run.trouble.letsDriverRun()) {
      s.add(step("Submitted", AppRun::apacheSubmitted));
      s.add(step("DriverRequested", AppRun::apacheRequestDriver));
      s.add(driverStarted());
      s.add(state("DriverReady"));
      switch (run.trouble.kind()) {
        case EXECUTOR_OOM_KILLED -> {
          s.add(state("RunningHealthy"));
          s.add(step(EXECUTOR_OOM_STEP, AppRun::executorOomKilled));
          s.add(exited(1));
          s.add(step("Failed", r -> r.apacheOutcome("Failed")));
        }
        case EXECUTORS_UNSCHEDULABLE -> {
          s.add(step(EXECUTORS_PENDING_STEP, AppRun::executorsUnschedulable));
          s.add(step("ExecutorsStartTimedOut", AppRun::apacheExecutorsStartTimedOut));
        }
        default -> {
          s.add(state("RunningHealthy"));
          s.add(step(NODE_LOST_STEP, AppRun::driverNodeLost));
          s.add(step("Failed", AppRun::apacheDriverRemoved));
        }
      }
      s.add(end(retainOnFailure));
      return;
    }
    switch (run.path) {
      case HAPPY -> {
        run(s);
        s.add(exited(0));
        s.add(step("Succeeded", r -> r.apacheOutcome("Succeeded")));
        s.add(end(retainAlways));
      }
      case FAILED -> {
        run(s);
        s.add(exited(1));
        s.add(step("Failed", r -> r.apacheOutcome("Failed")));
        s.add(end(retainOnFailure));
      }
      case RETAINED_ON_FAILURE -> {
        run(s);
        s.add(exited(1));
        s.add(step("Failed", r -> r.apacheOutcome("Failed")));
        s.add(end(true));
      }
      case DRIVER_START_TIMEOUT -> {
        s.add(step("Submitted", AppRun::apacheSubmitted));
        s.add(step("DriverRequested", AppRun::apacheRequestDriver));
        if (run.trouble != null) {
          s.add(step(KUBELET_RETRY_STEP, AppRun::recordTroubleEvents));
        }
        s.add(step("DriverStartTimedOut", AppRun::apacheDriverStartTimedOut));
        s.add(end(retainOnFailure));
      }
      case RESTARTED_THEN_SUCCEEDED -> {
        s.add(step("Submitted", AppRun::apacheSubmitted));
        s.add(step("DriverRequested", AppRun::apacheRequestDriver));
        s.add(driverStarted());
        s.add(exited(1));
        s.add(step("Failed", r -> r.apacheOutcome("Failed")));
        s.add(step("ScheduledToRestart", AppRun::apacheRestart));
        s.add(step("DriverRequested", AppRun::apacheRequestDriver));
        s.add(driverStarted());
        s.add(state("DriverReady"));
        s.add(state("RunningHealthy"));
        s.add(exited(0));
        s.add(step("Succeeded", r -> r.apacheOutcome("Succeeded")));
        s.add(end(retainAlways));
      }
      case UNPARSEABLE_STATUS -> {
        s.add(step(UNPARSEABLE_STEP, Scripts::unparseable));
        s.add(exited(0));
      }
      case NEWER_STATE -> {
        s.add(step("Submitted", AppRun::apacheSubmitted));
        s.add(step("DriverRequested", AppRun::apacheRequestDriver));
        s.add(driverStarted());
        s.add(
            step(newer, r -> r.apacheAppend(newer, "Application is running with a newer state.")));
        s.add(exited(0));
        s.add(step("Succeeded", r -> r.apacheOutcome("Succeeded")));
        s.add(end(retainAlways));
      }
      default -> throw new IllegalStateException("no Apache script for " + run.path);
    }
  }

  private static void run(List<AppRun.Step> s) {
    s.add(step("Submitted", AppRun::apacheSubmitted));
    s.add(step("DriverRequested", AppRun::apacheRequestDriver));
    s.add(driverStarted());
    s.add(state("DriverReady"));
    s.add(state("RunningHealthy"));
  }

  private static AppRun.Step driverStarted() {
    return step(
        "DriverStarted",
        r -> {
          r.driverRunning();
          r.apacheAppend("DriverStarted", ApacheStatuses.defaultMessage("DriverStarted"));
        });
  }

  private static AppRun.Step state(String state) {
    return step(state, r -> r.apacheAppend(state, ApacheStatuses.defaultMessage(state)));
  }

  private static AppRun.Step end(boolean retain) {
    if (retain) {
      return state("TerminatedWithoutReleaseResources");
    }
    return step("ResourceReleased", AppRun::apacheRelease);
  }

  private static void kubeflow(AppRun run) {
    List<AppRun.Step> s = run.steps;
    String newer = run.settings.newerState();
    if (run.trouble != null && run.trouble.refusesDriver()) {
      s.add(step("SUBMISSION_FAILED", AppRun::kubeflowSubmissionFailed));
      s.add(terminal("FAILED"));
      return;
    }
    if (run.trouble != null && run.trouble.letsDriverRun()) {
      s.add(submitted());
      s.add(step("RUNNING", AppRun::kubeflowRunning));
      switch (run.trouble.kind()) {
        case EXECUTOR_OOM_KILLED -> {
          s.add(step(EXECUTOR_OOM_STEP, AppRun::executorOomKilled));
          s.add(exited(1));
          s.add(step("FAILING", AppRun::kubeflowNoticeExit));
          s.add(terminal("FAILED"));
        }
        case EXECUTORS_UNSCHEDULABLE ->
            // the Kubeflow operator has no executor timeout: the application waits
            s.add(step(EXECUTORS_PENDING_STEP, AppRun::executorsUnschedulable));
        default -> {
          s.add(step(NODE_LOST_STEP, AppRun::driverNodeLost));
          s.add(step("FAILING", AppRun::kubeflowDriverNotFound));
          s.add(terminal("FAILED"));
        }
      }
      return;
    }
    switch (run.path) {
      case HAPPY -> {
        s.add(submitted());
        s.add(step("RUNNING", AppRun::kubeflowRunning));
        s.add(exited(0));
        s.add(step("SUCCEEDING", AppRun::kubeflowNoticeExit));
        s.add(terminal("COMPLETED"));
      }
      case FAILED, RETAINED_ON_FAILURE -> {
        s.add(submitted());
        s.add(step("RUNNING", AppRun::kubeflowRunning));
        s.add(exited(1));
        s.add(step("FAILING", AppRun::kubeflowNoticeExit));
        s.add(terminal("FAILED"));
      }
      case DRIVER_START_TIMEOUT -> {
        if (run.trouble != null) {
          // the pod exists but stays Pending: the operator maps it to SUBMITTED and waits
          s.add(step("SUBMITTED", r -> r.kubeflowSubmit(true)));
          s.add(step(KUBELET_RETRY_STEP, AppRun::recordTroubleEvents));
          return;
        }
        s.add(step("SUBMITTED", r -> r.kubeflowSubmit(false)));
        s.add(
            step(
                "FAILING",
                r -> {
                  Instant at = r.now();
                  r.updateStatus(s2 -> KubeflowStatuses.driverNotFound(s2, at));
                }));
        s.add(terminal("FAILED"));
      }
      case RESTARTED_THEN_SUCCEEDED -> {
        s.add(submitted());
        s.add(step("RUNNING", AppRun::kubeflowRunning));
        s.add(exited(1));
        s.add(step("FAILING", AppRun::kubeflowNoticeExit));
        s.add(
            step(
                "PENDING_RERUN",
                r -> {
                  r.deleteDriverPod();
                  r.updateStatus(KubeflowStatuses::pendingRerun);
                }));
        s.add(submitted());
        s.add(step("RUNNING", AppRun::kubeflowRunning));
        s.add(exited(0));
        s.add(step("SUCCEEDING", AppRun::kubeflowNoticeExit));
        s.add(terminal("COMPLETED"));
      }
      case UNPARSEABLE_STATUS -> {
        s.add(step(UNPARSEABLE_STEP, Scripts::unparseable));
        s.add(exited(0));
      }
      case NEWER_STATE -> {
        s.add(submitted());
        s.add(step("RUNNING", AppRun::kubeflowRunning));
        s.add(step(newer, r -> r.updateStatus(s2 -> KubeflowStatuses.withState(s2, newer))));
        s.add(exited(0));
        s.add(step("SUCCEEDING", AppRun::kubeflowNoticeExit));
        s.add(terminal("COMPLETED"));
      }
      default -> throw new IllegalStateException("no Kubeflow script for " + run.path);
    }
  }

  private static AppRun.Step submitted() {
    return step("SUBMITTED", r -> r.kubeflowSubmit(true));
  }

  private static AppRun.Step terminal(String state) {
    return step(state, AppRun::kubeflowTerminal);
  }

  private static AppRun.Step exited(int exitCode) {
    return step(DRIVER_EXITED_STEP, r -> r.driverExited(exitCode));
  }

  private static void unparseable(AppRun run) {
    if (run.apache()) {
      run.driverPod = ApacheStatuses.driverPodName(run.namespace, run.name, 0);
    } else {
      run.submissions++;
      run.driverPod = KubeflowStatuses.driverPodName(run.name);
    }
    run.createDriverPod(0, false);
    JsonObject status = run.settings.unparseableStatus();
    run.updateStatus(s -> status.deepCopy());
  }

  private static AppRun.Step step(String name, AppRun.Action action) {
    return new AppRun.Step(name, action);
  }

  /**
   * Reacts to a {@code deletionTimestamp} by one transition, as the operator does: Apache writes
   * {@code ResourceReleased} "shutdown as requested" and deletes the driver pod, then on the next
   * step removes its finalizer; Kubeflow deletes the driver pod once.
   *
   * @return whether anything changed
   */
  /** Returns whether {@link #onDeletion} may change something, so time is spent on it. */
  static boolean mayReactToDeletion(AppRun run, JsonObject app) {
    if (run.path == SparkAppPath.OPERATOR_DOWN) {
      return false;
    }
    return run.apache() ? AppRun.hasFinalizer(app, ApacheStatuses.FINALIZER) : !run.deletionHandled;
  }

  static boolean onDeletion(AppRun run, JsonObject app) {
    if (run.path == SparkAppPath.OPERATOR_DOWN) {
      return false;
    }
    if (!run.apache()) {
      if (run.deletionHandled) {
        return false;
      }
      run.deletionHandled = true;
      if (run.driverPod == null) {
        run.driverPod = KubeflowStatuses.driverPodName(run.name);
      }
      return run.deleteDriverPod();
    }
    if (!AppRun.hasFinalizer(app, ApacheStatuses.FINALIZER)) {
      return false;
    }
    if (!run.deletionHandled) {
      run.deletionHandled = true;
      if (run.driverPod == null) {
        long attempt = ApacheStatuses.attemptId(run.status().orElse(null));
        run.driverPod = ApacheStatuses.driverPodName(run.namespace, run.name, attempt);
      }
      boolean podDeleted = run.deleteDriverPod();
      String current = ApacheStatuses.currentState(run.status().orElse(null)).orElse(null);
      if (current != null && !"ResourceReleased".equals(current)) {
        run.apacheAppend("ResourceReleased", ApacheStatuses.SHUTDOWN_AS_REQUESTED_MESSAGE);
        return true;
      }
      if (podDeleted) {
        return true;
      }
    }
    run.removeFinalizer(ApacheStatuses.FINALIZER);
    return true;
  }
}
