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

import dev.kubejobs.core.DriverPod;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobKind;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.core.internal.DaemonThreads;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.ops.StatusResolver.Mapped;
import dev.kubejobs.core.internal.watch.WatchSettings;
import dev.kubejobs.core.status.JobStatusListener;
import dev.kubejobs.core.status.JobStatusReader;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.core.status.StatusSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads job statuses: copies from the {@link StatusCache} (or one GET per job), decided by the
 * {@link StatusResolver}, reported through a per-job floor so that a status never goes backwards.
 * Not a published API; thread safe.
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
 *       the job kind can select several jobs' pods at once ({@link JobKind#driverPodsSelector});
 *   <li>each job's follow-up (a delete), one job at a time.
 * </ol>
 *
 * <p>Namespaces are read one after another on the calling thread, or in parallel: the executor
 * given reads the second and later namespaces while the calling thread reads the first, then any
 * the executor has not started yet.
 *
 * @param <S> the job spec type
 */
public final class StatusOperation<S> implements JobStatusReader {
  private static final Logger LOG = LoggerFactory.getLogger(StatusOperation.class);

  /** How many jobs' driver pods one pod LIST selects at most (keeps the URL short). */
  static final int PODS_PER_LIST = 200;

  /**
   * How long {@link #close()} waits for each of its threads to finish what it was given before it
   * interrupts it (a read in flight, a listener still being told).
   */
  public static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  /** The label selector of the status LIST. */
  public static final String SELECTOR =
      JobIdentity.LABEL_MANAGED_BY + "=" + JobIdentity.MANAGED_BY_VALUE;

  private final KubeJobsContext<S> ctx;
  private final JobKind<S> kind;
  private final Duration ttl;
  private final StatusResolver<S> resolver;
  private final StatusCache cache;
  private final Executor executor;
  private final ListenerDispatch dispatch;
  private final ReportedStatuses reported;
  private final WatchSource watch;
  private final DaemonThreads.Pool refresher;
  private final Set<ExecutionId> toRefresh = ConcurrentHashMap.newKeySet();

  /**
   * Creates the operation, reading namespaces one after another.
   *
   * @param ctx the shared context
   * @param ttl how long a namespace's list serves reads; zero reads each job with a GET
   */
  public StatusOperation(KubeJobsContext<S> ctx, Duration ttl) {
    this(ctx, ttl, null, null, StatusSource.polling(), Duration.ZERO);
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
   */
  public StatusOperation(
      KubeJobsContext<S> ctx,
      Duration ttl,
      Executor executor,
      JobStatusListener listener,
      StatusSource source,
      Duration firstWatchWait) {
    this.ctx = ctx;
    this.dispatch = listener == null ? null : new ListenerDispatch(ctx.cluster(), listener);
    this.reported =
        new ReportedStatuses(
            ReportedStatuses.DEFAULT_CAPACITY, dispatch == null ? null : dispatch::changed);
    this.kind = ctx.jobKind();
    this.ttl = ttl;
    this.resolver = new StatusResolver<>(ctx);
    this.cache =
        new StatusCache(
            ctx,
            ttl,
            new AtomicLong(),
            // Mapped as its page is parsed: walking whole pages of parsed trees afterwards cost
            // more than the mapping itself, in cache misses.
            (id, entry) -> entry.mapAhead(id, resolver, "it was listed"));
    this.executor = executor;
    if (source.isWatch()) {
      this.watch =
          new WatchSource(
              ctx,
              resolver,
              WatchSettings.ofDefaults().withServerTimeout(source.watchTimeout()),
              firstWatchWait,
              dispatch == null ? null : this::changedOnWatch);
      this.refresher =
          dispatch == null
              ? null
              : DaemonThreads.pool(
                  "kubejobs-status-refresh-" + ctx.cluster(), 1, Duration.ofMinutes(1));
    } else {
      this.watch = null;
      this.refresher = null;
    }
  }

  /**
   * A watched job changed: read it again off the watch's thread, so that the listener hears of its
   * new status without anyone polling. Only jobs this reader reported and that did not end.
   */
  private void changedOnWatch(ExecutionId id) {
    if (!reported.follows(id) || !toRefresh.add(id)) {
      return;
    }
    try {
      refresher.execute(this::refresh);
    } catch (RejectedExecutionException e) {
      LOG.debug("Not reading job '{}' after its watch event: closed", id);
    }
  }

  private void refresh() {
    List<ExecutionId> ids = new ArrayList<>(toRefresh);
    if (ids.isEmpty()) {
      return;
    }
    toRefresh.removeAll(ids);
    Map<ExecutionId, JobStatusResult> results = getAll(ids);
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
    Optional<JobExecutionInfo> done = reported.terminal(id);
    if (done.isPresent()) {
      return done.get();
    }
    long asked = cache.ask();
    Object result = readNamespace(id.namespace(), List.of(id), asked)[0];
    cache.evictExpired(Set.of(id.namespace()));
    if (result instanceof KubeJobsException e) {
      throw e;
    }
    return (JobExecutionInfo) result;
  }

  /** One namespace's jobs of a {@code getAll}, and where each stands in the answer. */
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
    Object[] results = new Object[out.size()];
    Map<String, Group> byNamespace = new LinkedHashMap<>();
    int position = 0;
    for (ExecutionId id : out.keySet()) {
      Optional<JobExecutionInfo> done = reported.terminal(id);
      if (done.isPresent()) {
        results[position] = done.get();
      } else {
        byNamespace.computeIfAbsent(id.namespace(), ns -> new Group()).add(id, position);
      }
      position++;
    }
    if (executor == null || byNamespace.size() < 2) {
      byNamespace.forEach(
          (ns, group) -> place(group, readNamespace(ns, group.ids, asked), results));
    } else {
      List<NamespaceRead> reads = new ArrayList<>(byNamespace.size());
      byNamespace.forEach((ns, group) -> reads.add(new NamespaceRead(ns, group, asked)));
      // The executor's threads take namespaces from the second on; the calling thread reads the
      // first and then every one no thread took yet, so a busy or closed executor (or a call from
      // one of its own threads) only makes the read less parallel, never stuck.
      for (NamespaceRead read : reads.subList(1, reads.size())) {
        try {
          executor.execute(read::runUnlessTaken);
        } catch (RejectedExecutionException e) {
          LOG.debug("The status executor refused namespace {}; reading it on the caller", read.ns);
        }
      }
      reads.forEach(NamespaceRead::runUnlessTaken);
      reads.forEach(read -> place(read.group, join(read.result), results));
    }
    cache.evictExpired(byNamespace.keySet());
    position = 0;
    for (Map.Entry<ExecutionId, JobStatusResult> e : out.entrySet()) {
      Object result = results[position++];
      if (result instanceof KubeJobsException failure) {
        LOG.debug("Job '{}' could not be read: {}", e.getKey(), failure.getMessage());
        e.setValue(JobStatusResult.failed(failure));
      } else {
        e.setValue(JobStatusResult.of((JobExecutionInfo) result));
      }
    }
    return out;
  }

  private static void place(Group group, Object[] read, Object[] results) {
    for (int i = 0; i < read.length; i++) {
      results[group.positions[i]] = read[i];
    }
  }

  /** One namespace of a parallel {@code getAll}, read by whichever thread takes it first. */
  private final class NamespaceRead {
    final String ns;
    final Group group;
    final long asked;
    final AtomicBoolean taken = new AtomicBoolean();
    final CompletableFuture<Object[]> result = new CompletableFuture<>();

    NamespaceRead(String ns, Group group, long asked) {
      this.ns = ns;
      this.group = group;
      this.asked = asked;
    }

    void runUnlessTaken() {
      if (!taken.compareAndSet(false, true)) {
        return;
      }
      try {
        result.complete(readNamespace(ns, group.ids, asked));
      } catch (RuntimeException | Error e) {
        result.completeExceptionally(e);
      }
    }
  }

  private static Object[] join(CompletableFuture<Object[]> f) {
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

  /**
   * Returns the terminal status this reader reported for a job, if it remembers one.
   *
   * @param id the job
   * @return the terminal info reported, or empty
   */
  public Optional<JobExecutionInfo> reportedTerminal(ExecutionId id) {
    return reported.terminal(id);
  }

  /**
   * Decides a job's status for a cancel from a copy read after the cancel was asked for, with the
   * same full mapping as {@link #get(ExecutionId)}: the driver pod is looked up when the mapper
   * asks, and a live driver of a failed job is deleted before FAILED is reported. A no-status
   * deletion is left to the cancel (the job is cancelled, not failed).
   *
   * @param id the job
   * @param fresh the copy read by the cancel
   * @return the info, terminal when the job had already finished
   * @throws NoSuchJobException if the job's resource is gone on a re-read
   */
  public JobExecutionInfo decideForCancel(ExecutionId id, ResourceSnapshot fresh) {
    Optional<JobExecutionInfo> done = reported.terminal(id);
    if (done.isPresent()) {
      return done.get();
    }
    JobExecutionInfo info = resolver.resolveFrom(id, resolver.mapFully(id, fresh), true);
    if (!info.status().isTerminal()) {
      return info;
    }
    JobExecutionInfo raised = reported.raise(id, info, fresh.uid());
    if (raised == null) {
      throw StatusResolver.goneBefore(id);
    }
    return raised;
  }

  /**
   * Drops a job's cached copy, so the next read of it is a fresh GET (after a cancel). The status
   * reported for it is kept.
   *
   * @param id the job
   */
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

  /** The cache (for tests in this package). */
  StatusCache cache() {
    return cache;
  }

  // ------------------------------------------------------------------ one namespace

  /** One job on its way: the copy it is decided on (or the cache entry holding it) and its map. */
  private static final class Candidate {
    final ExecutionId id;
    final int index;
    StatusCache.Entry entry;
    ResourceSnapshot app;
    JobExecutionInfo alone;
    boolean fresh;

    Candidate(ExecutionId id, int index) {
      this.id = id;
      this.index = index;
    }

    ResourceSnapshot app() {
      return app != null ? app : entry.app();
    }

    String uid() {
      return app != null ? app.uid() : entry.uid();
    }

    boolean mayEnd() {
      return alone.status().isTerminal() || alone.followUp().isPresent() || alone.driverPodWanted();
    }
  }

  /**
   * Reads the jobs of one namespace.
   *
   * @return per job, in the order of {@code ids}, its info or the {@link KubeJobsException} that
   *     stopped it
   */
  private Object[] readNamespace(String ns, List<ExecutionId> ids, long asked) {
    Object[] out = new Object[ids.size()];
    StatusCache.Listing listing = watch == null ? null : watch.live(ns);
    if (listing == null && !ttl.isZero()) {
      try {
        listing = cache.listing(ns, ids.get(0));
      } catch (KubeJobsException e) {
        Arrays.fill(out, e);
        return out;
      }
    }
    // 1. A copy per job, and its mapping without the driver pod.
    List<Candidate> candidates = new ArrayList<>(ids.size());
    List<Candidate> stale = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      ExecutionId id = ids.get(i);
      Candidate c = new Candidate(id, i);
      try {
        StatusCache.Entry entry = listing == null ? null : listing.entry(id.name());
        if (entry == null || reported.goneWithoutUid(id)) {
          // Reported gone with no uid known: a listed copy may be older than that read (a watch
          // lagging behind the GET that found it gone), so only a GET may bring the job back.
          readDirectly(c);
        } else {
          c.entry = entry;
          c.alone = entry.alone(id, resolver);
          c.fresh = listing.freshFor(asked);
        }
        candidates.add(c);
        if (!c.fresh && c.mayEnd()) {
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
            StatusCache.Entry entry = again.entry(c.id.name());
            if (entry == null) {
              readDirectly(c);
            } else {
              c.entry = entry;
              c.app = null;
              c.alone = entry.alone(c.id, resolver);
              c.fresh = true;
            }
          } catch (KubeJobsException e) {
            out[c.index] = fail(c.id, e);
            candidates.remove(c);
          }
        }
      }
    }
    // 3. The driver pods wanted, with one pod LIST where the kind allows.
    Map<ExecutionId, Object> pods = driverPods(ns, candidates);
    // 4. Decide, carry out the follow-ups, report.
    for (Candidate c : candidates) {
      try {
        Mapped mapped;
        if (!c.alone.driverPodWanted()) {
          ResourceSnapshot app = c.alone.followUp().isPresent() ? c.app() : null;
          mapped = new Mapped(app, DriverPod.notLookedUp(), c.alone);
        } else {
          Object pod = pods.get(c.id);
          if (pod instanceof KubeJobsException e) {
            throw e;
          }
          Function<ResourceSnapshot, DriverPod> lookup =
              pod == null ? a -> resolver.lookUpDriver(c.id, a) : a -> (DriverPod) pod;
          mapped = resolver.mapFully(c.id, c.app(), lookup);
        }
        JobExecutionInfo raised =
            reported.raise(c.id, resolver.resolveFrom(c.id, mapped, false), c.uid());
        // null: this reader reported this very resource gone, so the copy is older than that read.
        out[c.index] = raised != null ? raised : StatusResolver.goneBefore(c.id);
      } catch (KubeJobsException e) {
        out[c.index] = fail(c.id, e);
      }
    }
    return out;
  }

  /** Reads a job with a GET: the copy is fresh. */
  private void readDirectly(Candidate c) {
    c.entry = null;
    c.app = resolver.fresh(c.id);
    c.alone = resolver.mapAlone(c.id, c.app);
    c.fresh = true;
  }

  /**
   * A job's failure; a job confirmed gone after a terminal status keeps that status, so statuses
   * never go backwards and a terminal one never changes. A resource confirmed gone without one
   * stays gone for this reader: a copy of it seen later can only be older than the read that found
   * it gone (a watch event still on its way) and must not bring it back.
   */
  private Object fail(ExecutionId id, KubeJobsException e) {
    if (e instanceof NoSuchJobException) {
      Optional<JobExecutionInfo> done = reported.terminal(id);
      if (done.isPresent()) {
        LOG.debug("Job '{}' is gone after it ended {}; keeping that", id, done.get().status());
        return done.get();
      }
      reported.gone(id, null);
    }
    return e;
  }

  /**
   * Looks up the driver pods the candidates' mappings want: with one labelled pod LIST per {@value
   * #PODS_PER_LIST} jobs when there are several and the job kind can select them at once.
   *
   * @return per job its {@link DriverPod} or the failure of the lookup; a job missing from the map
   *     is looked up alone
   */
  private Map<ExecutionId, Object> driverPods(String ns, List<Candidate> candidates) {
    List<Candidate> wanting = new ArrayList<>();
    for (Candidate c : candidates) {
      if (c.alone.driverPodWanted()) {
        wanting.add(c);
      }
    }
    Map<ExecutionId, Object> out = new HashMap<>();
    if (wanting.size() < 2) {
      return out;
    }
    for (int from = 0; from < wanting.size(); from += PODS_PER_LIST) {
      List<Candidate> chunk = wanting.subList(from, Math.min(wanting.size(), from + PODS_PER_LIST));
      List<ResourceSnapshot> apps = new ArrayList<>();
      chunk.forEach(c -> apps.add(c.app()));
      Optional<String> selector;
      try {
        selector = kind.driverPodsSelector(apps);
      } catch (RuntimeException e) {
        LOG.debug("The job kind could not select several driver pods at once: {}", e.toString());
        selector = Optional.empty();
      }
      if (selector.isEmpty()) {
        return out;
      }
      List<ResourceSnapshot> pods;
      try {
        pods = ctx.gateway().listPods(chunk.get(0).id, ns, selector.get());
      } catch (JobRejectedException e) {
        if (e.reason() != JobRejectedException.Reason.FORBIDDEN) {
          chunk.forEach(c -> out.put(c.id, e));
          continue;
        }
        DriverPod unavailable = resolver.podsForbidden(ns, "list");
        chunk.forEach(c -> out.put(c.id, unavailable));
        continue;
      } catch (KubeJobsException e) {
        chunk.forEach(c -> out.put(c.id, e));
        continue;
      }
      for (Candidate c : chunk) {
        DriverPod pod = match(c, pods);
        if (pod != null) {
          out.put(c.id, pod);
        }
      }
    }
    return out;
  }

  /**
   * Finds a job's driver pod among a namespace's listed driver pods, as {@link
   * StatusResolver#lookUpDriver} would: by name, else by the job's own selector (newest wins).
   *
   * @return the pod, or null when the job's selector cannot be matched here (look it up alone)
   */
  private DriverPod match(Candidate c, List<ResourceSnapshot> pods) {
    StatusResolver.DriverRef ref = resolver.driverRef(c.id, c.app());
    if (ref.unusable() != null) {
      return ref.unusable();
    }
    if (ref.name() != null) {
      for (ResourceSnapshot pod : pods) {
        if (pod.name().equals(ref.name())) {
          return DriverPod.found(pod);
        }
      }
      return DriverPod.absent();
    }
    Map<String, String> required = EqualitySelector.parse(ref.selector());
    if (required == null) {
      return null;
    }
    List<ResourceSnapshot> matching = new ArrayList<>();
    for (ResourceSnapshot pod : pods) {
      if (pod.labels().entrySet().containsAll(required.entrySet())) {
        matching.add(pod);
      }
    }
    return StatusResolver.newest(matching);
  }

  /** A hash map capacity that holds {@code n} entries without growing. */
  private static int capacity(int n) {
    return n < 12 ? 16 : (int) Math.min(Integer.MAX_VALUE, n * 4L / 3 + 1);
  }
}
