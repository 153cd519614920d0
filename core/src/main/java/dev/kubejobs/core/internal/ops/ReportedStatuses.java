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
package dev.kubejobs.core.internal.ops;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The highest status one {@code KubeJobs} instance reported per job, so its statuses never go
 * backwards and a terminal one never changes; and which resource (uid) it reported gone ({@code
 * NoSuchJobException}), so that resource never comes back: a deleted object does not exist again,
 * and a copy of it seen later (from a watch lagging behind the read that found it gone) is older
 * than that read. A resource under the same name with another uid is a new one (a submit made
 * again) and is reported. Not a published API; thread safe.
 *
 * <p>Bounded: it remembers the {@code capacity} most recently reported jobs (least recently read
 * first out). A job holds its status (an enum reference) while unfinished and its terminal info
 * once ended, a few hundred bytes per job: at the default 50,000 jobs, under about 25 MB at worst.
 * A job evicted and read again starts from what the cluster shows. The same bound holds what this
 * instance knows of how it ended a job itself (its confirmed cancel): per instance, no state shared
 * between instances.
 */
final class ReportedStatuses {
  /** How many jobs an instance remembers by default. */
  static final int DEFAULT_CAPACITY = 50_000;

  private final Map<ExecutionId, Seen> seen;
  private final BiConsumer<ExecutionId, JobExecutionInfo> onChange;

  ReportedStatuses(int capacity) {
    this(capacity, null);
  }

  /**
   * Creates the floor.
   *
   * @param capacity how many jobs it remembers
   * @param onChange told, in the order of the changes, each time a job's reported status changes
   *     (its first report included); called under the floor's lock, so it must only hand the change
   *     on (for example to a queue); null for none
   */
  ReportedStatuses(int capacity, BiConsumer<ExecutionId, JobExecutionInfo> onChange) {
    this.onChange = onChange;
    this.seen =
        new LinkedHashMap<>(256, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<ExecutionId, Seen> eldest) {
            return size() > capacity;
          }
        };
  }

  /**
   * What this reader remembers of a job, or null when nothing: one look, so a read can tell a job
   * that ended, a job reported gone without a uid, and a reading that {@link #raise} would report
   * unchanged ({@link Seen#holds}) without asking again.
   */
  synchronized Seen seen(ExecutionId id) {
    return seen.get(id);
  }

  /** The terminal info reported for a job, if it ended. */
  synchronized Optional<JobExecutionInfo> terminal(ExecutionId id) {
    Seen s = seen.get(id);
    return s == null ? Optional.empty() : Optional.ofNullable(s.terminal);
  }

  /** What a new reading of a job comes to once held against what was reported before. */
  sealed interface Raised permits Raised.Report, Raised.GoneBefore {
    /** Report this info: the reading, raised to the highest status reported so far. */
    record Report(JobExecutionInfo info) implements Raised {}

    /**
     * The reading is of a resource this reader already reported gone: the copy is older than the
     * read that found it deleted (a watch event still on its way), so the job stays gone.
     */
    record GoneBefore() implements Raised {}
  }

  /**
   * Returns what to report for a new reading of the resource with {@code uid}: the terminal info
   * already reported; {@link Raised.GoneBefore} when that very resource was reported gone; or the
   * reading raised to the highest status reported so far. Remembers the result and the uid.
   *
   * @param uid the uid of the copy read, or null when unknown
   */
  synchronized Raised raise(ExecutionId id, JobExecutionInfo reading, String uid) {
    Seen s = seen.get(id);
    if (s != null && s.terminal != null) {
      return new Raised.Report(s.terminal);
    }
    if (s != null && s.gone) {
      if (uid != null && uid.equals(s.uid)) {
        return new Raised.GoneBefore();
      }
      // Another resource under the job's name: a new one, reported from scratch.
      s = null;
    }
    JobExecutionInfo out = reading;
    if (s != null
        && s.cancelled != null
        && reading.status().isTerminal()
        && reading.status() != JobStatus.CANCELLED
        && (uid == null || uid.equals(s.uid))) {
      // This instance cancelled that resource (its mark landed, its delete was confirmed): the
      // job ended as its cancel, whatever a later copy shows.
      out = s.cancelled;
    }
    if (s != null && s.status != null && rank(out.status()) < rank(s.status)) {
      out = out.toBuilder().status(s.status).build();
    }
    String known = uid != null ? uid : s == null ? null : s.uid;
    if (s == null
        || s.status != out.status()
        || out.status().isTerminal()
        || !Objects.equals(known, s.uid)) {
      // Unchanged: the get above already marked the job as recently read.
      boolean sameResource = s != null && Objects.equals(known, s.uid);
      seen.put(
          id,
          new Seen(
              out.status(),
              out.status().isTerminal() ? out : null,
              known,
              false,
              out.status().isTerminal() || !sameResource ? null : s.cancelled));
    }
    if (onChange != null && (s == null || s.status != out.status())) {
      onChange.accept(id, out);
    }
    return new Raised.Report(out);
  }

  /**
   * Remembers that this instance cancelled the resource {@code uid} of a job: its cancel mark
   * landed and its delete was confirmed. From then on this instance reports {@code cancelled} (a
   * CANCELLED info) once the resource is found gone ({@link #goneAfterCancel}) and for any terminal
   * reading of that resource, while the job stays in this bounded memory. Nothing changes for a job
   * that already ended.
   */
  synchronized void cancelledHere(ExecutionId id, String uid, JobExecutionInfo cancelled) {
    Objects.requireNonNull(uid, "uid");
    if (cancelled.status() != JobStatus.CANCELLED) {
      throw new IllegalArgumentException(
          "a cancel ends a job CANCELLED, not " + cancelled.status());
    }
    Seen s = seen.get(id);
    if (s != null && s.terminal != null) {
      return;
    }
    boolean sameResource = s != null && uid.equals(s.uid);
    seen.put(id, new Seen(s == null ? null : s.status, null, uid, false, cancelled));
  }

  /**
   * The job's resource was found gone: when this instance cancelled it ({@link #cancelledHere}),
   * the job is CANCELLED, reported (and kept) from now on.
   *
   * @return the CANCELLED info, or empty when this instance did not cancel the job
   */
  synchronized Optional<JobExecutionInfo> goneAfterCancel(ExecutionId id) {
    Seen s = seen.get(id);
    if (s == null || s.cancelled == null) {
      return Optional.empty();
    }
    return raise(id, s.cancelled, s.uid) instanceof Raised.Report report
        ? Optional.of(report.info())
        : Optional.empty();
  }

  /** Whether a status was reported for the job and it has neither ended nor gone. */
  synchronized boolean follows(ExecutionId id) {
    Seen s = seen.get(id);
    return s != null && s.terminal == null && !s.gone;
  }

  /**
   * Remembers that the job's resource was reported gone, unless the job ended before (it keeps its
   * terminal info). Later readings of that resource (the uid of the last reading reported, or
   * {@code uid}) answer {@link Raised.GoneBefore} in {@link #raise(ExecutionId, JobExecutionInfo,
   * String)}; when no uid is known, none can be told apart and every later reading is reported.
   *
   * @param uid the uid of the copy that was found gone, or null to use the last one reported
   */
  synchronized void gone(ExecutionId id, String uid) {
    Seen s = seen.get(id);
    if (s != null && s.terminal != null) {
      return;
    }
    String goneUid = uid != null ? uid : s == null ? null : s.uid;
    seen.put(id, new Seen(s == null ? null : s.status, null, goneUid, true, null));
  }

  synchronized int size() {
    return seen.size();
  }

  /** QUEUED, then STARTED, then CANCELLING, then any terminal status. */
  static int rank(JobStatus status) {
    return switch (status) {
      case QUEUED -> 0;
      case STARTED -> 1;
      case CANCELLING -> 2;
      case SUCCEEDED, FAILED, CANCELLED -> 3;
    };
  }

  /**
   * What was reported of one job.
   *
   * @param status the highest status, null when the job was reported gone before any status
   * @param terminal the terminal info, once ended
   * @param uid the uid of the resource last reported (or reported gone), null when unknown
   * @param gone whether that resource was reported gone
   * @param cancelled the CANCELLED info of this instance's own confirmed cancel of that resource;
   *     null when it did not cancel it
   */
  record Seen(
      JobStatus status,
      JobExecutionInfo terminal,
      String uid,
      boolean gone,
      JobExecutionInfo cancelled) {

    /**
     * Whether the job was reported gone without a uid to tell its resource by (the reader had not
     * reported it before): a copy of it from a list or a watch may then be older than the read that
     * found it gone, and only a fresh read tells a late copy from a new resource.
     */
    boolean goneWithoutUid() {
      return gone && uid == null;
    }

    /**
     * Whether a reading of {@code status} from the resource {@code uid} is what was reported last
     * of that same resource, unfinished: {@link #raise} would report it as it is and remember
     * nothing new. A read that looked before it began may then report it without {@code raise}: a
     * change made meanwhile (by a read or a cancel on another thread) is one that read overlapped.
     */
    boolean holds(JobStatus status, String uid) {
      return terminal == null
          && !gone
          && this.status == status
          && uid != null
          && uid.equals(this.uid);
    }
  }
}
