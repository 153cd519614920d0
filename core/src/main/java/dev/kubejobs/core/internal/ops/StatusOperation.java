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
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.internal.DaemonThreads;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.watch.WatchSettings;
import dev.kubejobs.core.status.JobStatusListener;
import dev.kubejobs.core.status.JobStatusReader;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.core.status.StatusSource;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * <p>This class is the reader's API and wires its parts: each namespace is read by the {@link
 * NamespaceRead} protocol, one after another on the calling thread or in parallel ({@link
 * NamespaceFanOut}); a watching reader with a listener reads changed jobs again on the {@link
 * WatchRefresher}'s thread; a cancel asks the {@link CancelDecider} ({@link #cancelDecisions()});
 * both the reads and the cancel hold what they decide against the {@link ReportedFloor}.
 *
 * @param <S> the job spec type
 */
public final class StatusOperation<S> implements JobStatusReader {
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
  private final StatusPipeline pipeline;
  private final StatusCache cache;
  private final Executor executor;
  private final ListenerDispatch dispatch;
  private final WatchSource watch;
  private final NamespaceRead namespaces;
  private final CancelDecider decisions;
  private final WatchRefresher refresher;

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
    ReportedStatuses reported =
        new ReportedStatuses(
            ReportedStatuses.DEFAULT_CAPACITY, dispatch == null ? null : dispatch::changed);
    this.pipeline = new StatusPipeline(ctx);
    DiagnosisStep diagnosis = new DiagnosisStep(ctx, pipeline.locator(), diagnoseAfter);
    AtomicLong ticks = new AtomicLong(); // one logical clock for the questions and the copies
    this.cache = new StatusCache(ctx, ttl, ticks, pipeline);
    this.executor = executor;
    if (source.isWatch()) {
      this.watch =
          new WatchSource(
              ctx,
              pipeline,
              ticks,
              WatchSettings.ofDefaults().withServerTimeout(source.watchTimeout()),
              firstWatchWait,
              dispatch != null);
    } else {
      this.watch = null;
    }
    ReportedFloor floor = new ReportedFloor(reported);
    this.namespaces =
        new NamespaceRead(
            ctx,
            ttl,
            pipeline,
            diagnosis,
            cache,
            reported,
            watch,
            floor,
            new GoneJobs(reported, new OutcomeRecord(ctx)));
    this.decisions = new CancelDecider(ctx, pipeline, cache, reported, watch, floor);
    // Last: its thread reads through this reader from the start.
    this.refresher =
        watch == null || dispatch == null
            ? null
            : new WatchRefresher(ctx.cluster(), watch.changes().orElseThrow(), reported, this);
  }

  @Override
  public JobExecutionInfo get(ExecutionId id) {
    ctx.check(id);
    JobStatusResult result = namespaces.readNamespace(id.namespace(), List.of(id), cache.ask())[0];
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
    JobStatusResult[] results =
        fanOut.read(executor, (ns, jobs) -> namespaces.readNamespace(ns, jobs, asked));
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

  /** What a cancel asks of this reader: its decisions, held against what it reported. */
  public CancelDecisions cancelDecisions() {
    return decisions;
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
    if (refresher != null) {
      refresher.close(CLOSE_WAIT);
    }
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

  /** A hash map capacity that holds {@code n} entries without growing. */
  private static int capacity(int n) {
    return n < 12 ? 16 : (int) Math.min(Integer.MAX_VALUE, n * 4L / 3 + 1);
  }
}
