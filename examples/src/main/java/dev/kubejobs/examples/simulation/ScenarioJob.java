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
package dev.kubejobs.examples.simulation;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One job of a {@link RaceSimulation} scenario and what each node saw of it. Its maps are guarded
 * by the job's monitor; actions on several threads share it.
 */
final class ScenarioJob {
  final String jobId;
  final SparkAppPath path;
  final boolean orphan;
  volatile ExecutionId id;

  /** A cancel returned, or failed saying it may have been applied: the scheduler's own cancel. */
  volatile boolean cancelAsked;

  /** Cancels under way; guarded by this job's monitor. */
  private int cancelsInFlight;

  /** Per node, every status it read, in the order its reads returned. */
  private final Map<String, List<Read>> seen = new HashMap<>();

  /** Reads of this job returned so far, by any node; guarded by this job's monitor. */
  private long returned;

  /**
   * One status a node read.
   *
   * @param status the status
   * @param returnedAt how many reads of the job had returned once this one did, itself included
   */
  record Read(JobStatus status, long returnedAt) {}

  /** Per node, the terminal status it recorded (the first one it read). */
  final Map<String, JobStatus> recorded = new HashMap<>();

  /**
   * The nodes whose record came from {@code NoSuchJobException} (the scheduler's guess from its own
   * cancels), not from a status kubejobs read.
   */
  final java.util.Set<String> guessed = new java.util.HashSet<>();

  ScenarioJob(String jobId, SparkAppPath path, boolean orphan) {
    this.jobId = jobId;
    this.path = path;
    this.orphan = orphan;
  }

  /**
   * A read of this job begins: returns the mark {@link #returned(String, JobStatus)} needs to tell
   * the reads that returned before it began (whose order is known) from those it overlapped (whose
   * order is not: two reads on two threads may come back in either order).
   */
  synchronized long readBegins() {
    return returned;
  }

  /**
   * A node's read returned {@code status}: returns the statuses of the node's reads that returned
   * before this one began (in order), then keeps this one.
   */
  synchronized List<JobStatus> returned(String node, long begunAt, JobStatus status) {
    List<Read> reads = seen.computeIfAbsent(node, k -> new ArrayList<>());
    List<JobStatus> before = new ArrayList<>();
    for (Read r : reads) {
      if (r.returnedAt() <= begunAt) {
        before.add(r.status());
      }
    }
    reads.add(new Read(status, ++returned));
    return before;
  }

  /** The statuses a node read, in the order its reads returned. */
  synchronized List<JobStatus> seenBy(String node) {
    return seen.getOrDefault(node, List.of()).stream().map(Read::status).toList();
  }

  synchronized void cancelStarts() {
    cancelsInFlight++;
  }

  synchronized void cancelEnds() {
    cancelsInFlight--;
    notifyAll();
  }

  /** Waits for the cancels under way to end; whether one of them was the scheduler's own. */
  synchronized boolean awaitCancels() {
    while (cancelsInFlight > 0) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for a cancel", e);
      }
    }
    return cancelAsked;
  }
}
