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
package dev.kubejobs.core.sweep;

import java.time.Instant;
import java.util.Objects;

/**
 * One resource a sweep acted on or reports: an orphan, or the resource of a job that ended longer
 * ago than {@link SweepRequest#endedJobsKeptFor()}; {@link #cause()} tells which.
 *
 * <p>Immutable and thread safe.
 *
 * @param namespace the resource's namespace
 * @param name the resource's name
 * @param uid the resource's uid as listed (the delete's precondition)
 * @param jobId the raw job id from its {@code kubejobs.dev/job-id} annotation, empty if it had none
 * @param createdAt its {@code creationTimestamp}, or null if it had none
 * @param outcome what the sweep did
 * @param detail why, for {@link Outcome#FAILED}, {@link Outcome#REPLACED} and the others: the
 *     server's message or a short explanation; never empty
 * @param cause why the sweep dealt with it
 */
public record SweepEntry(
    String namespace,
    String name,
    String uid,
    String jobId,
    Instant createdAt,
    Outcome outcome,
    String detail,
    Cause cause) {

  /** Why a sweep dealt with a resource. */
  public enum Cause {
    /** The caller does not know its job and it is older than the grace period. */
    ORPHAN,
    /** Its job ended (by the status mapper) longer ago than {@code endedJobsKeptFor}. */
    ENDED_PAST_RETENTION
  }

  /** What a sweep did with one orphan. */
  public enum Outcome {
    /** The delete was accepted: the resource is gone or being deleted. */
    DELETED,
    /** Dry run: the resource would have been deleted. */
    WOULD_DELETE,
    /** The delete answered 404: the resource was gone already (another sweep, a cancel). */
    ALREADY_GONE,
    /** The resource already had a {@code deletionTimestamp}; nothing was sent. */
    ALREADY_DELETING,
    /**
     * The delete's uid precondition failed (409): the name now belongs to a new resource, which was
     * left alone.
     */
    REPLACED,
    /**
     * The delete failed (403, 5xx, ...), the known-jobs predicate threw, or the job's status could
     * not be decided; see the detail.
     */
    FAILED,
    /**
     * Kept, and reported so the caller learns why: an ended job of a known id whose status tells no
     * end time, so its retention cannot be judged.
     */
    KEPT
  }

  /**
   * Creates the entry of an {@link Cause#ORPHAN orphan}.
   *
   * @param namespace the resource's namespace
   * @param name the resource's name
   * @param uid the resource's uid
   * @param jobId the raw job id, empty if none
   * @param createdAt its creation time, or null
   * @param outcome what the sweep did
   * @param detail why
   * @throws NullPointerException if a part other than {@code createdAt} is null
   */
  public SweepEntry(
      String namespace,
      String name,
      String uid,
      String jobId,
      Instant createdAt,
      Outcome outcome,
      String detail) {
    this(namespace, name, uid, jobId, createdAt, outcome, detail, Cause.ORPHAN);
  }

  /**
   * Creates an entry.
   *
   * @throws NullPointerException if a part other than {@code createdAt} is null
   */
  public SweepEntry {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(cause, "cause");
  }

  /** Returns {@code namespace/name (job id): OUTCOME detail}, the cause named unless an orphan. */
  @Override
  public String toString() {
    return namespace
        + "/"
        + name
        + " (job "
        + jobId
        + (cause == Cause.ORPHAN ? "" : ", ended past retention")
        + "): "
        + outcome
        + " "
        + detail;
  }
}
