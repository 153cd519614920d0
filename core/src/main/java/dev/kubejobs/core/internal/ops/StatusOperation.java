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

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.internal.DaemonThreads;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.ops.DriverPodLocator.Located;
import dev.kubejobs.core.internal.ops.StatusPipeline.Purpose;
import dev.kubejobs.core.internal.watch.WatchSettings;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.status.JobStatusListener;
import dev.kubejobs.core.status.JobStatusReader;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.core.status.StatusSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads job statuses: copies from the {@link StatusCache} or the {@link WatchSource} (or one GET
 * per job), each decided by the one {@link StatusPipeline}, reported through a per-job floor
 * ({@link ReportedStatuses}) so that a status never goes backwards. Not a published API; thread
 * safe.
 *
 * <p>A read takes these steps per namespace, each at most once per call:
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
 * <p>Namespaces are read one after another on the calling thread, or in parallel ({@link
 * NamespaceFanOut}).
 *
 * @param <S> the job spec type
 */
public final class StatusOperation<S> implements JobStatusReader, CancelDecisions {
  private static final Logger LOG = LoggerFactory.getLogger(StatusOperation.class);

  /**
   * How long {@link #close()} waits for each of its threads to finish what it was given before it
   * interrupts it (a read in flight, a listener still being told).
   */
  public static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  /** The label selector of the status LIST. */
  public static final String SELECTOR =
      JobIdentity.LABEL_MANAGED_BY + "=" + JobIdentity.MANAGED_BY_VALUE;

  private final KubeJobsContext<S> ctx;
  private final Duration ttl;
  private final StatusPipeline pipeline;
  private final DiagnosisStep diagnosis;
  private final StatusCache cache;
  private final Executor executor;
  private final ListenerDispatch dispatch;
  private final ReportedStatuses reported;
  private final WatchSource watch;
  private final DaemonThreads.Pool refresher;
  private final OutcomeRecord record;

  /**
   * Creates the operation, reading namespaces one after another.
   *
   * @param ctx the shared context
   * @param ttl how long a namespace's list serves reads; zero reads each job with a GET
   */
  public StatusOperation(KubeJobsContext<S> ctx, Duration ttl) {
    this(
        ctx,
        ttl,
        null,
        null,
        StatusSource.polling(),
        Duration.ZERO,
        dev.kubejobs.core.diagnosis.Diagnoser.DEFAULT_STUCK_AFTER);
  }

  /**
   * Creates the operation.
   *
   * @param ctx the shared context
   * @param ttl how long a namespace's list serves reads; zero reads each job with a GET
   * @param executor runs the namespaces of one {@code getAll} in parallel, or null to read them one
   *     after another on the calling thread
   * @param listener told of each change of a reported status, on a thread of its own; or null
   * @param source polling, or watching each namespace read
   * @param firstWatchWait how long the first read of a namespace waits for its watch's first sync
   *     before it polls instead
   * @param diagnoseAfter how long a job may wait in QUEUED before it is diagnosed
   */
  public StatusOperation(
      KubeJobsContext<S> ctx,
      Duration ttl,
      Executor executor,
      JobStatusListener listener,
      StatusSource source,
      Duration firstWatchWait,
      Duration diagnoseAfter) {
    this.ctx = ctx;
    this.dispatch = listener == null ? null : new ListenerDispatch(ctx.cluster(), listener);
    this.reported =
        new ReportedStatuses(
            ReportedStatuses.DEFAULT_CAPACITY, dispatch == null ? null : dispatch::changed);
    this.ttl = ttl;
    this.record = new OutcomeRecord(ctx);
    this.pipeline = new StatusPipeline(ctx);
    this.diagnosis = new DiagnosisStep(ctx, pipeline.locator(), diagnoseAfter);
    this.cache = new StatusCache(ctx, ttl, new AtomicLong(), pipeline);
    this.executor = executor;
    if (source.isWatch()) {
      this.watch =
          new WatchSource(
              ctx,
              pipeline,
              WatchSettings.ofDefaults().withServerTimeout(source.watchTimeout()),
              firstWatchWait,
              dispatch != null);
      this.refresher =
          dispatch == null
              ? null
              : DaemonThreads.pool(
                  "kubejobs-status-refresh-" + ctx.cluster(), 1, Duration.ofMinutes(1));
      if (refresher != null) {
        ChangedJobs changes = watch.changes().orElseThrow();
        refresher.execute(() -> refreshUntilClosed(changes));
      }
    } else {
      this.watch = null;
      this.refresher = null;
    }
  }

  /**
   * Reads again the followed jobs a watch saw change, on the refresher's own thread, so that the
   * listener hears of their new status without anyone polling; until the watch closes. Only jobs
   * this reader reported and that did not end.
   */
  private void refreshUntilClosed(ChangedJobs changes) {
    try {
      for (Optional<List<ExecutionId>> taken = changes.take();
          taken.isPresent();
          taken = changes.take()) {
        List<ExecutionId> ids = new ArrayList<>();
        for (ExecutionId id : taken.get()) {
          if (reported.follows(id)) {
            ids.add(id);
          }
        }
        if (!ids.isEmpty()) {
          refresh(ids);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.debug("Stopped reading jobs after watch events: interrupted");
    }
  }

  private void refresh(List<ExecutionId> ids) {
    Map<ExecutionId, JobStatusResult> results;
    try {
      results = getAll(ids);
    } catch (RuntimeException e) {
      LOG.warn("Reading {} job(s) after their watch events failed", ids.size(), e);
      return;
    }
    results.forEach(
        (id, result) ->
            result
                .error()
                .ifPresent(
                    e ->
                        LOG.debug(
                            "Job '{}' could not be read after its watch event: {}",
                            id,
                            e.getMessage())));
  }

  @Override
  public JobExecutionInfo get(ExecutionId id) {
    ctx.check(id);
    JobStatusResult result = readNamespace(id.namespace(), List.of(id), cache.ask())[0];
    cache.evictExpired(id.namespace());
    return result.orElseThrow();
  }

  @Override
  public Map<ExecutionId, JobStatusResult> getAll(Collection<ExecutionId> ids) {
    if (ids == null) {
      throw new IllegalArgumentException("ids must not be null");
    }
    // The answer, in the order asked, each id once; its values are set last, in place. A status
    // read of thousands of jobs is bound by memory more than by work: each id is hashed once
    // here and results travel by position.
    Map<ExecutionId, JobStatusResult> out = new LinkedHashMap<>(capacity(ids.size()));
    for (ExecutionId id : ids) {
      out.put(ctx.check(id), null);
    }
    long asked = cache.ask();
    NamespaceFanOut fanOut = new NamespaceFanOut(out.keySet());
    JobStatusResult[] results = fanOut.read(executor, (ns, jobs) -> readNamespace(ns, jobs, asked));
    cache.evictExpired(fanOut.namespaces());
    int position = 0;
    for (Map.Entry<ExecutionId, JobStatusResult> e : out.entrySet()) {
      JobStatusResult result = results[position++];
      result
          .error()
          .ifPresent(
              failure ->
                  LOG.debug("Job '{}' could not be read: {}", e.getKey(), failure.getMessage()));
      e.setValue(result);
    }
    return out;
  }

  @Override
  public Optional<JobExecutionInfo> reportedTerminal(ExecutionId id) {
    return reported.terminal(id);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The same pipeline as {@link #get(ExecutionId)}, for {@link Purpose#CANCEL}.
   */
  @Override
  public JobExecutionInfo decideForCancel(ExecutionId id, ResourceSnapshot fresh) {
    Optional<JobExecutionInfo> done = reported.terminal(id);
    if (done.isPresent()) {
      return done.get();
    }
    JobExecutionInfo info =
        pipeline.decide(id, fresh, pipeline.mapAlone(id, fresh), null, Purpose.CANCEL).info();
    if (!info.status().isTerminal()) {
      return info;
    }
    return floor(id, info, fresh.uid(), null);
  }

  @Override
  public void cancelledHere(ExecutionId id, String uid, JobExecutionInfo before) {
    reported.cancelledHere(
        id,
        uid,
        before.toBuilder()
            .status(dev.kubejobs.core.JobStatus.CANCELLED)
            .message(
                "cancelled by this kubejobs instance: its cancel mark landed and its delete was"
                    + " confirmed")
            .finishedAt(ctx.clock().instant())
            .build());
  }

  @Override
  public EndMarkCheck withdrawEndMarkIfTheOperatorActed(ExecutionId id, ResourceSnapshot app) {
    if (app.isBeingDeleted() || !pipeline.operatorActed(id, app)) {
      return new EndMarkCheck.Stands();
    }
    return pipeline
        .withdrawEndMark(id, app)
        .<EndMarkCheck>map(EndMarkCheck.Withdrawn::new)
        .orElseGet(EndMarkCheck.Changed::new);
  }

  /**
   * Holds a decided status against what this reader reported before.
   *
   * @param before what the reader remembered of the job as the read began, or null to look now
   */
  private JobExecutionInfo floor(
      ExecutionId id, JobExecutionInfo info, String uid, ReportedStatuses.Seen before) {
    if (before != null && before.holds(info.status(), uid)) {
      return info;
    }
    if (reported.raise(id, info, uid) instanceof ReportedStatuses.Raised.Report report) {
      return report.info();
    }
    // Raised.GoneBefore: this reader reported this very resource gone, so the copy is older.
    throw StatusPipeline.goneBefore(id);
  }

  @Override
  public void forget(ExecutionId id) {
    cache.forget(id);
    if (watch != null) {
      watch.forget(id);
    }
  }

  /**
   * Ends the watches (waiting for their threads), then the thread that reads jobs after watch
   * events and the listener's thread once it delivered what was queued, waiting up to {@link
   * #CLOSE_WAIT} for each before interrupting it. Idempotent.
   */
  public void close() {
    if (watch != null) {
      watch.close();
    }
    DaemonThreads.shutdownAndAwait(CLOSE_WAIT, refresher);
    if (dispatch != null) {
      DaemonThreads.shutdownAndAwait(CLOSE_WAIT, dispatch.thread());
    }
  }

  /** The status pipeline, for other deciders of a job's status (the orphan sweep). */
  public StatusPipeline pipeline() {
    return pipeline;
  }

  /** The cache (for tests in this package). */
  StatusCache cache() {
    return cache;
  }

  // ------------------------------------------------------------------ one namespace

  /** One job on its way: where its answer goes, what this reader saw of it, its copy. */
  private static final class Candidate {
    final ExecutionId id;
    final int index;
    final ReportedStatuses.Seen seen;
    StatusCache.Copy copy;

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
  private JobStatusResult[] readNamespace(String ns, List<ExecutionId> ids, long asked) {
    return settleGone(ns, ids, readCopies(ns, ids, asked));
  }

  /**
   * The jobs a read found gone, that this reader neither saw end nor reported gone before: their
   * outcome is kubejobs' record of how it ended them (another node's cancel, an end mark's delete),
   * read with one events LIST for the namespace, or, without a record, gone.
   */
  private JobStatusResult[] settleGone(String ns, List<ExecutionId> ids, JobStatusResult[] out) {
    Map<ExecutionId, String> unsettled = new LinkedHashMap<>();
    for (int i = 0; i < out.length; i++) {
      if (out[i] == null || !out[i].isGone()) {
        continue;
      }
      ExecutionId id = ids.get(i);
      ReportedStatuses.Seen s = reported.seen(id);
      if (s != null && s.gone()) {
        continue;
      }
      unsettled.put(id, s == null ? null : s.uid());
    }
    if (unsettled.isEmpty()) {
      return out;
    }
    Map<ExecutionId, JobExecutionInfo> recorded;
    try {
      recorded = record.read(ns, unsettled);
    } catch (KubeJobsException e) {
      // Not "gone": the record may say how the job ended, so the read fails and is asked again.
      for (int i = 0; i < out.length; i++) {
        ExecutionId id = ids.get(i);
        if (unsettled.containsKey(id) && out[i].isGone()) {
          out[i] =
              JobStatusResult.failed(
                  new ApiUnavailableException(
                      id,
                      "the resource of job "
                          + id
                          + " is gone and kubejobs' record of how it ended could not be read ("
                          + e.getMessage()
                          + "); read it again",
                      false,
                      e));
        }
      }
      return out;
    }
    for (int i = 0; i < out.length; i++) {
      ExecutionId id = ids.get(i);
      if (!unsettled.containsKey(id) || !out[i].isGone()) {
        continue;
      }
      JobExecutionInfo info = recorded.get(id);
      if (info != null
          && reported.raise(id, info, unsettled.get(id))
              instanceof ReportedStatuses.Raised.Report report) {
        LOG.debug("Job '{}' is gone; its record says {}", id, report.info().status());
        out[i] = JobStatusResult.of(report.info());
      } else {
        reported.gone(id, null);
      }
    }
    return out;
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
    StatusCache.Listing listing = watch == null ? null : watch.live(ns);
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
    StatusCache.Listing again = stale.isEmpty() || watch == null ? null : watch.live(ns);
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
        StatusCache.Copy copy = c.copy;
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
        out[c.index] = JobStatusResult.of(floor(c.id, info, copy.uid(), c.seen));
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
    c.copy = new StatusCache.Copy(app.uid(), app, pipeline.mapAlone(c.id, app), true);
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
      // (settleGone, docs/outcome-record.md); without one the job is gone.
    }
    return JobStatusResult.failed(e);
  }

  /** A hash map capacity that holds {@code n} entries without growing. */
  private static int capacity(int n) {
    return n < 12 ? 16 : (int) Math.min(Integer.MAX_VALUE, n * 4L / 3 + 1);
  }
}
