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
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The jobs whose resource a watch saw change, each once until taken: the watch adds (on its own
 * thread), the status reader takes them on a thread of its own and reads them again. Data flows one
 * way: the watch never calls into the reader. Not a published API; thread safe.
 */
final class ChangedJobs {
  private final Set<ExecutionId> pending = new LinkedHashSet<>();
  private boolean closed;

  /** Records that a job changed; returns at once. Ignored once closed. */
  synchronized void add(ExecutionId id) {
    if (!closed && pending.add(id)) {
      notifyAll();
    }
  }

  /**
   * Waits until at least one job changed, and takes every changed job.
   *
   * @return the jobs, in the order they first changed; empty once closed
   * @throws InterruptedException if interrupted while waiting
   */
  synchronized Optional<List<ExecutionId>> take() throws InterruptedException {
    while (pending.isEmpty() && !closed) {
      wait();
    }
    if (closed) {
      return Optional.empty();
    }
    List<ExecutionId> taken = new ArrayList<>(pending);
    pending.clear();
    return Optional.of(taken);
  }

  /** Wakes up every taker, which then gets empty; later changes are dropped. Idempotent. */
  synchronized void close() {
    closed = true;
    pending.clear();
    notifyAll();
  }
}
