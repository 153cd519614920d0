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
package dev.kubejobs.core.status;

import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link JobStatusReader#getAll} tells of one job: its execution info, or the typed error that
 * {@link JobStatusReader#get} would have thrown for it — so one job's failure never hides the
 * others. Immutable and thread safe.
 *
 * <pre>{@code
 * reader.getAll(ids).forEach((id, result) -> {
 *   if (result.isGone()) { ... the resource is confirmed gone ... }
 *   else result.info().ifPresentOrElse(info -> record(id, info.status()),
 *       () -> log.warn("no status for {} this round", id, result.error().orElseThrow()));
 * });
 * }</pre>
 */
public final class JobStatusResult {
  private final JobExecutionInfo info;
  private final KubeJobsException error;

  private JobStatusResult(JobExecutionInfo info, KubeJobsException error) {
    this.info = info;
    this.error = error;
  }

  /**
   * Returns a result holding the job's info.
   *
   * @param info the info
   * @return the result
   * @throws NullPointerException if {@code info} is null
   */
  public static JobStatusResult of(JobExecutionInfo info) {
    return new JobStatusResult(Objects.requireNonNull(info, "info"), null);
  }

  /**
   * Returns a result holding the error reading the job.
   *
   * @param error the error {@link JobStatusReader#get} would throw
   * @return the result
   * @throws NullPointerException if {@code error} is null
   */
  public static JobStatusResult failed(KubeJobsException error) {
    return new JobStatusResult(null, Objects.requireNonNull(error, "error"));
  }

  /**
   * Returns the job's info, when it was read.
   *
   * @return the info, or empty when {@link #error()} is present
   */
  public Optional<JobExecutionInfo> info() {
    return Optional.ofNullable(info);
  }

  /**
   * Returns the error reading the job, when it was not read.
   *
   * @return the error, or empty when {@link #info()} is present
   */
  public Optional<KubeJobsException> error() {
    return Optional.ofNullable(error);
  }

  /**
   * Tells whether a fresh read confirmed the job's resource is gone (a {@link NoSuchJobException}).
   *
   * @return true when the error is a {@link NoSuchJobException}
   */
  public boolean isGone() {
    return error instanceof NoSuchJobException;
  }

  /**
   * Returns the info, or throws the error, as {@link JobStatusReader#get} would have.
   *
   * @return the info
   * @throws KubeJobsException the error reading the job
   */
  public JobExecutionInfo orElseThrow() {
    if (error != null) {
      throw error;
    }
    return info;
  }

  @Override
  public String toString() {
    return info != null
        ? "JobStatusResult{" + info.status() + "}"
        : "JobStatusResult{" + error.getClass().getSimpleName() + ": " + error.getMessage() + "}";
  }
}
