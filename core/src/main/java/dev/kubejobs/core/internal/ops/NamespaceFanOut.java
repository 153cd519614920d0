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
import dev.kubejobs.core.status.JobStatusResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the jobs of one {@code getAll} by namespace and has each namespace read once, one after
 * another on the calling thread or, given an executor, in parallel: the executor's threads take
 * namespaces from the second on while the calling thread reads the first and then every one no
 * thread took yet, so a busy or closed executor (or a call from one of its own threads) only makes
 * the read less parallel, never stuck. Results travel by position: each id is hashed once. Not a
 * published API; one per call.
 */
final class NamespaceFanOut {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceFanOut.class);

  private final Map<String, Group> byNamespace = new LinkedHashMap<>();
  private final int size;

  /**
   * Groups the jobs.
   *
   * @param ids the jobs, each once, in the order of the answer
   */
  NamespaceFanOut(Collection<ExecutionId> ids) {
    int position = 0;
    for (ExecutionId id : ids) {
      byNamespace.computeIfAbsent(id.namespace(), ns -> new Group()).add(id, position++);
    }
    this.size = position;
  }

  /** The namespaces asked, in the order first asked. */
  Set<String> namespaces() {
    return byNamespace.keySet();
  }

  /**
   * Reads every namespace once with {@code read} (a namespace and its jobs, in order, to a result
   * per job in that order).
   *
   * @param executor reads the second and later namespaces in parallel, or null for none
   * @return the results, in the order of the ids given
   */
  JobStatusResult[] read(
      Executor executor, BiFunction<String, List<ExecutionId>, JobStatusResult[]> read) {
    JobStatusResult[] results = new JobStatusResult[size];
    if (executor == null || byNamespace.size() < 2) {
      byNamespace.forEach((ns, group) -> group.place(read.apply(ns, group.ids), results));
      return results;
    }
    List<Read> reads = new ArrayList<>(byNamespace.size());
    byNamespace.forEach((ns, group) -> reads.add(new Read(ns, group, read)));
    for (Read r : reads.subList(1, reads.size())) {
      try {
        executor.execute(r::runUnlessTaken);
      } catch (RejectedExecutionException e) {
        LOG.debug("The status executor refused namespace {}; reading it on the caller", r.ns);
      }
    }
    reads.forEach(Read::runUnlessTaken);
    reads.forEach(r -> r.group.place(join(r.result), results));
    return results;
  }

  /** One namespace's jobs, and where each stands in the answer. */
  private static final class Group {
    final List<ExecutionId> ids = new ArrayList<>();
    int[] positions = new int[8];

    void add(ExecutionId id, int position) {
      if (ids.size() == positions.length) {
        positions = Arrays.copyOf(positions, positions.length * 2);
      }
      positions[ids.size()] = position;
      ids.add(id);
    }

    void place(JobStatusResult[] read, JobStatusResult[] results) {
      for (int i = 0; i < read.length; i++) {
        results[positions[i]] = read[i];
      }
    }
  }

  /** One namespace of a parallel read, read by whichever thread takes it first. */
  private static final class Read {
    final String ns;
    final Group group;
    final BiFunction<String, List<ExecutionId>, JobStatusResult[]> read;
    final AtomicBoolean taken = new AtomicBoolean();
    final CompletableFuture<JobStatusResult[]> result = new CompletableFuture<>();

    Read(String ns, Group group, BiFunction<String, List<ExecutionId>, JobStatusResult[]> read) {
      this.ns = ns;
      this.group = group;
      this.read = read;
    }

    void runUnlessTaken() {
      if (!taken.compareAndSet(false, true)) {
        return;
      }
      try {
        result.complete(read.apply(ns, group.ids));
      } catch (RuntimeException | Error e) {
        result.completeExceptionally(e);
      }
    }
  }

  private static JobStatusResult[] join(CompletableFuture<JobStatusResult[]> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }
}
