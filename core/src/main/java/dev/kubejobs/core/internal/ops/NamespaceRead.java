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
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.ops.DriverPodLocator.Located;
import dev.kubejobs.core.internal.ops.StatusPipeline.Purpose;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.status.JobStatusResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status reader's protocol for the jobs of one namespace. A read takes these steps per
 * namespace, each at most once per call:
 *
 * <ol>
 *   <li>the namespace's list (cached for the cache period, shared with concurrent callers), or a
 *       GET for a job not in it;
 *   <li>when a copy from a list sent before the question was asked would end a job (or needs its
 *       driver pod), the job is read again: with its own GET when it is the only one, else with one
 *       LIST of the namespace, not one GET per job; a job gone from that list is confirmed with a
 *       GET ({@link NoSuchJobException} when it is gone);
 *   <li>the driver pods of the jobs that need them, with one labelled pod LIST (per 200 jobs) when
 *       the job kind can select several jobs' pods at once ({@link
 *       dev.kubejobs.core.spi.JobKind#driverPodsSelector});
 *   <li>each job's follow-up (a delete), one job at a time.
 * </ol>
 *
 * <p>Each status decided is held against what the reader reported ({@link ReportedFloor}); a job
 * found gone keeps the terminal status reported for it. Thread safe: namespaces may be read in
 * parallel ({@link NamespaceFanOut}).
 */
final class NamespaceRead {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceRead.class);

  private final KubeJobsContext<?> ctx;
  private final Duration ttl;
  private final StatusPipeline pipeline;
  private final DiagnosisStep diagnosis;
  private final StatusCache cache;
  private final ReportedStatuses reported;
  private final WatchSource watch;
  private final ReportedFloor floor;
  private final GoneJobs gone;

  /**
   * The protocol of one reader.
   *
   * @param ctx the shared context
   * @param ttl how long a namespace's list serves reads; zero reads each job with a GET
   * @param pipeline decides each job's status
   * @param diagnosis diagnoses a job stuck or just failed
   * @param cache the namespaces' lists
   * @param reported what the reader reported of each job
   * @param watch the namespaces' watches, or null when the reader polls
   * @param floor holds each decided status against what the reader reported
   * @param gone settles the jobs a read found gone by kubejobs' record of how they ended
   */
  NamespaceRead(
      KubeJobsContext<?> ctx,
      Duration ttl,
      StatusPipeline pipeline,
      DiagnosisStep diagnosis,
      StatusCache cache,
      ReportedStatuses reported,
      WatchSource watch,
      ReportedFloor floor,
      GoneJobs gone) {
    this.ctx = ctx;
    this.ttl = ttl;
    this.pipeline = pipeline;
    this.diagnosis = diagnosis;
    this.cache = cache;
    this.reported = reported;
    this.watch = watch;
    this.floor = floor;
    this.gone = gone;
  }

  /** One job on its way: where its answer goes, what this reader saw of it, its copy. */
  private static final class Candidate {
    final ExecutionId id;
    final int index;
    final ReportedStatuses.Seen seen;
    Listing.Copy copy;

    Candidate(ExecutionId id, int index, ReportedStatuses.Seen seen) {
      this.id = id;
      this.index = index;
      this.seen = seen;
    }
  }

  /**
   * Reads the jobs of one namespace.
   *
   * @return per job, in the order of {@code ids}, its info or the failure that stopped it
   */
  JobStatusResult[] readNamespace(String ns, List<ExecutionId> ids, long asked) {
    return gone.settleGone(ns, ids, readCopies(ns, ids, asked));
  }

  private JobStatusResult[] readCopies(String ns, List<ExecutionId> ids, long asked) {
    JobStatusResult[] out = new JobStatusResult[ids.size()];
    // 0. What this reader remembers of each job: one look each. A job that ended keeps its info
    // and needs no request; a namespace whose jobs all ended is not listed.
    ReportedStatuses.Seen[] seen = new ReportedStatuses.Seen[out.length];
    int open = 0;
    for (int i = 0; i < out.length; i++) {
      ReportedStatuses.Seen s = reported.seen(ids.get(i));
      if (s != null && s.terminal() != null) {
        out[i] = JobStatusResult.of(s.terminal());
      } else {
        seen[i] = s;
        open++;
      }
    }
    if (open == 0) {
      return out;
    }
    Listing listing = watch == null ? null : watch.live(ns);
    if (listing == null && !ttl.isZero()) {
      try {
        listing = cache.listing(ns, ids.get(0));
      } catch (KubeJobsException e) {
        for (int i = 0; i < out.length; i++) {
          if (out[i] == null) {
            out[i] = JobStatusResult.failed(e);
          }
        }
        return out;
      }
    }
    // 1. A copy per job, and its mapping without the driver pod.
    List<Candidate> candidates = new ArrayList<>(open);
    List<Candidate> stale = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      if (out[i] != null) {
        continue;
      }
      ExecutionId id = ids.get(i);
      Candidate c = new Candidate(id, i, seen[i]);
      try {
        // Reported gone with no uid known: a listed copy may be older than that read (a watch
        // lagging behind the GET that found it gone), so only a GET may bring the job back.
        boolean goneBefore = seen[i] != null && seen[i].goneWithoutUid();
        c.copy = listing == null || goneBefore ? null : listing.copy(id, asked, pipeline);
        if (c.copy == null) {
          readDirectly(c);
        }
        candidates.add(c);
        if (!c.copy.fresh() && c.copy.mayEnd()) {
          stale.add(c);
        }
      } catch (KubeJobsException e) {
        out[i] = fail(id, e);
      }
    }
    // 2. What a copy read before the question would end is read again: one LIST, or the job's own
    // GET when it is the only one (a get(id) per job: the namespace's LIST would be sent again for
    // every job that ended since the last list, and it costs the API server the whole namespace).
    Listing again = stale.isEmpty() || watch == null ? null : watch.live(ns);
    if (stale.size() == 1 && again == null) {
      Candidate c = stale.get(0);
      LOG.debug("Reading job '{}' again before ending it on a copy read before the question", c.id);
      try {
        readDirectly(c);
      } catch (KubeJobsException e) {
        out[c.index] = fail(c.id, e);
        candidates.remove(c);
      }
    } else if (!stale.isEmpty()) {
      LOG.debug(
          "Listing namespace {} again before ending {} job(s) on copies read before the question",
          ns,
          stale.size());
      try {
        if (again == null) {
          again = cache.fresh(ns, asked, stale.get(0).id);
        }
      } catch (KubeJobsException e) {
        for (Candidate c : stale) {
          out[c.index] = fail(c.id, e);
        }
        candidates.removeAll(stale);
        again = null;
      }
      if (again != null) {
        for (Candidate c : stale) {
          try {
            c.copy = again.copy(c.id, asked, pipeline);
            if (c.copy == null) {
              readDirectly(c);
            }
          } catch (KubeJobsException e) {
            out[c.index] = fail(c.id, e);
            candidates.remove(c);
          }
        }
      }
    }
    // 3. The driver pods wanted by several jobs, with one pod LIST where the kind allows (a lone
    // job's pod is looked up by the pipeline in step 4).
    Map<ExecutionId, Located> pods = candidates.size() < 2 ? Map.of() : driverPods(ns, candidates);
    // 4. Decide (the one pipeline: driver pod, follow-up), diagnose a job stuck or just failed
    // (its namespace's events listed once, at the first such job), hold against the floor.
    DiagnosisStep.NamespaceEvents events = null;
    for (Candidate c : candidates) {
      try {
        Listing.Copy copy = c.copy;
        // A report's copy is held only when it still needs a step (an end mark to withdraw).
        ResourceSnapshot app =
            copy.alone() instanceof MappingDecision.Report ? copy.app() : copy.held();
        StatusPipeline.Decided decided =
            pipeline.decide(c.id, app, copy.alone(), pods.get(c.id), Purpose.READ);
        JobExecutionInfo info = decided.info();
        Instant now = ctx.clock().instant();
        ResourceSnapshot decidedOn = decided.app() != null ? decided.app() : copy.app();
        if (diagnosis.wanted(info, decidedOn, now) && decidedOn != null) {
          events = events != null ? events : diagnosis.eventsOf(ns);
          info = diagnosis.diagnose(c.id, info, decidedOn, decided.pod(), events, now);
        }
        out[c.index] = JobStatusResult.of(floor.floor(c.id, info, copy.uid(), c.seen));
      } catch (KubeJobsException e) {
        out[c.index] = fail(c.id, e);
      }
    }
    return out;
  }

  /** The driver pods of the candidates whose mapping asks for one, looked up together. */
  private Map<ExecutionId, Located> driverPods(String ns, List<Candidate> candidates) {
    Map<ExecutionId, ResourceSnapshot> wanting = new LinkedHashMap<>();
    for (Candidate c : candidates) {
      if (c.copy.alone() instanceof MappingDecision.NeedDriverPod) {
        wanting.put(c.id, c.copy.held());
      }
    }
    return pipeline.locator().locateAll(ns, wanting);
  }

  /** Reads a job with a GET: the copy is fresh. */
  private void readDirectly(Candidate c) {
    ResourceSnapshot app = pipeline.fresh(c.id);
    c.copy = new Listing.Copy(app.uid(), app, pipeline.mapAlone(c.id, app), true);
  }

  /**
   * A job's failure; a job confirmed gone after a terminal status keeps that status, so statuses
   * never go backwards and a terminal one never changes. A resource confirmed gone without one
   * stays gone for this reader: a copy of it seen later can only be older than the read that found
   * it gone (a watch event still on its way) and must not bring it back.
   */
  private JobStatusResult fail(ExecutionId id, KubeJobsException e) {
    if (e instanceof NoSuchJobException) {
      Optional<JobExecutionInfo> done = reported.terminal(id);
      if (done.isPresent()) {
        LOG.debug("Job '{}' is gone after it ended {}; keeping that", id, done.get().status());
        return JobStatusResult.of(done.get());
      }
      Optional<JobExecutionInfo> cancelled = reported.goneAfterCancel(id);
      if (cancelled.isPresent()) {
        // This instance cancelled it: its mark landed and its delete was confirmed.
        LOG.debug("Job '{}' is gone after this instance cancelled it; reporting CANCELLED", id);
        return JobStatusResult.of(cancelled.get());
      }
      // An end mark this reader wrote, whose delete lost its answer, does not make the job FAILED
      // once it is gone: that delete was never confirmed, and the operator may have acted since
      // (another node then withdrew the mark and cancelled the job). The record tells how
      // (GoneJobs.settleGone, docs/outcome-record.md); without one the job is gone.
    }
    return JobStatusResult.failed(e);
  }
}
