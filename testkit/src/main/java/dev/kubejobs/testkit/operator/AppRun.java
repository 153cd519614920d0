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

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.testkit.FakeApiException;
import dev.kubejobs.testkit.ResourceStore;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.DriverLogs;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import dev.kubejobs.testkit.fixtures.EventBuilder;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * One application's progress along its path, and the store operations its steps use. Not thread
 * safe: the owning {@link FakeSparkOperator} calls it under its lock.
 */
final class AppRun {

  /** One scripted transition. */
  record Step(String name, Action action) {}

  /** What a step does. */
  @FunctionalInterface
  interface Action {
    void run(AppRun run);
  }

  final Settings settings;
  final ResourceStore store;
  final Clock clock;
  final String namespace;
  final String name;
  final String uid;
  final SparkAppPath path;
  final List<Step> steps = new ArrayList<>();
  final boolean sidecar;
  final DriverTrouble trouble;

  /** The events recorded about the stuck driver pod, by name: their first time and count. */
  private final Map<String, Seen> recorded = new LinkedHashMap<>();

  int next;
  String driverPod;
  Instant driverStartedAt;
  int submissions;
  boolean deletionHandled;

  AppRun(
      Settings settings,
      ResourceStore store,
      Clock clock,
      JsonObject app,
      SparkAppPath path,
      boolean sidecar,
      DriverTrouble trouble) {
    this.settings = settings;
    this.store = store;
    this.clock = clock;
    this.namespace = meta(app, "namespace");
    this.name = meta(app, "name");
    this.uid = meta(app, "uid");
    this.path = path;
    this.sidecar = sidecar;
    this.trouble = trouble;
  }

  boolean apache() {
    return settings.flavor() == FakeSparkOperator.Flavor.APACHE;
  }

  ResourceType type() {
    return settings.type();
  }

  Instant now() {
    return clock.instant();
  }

  Optional<JsonObject> app() {
    return store.get(type(), namespace, name);
  }

  void updateApp(UnaryOperator<JsonObject> change) {
    store.update(type(), namespace, name, change);
  }

  void updateStatus(UnaryOperator<JsonObject> change) {
    updateApp(
        a -> {
          JsonElement s = a.get("status");
          JsonObject status = s != null && s.isJsonObject() ? s.getAsJsonObject() : null;
          a.add("status", change.apply(status));
          return a;
        });
  }

  void addFinalizer(String finalizer) {
    updateApp(
        a -> {
          JsonObject meta = a.getAsJsonObject("metadata");
          if (!hasFinalizer(a, finalizer)) {
            JsonArray f =
                meta.has("finalizers") ? meta.getAsJsonArray("finalizers") : new JsonArray();
            f.add(finalizer);
            meta.add("finalizers", f);
          }
          return a;
        });
  }

  void removeFinalizer(String finalizer) {
    updateApp(
        a -> {
          JsonObject meta = a.getAsJsonObject("metadata");
          if (meta.has("finalizers")) {
            JsonArray kept = new JsonArray();
            meta.getAsJsonArray("finalizers")
                .forEach(
                    f -> {
                      if (!finalizer.equals(f.getAsString())) {
                        kept.add(f);
                      }
                    });
            meta.add("finalizers", kept);
          }
          return a;
        });
  }

  // ---- Apache status ----

  void apacheSubmitted() {
    Instant at = now();
    updateStatus(s -> ApacheStatuses.newStatus(at, settings.version()));
  }

  void apacheAppend(String state, String message) {
    Instant at = now();
    updateStatus(s -> ApacheStatuses.append(orEmpty(s), state, message, at, null));
  }

  void apacheOutcome(String state) {
    Instant at = now();
    JsonObject driverStatus = driverPodStatus().orElse(null);
    String message = ApacheStatuses.defaultMessage(state);
    if ("Succeeded".equals(state)) {
      // a pod that succeeded as a whole is reported without its status; a driver that exited 0
      // beside a running sidecar is reported with it
      boolean podSucceeded =
          driverStatus != null
              && driverStatus.has("phase")
              && "Succeeded".equals(driverStatus.get("phase").getAsString());
      if (podSucceeded) {
        driverStatus = null;
      } else {
        message = ApacheStatuses.DRIVER_EXITED_ZERO_MESSAGE;
      }
    }
    JsonObject observed = driverStatus;
    String msg = message;
    updateStatus(s -> ApacheStatuses.append(orEmpty(s), state, msg, at, observed));
  }

  void apacheRestart() {
    deleteDriverPod();
    Instant at = now();
    updateStatus(s -> ApacheStatuses.restart(orEmpty(s), at, settings.trim(), settings.version()));
  }

  void apacheRequestDriver() {
    long attempt = ApacheStatuses.attemptId(status().orElse(null));
    driverPod = ApacheStatuses.driverPodName(namespace, name, attempt);
    createDriverPod(attempt, true);
    apacheAppend("DriverRequested", ApacheStatuses.defaultMessage("DriverRequested"));
  }

  /**
   * {@code DriverStartTimedOut} with the driver pod's status as {@code lastObservedDriverStatus},
   * as the Apache operator's {@code AppDriverTimeoutObserver} writes it
   * (apache/spark-kubernetes-operator {@code
   * spark-operator/src/main/java/org/apache/spark/k8s/operator/reconciler/observers/AppDriverTimeoutObserver.java}
   * at d5acafd24a0cd9cf225026bbdbcb0775d73ffe8f: {@code appState.setLastObservedDriverStatus(
   * driver.getStatus())}).
   */
  void apacheDriverStartTimedOut() {
    Instant at = now();
    JsonObject observed = driverPodStatus().orElse(null);
    updateStatus(
        s ->
            ApacheStatuses.append(
                orEmpty(s),
                "DriverStartTimedOut",
                ApacheStatuses.defaultMessage("DriverStartTimedOut"),
                at,
                observed));
  }

  /**
   * The Apache operator's {@code AppInitStep} when the driver pod's creation fails: {@code
   * SchedulingFailure} with {@code "Failed to request driver from scheduler backend. StackTrace: "}
   * and the exception's stack trace (the refusal of {@link #trouble}).
   */
  void apacheSchedulingFailure() {
    String pod = ApacheStatuses.driverPodName(namespace, name, 0);
    apacheAppend(
        "SchedulingFailure",
        "Failed to request driver from scheduler backend. StackTrace: "
            + trouble.submitStderr(namespace, pod).replace("Exception in thread \"main\" ", ""));
  }

  void apacheRelease() {
    deleteExecutorPods();
    deleteDriverPod();
    apacheAppend("ResourceReleased", null);
  }

  // ---- troubles after the driver runs ----

  /** The executor pods this run created, by name. */
  private final List<String> executorPods = new ArrayList<>();

  /**
   * Creates executor pod {@code n} as Spark names and labels it: {@code <prefix>-exec-<n>} (the
   * Apache operator's prefix is {@code <app>-<attempt>}), {@code spark-role=executor} and the
   * operator's app-name label, owned by the driver pod.
   */
  private String createExecutorPod(int n, UnaryOperator<DriverPodBuilder> state) {
    long attempt = apache() ? ApacheStatuses.attemptId(status().orElse(null)) : 0;
    String pod = (apache() ? name + "-" + attempt : name) + "-exec-" + n;
    DriverPodBuilder b =
        apache() ? DriverPodBuilder.apache(name, attempt) : DriverPodBuilder.kubeflow(name);
    b.namespace(namespace)
        .name(pod)
        .createdAt(now())
        .label(DriverPodBuilder.SPARK_ROLE_LABEL, "executor")
        .label(apache() ? ApacheStatuses.APP_NAME_LABEL : KubeflowStatuses.APP_NAME_LABEL, name);
    store.get(ResourceType.POD, namespace, driverPod).ifPresent(b::ownedBy);
    JsonObject json = state.apply(b).build();
    JsonObject meta = json.getAsJsonObject("metadata");
    meta.remove("uid");
    meta.remove("resourceVersion");
    meta.remove("creationTimestamp");
    store.create(ResourceType.POD, namespace, json);
    executorPods.add(pod);
    return pod;
  }

  /** Deletes the executor pods, as the garbage collector does once their driver pod is gone. */
  void deleteExecutorPods() {
    for (String pod : executorPods) {
      store.delete(ResourceType.POD, namespace, pod);
    }
  }

  /**
   * An executor killed for its memory while the driver runs: its pod terminated {@code OOMKilled}
   * with exit code 137; Kubeflow records it {@code FAILED} in {@code executorState} with the {@code
   * SparkExecutorFailed} event (kubeflow/spark-operator v2.5.2 {@code controller.go} {@code
   * recordExecutorEvent}: {@code "Executor %s failed with ExitCode: %d, Reason: %s, Pod Message:
   * %s"}); Apache writes {@code RunningWithBelowThresholdExecutors}.
   */
  void executorOomKilled() {
    Instant started = driverStartedAt != null ? driverStartedAt : now();
    Instant at = now();
    String pod =
        createExecutorPod(
            1, b -> b.terminated(137, started, at).terminationReason("OOMKilled", null));
    if (apache()) {
      apacheAppend(
          "RunningWithBelowThresholdExecutors",
          ApacheStatuses.defaultMessage("RunningWithBelowThresholdExecutors"));
      return;
    }
    updateStatus(s -> executorState(s, pod, "FAILED"));
    recordOperatorEvent(
        "Warning",
        "SparkExecutorFailed",
        "Executor " + pod + " failed with ExitCode: 137, Reason: OOMKilled, Pod Message: ");
  }

  /**
   * Executor pods the scheduler cannot place: two, {@code PodScheduled=False} with the trouble's
   * message and the scheduler's {@code FailedScheduling} event each (through the {@code
   * events.k8s.io} recorder); Kubeflow records them {@code PENDING} in {@code executorState};
   * Apache writes {@code InitializedBelowThresholdExecutors}.
   */
  void executorsUnschedulable() {
    for (int n = 1; n <= 2; n++) {
      String pod = createExecutorPod(n, b -> b.unschedulable(trouble.message()));
      JsonObject json = store.get(ResourceType.POD, namespace, pod).orElseThrow();
      putEvent(
          EventBuilder.about(json)
              .named(pod + "." + hex(pod + "/failed-scheduling"))
              .reportedBy("default-scheduler")
              .warning("FailedScheduling", trouble.message())
              .seen(1, now(), now())
              .buildSeries());
      if (!apache()) {
        updateStatus(st -> executorState(st, pod, "PENDING"));
      }
    }
    if (apache()) {
      apacheAppend(
          "InitializedBelowThresholdExecutors",
          ApacheStatuses.defaultMessage("InitializedBelowThresholdExecutors"));
    }
  }

  /** The Apache operator's {@code AppDriverTimeoutObserver} giving up on the executors. */
  void apacheExecutorsStartTimedOut() {
    apacheAppend("ExecutorsStartTimedOut", ApacheStatuses.defaultMessage("ExecutorsStartTimedOut"));
  }

  private static JsonObject executorState(JsonObject status, String pod, String state) {
    JsonObject s = status != null ? status : new JsonObject();
    JsonElement e = s.get("executorState");
    JsonObject states = e != null && e.isJsonObject() ? e.getAsJsonObject() : new JsonObject();
    states.addProperty(pod, state);
    s.add("executorState", states);
    return s;
  }

  /**
   * The driver's node lost: the scheduler's {@code Scheduled} event, the node lifecycle
   * controller's {@code NodeNotReady} on the pod, the taint eviction controller's {@code
   * TaintManagerEviction}, and the driver pod (and its executors) deleted.
   */
  void driverNodeLost() {
    Optional<JsonObject> pod =
        driverPod == null ? Optional.empty() : store.get(ResourceType.POD, namespace, driverPod);
    if (pod.isEmpty()) {
      return;
    }
    String node = trouble.message();
    Instant at = now();
    String qualified = namespace + "/" + driverPod;
    putEvent(
        EventBuilder.about(pod.get())
            .named(driverPod + "." + hex(driverPod + "/scheduled"))
            .reportedBy("default-scheduler")
            .normal("Scheduled", "Successfully assigned " + qualified + " to " + node)
            .at(driverStartedAt != null ? driverStartedAt : at)
            .buildSeries());
    putEvent(
        EventBuilder.about(pod.get())
            .named(driverPod + "." + hex(driverPod + "/node-not-ready"))
            .reportedBy("node-controller")
            .warning("NodeNotReady", "Node is not ready")
            .at(at)
            .build());
    putEvent(
        EventBuilder.about(pod.get())
            .named(driverPod + "." + hex(driverPod + "/taint-eviction"))
            .reportedBy("taint-eviction-controller")
            .normal("TaintManagerEviction", "Marking for deletion Pod " + qualified)
            .at(at)
            .build());
    deleteExecutorPods();
    deleteDriverPod();
  }

  /** The Apache operator's {@code driverUnexpectedRemoved()}: {@code Failed}, "Driver removed…". */
  void apacheDriverRemoved() {
    apacheAppend("Failed", ApacheStatuses.DRIVER_REMOVED_MESSAGE);
  }

  /**
   * The Kubeflow operator's {@code updateDriverState} for a driver pod that is gone: {@code
   * FAILING} with {@code "driver pod not found"} and the {@code SparkDriverNotFound} event.
   */
  void kubeflowDriverNotFound() {
    Instant at = now();
    updateStatus(s -> KubeflowStatuses.driverNotFound(orKubeflowEmpty(s), at));
    recordOperatorEvent(
        "Warning",
        "SparkDriverNotFound",
        "Driver pod "
            + driverPod
            + " not found after grace period 10s, marking application as Failing");
  }

  // ---- Kubeflow status ----

  void kubeflowSubmit(boolean createPod) {
    submissions++;
    driverPod = KubeflowStatuses.driverPodName(name);
    if (createPod) {
      createDriverPod(0, true);
    }
    Instant at = now();
    String submissionId = KubeflowStatuses.submissionId(uid, submissions);
    String pod = driverPod;
    updateStatus(
        s ->
            KubeflowStatuses.submitted(
                s == null ? KubeflowStatuses.empty() : s, pod, submissionId, at));
    if (trouble != null) {
      recordOperatorEvent(
          "Normal",
          "SparkApplicationSubmitted",
          "SparkApplication " + name + " was submitted successfully");
    }
  }

  /**
   * The Kubeflow operator's failed submission: {@code SUBMISSION_FAILED} with spark-submit's stderr
   * wrapped twice ({@code "failed to run spark-submit: %s"} in {@code runSparkSubmit}, again in
   * {@code Submit}), and the {@code SparkApplicationSubmissionFailed} Warning event {@code "failed
   * to submit SparkApplication %s: %s"} (kubeflow/spark-operator {@code
   * internal/controller/sparkapplication/submission.go}, {@code controller.go}). No pod.
   */
  void kubeflowSubmissionFailed() {
    submissions++;
    String pod = KubeflowStatuses.driverPodName(name);
    Instant at = now();
    String submissionId = KubeflowStatuses.submissionId(uid, submissions);
    String error =
        "failed to run spark-submit: failed to run spark-submit: "
            + trouble.submitStderr(namespace, pod);
    updateStatus(
        s ->
            KubeflowStatuses.submissionFailed(
                s == null ? KubeflowStatuses.empty() : s, pod, submissionId, at, error));
    recordOperatorEvent(
        "Warning",
        "SparkApplicationSubmissionFailed",
        "failed to submit SparkApplication " + name + ": " + error);
  }

  void kubeflowRunning() {
    driverRunning();
    String appId = KubeflowStatuses.sparkAppId(namespace, name);
    updateStatus(s -> KubeflowStatuses.running(orKubeflowEmpty(s), name, appId));
    if (trouble != null) {
      recordOperatorEvent("Normal", "SparkDriverRunning", "Driver " + driverPod + " is running");
    }
  }

  /**
   * Moves {@code SUCCEEDING}/{@code FAILING} to its end; for a run with a trouble also records the
   * operator's {@code SparkApplicationFailed} (or {@code Completed}) event.
   */
  void kubeflowTerminal() {
    updateStatus(KubeflowStatuses::terminal);
    if (trouble == null) {
      return;
    }
    JsonObject status = status().orElseGet(JsonObject::new);
    String state = KubeflowStatuses.state(status).orElse("");
    if ("FAILED".equals(state)) {
      JsonObject appState = status.getAsJsonObject("applicationState");
      String error =
          appState != null && appState.has("errorMessage")
              ? appState.get("errorMessage").getAsString()
              : "";
      recordOperatorEvent(
          "Warning", "SparkApplicationFailed", "SparkApplication " + name + " failed: " + error);
    } else if ("COMPLETED".equals(state)) {
      recordOperatorEvent(
          "Normal", "SparkApplicationCompleted", "SparkApplication " + name + " completed");
    }
  }

  void kubeflowNoticeExit() {
    Instant at = now();
    int exitCode = driverExitCode().orElse(0);
    String reason = driverTerminatedReason().orElse(exitCode == 0 ? "Completed" : "Error");
    updateStatus(s -> KubeflowStatuses.driverTerminated(orKubeflowEmpty(s), exitCode, reason, at));
    if (trouble != null) {
      if (exitCode == 0) {
        recordOperatorEvent("Normal", "SparkDriverCompleted", "Driver " + driverPod + " completed");
      } else {
        recordOperatorEvent("Warning", "SparkDriverFailed", "Driver " + driverPod + " failed");
      }
    }
  }

  // ---- driver pod ----

  void createDriverPod(long attempt, boolean pending) {
    JsonObject app = app().orElseThrow(() -> notFound());
    DriverPodBuilder b =
        apache() ? DriverPodBuilder.apache(name, attempt) : DriverPodBuilder.kubeflow(name);
    b.namespace(namespace).name(driverPod).ownedBy(app).createdAt(now());
    JsonObject labels = app.getAsJsonObject("metadata").getAsJsonObject("labels");
    if (labels != null) {
      for (Map.Entry<String, JsonElement> e : labels.entrySet()) {
        if (e.getKey().startsWith("kubejobs.dev/")
            || e.getKey().equals("app.kubernetes.io/managed-by")) {
          b.label(e.getKey(), e.getValue().getAsString());
        }
      }
    }
    if (!apache()) {
      b.label(
          KubeflowStatuses.SUBMISSION_ID_LABEL, KubeflowStatuses.submissionId(uid, submissions));
    }
    if (sidecar) {
      b.withSidecar();
    }
    if (pending) {
      b.pending();
      if (trouble != null) {
        trouble.applyTo(b);
      }
    } else {
      driverStartedAt = now();
      b.running(driverStartedAt);
    }
    JsonObject pod = b.build();
    JsonObject meta = pod.getAsJsonObject("metadata");
    meta.remove("uid");
    meta.remove("resourceVersion");
    meta.remove("creationTimestamp");
    try {
      store.create(ResourceType.POD, namespace, pod);
    } catch (FakeApiException e) {
      if (e.code() != 409) {
        throw e;
      }
      store.delete(ResourceType.POD, namespace, driverPod);
      store.create(ResourceType.POD, namespace, pod);
    }
    if (!pending) {
      writeLogs(DriverLogs.running(name, driverStartedAt));
    }
    if (pending && trouble != null && trouble.keepsDriverPending()) {
      recordTroubleEvents();
    }
  }

  /**
   * Records the events of the stuck driver pod: each one new, or, for one recorded before that the
   * component records again on each retry, once more (its count up by one, its last time now).
   */
  void recordTroubleEvents() {
    Optional<JsonObject> pod =
        driverPod == null ? Optional.empty() : store.get(ResourceType.POD, namespace, driverPod);
    if (pod.isEmpty() || trouble == null) {
      return;
    }
    Instant at = now();
    for (DriverTrouble.RecordedEvent e : trouble.events(namespace, driverPod)) {
      String eventName = driverPod + "." + hex(driverPod + "/" + e.id());
      Seen seen = recorded.get(eventName);
      if (seen != null && !e.repeats()) {
        continue;
      }
      Seen now = seen == null ? new Seen(at, 1) : new Seen(seen.first(), seen.count() + 1);
      recorded.put(eventName, now);
      EventBuilder b =
          EventBuilder.about(pod.get())
              .named(eventName)
              .reportedBy(e.component())
              .seen(now.count(), now.first(), at);
      if ("Warning".equals(e.type())) {
        b.warning(e.reason(), e.message());
      } else {
        b.normal(e.reason(), e.message());
      }
      putEvent(e.series() ? b.buildSeries() : b.build());
    }
  }

  /**
   * Records an event of the operator about the application through the {@code core/v1} recorder, as
   * the Kubeflow operator does (kubeflow/spark-operator v2.5.2, commit
   * 43afb8bbd32463037d8fb6e414e252c69081882b: {@code cmd/operator/controller/start.go} {@code
   * GetEventRecorderFor("spark-application-controller")}; {@code
   * internal/controller/sparkapplication/controller.go} {@code recordSparkApplicationEvent} and
   * {@code recordDriverEvent}).
   */
  void recordOperatorEvent(String type, String reason, String message) {
    Optional<JsonObject> app = app();
    if (app.isEmpty()) {
      return;
    }
    Instant at = now();
    String eventName = name + "." + hex(name + "/" + reason + "/" + submissions);
    EventBuilder b =
        EventBuilder.about(app.get()).named(eventName).reportedBy("spark-application-controller");
    b.at(at);
    if ("Warning".equals(type)) {
      b.warning(reason, message);
    } else {
      b.normal(reason, message);
    }
    putEvent(b.build());
  }

  private void putEvent(JsonObject event) {
    String eventName = event.getAsJsonObject("metadata").get("name").getAsString();
    JsonObject meta = event.getAsJsonObject("metadata");
    meta.remove("uid");
    if (store.get(ResourceType.EVENT, namespace, eventName).isPresent()) {
      store.update(
          ResourceType.EVENT,
          namespace,
          eventName,
          old -> {
            JsonObject next = event.deepCopy();
            next.add("metadata", old.getAsJsonObject("metadata"));
            return next;
          });
    } else {
      store.create(ResourceType.EVENT, namespace, event);
    }
  }

  private static String hex(String s) {
    return UUID.nameUUIDFromBytes(s.getBytes(StandardCharsets.UTF_8))
        .toString()
        .replace("-", "")
        .substring(0, 16);
  }

  /** When an event was first recorded and how many times. */
  private record Seen(Instant first, int count) {}

  void driverRunning() {
    driverStartedAt = now();
    Instant started = driverStartedAt;
    updatePodStatus(podBuilder().running(started).buildStatus());
    writeLogs(DriverLogs.running(name, started));
  }

  void driverExited(int scriptedExitCode) {
    Instant finished = now();
    Instant started = driverStartedAt != null ? driverStartedAt : finished;
    boolean oom =
        scriptedExitCode != 0 && trouble != null && trouble.kind() == DriverTrouble.Kind.OOM_KILLED;
    // killed by SIGKILL: 128 + 9
    int exitCode = oom ? 137 : scriptedExitCode;
    DriverPodBuilder pod = podBuilder().terminated(exitCode, started, finished);
    if (oom) {
      pod.terminationReason("OOMKilled", null);
    }
    updatePodStatus(pod.buildStatus());
    writeLogs(
        exitCode == 0
            ? DriverLogs.succeeded(name, started, finished)
            : DriverLogs.failed(name, started, finished));
  }

  boolean deleteDriverPod() {
    return driverPod != null && store.delete(ResourceType.POD, namespace, driverPod);
  }

  Optional<JsonObject> driverPodStatus() {
    if (driverPod == null) {
      return Optional.empty();
    }
    return store
        .get(ResourceType.POD, namespace, driverPod)
        .map(p -> p.get("status"))
        .filter(JsonElement::isJsonObject)
        .map(JsonElement::getAsJsonObject);
  }

  private Optional<Integer> driverExitCode() {
    return driverPodStatus()
        .flatMap(
            s -> {
              if (!s.has("containerStatuses")) {
                return Optional.empty();
              }
              for (JsonElement c : s.getAsJsonArray("containerStatuses")) {
                JsonObject cs = c.getAsJsonObject();
                if (DriverPodBuilder.DRIVER_CONTAINER.equals(cs.get("name").getAsString())
                    && cs.getAsJsonObject("state").has("terminated")) {
                  return Optional.of(
                      cs.getAsJsonObject("state")
                          .getAsJsonObject("terminated")
                          .get("exitCode")
                          .getAsInt());
                }
              }
              return Optional.empty();
            });
  }

  private Optional<String> driverTerminatedReason() {
    return driverPodStatus()
        .flatMap(
            s -> {
              if (!s.has("containerStatuses")) {
                return Optional.empty();
              }
              for (JsonElement c : s.getAsJsonArray("containerStatuses")) {
                JsonObject cs = c.getAsJsonObject();
                JsonObject state = cs.getAsJsonObject("state");
                if (DriverPodBuilder.DRIVER_CONTAINER.equals(cs.get("name").getAsString())
                    && state.has("terminated")
                    && state.getAsJsonObject("terminated").has("reason")) {
                  return Optional.of(
                      state.getAsJsonObject("terminated").get("reason").getAsString());
                }
              }
              return Optional.empty();
            });
  }

  private DriverPodBuilder podBuilder() {
    DriverPodBuilder b =
        apache()
            ? DriverPodBuilder.apache(name, ApacheStatuses.attemptId(status().orElse(null)))
            : DriverPodBuilder.kubeflow(name);
    b.namespace(namespace).name(driverPod);
    if (sidecar) {
      b.withSidecar();
    }
    return b;
  }

  private void updatePodStatus(JsonObject podStatus) {
    if (driverPod == null) {
      return;
    }
    try {
      store.update(
          ResourceType.POD,
          namespace,
          driverPod,
          p -> {
            p.add("status", podStatus);
            return p;
          });
    } catch (FakeApiException e) {
      if (e.code() != 404) {
        throw e;
      }
      // someone deleted the driver pod; a real operator would notice on its next reconcile
    }
  }

  private void writeLogs(String driverLog) {
    store.setPodLog(namespace, driverPod, DriverPodBuilder.DRIVER_CONTAINER, driverLog);
    if (sidecar) {
      store.setPodLog(
          namespace, driverPod, DriverPodBuilder.SIDECAR_CONTAINER, DriverLogs.sidecar());
    }
  }

  Optional<JsonObject> status() {
    return app()
        .map(a -> a.get("status"))
        .filter(JsonElement::isJsonObject)
        .map(JsonElement::getAsJsonObject);
  }

  List<String> remaining() {
    List<String> names = new ArrayList<>();
    for (int i = next; i < steps.size(); i++) {
      names.add(steps.get(i).name());
    }
    return names;
  }

  private FakeApiException notFound() {
    return new FakeApiException(
        404, "NotFound", type().qualifiedPlural() + " \"" + name + "\" not found");
  }

  private static JsonObject orEmpty(JsonObject status) {
    return status != null ? status : new JsonObject();
  }

  private static JsonObject orKubeflowEmpty(JsonObject status) {
    return status != null ? status : KubeflowStatuses.empty();
  }

  static boolean hasFinalizer(JsonObject app, String finalizer) {
    JsonObject meta = app.getAsJsonObject("metadata");
    if (meta == null || !meta.has("finalizers")) {
      return false;
    }
    for (JsonElement f : meta.getAsJsonArray("finalizers")) {
      if (finalizer.equals(f.getAsString())) {
        return true;
      }
    }
    return false;
  }

  static String meta(JsonObject app, String key) {
    JsonElement e = app.getAsJsonObject("metadata").get(key);
    return e == null || e.isJsonNull() ? null : e.getAsString();
  }
}
