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
package dev.kubejobs.core;

import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.Messages;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What kubejobs tells of one job: its status, when it started and finished, a message, the
 * operator's own state, the driver pod and the web UI address.
 *
 * <p>Instances are immutable and thread safe; build them with {@link #builder(JobStatus)}.
 */
public final class JobExecutionInfo {
  private final JobStatus status;
  private final Instant startedAt;
  private final Instant finishedAt;
  private final String message;
  private final String operatorState;
  private final String driverPod;
  private final String webUi;
  private final Diagnosis diagnosis;

  private JobExecutionInfo(Builder b) {
    this.status = b.status;
    this.startedAt = b.startedAt;
    this.finishedAt = b.finishedAt;
    this.message = b.message;
    this.operatorState = b.operatorState;
    this.driverPod = b.driverPod;
    this.webUi = b.webUi;
    this.diagnosis = b.diagnosis;
  }

  /**
   * Returns a builder for info with the given status.
   *
   * @param status the status
   * @return a new builder
   */
  public static Builder builder(JobStatus status) {
    return new Builder(status);
  }

  /**
   * Returns a builder holding this info's values.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    Builder b = new Builder(status);
    b.startedAt = startedAt;
    b.finishedAt = finishedAt;
    b.message = message;
    b.operatorState = operatorState;
    b.driverPod = driverPod;
    b.webUi = webUi;
    b.diagnosis = diagnosis;
    return b;
  }

  /**
   * Returns the job's status.
   *
   * @return the status
   */
  public JobStatus status() {
    return status;
  }

  /**
   * Returns when the driver started.
   *
   * @return the time, or empty if not started or not known
   */
  public Optional<Instant> startedAt() {
    return Optional.ofNullable(startedAt);
  }

  /**
   * Returns when the job finished.
   *
   * @return the time, or empty unless the status is terminal and the time known
   */
  public Optional<Instant> finishedAt() {
    return Optional.ofNullable(finishedAt);
  }

  /**
   * Returns a human-readable explanation of the status, at most {@link
   * dev.kubejobs.core.diagnosis.Messages#MAX_MESSAGE_CHARS} chars (head and tail kept).
   *
   * @return the message, empty when there is nothing to say
   */
  public String message() {
    return message;
  }

  /**
   * Returns the operator's own state string, for example {@code RunningHealthy} or {@code
   * COMPLETED}.
   *
   * @return the state, empty when the operator wrote none
   */
  public String operatorState() {
    return operatorState;
  }

  /**
   * Returns the driver pod's name.
   *
   * @return the name, or empty when not known
   */
  public Optional<String> driverPod() {
    return Optional.ofNullable(driverPod);
  }

  /**
   * Returns the Spark web UI address.
   *
   * @return the address, or empty when the operator reports none
   */
  public Optional<String> webUi() {
    return Optional.ofNullable(webUi);
  }

  /**
   * Returns why the job waits longer than expected or why it failed, when kubejobs could tell: a
   * stable cause, one sentence naming the object and what to do, and the evidence it rests on (pod
   * conditions, container states, events). A healthy job has none.
   *
   * @return the diagnosis, or empty
   */
  public Optional<Diagnosis> diagnosis() {
    return Optional.ofNullable(diagnosis);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof JobExecutionInfo other)) {
      return false;
    }
    return status == other.status
        && Objects.equals(startedAt, other.startedAt)
        && Objects.equals(finishedAt, other.finishedAt)
        && message.equals(other.message)
        && operatorState.equals(other.operatorState)
        && Objects.equals(driverPod, other.driverPod)
        && Objects.equals(webUi, other.webUi)
        && Objects.equals(diagnosis, other.diagnosis);
  }

  @Override
  public int hashCode() {
    return Objects.hash(status, startedAt, finishedAt, message, operatorState, driverPod);
  }

  @Override
  public String toString() {
    return "JobExecutionInfo{status="
        + status
        + ", startedAt="
        + startedAt
        + ", finishedAt="
        + finishedAt
        + ", operatorState="
        + operatorState
        + ", message="
        + message
        + (driverPod != null ? ", driverPod=" + driverPod : "")
        + (webUi != null ? ", webUi=" + webUi : "")
        + (diagnosis != null ? ", diagnosis=" + diagnosis.cause() : "")
        + "}";
  }

  /** Builds a {@link JobExecutionInfo}. Not thread safe. */
  public static final class Builder {
    private JobStatus status;
    private Instant startedAt;
    private Instant finishedAt;
    private String message = "";
    private String operatorState = "";
    private String driverPod;
    private String webUi;
    private Diagnosis diagnosis;

    private Builder(JobStatus status) {
      this.status = Objects.requireNonNull(status, "status");
    }

    /**
     * Sets the status.
     *
     * @param status the status
     * @return this builder
     */
    public Builder status(JobStatus status) {
      this.status = Objects.requireNonNull(status, "status");
      return this;
    }

    /**
     * Sets when the driver started.
     *
     * @param startedAt the time, or null when unknown
     * @return this builder
     */
    public Builder startedAt(Instant startedAt) {
      this.startedAt = startedAt;
      return this;
    }

    /**
     * Sets when the job finished.
     *
     * @param finishedAt the time, or null when unknown
     * @return this builder
     */
    public Builder finishedAt(Instant finishedAt) {
      this.finishedAt = finishedAt;
      return this;
    }

    /**
     * Sets the message, capped by {@link dev.kubejobs.core.diagnosis.Messages#cap(String)}: an
     * operator's message of megabytes keeps its head and tail.
     *
     * @param message the message; null means empty
     * @return this builder
     */
    public Builder message(String message) {
      this.message = Messages.cap(message);
      return this;
    }

    /**
     * Sets the operator's state string.
     *
     * @param operatorState the state; null means empty
     * @return this builder
     */
    public Builder operatorState(String operatorState) {
      this.operatorState = operatorState == null ? "" : operatorState;
      return this;
    }

    /**
     * Sets the driver pod name.
     *
     * @param driverPod the name, or null when unknown
     * @return this builder
     */
    public Builder driverPod(String driverPod) {
      this.driverPod = driverPod;
      return this;
    }

    /**
     * Sets the web UI address.
     *
     * @param webUi the address, or null when none
     * @return this builder
     */
    public Builder webUi(String webUi) {
      this.webUi = webUi;
      return this;
    }

    /**
     * Sets the diagnosis.
     *
     * @param diagnosis the diagnosis, or null for none
     * @return this builder
     */
    public Builder diagnosis(Diagnosis diagnosis) {
      this.diagnosis = diagnosis;
      return this;
    }

    /**
     * Builds the info.
     *
     * @return the info
     */
    public JobExecutionInfo build() {
      return new JobExecutionInfo(this);
    }
  }
}
