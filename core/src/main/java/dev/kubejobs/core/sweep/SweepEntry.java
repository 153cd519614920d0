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
 * One orphan a sweep found, and what became of it.
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
 */
public record SweepEntry(
    String namespace,
    String name,
    String uid,
    String jobId,
    Instant createdAt,
    Outcome outcome,
    String detail) {

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
    /** The delete failed (403, 5xx, ...) or the known-jobs predicate threw; see the detail. */
    FAILED
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
  }

  /** Returns {@code namespace/name (job id): OUTCOME detail}. */
  @Override
  public String toString() {
    return namespace + "/" + name + " (job " + jobId + "): " + outcome + " " + detail;
  }
}
