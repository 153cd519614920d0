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
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The highest status one {@code KubeJobs} instance reported per job, so its statuses never go
 * backwards and a terminal one never changes. Not a published API; thread safe.
 *
 * <p>Bounded: it remembers the {@code capacity} most recently reported jobs (least recently read
 * first out). A job holds its status (an enum reference) while unfinished and its terminal info
 * once ended, a few hundred bytes per job: at the default 50,000 jobs, under about 25 MB at worst.
 * A job evicted and read again starts from what the cluster shows.
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

  /** The terminal info reported for a job, if it ended. */
  synchronized Optional<JobExecutionInfo> terminal(ExecutionId id) {
    Seen s = seen.get(id);
    return s == null ? Optional.empty() : Optional.ofNullable(s.terminal);
  }

  /**
   * Returns what to report for a new reading: the terminal info already reported, or the reading
   * raised to the highest status reported so far; remembers the result.
   */
  synchronized JobExecutionInfo raise(ExecutionId id, JobExecutionInfo reading) {
    Seen s = seen.get(id);
    if (s != null && s.terminal != null) {
      return s.terminal;
    }
    JobExecutionInfo out = reading;
    if (s != null && rank(reading.status()) < rank(s.status)) {
      out = reading.toBuilder().status(s.status).build();
    }
    if (s == null || s.status != out.status() || out.status().isTerminal()) {
      // Unchanged: the get above already marked the job as recently read.
      seen.put(id, new Seen(out.status(), out.status().isTerminal() ? out : null));
    }
    if (onChange != null && (s == null || s.status != out.status())) {
      onChange.accept(id, out);
    }
    return out;
  }

  /** Whether a status was reported for the job and it has not ended. */
  synchronized boolean follows(ExecutionId id) {
    Seen s = seen.get(id);
    return s != null && s.terminal == null;
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

  private record Seen(JobStatus status, JobExecutionInfo terminal) {}
}
