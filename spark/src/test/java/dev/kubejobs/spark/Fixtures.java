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
package dev.kubejobs.spark;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.spi.CancelMark;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** SparkApplications and driver pods for mapper tests, built as JSON. */
final class Fixtures {
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  static final String NAME = "kj-nightly-etl";
  static final String NAMESPACE = "etl";

  /**
   * The Apache operator's 18 v1 application states ({@code currentStateSummary}), as the testkit
   * lists them; {@code SparkStatusMapperTest} checks them against the CRD.
   */
  static final List<String> APACHE_V1_STATES = ApacheStatuses.STATES;

  private Fixtures() {}

  static Instant at(int minutes) {
    return T0.plusSeconds(60L * minutes);
  }

  /** A SparkApplication under construction. */
  static final class App {
    private final JsonObject json = new JsonObject();

    private App(String apiVersion) {
      json.addProperty("apiVersion", apiVersion);
      json.addProperty("kind", "SparkApplication");
      JsonObject metadata = new JsonObject();
      metadata.addProperty("name", NAME);
      metadata.addProperty("namespace", NAMESPACE);
      metadata.addProperty("uid", "0b5e6c1e-1111-4c1a-9e4f-000000000001");
      metadata.addProperty("resourceVersion", "42");
      metadata.addProperty("creationTimestamp", T0.toString());
      JsonObject labels = new JsonObject();
      labels.addProperty(JobIdentity.LABEL_MANAGED_BY, "kubejobs");
      labels.addProperty(JobIdentity.LABEL_JOB_ID, "nightly-etl");
      labels.addProperty(JobIdentity.LABEL_DEPLOYMENT, "prod");
      metadata.add("labels", labels);
      JsonObject annotations = new JsonObject();
      annotations.addProperty(JobIdentity.ANNOTATION_JOB_ID, "nightly-etl");
      metadata.add("annotations", annotations);
      json.add("metadata", metadata);
      json.add("spec", new JsonObject());
    }

    static App apache() {
      App app = new App("spark.apache.org/v1");
      app.restartPolicy("Never");
      return app;
    }

    static App kubeflow() {
      return new App("sparkoperator.k8s.io/v1beta2");
    }

    App name(String name) {
      json.getAsJsonObject("metadata").addProperty("name", name);
      return this;
    }

    App restartPolicy(String policy) {
      JsonObject restart = new JsonObject();
      restart.addProperty("restartPolicy", policy);
      JsonObject tolerations = new JsonObject();
      tolerations.add("restartConfig", restart);
      json.getAsJsonObject("spec").add("applicationTolerations", tolerations);
      return this;
    }

    App status(String statusJson) {
      json.add("status", JsonParser.parseString(statusJson));
      return this;
    }

    /**
     * Apache status: the states in order, keys "0".."n", one minute apart from minute 1, and the
     * last one as the current state.
     */
    App states(String... states) {
      JsonObject status = new JsonObject();
      JsonObject history = new JsonObject();
      for (int i = 0; i < states.length; i++) {
        history.add(Integer.toString(i), state(states[i], at(i + 1), ""));
      }
      status.add("currentState", state(states[states.length - 1], at(states.length), ""));
      status.add("stateTransitionHistory", history);
      json.add("status", status);
      return this;
    }

    /** Sets the current state's (and last history entry's) message. */
    App stateMessage(String message) {
      JsonObject status = json.getAsJsonObject("status");
      status.getAsJsonObject("currentState").addProperty("message", message);
      JsonObject history = status.getAsJsonObject("stateTransitionHistory");
      String last = Integer.toString(history.size() - 1);
      history.getAsJsonObject(last).addProperty("message", message);
      return this;
    }

    App attempt(long id) {
      JsonObject info = new JsonObject();
      info.addProperty("id", id);
      JsonObject summary = new JsonObject();
      summary.add("attemptInfo", info);
      json.getAsJsonObject("status").add("currentAttemptSummary", summary);
      return this;
    }

    /**
     * Kubeflow status with the given state and the usual fields of a first attempt: {@code
     * executionAttempts} 1 in the states that follow the first successful submission (the
     * operator's {@code submitSparkApplication} counts it), absent in the others.
     */
    App kubeflowState(String state) {
      JsonObject status = new JsonObject();
      JsonObject appState = new JsonObject();
      appState.addProperty("state", state);
      status.add("applicationState", appState);
      JsonObject driverInfo = new JsonObject();
      if (!state.isEmpty()) {
        driverInfo.addProperty("podName", NAME + "-driver");
        status.addProperty("lastSubmissionAttemptTime", at(1).toString());
        status.addProperty("submissionAttempts", 1);
        if (Set.of("SUBMITTED", "RUNNING", "SUCCEEDING", "FAILING", "COMPLETED", "FAILED")
            .contains(state)) {
          status.addProperty("executionAttempts", 1);
        }
      }
      status.add("driverInfo", driverInfo);
      json.add("status", status);
      return this;
    }

    /** Sets a Kubeflow status field to a number, for example {@code executionAttempts}. */
    App statusNumber(String field, long value) {
      json.getAsJsonObject("status").addProperty(field, value);
      return this;
    }

    /** Sets a Kubeflow status field to a time, for example {@code lastSubmissionAttemptTime}. */
    App statusTime(String field, Instant value) {
      json.getAsJsonObject("status").addProperty(field, value.toString());
      return this;
    }

    /** Sets Kubeflow's {@code spec.restartPolicy}; a null retry count is left out. */
    App kubeflowRestartPolicy(String type, Integer onFailureRetries) {
      JsonObject policy = new JsonObject();
      policy.addProperty("type", type);
      if (onFailureRetries != null) {
        policy.addProperty("onFailureRetries", onFailureRetries);
        policy.addProperty("onSubmissionFailureRetries", onFailureRetries);
      }
      json.getAsJsonObject("spec").add("restartPolicy", policy);
      return this;
    }

    JsonObject statusObject() {
      return json.getAsJsonObject("status");
    }

    App cancelMark(CancelMark mark) {
      json.getAsJsonObject("metadata")
          .getAsJsonObject("annotations")
          .addProperty(JobIdentity.ANNOTATION_CANCEL_REQUESTED, mark.toString());
      return this;
    }

    App cancelMark(Instant at) {
      json.getAsJsonObject("metadata")
          .getAsJsonObject("annotations")
          .addProperty(JobIdentity.ANNOTATION_CANCEL_REQUESTED, at.toString());
      return this;
    }

    /**
     * Marks the application as being deleted; an Apache one keeps its operator's finalizer until
     * the operator released it, a Kubeflow one has none (the delete removes it at once).
     */
    App deleting(Instant at) {
      json.getAsJsonObject("metadata").addProperty("deletionTimestamp", at.toString());
      if (json.get("apiVersion").getAsString().startsWith("spark.apache.org/")) {
        JsonArray finalizers = new JsonArray();
        finalizers.add("sparkapplications.spark.apache.org/finalizer");
        json.getAsJsonObject("metadata").add("finalizers", finalizers);
      }
      return this;
    }

    ResourceSnapshot snapshot() {
      return ResourceSnapshot.of(json);
    }
  }

  static JsonObject state(String summary, Instant at, String message) {
    JsonObject s = new JsonObject();
    s.addProperty("currentStateSummary", summary);
    s.addProperty("lastTransitionTime", at.toString());
    if (!message.isEmpty()) {
      s.addProperty("message", message);
    }
    return s;
  }

  /** A driver pod under construction. */
  static final class Pod {
    private final JsonObject json = new JsonObject();
    private final List<JsonObject> containers = new ArrayList<>();
    private String phase = "Pending";

    private Pod(String name) {
      json.addProperty("apiVersion", "v1");
      json.addProperty("kind", "Pod");
      JsonObject metadata = new JsonObject();
      metadata.addProperty("name", name);
      metadata.addProperty("namespace", NAMESPACE);
      json.add("metadata", metadata);
    }

    static Pod named(String name) {
      return new Pod(name);
    }

    Pod running(Instant startedAt) {
      phase = "Running";
      JsonObject running = new JsonObject();
      running.addProperty("startedAt", startedAt.toString());
      containers.add(container("spark-kubernetes-driver", "running", running));
      return this;
    }

    Pod terminated(int exitCode, Instant startedAt, Instant finishedAt) {
      phase = exitCode == 0 ? "Succeeded" : "Failed";
      JsonObject t = new JsonObject();
      t.addProperty("exitCode", exitCode);
      t.addProperty("reason", exitCode == 0 ? "Completed" : "Error");
      t.addProperty("startedAt", startedAt.toString());
      t.addProperty("finishedAt", finishedAt.toString());
      containers.add(container("spark-kubernetes-driver", "terminated", t));
      return this;
    }

    /** Adds a sidecar that keeps running, listed before the driver container. */
    Pod sidecarFirst(Instant startedAt) {
      JsonObject running = new JsonObject();
      running.addProperty("startedAt", startedAt.toString());
      containers.add(0, container("istio-proxy", "running", running));
      return this;
    }

    Pod phase(String phase) {
      this.phase = phase;
      return this;
    }

    Pod deleting(Instant at) {
      json.getAsJsonObject("metadata").addProperty("deletionTimestamp", at.toString());
      return this;
    }

    private static JsonObject container(String name, String stateName, JsonObject state) {
      JsonObject c = new JsonObject();
      c.addProperty("name", name);
      JsonObject s = new JsonObject();
      s.add(stateName, state);
      c.add("state", s);
      return c;
    }

    ResourceSnapshot snapshot() {
      JsonObject status = new JsonObject();
      status.addProperty("phase", phase);
      JsonArray statuses = new JsonArray();
      containers.forEach(statuses::add);
      status.add("containerStatuses", statuses);
      JsonObject copy = json.deepCopy();
      copy.add("status", status);
      return ResourceSnapshot.of(copy);
    }
  }
}
