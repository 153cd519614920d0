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
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.sweep.SweepReport;
import dev.kubejobs.testkit.ResourceEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants of issue 8, one method each, checked for one {@link RaceSimulation} scenario
 * against the fake server's {@link EventLog} and what the nodes read; each broken one becomes a
 * {@link Violation}. Thread safe: actions on several threads report here.
 */
final class Invariants {
  private final ScenarioPlan plan;
  private final EventLog log;

  /** The uids of the resources kubejobs must never touch (unmanaged, another deployment's). */
  private final Set<String> bystanders = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final List<Violation> violations = new ArrayList<>();

  Invariants(ScenarioPlan plan, EventLog log) {
    this.plan = plan;
    this.log = log;
  }

  /** Remembers a resource kubejobs does not manage, for (c). */
  void bystander(String uid) {
    bystanders.add(uid);
  }

  /** The violations found so far, in the order found. */
  List<Violation> violations() {
    synchronized (violations) {
      return List.copyOf(violations);
    }
  }

  /**
   * (a) Each recorded terminal status is one the server's event log allows (see {@link Truth}), and
   * both nodes agree.
   */
  void recordedOutcomesAreAllowedAndAgreed() {
    List<EventLog.Entry> ordered = log.ordered();
    for (ScenarioJob job : plan.jobs) {
      if (job.orphan || job.id == null || job.recorded.isEmpty()) {
        continue;
      }
      String uid = lastUid(ordered, job.id.name());
      if (uid == null) {
        violation('a', job.jobId + " was never created on the server");
        continue;
      }
      Truth truth = Truth.of(ordered, uid, plan.flavor, job.path);
      Set<JobStatus> distinct = new HashSet<>(job.recorded.values());
      Set<String> guessed = new HashSet<>(job.guessed);
      guessed.retainAll(job.recorded.keySet());
      if (distinct.size() == 1 && !guessed.isEmpty() && guessed.size() < job.recorded.size()) {
        // kubejobs told one node how the job ended and another only that it is gone: the nodes
        // agree only because the scheduler guessed right. Counted apart from the violations.
        violation(
            INHERENT,
            "kubejobs told "
                + job.recorded.keySet().stream().filter(n -> !guessed.contains(n)).toList()
                + " that "
                + job.jobId
                + " ended "
                + distinct.iterator().next()
                + " and "
                + guessed
                + " only that it is gone; the server saw:"
                + truth.story());
      }
      if (distinct.size() > 1) {
        // A node that read the job gone recorded the scheduler's guess: without a record of how
        // the job ended, no node could have known better. Counted apart from the violations.
        violation(
            guessed.isEmpty() ? 'a' : INHERENT,
            "the nodes disagree on "
                + job.jobId
                + ": "
                + job.recorded
                + "; the server saw:"
                + truth.story());
      }
      for (Map.Entry<String, JobStatus> r : job.recorded.entrySet()) {
        if (!truth.allowed().contains(r.getValue())) {
          violation(
              'a',
              r.getKey()
                  + " recorded "
                  + job.jobId
                  + " "
                  + r.getValue()
                  + " but the server saw:"
                  + truth.story()
                  + " -> "
                  + (truth.allowed().isEmpty() ? "no terminal status" : truth.allowed()));
        }
      }
    }
  }

  /**
   * (b) A node's statuses never go backwards and a terminal one never changes: checks a status a
   * node just read against those it read before. Only reads that returned before this one began
   * count: two reads that overlap (two threads of one node) may return in either order, as two
   * concurrent calls of any API may. Call under the job's monitor.
   *
   * @param before what the node read of the job before this read began, in order
   * @param how how the status was read (empty, or " (NoSuchJob)")
   */
  void neverBackwards(
      String node, ScenarioJob job, List<JobStatus> before, JobStatus status, String how) {
    for (JobStatus last : before) {
      if (last.isTerminal() && status != last) {
        violation(
            'b',
            node
                + " saw "
                + job.jobId
                + " "
                + last
                + " then "
                + status
                + how
                + ": a terminal status changed");
        return;
      } else if (rank(status) < rank(last)) {
        violation(
            'b', node + " saw " + job.jobId + " " + last + " then " + status + how + ": backwards");
        return;
      }
    }
  }

  /**
   * (c) Nothing unmanaged or of another deployment is marked or deleted. Reports the first one
   * touched.
   */
  void nothingUnmanagedTouched() {
    for (EventLog.Entry e : log.ordered()) {
      if (e.pod() || !bystanders.contains(e.uid()) || e.kind() == ResourceEvent.Kind.ADDED) {
        continue;
      }
      if (e.deleting()
          || e.annotations().has(JobIdentity.ANNOTATION_CANCEL_REQUESTED)
          || e.annotations().has(JobIdentity.ANNOTATION_ENDED)) {
        violation(
            'c',
            "kubejobs touched "
                + e.name()
                + " ("
                + (e.deleting() ? "deleted" : "mark")
                + "), which it does not manage or which belongs to another deployment");
        return;
      }
    }
  }

  /**
   * (d) The sweep deletes the orphan and no known job.
   *
   * @param mark the event log's size before the sweep
   * @param report what the sweep answered
   */
  void sweepDeletedTheOrphanOnly(int mark, SweepReport report) {
    Set<String> knownNames = new HashSet<>();
    for (ScenarioJob job : plan.jobs) {
      if (!job.orphan && job.id != null) {
        knownNames.add(job.id.name());
      }
    }
    boolean orphanDeleted = false;
    ScenarioJob orphan = plan.jobs.get(plan.jobs.size() - 1);
    ExecutionId orphanId = orphan.id;
    for (EventLog.Entry e : log.since(mark)) {
      if (e.pod() || !e.deleting()) {
        continue;
      }
      if (orphanId != null && orphanId.name().equals(e.name())) {
        orphanDeleted = true;
      } else if (knownNames.contains(e.name())) {
        violation('d', "the sweep deleted known job " + e.name());
      }
    }
    if (orphanId != null && !orphanDeleted) {
      violation('d', "the sweep left the orphan " + orphanId.name() + ": " + report.summary());
    }
  }

  /** (e) Never two SparkApplications at once for one job id. */
  void oneApplicationPerJob() {
    Map<String, Set<String>> alive = new HashMap<>();
    for (EventLog.Entry e : log.ordered()) {
      if (e.pod() || bystanders.contains(e.uid())) {
        continue;
      }
      String jobId = EventLog.string(e.labels(), JobIdentity.LABEL_JOB_ID);
      if (jobId == null) {
        continue;
      }
      Set<String> uids = alive.computeIfAbsent(jobId, k -> new HashSet<>());
      if (e.kind() == ResourceEvent.Kind.DELETED) {
        uids.remove(e.uid());
      } else {
        uids.add(e.uid());
        if (uids.size() > 1) {
          violation('e', "two SparkApplications at once for job id " + jobId + ": " + uids);
        }
      }
    }
  }

  /** (e) No conflict for our own job id: a submit of it never answers JobConflictException. */
  void noConflictForOwnJob(String node, ScenarioJob job, KubeJobsException e) {
    if (e instanceof dev.kubejobs.core.JobConflictException) {
      violation(
          'e',
          node
              + " submit of "
              + job.jobId
              + " answered JobConflictException for the same job id and deployment: "
              + e.getMessage());
    }
  }

  /** (f) Only documented exceptions: public {@link KubeJobsException}s. */
  void documentedException(String node, String call, RuntimeException e) {
    if (!(e instanceof KubeJobsException) || e.getClass().getName().contains(".internal.")) {
      violation('f', node + " " + call + " threw an undocumented " + e);
    }
  }

  /** (f) The scenario itself, or one of its concurrent actions, threw. */
  void threw(String what) {
    violation('f', what);
  }

  /**
   * (g) What the operator did wins: once faults clear and the operator settled, every node's
   * recorded outcome of a job is the one the operator wrote (when it wrote one before any
   * deletion), never one kubejobs' own end mark decided against it.
   */
  void operatorOutcomeIsEveryNodes() {
    List<EventLog.Entry> ordered = log.ordered();
    for (ScenarioJob job : plan.jobs) {
      if (job.orphan || job.id == null || job.recorded.isEmpty()) {
        continue;
      }
      String uid = lastUid(ordered, job.id.name());
      if (uid == null) {
        continue;
      }
      Truth truth = Truth.of(ordered, uid, plan.flavor, job.path);
      if (truth.operatorOutcome() == null) {
        continue;
      }
      for (Map.Entry<String, JobStatus> r : job.recorded.entrySet()) {
        if (r.getValue() != truth.operatorOutcome()) {
          violation(
              'g',
              r.getKey()
                  + " recorded "
                  + job.jobId
                  + " "
                  + r.getValue()
                  + " but the operator's outcome is "
                  + truth.operatorOutcome()
                  + "; the server saw:"
                  + truth.story());
        }
      }
    }
  }

  /**
   * (h) A resource carrying an operator status is deleted only by a cancel: the copy that first
   * shows its deletion carries the cancel mark. The orphan (the sweep's) and bystanders aside.
   */
  void deletedWithAStatusOnlyByACancel() {
    Set<String> orphanNames = new HashSet<>();
    for (ScenarioJob job : plan.jobs) {
      if (job.orphan && job.id != null) {
        orphanNames.add(job.id.name());
      }
    }
    Set<String> withStatus = new HashSet<>();
    Set<String> deleted = new HashSet<>();
    for (EventLog.Entry e : log.ordered()) {
      if (e.pod() || bystanders.contains(e.uid()) || orphanNames.contains(e.name())) {
        continue;
      }
      if (deleted.contains(e.uid())) {
        continue;
      }
      if (e.deleting()) {
        deleted.add(e.uid());
        if (withStatus.contains(e.uid())
            && !e.annotations().has(JobIdentity.ANNOTATION_CANCEL_REQUESTED)) {
          violation(
              'h',
              "kubejobs deleted "
                  + e.name()
                  + " (uid "
                  + e.uid()
                  + ", at "
                  + e.rv()
                  + "), which carried an operator status, without a cancel"
                  + (e.annotations().has(JobIdentity.ANNOTATION_ENDED)
                      ? " (it carried an end mark)"
                      : ""));
        }
        continue;
      }
      if (Truth.isOperatorStatus(plan.flavor, e.status())) {
        withStatus.add(e.uid());
      }
    }
  }

  /** (g) Once faults clear, every job reaches a terminal status on both nodes. */
  void ended(String node, ScenarioJob job) {
    if (!job.orphan && !job.recorded.containsKey(node)) {
      violation(
          'g',
          node
              + " never saw "
              + job.jobId
              + " end once faults cleared; it saw "
              + job.seenBy(node));
    }
  }

  /** (g) A concurrent action did not finish: something hangs. */
  void hung(String what) {
    violation('g', what);
  }

  /** The uid of the last application of that name the server created, or null. */
  static String lastUid(List<EventLog.Entry> ordered, String name) {
    String uid = null;
    for (EventLog.Entry e : ordered) {
      if (!e.pod() && e.kind() == ResourceEvent.Kind.ADDED && name.equals(e.name())) {
        uid = e.uid();
      }
    }
    return uid;
  }

  /** The letter of an inherent disagreement: nodes disagree because one read the job gone. */
  static final char INHERENT = 'i';

  private void violation(char invariant, String what) {
    synchronized (violations) {
      violations.add(new Violation(plan.seed, plan.concurrent, invariant, plan.description, what));
    }
  }

  /** QUEUED, then STARTED or CANCELLING, then any terminal status. */
  private static int rank(JobStatus s) {
    switch (s) {
      case QUEUED:
        return 0;
      case STARTED:
      case CANCELLING:
        return 1;
      default:
        return 2;
    }
  }
}
