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
package dev.kubejobs.spark.diagnosis;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.ClusterEvent;
import dev.kubejobs.core.diagnosis.Diagnoser;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.DiagnosisInput;
import dev.kubejobs.core.diagnosis.DiagnosisRule;
import dev.kubejobs.core.diagnosis.Evidence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The diagnosis rules of the two Spark operators, to add to a {@link Diagnoser} with {@link
 * Diagnoser.Builder#rule(DiagnosisRule)}. Both are pure and stateless, and run after the driver
 * pod's own rules found nothing.
 *
 * <ul>
 *   <li>{@link #kubeflow()} reads {@code status.applicationState}: {@code SUBMISSION_FAILED} (and
 *       {@code FAILED} after it) with spark-submit's stderr in {@code errorMessage}, from which the
 *       line that matters is taken (a ResourceQuota exceeded, an admission webhook's denial, an
 *       admission webhook that could not be called, an RBAC refusal: each its own {@link Cause},
 *       else {@link Cause#SUBMISSION_FAILED} with the exception); the operator's {@code
 *       SparkApplicationSubmissionFailed} Warning event when the status no longer says it; {@code
 *       FAILED} with {@code "driver container failed with ExitCode: %d, Reason: %s"} once the
 *       driver pod is gone; {@code "driver pod not found"}; {@code SUSPENDED}, quoting the Kueue
 *       Workload that holds it when there is one ({@link Diagnoser#diagnoseAdmission}).
 *   <li>{@link #apache()} reads {@code status.currentState} and {@code stateTransitionHistory},
 *       latest first: a state's {@code lastObservedDriverStatus} (the driver pod's status the
 *       operator copied) is diagnosed as the pod itself; {@code SchedulingFailure} carries the API
 *       server's refusal in its stack trace (told apart as for Kubeflow); {@code
 *       ExecutorsStartTimedOut} is explained from the executor pods or the events they left ({@link
 *       Diagnoser#diagnoseExecutorsNotStarted}); other failure states are passed on as written. (A
 *       driver lost with its node, behind {@code "Driver removed…"}, is found by the core rules
 *       before these run.)
 * </ul>
 */
public final class SparkDiagnosisRules {

  private static final Pattern KUBEFLOW_DRIVER_EXIT =
      Pattern.compile("driver container failed with ExitCode: (-?\\d+), Reason: (\\S*)");

  private static final Pattern KUBEFLOW_EXECUTOR_FAILED =
      Pattern.compile("Executor (\\S+) failed with ExitCode: (-?\\d+), Reason: ([^,]*)");

  /**
   * The Kubeflow operator's {@code errorMessage} for a driver pod that vanished
   * (kubeflow/spark-operator {@code internal/controller/sparkapplication/controller.go}, {@code
   * updateDriverState}).
   */
  private static final String KUBEFLOW_DRIVER_NOT_FOUND = "driver pod not found";

  private static final Set<String> APACHE_FAILURES =
      Set.of(
          "Failed",
          "SchedulingFailure",
          "DriverEvicted",
          "DriverStartTimedOut",
          "ExecutorsStartTimedOut",
          "DriverReadyTimedOut");

  private static final Set<String> APACHE_RELEASED =
      Set.of("ResourceReleased", "TerminatedWithoutReleaseResources");

  private SparkDiagnosisRules() {}

  /**
   * Returns the Kubeflow Spark operator's rule ({@code sparkoperator.k8s.io/v1beta2}).
   *
   * @return the rule
   */
  public static DiagnosisRule kubeflow() {
    return (input, diagnoser) ->
        kubeflow(input, diagnoser)
            .or(() -> refusalEvent(input, "SparkApplicationSubmissionFailed"));
  }

  /**
   * Returns the Apache Spark Kubernetes Operator's rule ({@code spark.apache.org/v1}).
   *
   * @return the rule
   */
  public static DiagnosisRule apache() {
    return (input, diagnoser) -> apache(input, diagnoser).or(() -> refusalEvent(input, null));
  }

  private static Optional<Diagnosis> kubeflow(DiagnosisInput input, Diagnoser diagnoser) {
    if (input.status() == JobStatus.STARTED) {
      return kubeflowFailedExecutors(input);
    }
    JsonObject appState = obj(input.operatorStatus().orElse(null), "applicationState");
    String state = str(appState, "state");
    String error = str(appState, "errorMessage");
    String app = app(input);
    Evidence evidence =
        Evidence.builder(Evidence.Source.OPERATOR_STATUS, app).reason(state).message(error).build();
    if (state.equals("SUSPENDED") || state.equals("SUSPENDING")) {
      Optional<Diagnosis> queued = diagnoser.diagnoseAdmission(input);
      if (queued.isPresent()) {
        // Kueue suspends the application it has not admitted: its Workload says why.
        List<Evidence> all = new ArrayList<>(queued.get().evidence());
        all.add(evidence);
        return Optional.of(
            Diagnosis.of(
                Cause.WAITING_FOR_ADMISSION,
                queued.get().summary()
                    + " Until then the application stays suspended (spec.suspend).",
                all));
      }
      return Optional.of(
          Diagnosis.of(
              Cause.WAITING_FOR_ADMISSION,
              app
                  + " is suspended (spec.suspend); it starts when whoever suspended it, a user or a"
                  + " queueing system such as Kueue, resumes it.",
              List.of(evidence)));
    }
    if (error.isEmpty()) {
      return Optional.empty();
    }
    Matcher exit = KUBEFLOW_DRIVER_EXIT.matcher(error);
    if (exit.find()) {
      boolean oom = exit.group(2).equals("OOMKilled");
      return Optional.of(
          Diagnosis.of(
              oom ? Cause.OOM_KILLED : Cause.DRIVER_EXITED_WITH_ERROR,
              "The driver of "
                  + app
                  + (oom
                      ? " was OOMKilled (exit code "
                          + exit.group(1)
                          + "): raise spark.driver.memory or spark.driver.memoryOverhead."
                      : " exited with code "
                          + exit.group(1)
                          + " ("
                          + exit.group(2)
                          + "); read the driver log for the error."),
              List.of(evidence)));
    }
    if (state.equals("SUBMISSION_FAILED")
        || error.toLowerCase(java.util.Locale.ROOT).contains("failed to run spark-submit")) {
      return submissionFailed(input, "spark-submit failed for ", error, evidence);
    }
    if (state.equals("FAILED") || state.equals("FAILING")) {
      return Optional.of(
          Diagnosis.of(
              Cause.OPERATOR_REPORTED_FAILURE,
              "The Kubeflow Spark operator failed "
                  + app
                  + ": "
                  + firstLine(error)
                  + (error.strip().equals(KUBEFLOW_DRIVER_NOT_FOUND)
                      ? " The driver pod was deleted while the application ran (by someone, an"
                          + " eviction, or with its node) and no event about it was found; submit"
                          + " it again."
                      : ""),
              List.of(evidence)));
    }
    return Optional.empty();
  }

  /**
   * A running application whose {@code status.executorState} lists executors {@code FAILED} and
   * whose pods were not there to say how they died (Spark deletes an executor pod that ended unless
   * {@code spark.kubernetes.executor.deleteOnTermination} is false): named from the operator's
   * record, with the exit code and reason of its {@code SparkExecutorFailed} event ({@code
   * "Executor %s failed with ExitCode: %d, Reason: %s, Pod Message: %s"}) when there is one.
   */
  private static Optional<Diagnosis> kubeflowFailedExecutors(DiagnosisInput input) {
    JsonObject states = obj(input.operatorStatus().orElse(null), "executorState");
    if (states == null) {
      return Optional.empty();
    }
    Set<String> present = new HashSet<>();
    for (JsonObject pod : input.executorPods()) {
      present.add(str(obj(pod, "metadata"), "name"));
    }
    TreeMap<String, String> failed = new TreeMap<>();
    for (Map.Entry<String, JsonElement> e : states.entrySet()) {
      if (e.getValue().isJsonPrimitive()
          && "FAILED".equals(e.getValue().getAsString())
          && !present.contains(e.getKey())) {
        failed.put(e.getKey(), "");
      }
    }
    if (failed.isEmpty()) {
      return Optional.empty();
    }
    List<Evidence> evidence = new ArrayList<>();
    for (ClusterEvent e : input.events()) {
      if (!e.isAbout(input.applicationKind(), input.applicationName(), null)) {
        continue;
      }
      Matcher m = KUBEFLOW_EXECUTOR_FAILED.matcher(e.message());
      if (m.find() && failed.containsKey(m.group(1)) && failed.get(m.group(1)).isEmpty()) {
        String reason = m.group(3).strip();
        failed.put(
            m.group(1), (reason.isEmpty() ? "exited" : reason) + " (exit code " + m.group(2) + ")");
        if (evidence.size() < 5) {
          evidence.add(e.toEvidence());
        }
      }
    }
    boolean allOom = true;
    boolean anyOom = false;
    StringBuilder named = new StringBuilder();
    int i = 0;
    for (Map.Entry<String, String> f : failed.entrySet()) {
      boolean oom = f.getValue().startsWith("OOMKilled");
      allOom &= oom;
      anyOom |= oom;
      if (i < 5) {
        named
            .append(i == 0 ? "" : ", ")
            .append(f.getKey())
            .append(f.getValue().isEmpty() ? "" : " " + f.getValue());
      }
      i++;
    }
    if (failed.size() > 5) {
      named.append(" and ").append(failed.size() - 5).append(" more");
    }
    String app = app(input);
    evidence.add(
        0,
        Evidence.builder(Evidence.Source.OPERATOR_STATUS, app)
            .reason("executorState")
            .message(String.join(": FAILED, ", failed.keySet()) + ": FAILED")
            .build());
    return Optional.of(
        Diagnosis.of(
            allOom ? Cause.OOM_KILLED : Cause.EXECUTORS_DIED,
            "The driver of "
                + app
                + " runs, but the Kubeflow Spark operator lists "
                + failed.size()
                + (failed.size() == 1 ? " executor" : " executors")
                + " as FAILED and their pods are gone: "
                + named
                + "."
                + (anyOom
                    ? " An OOMKilled executor used more memory than its pod's limit: raise"
                        + " spark.executor.memoryOverhead (or spark.executor.memory)."
                    : "")
                + (allOom
                    ? ""
                    : " Look for ExecutorLostFailure in the driver log (exit code 137 or"
                        + " OOMKilled: raise spark.executor.memoryOverhead; 52:"
                        + " spark.executor.memory), or set"
                        + " spark.kubernetes.executor.deleteOnTermination=false to keep the pods."),
            evidence));
  }

  private static Optional<Diagnosis> submissionFailed(
      DiagnosisInput input, String lead, String error, Evidence evidence) {
    Optional<SubmitErrors.Finding> found = SubmitErrors.find(error);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    SubmitErrors.Finding f = found.get();
    String line = f.line.endsWith(".") ? f.line : f.line + ".";
    return Optional.of(
        Diagnosis.of(
            f.kind.cause,
            lead + app(input) + ": " + cap(line) + SubmitErrors.advice(f, input.namespace()),
            List.of(evidence)));
  }

  private static Optional<Diagnosis> apache(DiagnosisInput input, Diagnoser diagnoser) {
    JsonObject status = input.operatorStatus().orElse(null);
    // A running application's executors are read from their pods by the core rules.
    if (status == null || input.status() == JobStatus.STARTED) {
      return Optional.empty();
    }
    List<JsonObject> states = new ArrayList<>();
    JsonObject current = obj(status, "currentState");
    if (current != null) {
      states.add(current);
    }
    JsonObject history = obj(status, "stateTransitionHistory");
    if (history != null) {
      // Keys are "0", "1", ... and the server may return "10" before "2": sort numerically.
      TreeMap<Long, JsonObject> byKey = new TreeMap<>();
      for (Map.Entry<String, JsonElement> e : history.entrySet()) {
        if (e.getValue().isJsonObject() && e.getKey().matches("\\d{1,18}")) {
          byKey.put(Long.parseLong(e.getKey()), e.getValue().getAsJsonObject());
        }
      }
      states.addAll(byKey.descendingMap().values());
    }
    for (JsonObject state : states) {
      String summary = str(state, "currentStateSummary");
      if (APACHE_RELEASED.contains(summary)) {
        continue;
      }
      JsonObject observed = obj(state, "lastObservedDriverStatus");
      if (observed != null) {
        Optional<Diagnosis> d =
            diagnoser.diagnosePod(observedPod(input, status, observed), "Driver", input);
        if (d.isPresent()) {
          List<Evidence> evidence = new ArrayList<>(d.get().evidence());
          evidence.add(stateEvidence(input, state));
          return Optional.of(Diagnosis.of(d.get().cause(), d.get().summary(), evidence));
        }
      }
      if (!APACHE_FAILURES.contains(summary)) {
        return Optional.empty();
      }
      String message = str(state, "message");
      Evidence evidence = stateEvidence(input, state);
      if (summary.equals("ExecutorsStartTimedOut")) {
        Optional<Diagnosis> d = diagnoser.diagnoseExecutorsNotStarted(input);
        if (d.isPresent()) {
          List<Evidence> all = new ArrayList<>(d.get().evidence());
          all.add(evidence);
          return Optional.of(
              Diagnosis.of(
                  d.get().cause(),
                  d.get().summary()
                      + " The Apache Spark operator gave up on them (ExecutorsStartTimedOut).",
                  all));
        }
      }
      if (summary.equals("SchedulingFailure")) {
        Optional<Diagnosis> d =
            submissionFailed(
                input,
                "The Apache Spark operator could not create the driver of ",
                message,
                evidence);
        if (d.isPresent()) {
          return d;
        }
      }
      return Optional.of(
          Diagnosis.of(
              Cause.OPERATOR_REPORTED_FAILURE,
              "The Apache Spark operator reports "
                  + summary
                  + " for "
                  + app(input)
                  + ": "
                  + firstLine(message)
                  + (summary.equals("DriverStartTimedOut")
                      ? " The driver pod was gone or showed no cause; its events may tell more."
                      : ""),
              List.of(evidence)));
    }
    return Optional.empty();
  }

  /**
   * A refusal read from a Warning event: about the application (the Kubeflow operator's {@code
   * reason}, {@code "failed to submit SparkApplication %s: %s"} with spark-submit's stderr), or any
   * Warning event whose message refuses one of the application's pods ({@code pods "<app>…"}), as a
   * controller's {@code FailedCreate} does. Only the four refusals are read from events; the latest
   * event wins.
   */
  private static Optional<Diagnosis> refusalEvent(DiagnosisInput input, String appReason) {
    if (running(input)) {
      return Optional.empty();
    }
    ClusterEvent found = null;
    SubmitErrors.Finding finding = null;
    String podsOfApp = "pods \"" + input.applicationName();
    for (ClusterEvent e : input.events()) {
      if (!e.type().equals("Warning")) {
        continue;
      }
      boolean aboutApp = e.isAbout(input.applicationKind(), input.applicationName(), null);
      if (!aboutApp && !e.message().contains(podsOfApp)) {
        continue;
      }
      if (aboutApp && appReason != null && !e.reason().equals(appReason)) {
        continue;
      }
      Optional<SubmitErrors.Finding> f = SubmitErrors.find(e.message());
      if (f.isEmpty() || f.get().kind == SubmitErrors.Kind.OTHER) {
        continue;
      }
      if (found == null
          || e.lastSeen().orElse(Instant.MIN).isAfter(found.lastSeen().orElse(Instant.MIN))) {
        found = e;
        finding = f.get();
      }
    }
    if (found == null) {
      return Optional.empty();
    }
    String line = finding.line.endsWith(".") ? finding.line : finding.line + ".";
    return Optional.of(
        Diagnosis.of(
            finding.kind.cause,
            "A pod of "
                + app(input)
                + " was refused ("
                + found.reason()
                + " event on "
                + found.kind()
                + " "
                + found.name()
                + "): "
                + cap(line)
                + SubmitErrors.advice(finding, input.namespace()),
            List.of(found.toEvidence())));
  }

  private static JsonObject observedPod(
      DiagnosisInput input, JsonObject status, JsonObject observed) {
    long attempt = 0;
    JsonObject info = obj(obj(status, "currentAttemptSummary"), "attemptInfo");
    if (info != null && info.has("id") && info.get("id").isJsonPrimitive()) {
      attempt = info.get("id").getAsLong();
    }
    JsonObject pod = new JsonObject();
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", input.applicationName() + "-" + attempt + "-driver");
    metadata.addProperty("namespace", input.namespace());
    pod.add("metadata", metadata);
    pod.add("status", observed);
    return pod;
  }

  private static Evidence stateEvidence(DiagnosisInput input, JsonObject state) {
    return Evidence.builder(Evidence.Source.OPERATOR_STATUS, app(input))
        .reason(str(state, "currentStateSummary"))
        .message(str(state, "message"))
        .firstSeen(
            dev.kubejobs.core.spi.ResourceSnapshot.parseTime(str(state, "lastTransitionTime"))
                .orElse(null))
        .build();
  }

  private static boolean running(DiagnosisInput input) {
    return input.status() == JobStatus.STARTED;
  }

  private static String app(DiagnosisInput input) {
    return input.applicationKind() + " " + input.namespace() + "/" + input.applicationName();
  }

  private static String firstLine(String message) {
    String m = message.strip();
    int nl = m.indexOf('\n');
    return cap(nl >= 0 ? m.substring(0, nl).strip() : m);
  }

  private static String cap(String s) {
    return dev.kubejobs.core.diagnosis.Messages.cap(s, 1000);
  }

  private static JsonObject obj(JsonObject o, String field) {
    if (o == null) {
      return null;
    }
    JsonElement e = o.get(field);
    return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
  }

  private static String str(JsonObject o, String field) {
    if (o == null) {
      return "";
    }
    JsonElement e = o.get(field);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : "";
  }
}
