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
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.FieldProjection;
import dev.kubejobs.core.internal.kube.ListPages;
import dev.kubejobs.core.spi.ResourceKind;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>A façade over one class per job: the single flight and the namespaces' slots in {@link
 * SingleFlight}, the eviction of lists nobody reads in {@link ListEviction}, the memo of each job
 * in {@link JobMemo} (held by a {@link Listing}), and the page-by-page consumption of a LIST in
 * {@link ListConsumer}; here the LIST is sent, and answered with no copy when the caller may not
 * list.
 *
 * <p>Not a published API; thread safe.
 */
final class StatusCache {
  private static final Logger LOG = LoggerFactory.getLogger(StatusCache.class);

  private final KubeJobsContext<?> ctx;
  private final ResourceKind resourceKind;
  private final AtomicLong ticks;
  private final FieldProjection projection;
  private final SingleFlight flight;
  private final ListEviction eviction;
  private final ListConsumer consumer;

  /**
   * Creates the cache.
   *
   * @param pipeline maps each listed copy alone ({@link JobMemo#mapAhead}) as soon as it is parsed
   *     from its list page (see {@link ListConsumer})
   * @throws IllegalArgumentException if the job kind's {@code statusFields()} are malformed
   */
  StatusCache(KubeJobsContext<?> ctx, Duration ttl, AtomicLong ticks, StatusPipeline pipeline) {
    this.ctx = ctx;
    this.resourceKind = ctx.jobKind().resourceKind();
    this.ticks = ticks;
    this.projection = FieldProjection.of(ctx.jobKind().statusFields());
    this.flight = new SingleFlight(ctx, ttl, ticks);
    this.eviction = new ListEviction(ctx, ttl, flight.slots());
    this.consumer = new ListConsumer(ctx, pipeline);
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
    SingleFlight.Turn turn = flight.join(namespace, askedOrMin);
    if (turn.found() != null) {
      return turn.found();
    }
    if (!turn.mine()) {
      return flight.await(turn, namespace, about);
    }
    try {
      return flight.landed(turn, list(turn.before(), namespace, about, turn.tick()));
    } catch (RuntimeException | Error e) {
      flight.failed(turn, e);
      throw e;
    }
  }

  /**
   * Drops a job's cached copy, so the next read of it goes to the server (after a cancel).
   *
   * @param id the job
   */
  void forget(ExecutionId id) {
    Listing listing = flight.kept(id.namespace());
    if (listing != null) {
      listing.byName.remove(id.name());
    }
  }

  /** The namespaces whose lists are kept (for tests). */
  Set<String> cachedNamespaces() {
    return flight.namespaces();
  }

  /**
   * Drops the lists of namespaces nobody listed for a while ({@link
   * ListEviction#evictExpired(Collection)}); called after each read with the namespaces it read.
   */
  void evictExpired(Collection<String> keep) {
    eviction.evictExpired(keep);
  }

  /** {@link #evictExpired(Collection)} after a read of one namespace. */
  void evictExpired(String keep) {
    eviction.evictExpired(keep);
  }

  private Listing list(Listing before, String namespace, ExecutionId about, long tick) {
    Instant at = ctx.clock().instant();
    // The copies of the list before: one listed again unchanged is taken over, not read again.
    Map<String, JobMemo> held = before == null ? Map.of() : before.byName;
    try {
      // The pages come back one at a time; each copy is mapped as its page arrives, between
      // pages, so no mapper runs inside the transport or its retries.
      ListPages pages =
          ctx.gateway()
              .listPages(
                  about, resourceKind, namespace, StatusOperation.SELECTOR, projection, held);
      return Listing.listed(tick, at, consumer.consume(pages, namespace, held, tick));
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
}
