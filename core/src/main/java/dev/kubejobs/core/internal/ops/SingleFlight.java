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
import dev.kubejobs.core.internal.KubeJobsContext;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The single flight of the {@link StatusCache}: at most one LIST per namespace in flight, and the
 * questions asked meanwhile join it instead of sending their own. A question {@link #join joins}
 * its namespace's slot and finds there the listing that answers it (the cached one while its cache
 * period lasts, or one sent after the question), or a LIST in flight to {@link #await}, or its own
 * turn to send the LIST, stamped with a tick of the operation's logical clock; the one who sends it
 * reports it {@link #landed} (kept, unless a later one landed first, and handed to the questions
 * waiting) or {@link #failed} (the failure handed to them).
 *
 * <p>Not a published API; thread safe.
 */
final class SingleFlight {
  private final KubeJobsContext<?> ctx;
  private final Duration ttl;
  private final AtomicLong ticks;
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();

  SingleFlight(KubeJobsContext<?> ctx, Duration ttl, AtomicLong ticks) {
    this.ctx = ctx;
    this.ttl = ttl;
    this.ticks = ticks;
  }

  /** The cache slot of one namespace: the last list and the list in flight. */
  static final class Slot {
    volatile Listing listing;
    CompletableFuture<Listing> inFlight;
    private long inFlightTick;
  }

  /**
   * What a question found in its namespace's slot.
   *
   * @param found the listing that answers it, or null
   * @param future the LIST in flight it waits for (its own when {@code mine}), or null when found
   * @param mine whether the question sends the LIST itself
   * @param tick when its LIST is sent, on the operation's logical clock (when {@code mine})
   */
  record Turn(
      Slot slot, Listing found, CompletableFuture<Listing> future, boolean mine, long tick) {
    /** The list before, whose copies listed again unchanged the new LIST takes over; or null. */
    Listing before() {
      return slot.listing;
    }
  }

  /**
   * Joins a namespace's slot for a question: the cached listing while its period lasts (or, when
   * {@code askedOrMin} is a question's tick, the cached listing sent after it), else a LIST in
   * flight that serves the question, else a new LIST, the question's own.
   *
   * @param askedOrMin the tick of the question a fresh listing is wanted for, or {@link
   *     Long#MIN_VALUE} for any listing within its cache period
   */
  Turn join(String namespace, long askedOrMin) {
    // A plain read first: computeIfAbsent locks the bin even when the slot is there, and every
    // get(id) of a pull joins its namespace's slot.
    Slot slot = slots.get(namespace);
    if (slot == null) {
      slot = slots.computeIfAbsent(namespace, ns -> new Slot());
    }
    boolean fresh = askedOrMin != Long.MIN_VALUE;
    synchronized (slot) {
      Listing current = slot.listing;
      if (current != null && (fresh ? current.freshFor(askedOrMin) : !isExpired(current))) {
        return new Turn(slot, current, null, false, 0);
      }
      if (slot.inFlight != null && (!fresh || slot.inFlightTick > askedOrMin)) {
        return new Turn(slot, null, slot.inFlight, false, 0);
      }
      slot.inFlight = new CompletableFuture<>();
      long tick = ticks.incrementAndGet();
      slot.inFlightTick = tick;
      return new Turn(slot, null, slot.inFlight, true, tick);
    }
  }

  /**
   * Keeps the listing of the LIST sent on its own turn (unless a later one was kept meanwhile),
   * ends the flight and hands the listing to the questions that joined it.
   *
   * @return {@code listed}
   */
  Listing landed(Turn turn, Listing listed) {
    Slot slot = turn.slot();
    CompletableFuture<Listing> future = turn.future();
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
  }

  /**
   * Ends the flight of a LIST that failed and hands its failure to the questions that joined it.
   */
  void failed(Turn turn, Throwable e) {
    Slot slot = turn.slot();
    CompletableFuture<Listing> future = turn.future();
    synchronized (slot) {
      if (slot.inFlight == future) {
        slot.inFlight = null;
      }
    }
    future.completeExceptionally(e);
  }

  /**
   * Waits for the LIST in flight that a question joined, and returns its listing or throws its
   * failure.
   *
   * @param about the job the LIST is sent for, named in its errors
   */
  Listing await(Turn turn, String namespace, ExecutionId about) {
    try {
      return turn.future().get();
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

  /** The listing kept for a namespace, or null. */
  Listing kept(String namespace) {
    Slot slot = slots.get(namespace);
    return slot == null ? null : slot.listing;
  }

  /** The namespaces whose lists are kept (for tests). */
  Set<String> namespaces() {
    return Set.copyOf(slots.keySet());
  }

  /** The slots by namespace, which the {@link ListEviction} drops. */
  ConcurrentMap<String, Slot> slots() {
    return slots;
  }

  private boolean isExpired(Listing listing) {
    return !ctx.clock().instant().isBefore(listing.at.plus(ttl));
  }
}
