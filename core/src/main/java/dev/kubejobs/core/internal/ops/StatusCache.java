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
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.FieldProjection;
import dev.kubejobs.core.internal.kube.HeldCopy;
import dev.kubejobs.core.internal.kube.ListPage;
import dev.kubejobs.core.internal.kube.ListPages;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status reader's per-namespace list cache: one labelled LIST per namespace per cache period,
 * shared by concurrent callers (single flight per namespace), keeping every job it listed, each as
 * a compact entry: its uid, resourceVersion and the mapping made from it as it was parsed (the copy
 * itself only while a driver pod, a follow-up or a time-dependent answer still needs it). So a
 * listing made for one job's {@code get} answers the next job's {@code get} too, whatever order
 * they are asked in. A job the next LIST returns unchanged (the same uid and resourceVersion) keeps
 * its entry: the rest of its copy is skipped unparsed and it is not mapped again, as {@link
 * dev.kubejobs.core.spi.JobStatusMapper} promises.
 *
 * <p>Every LIST is stamped, when it is sent, with a tick of the operation's logical clock, and
 * every question with a tick when it is asked: a listing is fresh for a question when its tick is
 * the later one, that is when the LIST was sent after the question was asked. A copy that would end
 * a job is believed only from a fresh listing; {@link #fresh} lists again for that.
 *
 * <p>Not a published API; thread safe.
 */
final class StatusCache {
  private static final Logger LOG = LoggerFactory.getLogger(StatusCache.class);

  private final KubeJobsContext<?> ctx;
  private final ResourceKind resourceKind;
  private final Duration ttl;
  private final AtomicLong ticks;
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();
  private final StatusPipeline pipeline;
  private final FieldProjection projection;

  /** When the lists nobody read are looked at next. */
  private volatile Instant nextSweep = Instant.MIN;

  /** How long the list of a namespace nobody reads is kept (unless the cache period is longer). */
  static final Duration KEPT_UNREAD = Duration.ofMinutes(10);

  /**
   * Creates the cache.
   *
   * @param pipeline maps each listed copy alone ({@link Entry#mapAhead}) as soon as it is parsed
   *     from its list page, on the listing thread, while the copy is still in the processor's
   *     cache: walking whole pages of parsed trees afterwards cost more than the mapping itself, in
   *     cache misses
   * @throws IllegalArgumentException if the job kind's {@code statusFields()} are malformed
   */
  StatusCache(KubeJobsContext<?> ctx, Duration ttl, AtomicLong ticks, StatusPipeline pipeline) {
    this.ctx = ctx;
    this.resourceKind = ctx.jobKind().resourceKind();
    this.ttl = ttl;
    this.ticks = ticks;
    this.pipeline = pipeline;
    this.projection = FieldProjection.of(ctx.jobKind().statusFields());
  }

  /** One job as a listing holds it. */
  static final class Entry implements HeldCopy {
    private final String uid;
    private final String resourceVersion;
    private volatile ResourceSnapshot app;

    /**
     * The mapping of the copy alone: a {@link MappingDecision} kept for the copy's life, or a
     * {@link Timed} one (QUEUED, CANCELLING) that holds only for the questions asked before it was
     * made; null before the first.
     */
    private volatile Object alone;

    /**
     * A mapping that may change with time alone, and the tick it was made at: a question asked
     * before (or at) that tick finds it as fresh as if mapped for it; a later question maps again.
     */
    private record Timed(MappingDecision decision, long tick) {}

    Entry(ResourceSnapshot app) {
      this.app = app;
      this.uid = app.uid();
      this.resourceVersion = app.resourceVersion();
    }

    /** The uid of the copy. */
    @Override
    public String uid() {
      return uid;
    }

    /** The resourceVersion of the copy, which the API server changes on every write to it. */
    @Override
    public String resourceVersion() {
      return resourceVersion;
    }

    /**
     * The mapping of the copy without its driver pod for a question asked at tick {@code asked},
     * made once and shared by concurrent callers; afterwards the copy itself is dropped unless a
     * driver pod or a follow-up still needs it. A QUEUED or CANCELLING mapping, the answers a
     * mapper may change with time alone (see {@link dev.kubejobs.core.spi.JobStatusMapper}), serves
     * only the questions asked before it was made, so it is made again for a later question, once:
     * a read maps a copy alone at most once, and with its driver pod at most once more.
     *
     * @param asked the question's tick (or, mapping ahead, the tick the copy arrived at)
     */
    MappingDecision alone(ExecutionId id, StatusPipeline pipeline, long asked) {
      MappingDecision decision = servedFor(alone, asked);
      if (decision != null) {
        return decision;
      }
      synchronized (this) {
        decision = servedFor(alone, asked);
        if (decision != null) {
          return decision;
        }
        MappingDecision mapped = pipeline.mapAlone(id, app);
        if (mayChangeWithTime(mapped.info())) {
          alone = new Timed(mapped, asked);
          return mapped;
        }
        alone = mapped;
        if (mapped instanceof MappingDecision.Report
            && mapped.info().status() != JobStatus.FAILED
            && app.annotation(dev.kubejobs.core.JobIdentity.ANNOTATION_ENDED).isEmpty()
            && !(mapped.info().status() == JobStatus.STARTED && pipeline.executorsWaiting(app))) {
          // A failure keeps its copy for its diagnosis, made as it is first reported; so does a
          // started job whose operator shows waiting executors, and a copy carrying an end mark
          // the operator's status makes the reader withdraw.
          app = null;
        }
        return mapped;
      }
    }

    /** The memo's decision if it serves a question asked at {@code asked}, else null. */
    private static MappingDecision servedFor(Object memo, long asked) {
      if (memo instanceof Timed timed) {
        return timed.tick() >= asked ? timed.decision() : null;
      }
      return (MappingDecision) memo;
    }

    /**
     * Maps the copy ahead of the read that will ask for it, as it arrives (from a list page or a
     * watch event). A mapping that fails is made again by that read, which reports the failure.
     *
     * @param tick when the copy arrived (the list's tick, or a tick taken as the event arrived): a
     *     question asked before it uses this mapping, even a QUEUED or CANCELLING one
     * @param when how the copy arrived, for the log
     */
    void mapAhead(ExecutionId id, StatusPipeline pipeline, long tick, String when) {
      try {
        alone(id, pipeline, tick);
      } catch (KubeJobsException e) {
        LOG.debug("Job '{}' could not be mapped as {}: {}", id, when, e.getMessage());
      }
    }

    private static boolean mayChangeWithTime(JobExecutionInfo info) {
      return info.status() == JobStatus.QUEUED || info.status() == JobStatus.CANCELLING;
    }

    /** The copy if it is still held, else null. */
    ResourceSnapshot keptCopy() {
      return app;
    }
  }

  /**
   * One namespace's copies as a read sees them: a list (kept for the cache period; empty when the
   * caller may not list, so every job is read with a GET), or a watched view that is live (sent
   * "after" every question: its tick is the largest).
   */
  static final class Listing {
    private final long tick;
    private final Instant at;
    private final Map<String, Entry> byName;
    private final Function<String, Entry> lookup;

    private Listing(
        long tick, Instant at, Map<String, Entry> byName, Function<String, Entry> lookup) {
      this.tick = tick;
      this.at = at;
      this.byName = byName;
      this.lookup = lookup;
    }

    /**
     * A list.
     *
     * @param tick when the LIST was sent, on the operation's logical clock
     * @param at when the LIST was sent, by the instance's clock (for the cache period)
     * @param byName the jobs that were listed (none when the caller may not list)
     */
    static Listing listed(long tick, Instant at, Map<String, Entry> byName) {
      return new Listing(tick, at, byName, byName::get);
    }

    /**
     * A watched view that is in sync: its copies are fresh for any question. Never kept in a cache
     * slot (it has no cache period).
     */
    static Listing live(Function<String, Entry> lookup) {
      return new Listing(Long.MAX_VALUE, Instant.MAX, Map.of(), lookup);
    }

    /** Whether the copies were read after a question asked at {@code asked} (or are live). */
    boolean freshFor(long asked) {
      return tick > asked;
    }

    /**
     * The copy of a job as this listing holds it, mapped alone (the memo made as it arrived, or
     * made now), and whether it is fresh for the question asked at {@code asked}; null when the job
     * is not held.
     */
    Copy copy(ExecutionId id, long asked, StatusPipeline pipeline) {
      Entry entry = lookup.apply(id.name());
      if (entry == null) {
        return null;
      }
      // The copy is read before the mapping: a listing drops it only after it kept a plain report
      // as the mapping, so a copy read as dropped comes with a mapping that needs none. (Read
      // after, a mapping not kept, QUEUED or CANCELLING, could lose a copy it still needs to
      // another reader's mapping kept meanwhile.)
      ResourceSnapshot app = entry.keptCopy();
      MappingDecision alone = entry.alone(id, pipeline, asked);
      return new Copy(entry.uid(), app, alone, freshFor(asked));
    }
  }

  /**
   * One job's copy as a read decides on it: from a listing (the cache's or a watch's) or from the
   * job's own GET.
   *
   * @param uid the copy's uid
   * @param app the copy; null once a listing dropped it (its mapping alone is a plain report that
   *     needs nothing more of it)
   * @param alone the copy's mapping without the driver pod
   * @param fresh whether the copy was read after the question was asked
   */
  record Copy(String uid, ResourceSnapshot app, MappingDecision alone, boolean fresh) {
    /** The copy, which the mapping still needs (a driver pod to look up, a follow-up). */
    ResourceSnapshot held() {
      if (app == null) {
        throw new IllegalStateException("the copy was dropped: its mapping needs nothing more");
      }
      return app;
    }

    /** Whether the mapping alone would end the job, or is not final yet. */
    boolean mayEnd() {
      return alone.info().status().isTerminal() || !(alone instanceof MappingDecision.Report);
    }
  }

  /** Takes a tick for a question asked now. */
  long ask() {
    return ticks.incrementAndGet();
  }

  /**
   * Returns a namespace's listing for a question: the cached one while its period lasts, else a new
   * LIST (shared with concurrent callers).
   *
   * @param about the job the LIST is sent for, named in its errors
   */
  Listing listing(String namespace, ExecutionId about) {
    return listing(namespace, about, Long.MIN_VALUE);
  }

  /**
   * Returns a namespace's listing sent after the question asked at {@code asked}: the cached one if
   * it is, else a LIST in flight that is, else a new LIST.
   */
  Listing fresh(String namespace, long asked, ExecutionId about) {
    return listing(namespace, about, asked);
  }

  private Listing listing(String namespace, ExecutionId about, long askedOrMin) {
    Slot slot = slots.computeIfAbsent(namespace, ns -> new Slot());
    boolean fresh = askedOrMin != Long.MIN_VALUE;
    CompletableFuture<Listing> future;
    boolean mine = false;
    long tick = 0;
    synchronized (slot) {
      Listing current = slot.listing;
      if (current != null && (fresh ? current.freshFor(askedOrMin) : !isExpired(current))) {
        return current;
      }
      if (slot.inFlight != null && (!fresh || slot.inFlightTick > askedOrMin)) {
        future = slot.inFlight;
      } else {
        slot.inFlight = new CompletableFuture<>();
        tick = ticks.incrementAndGet();
        slot.inFlightTick = tick;
        future = slot.inFlight;
        mine = true;
      }
    }
    if (mine) {
      try {
        Listing listed = list(slot, namespace, about, tick);
        synchronized (slot) {
          if (slot.listing == null || slot.listing.tick < listed.tick) {
            slot.listing = listed;
          }
          if (slot.inFlight == future) {
            slot.inFlight = null;
          }
        }
        future.complete(listed);
        return listed;
      } catch (RuntimeException | Error e) {
        synchronized (slot) {
          if (slot.inFlight == future) {
            slot.inFlight = null;
          }
        }
        future.completeExceptionally(e);
        throw e;
      }
    }
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiUnavailableException(
          about, "interrupted while waiting for the list of namespace " + namespace, e);
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new ApiUnavailableException(about, "listing namespace " + namespace + " failed", cause);
    }
  }

  /**
   * Drops a job's cached copy, so the next read of it goes to the server (after a cancel).
   *
   * @param id the job
   */
  void forget(ExecutionId id) {
    Slot slot = slots.get(id.namespace());
    if (slot != null) {
      Listing listing = slot.listing;
      if (listing != null) {
        listing.byName.remove(id.name());
      }
    }
  }

  /** The namespaces whose lists are kept (for tests). */
  Set<String> cachedNamespaces() {
    return Set.copyOf(slots.keySet());
  }

  /**
   * Drops the lists of namespaces nobody listed for {@link #KEPT_UNREAD} (or the cache period, when
   * longer), so they are not kept forever; called after each read with the namespaces it read, and
   * looks at the others at most once a cache period. A list is kept past its cache period so that
   * the next LIST of its namespace, one pull interval later, finds the jobs it returns unchanged
   * and skips them: a scheduler that pulls one job at a time reads the other namespaces after it.
   */
  void evictExpired(Collection<String> keep) {
    Instant now = ctx.clock().instant();
    if (now.isBefore(nextSweep)) {
      return;
    }
    nextSweep = now.plus(ttl);
    Duration kept = ttl.compareTo(KEPT_UNREAD) > 0 ? ttl : KEPT_UNREAD;
    for (Map.Entry<String, Slot> e : slots.entrySet()) {
      if (keep.contains(e.getKey())) {
        continue;
      }
      Slot slot = e.getValue();
      synchronized (slot) {
        if (slot.inFlight == null
            && slot.listing != null
            && !now.isBefore(slot.listing.at.plus(kept))) {
          slots.remove(e.getKey(), slot);
        }
      }
    }
  }

  /** {@link #evictExpired(Collection)} after a read of one namespace. */
  void evictExpired(String keep) {
    if (ctx.clock().instant().isBefore(nextSweep)) {
      return; // the usual case, without a set to keep
    }
    evictExpired(Set.of(keep));
  }

  private boolean isExpired(Listing listing) {
    return !ctx.clock().instant().isBefore(listing.at.plus(ttl));
  }

  private Listing list(Slot slot, String namespace, ExecutionId about, long tick) {
    Instant at = ctx.clock().instant();
    // The copies of the list before: one listed again unchanged is taken over, not read again.
    Listing before = slot.listing;
    Map<String, Entry> held = before == null ? Map.of() : before.byName;
    try {
      Map<String, Entry> byName = new ConcurrentHashMap<>(Math.max(16, held.size() * 4 / 3 + 1));
      int items = 0;
      // The pages come back one at a time; each copy is mapped as its page arrives, between
      // pages, so no mapper runs inside the transport or its retries.
      ListPages pages =
          ctx.gateway()
              .listPages(
                  about, resourceKind, namespace, StatusOperation.SELECTOR, projection, held);
      while (pages.hasNext()) {
        ListPage page = pages.next();
        if (page.startsOver()) {
          items = 0;
          byName.clear();
        }
        for (String name : page.held()) {
          // The same uid and resourceVersion: the very copy held, and its mapping too. A QUEUED
          // or CANCELLING one is mapped again at the new time when it is read.
          Entry same = held.get(name);
          if (same != null) { // else forgotten (after a cancel) while the page was read
            items++;
            byName.put(name, same);
          }
        }
        for (ResourceSnapshot item : page.items()) {
          items++;
          Entry entry = new Entry(item);
          byName.put(item.name(), entry);
          entry.mapAhead(
              ExecutionId.of(ctx.cluster(), resourceKind, namespace, item.name()),
              pipeline,
              tick,
              "it was listed");
        }
      }
      LOG.debug(
          "Listed {} {} in namespace {}, keeping {}",
          items,
          resourceKind.plural(),
          namespace,
          byName.size());
      return Listing.listed(tick, at, byName);
    } catch (JobRejectedException e) {
      if (e.reason() != JobRejectedException.Reason.FORBIDDEN) {
        throw e;
      }
      ctx.warnings()
          .warn(
              LOG,
              "missing permission: list "
                  + resourceKind.qualifiedPlural()
                  + " in namespace "
                  + namespace
                  + "; job statuses fall back to one GET per job. Grant it (see docs/rbac.yaml)"
                  + " to read many jobs with one LIST");
      // No copy at all: every job of the namespace is read with its own GET.
      return Listing.listed(tick, at, new ConcurrentHashMap<>());
    }
  }

  /** The cache slot of one namespace: the last list and the list in flight. */
  private static final class Slot {
    private volatile Listing listing;
    private CompletableFuture<Listing> inFlight;
    private long inFlightTick;
  }
}
