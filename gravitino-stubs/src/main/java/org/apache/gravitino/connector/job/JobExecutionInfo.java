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
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.NonNull;
import lombok.ToString;
import lombok.experimental.Accessors;
import org.apache.gravitino.job.JobHandle;

/**
 * Stand-in for Gravitino's {@code org.apache.gravitino.connector.job.JobExecutionInfo}: a snapshot
 * of a job's execution as a {@link JobExecutor} reports it — the status, and when the job actually
 * started and finished. The times belong to the job, not to a status: once a job has started, every
 * later snapshot, the terminal one included, carries its start time.
 *
 * <p>Like the original, a Lombok class with the same annotations ({@code @Getter}, fluent
 * {@code @Accessors}, {@code @EqualsAndHashCode}, {@code @ToString}, a private all-arguments
 * constructor and {@code @Builder(setterPrefix = "with", toBuilder = true)}), compiled with the
 * Lombok version Gravitino's build uses, so Lombok generates the same members: the builder class
 * {@code JobExecutionInfo.JobExecutionInfoBuilder} with {@code withStatus}, {@code withStartedAt},
 * {@code withFinishedAt} and {@code build}; the accessors {@code status()}, {@code startedAt()},
 * {@code finishedAt()}. kubejobs-gravitino's {@code SpiShapeTest} compares every public member with
 * the real classes' {@code javap} output. See the {@linkplain org.apache.gravitino.connector.job
 * package} for the commit it mirrors. Immutable.
 */
@Getter
@Accessors(fluent = true)
@EqualsAndHashCode
@ToString
@AllArgsConstructor(access = AccessLevel.PRIVATE)
@Builder(setterPrefix = "with", toBuilder = true)
public final class JobExecutionInfo {
  /** The job's status, never null. */
  @NonNull private final JobHandle.Status status;

  /** When the job actually started executing; null when it has not or the executor cannot tell. */
  private final Instant startedAt;

  /** When the job actually finished; null when it has not or the executor cannot tell. */
  private final Instant finishedAt;

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
}
