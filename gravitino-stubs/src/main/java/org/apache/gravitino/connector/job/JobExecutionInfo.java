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
package org.apache.gravitino.connector.job;

import java.time.Instant;
import java.util.Objects;
import org.apache.gravitino.job.JobHandle;

/**
 * Stand-in for Gravitino's {@code org.apache.gravitino.connector.job.JobExecutionInfo}: a snapshot
 * of a job's execution as a {@link JobExecutor} reports it — the status, and when the job actually
 * started and finished. The times belong to the job, not to a status: once a job has started, every
 * later snapshot, the terminal one included, carries its start time. Same factory, builder ({@code
 * withStatus}, {@code withStartedAt}, {@code withFinishedAt}) and accessors as the original (which
 * Lombok generates); see the {@linkplain org.apache.gravitino.connector.job package} for the commit
 * it mirrors. Immutable.
 */
public final class JobExecutionInfo {
  private final JobHandle.Status status;
  private final Instant startedAt;
  private final Instant finishedAt;

  private JobExecutionInfo(Builder b) {
    this.status = Objects.requireNonNull(b.status, "status");
    this.startedAt = b.startedAt;
    this.finishedAt = b.finishedAt;
  }

  /**
   * Returns a snapshot carrying only a status, no times.
   *
   * @param status the job's status
   * @return the snapshot
   */
  public static JobExecutionInfo of(JobHandle.Status status) {
    return builder().withStatus(status).build();
  }

  /**
   * Returns a new builder.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder holding this snapshot's values.
   *
   * @return the builder
   */
  public Builder toBuilder() {
    return builder().withStatus(status).withStartedAt(startedAt).withFinishedAt(finishedAt);
  }

  /**
   * Returns a copy moved to STARTED with the given start time.
   *
   * @param startedAt when the job started, not null
   * @return the snapshot of the started job
   * @throws IllegalArgumentException if {@code startedAt} is null
   */
  public JobExecutionInfo started(Instant startedAt) {
    if (startedAt == null) {
      throw new IllegalArgumentException("The started time must not be null");
    }
    return toBuilder().withStatus(JobHandle.Status.STARTED).withStartedAt(startedAt).build();
  }

  /**
   * Returns a copy moved to a terminal status with the given finish time; the start time is kept.
   *
   * @param terminalStatus SUCCEEDED, FAILED or CANCELLED
   * @param finishedAt when the job finished, not null
   * @return the snapshot of the finished job
   * @throws IllegalArgumentException if the status is not terminal or the time is null
   */
  public JobExecutionInfo finished(JobHandle.Status terminalStatus, Instant finishedAt) {
    if (terminalStatus != JobHandle.Status.SUCCEEDED
        && terminalStatus != JobHandle.Status.FAILED
        && terminalStatus != JobHandle.Status.CANCELLED) {
      throw new IllegalArgumentException(
          "The status of a finished job must be SUCCEEDED, FAILED or CANCELLED, but got: "
              + terminalStatus);
    }
    if (finishedAt == null) {
      throw new IllegalArgumentException("The finished time must not be null");
    }
    return toBuilder().withStatus(terminalStatus).withFinishedAt(finishedAt).build();
  }

  /**
   * Returns the job's status.
   *
   * @return the status, never null
   */
  public JobHandle.Status status() {
    return status;
  }

  /**
   * Returns when the job actually started executing.
   *
   * @return the time, or null when it has not started or the executor does not know
   */
  public Instant startedAt() {
    return startedAt;
  }

  /**
   * Returns when the job actually finished.
   *
   * @return the time, or null when it has not finished or the executor does not know
   */
  public Instant finishedAt() {
    return finishedAt;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JobExecutionInfo i
        && i.status == status
        && Objects.equals(i.startedAt, startedAt)
        && Objects.equals(i.finishedAt, finishedAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(status, startedAt, finishedAt);
  }

  @Override
  public String toString() {
    return "JobExecutionInfo(status="
        + status
        + ", startedAt="
        + startedAt
        + ", finishedAt="
        + finishedAt
        + ")";
  }

  /** Builds a {@link JobExecutionInfo}; not thread safe. */
  public static final class Builder {
    private JobHandle.Status status;
    private Instant startedAt;
    private Instant finishedAt;

    private Builder() {}

    /**
     * Sets the status.
     *
     * @param status the status, required
     * @return this builder
     */
    public Builder withStatus(JobHandle.Status status) {
      this.status = status;
      return this;
    }

    /**
     * Sets when the job started.
     *
     * @param startedAt the time, or null
     * @return this builder
     */
    public Builder withStartedAt(Instant startedAt) {
      this.startedAt = startedAt;
      return this;
    }

    /**
     * Sets when the job finished.
     *
     * @param finishedAt the time, or null
     * @return this builder
     */
    public Builder withFinishedAt(Instant finishedAt) {
      this.finishedAt = finishedAt;
      return this;
    }

    /**
     * Builds the snapshot.
     *
     * @return the snapshot
     * @throws NullPointerException if no status was set
     */
    public JobExecutionInfo build() {
      return new JobExecutionInfo(this);
    }
  }
}
