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
package dev.kubejobs.core.diagnosis;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the {@link Diagnoser} is given about one job: the application's name and the operator's
 * status, the job's mapped state and how long it has been in it, the driver pod and executor pods
 * when they were read, and the events of the namespace when they could be read.
 *
 * <p>The JSON objects are read, never changed; the caller must not change them while a diagnosis
 * runs. Immutable once built.
 */
public final class DiagnosisInput {
  private final String namespace;
  private final String applicationKind;
  private final String applicationName;
  private final JobStatus status;
  private final Duration waited;
  private final Instant now;
  private final JsonObject operatorStatus;
  private final JsonObject driverPod;
  private final List<JsonObject> executorPods;
  private final List<ClusterEvent> events;
  private final String eventsNotRead;
  private final Map<String, String> applicationLabels;

  private DiagnosisInput(Builder b) {
    this.namespace = b.namespace;
    this.applicationKind = b.applicationKind;
    this.applicationName = b.applicationName;
    this.status = b.status;
    this.waited = b.waited;
    this.now = b.now;
    this.operatorStatus = b.operatorStatus;
    this.driverPod = b.driverPod;
    this.executorPods = List.copyOf(b.executorPods);
    this.events = List.copyOf(b.events);
    this.eventsNotRead = b.eventsNotRead;
    this.applicationLabels = Map.copyOf(b.applicationLabels);
  }

  /**
   * Starts an input for one application.
   *
   * @param namespace the application's namespace
   * @param applicationKind the resource kind, e.g. {@code SparkApplication}
   * @param applicationName the application's name
   * @param status the job's mapped status
   * @param now the time of the diagnosis
   * @return a new builder
   * @throws NullPointerException if an argument is {@code null}
   * @throws IllegalArgumentException if a name is blank
   */
  public static Builder builder(
      String namespace,
      String applicationKind,
      String applicationName,
      JobStatus status,
      Instant now) {
    return new Builder(namespace, applicationKind, applicationName, status, now);
  }

  /**
   * Returns the application's namespace.
   *
   * @return the namespace
   */
  public String namespace() {
    return namespace;
  }

  /**
   * Returns the application's kind, e.g. {@code SparkApplication}.
   *
   * @return the kind
   */
  public String applicationKind() {
    return applicationKind;
  }

  /**
   * Returns the application's name.
   *
   * @return the name
   */
  public String applicationName() {
    return applicationName;
  }

  /**
   * Returns the job's mapped status.
   *
   * @return the status
   */
  public JobStatus status() {
    return status;
  }

  /**
   * Returns how long the job has been in its status.
   *
   * @return the duration, not negative
   */
  public Duration waited() {
    return waited;
  }

  /**
   * Returns the time of the diagnosis.
   *
   * @return the time
   */
  public Instant now() {
    return now;
  }

  /**
   * Returns the application's {@code status} object as the operator wrote it.
   *
   * @return the status, or empty when the application has none
   */
  public Optional<JsonObject> operatorStatus() {
    return Optional.ofNullable(operatorStatus);
  }

  /**
   * Returns the driver pod.
   *
   * @return the pod, or empty when it was not read or does not exist
   */
  public Optional<JsonObject> driverPod() {
    return Optional.ofNullable(driverPod);
  }

  /**
   * Returns the executor pods that were read.
   *
   * @return an unmodifiable list, empty when none were read
   */
  public List<JsonObject> executorPods() {
    return executorPods;
  }

  /**
   * Returns the events of the application's namespace that were read.
   *
   * @return an unmodifiable list
   */
  public List<ClusterEvent> events() {
    return events;
  }

  /**
   * Returns why events could not be read, e.g. a missing permission.
   *
   * @return the reason, or empty when events were read
   */
  public Optional<String> eventsNotRead() {
    return Optional.ofNullable(eventsNotRead);
  }

  /**
   * Returns the application resource's labels, e.g. Kueue's {@code kueue.x-k8s.io/queue-name}.
   *
   * @return an unmodifiable map, empty when none were given
   */
  public Map<String, String> applicationLabels() {
    return applicationLabels;
  }

  /** Builds a {@link DiagnosisInput}; not thread safe. */
  public static final class Builder {
    private final String namespace;
    private final String applicationKind;
    private final String applicationName;
    private final JobStatus status;
    private final Instant now;
    private Duration waited = Duration.ZERO;
    private JsonObject operatorStatus;
    private JsonObject driverPod;
    private final List<JsonObject> executorPods = new ArrayList<>();
    private final List<ClusterEvent> events = new ArrayList<>();
    private String eventsNotRead;
    private final Map<String, String> applicationLabels = new LinkedHashMap<>();

    private Builder(
        String namespace,
        String applicationKind,
        String applicationName,
        JobStatus status,
        Instant now) {
      this.namespace = requireName(namespace, "namespace");
      this.applicationKind = requireName(applicationKind, "applicationKind");
      this.applicationName = requireName(applicationName, "applicationName");
      this.status = Objects.requireNonNull(status, "status");
      this.now = Objects.requireNonNull(now, "now");
    }

    private static String requireName(String value, String setting) {
      Objects.requireNonNull(value, setting);
      if (value.isBlank()) {
        throw new IllegalArgumentException(setting + " must not be blank, but was '" + value + "'");
      }
      return value;
    }

    /**
     * Sets how long the job has been in its status (default zero).
     *
     * @param waited the duration, not negative
     * @return this builder
     * @throws IllegalArgumentException if {@code waited} is negative
     */
    public Builder waited(Duration waited) {
      Objects.requireNonNull(waited, "waited");
      if (waited.isNegative()) {
        throw new IllegalArgumentException("waited must not be negative, but was " + waited);
      }
      this.waited = waited;
      return this;
    }

    /**
     * Sets the application's {@code status} object.
     *
     * @param operatorStatus the status, or {@code null} when the application has none
     * @return this builder
     */
    public Builder operatorStatus(JsonObject operatorStatus) {
      this.operatorStatus = operatorStatus;
      return this;
    }

    /**
     * Sets the driver pod.
     *
     * @param driverPod the pod, or {@code null} when not read or absent
     * @return this builder
     */
    public Builder driverPod(JsonObject driverPod) {
      this.driverPod = driverPod;
      return this;
    }

    /**
     * Adds executor pods.
     *
     * @param pods the pods
     * @return this builder
     */
    public Builder executorPods(List<JsonObject> pods) {
      pods.forEach(p -> executorPods.add(Objects.requireNonNull(p, "executor pod")));
      return this;
    }

    /**
     * Adds events, in either shape {@link ClusterEvent#of} reads.
     *
     * @param eventObjects the event objects
     * @return this builder
     */
    public Builder events(List<JsonObject> eventObjects) {
      eventObjects.forEach(e -> events.add(ClusterEvent.of(e)));
      return this;
    }

    /**
     * Records that events could not be read, and why.
     *
     * @param reason e.g. {@code "forbidden: list events in namespace jobs"}
     * @return this builder
     */
    public Builder eventsNotRead(String reason) {
      this.eventsNotRead = Objects.requireNonNull(reason, "reason");
      return this;
    }

    /**
     * Adds the application resource's labels.
     *
     * @param labels the labels
     * @return this builder
     */
    public Builder applicationLabels(Map<String, String> labels) {
      labels.forEach(
          (k, v) ->
              applicationLabels.put(
                  Objects.requireNonNull(k, "label key"), Objects.requireNonNull(v, "label")));
      return this;
    }

    /**
     * Builds the input.
     *
     * @return a new input
     */
    public DiagnosisInput build() {
      return new DiagnosisInput(this);
    }
  }
}
