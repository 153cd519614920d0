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
package dev.kubejobs.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The store's change history that watches read from, in resourceVersion order: the fake's
 * counterpart of the watch cache's event buffer ({@code watchCacheHistory} in apiserver's {@code
 * storage/cacher}). The store appends every change under its own lock, so the order here is the
 * resourceVersion order; watches wait here for the next change. A resourceVersion older than what
 * the history still holds is "too old" (410 {@code Expired}); the history forgets changes after
 * {@link #compact(long)}, after its time window (by the server's clock) and beyond {@link
 * #CAPACITY} entries. A change holds the store's own immutable objects, not copies. Thread safe:
 * all state is guarded by this object's monitor.
 */
final class WatchHub {

  /** At most this many changes are kept; older ones are dropped as by a compaction. */
  static final int CAPACITY = 10_000;

  /**
   * One change to one object.
   *
   * @param rv the resourceVersion of the change (for a removal: a new one, as etcd gives it)
   * @param kind what happened
   * @param type the object's type
   * @param object the object after the change; for a removal its last state with {@code rv}
   * @param previous the object before the change, null for a creation
   * @param at when the change was made, by the server's clock
   */
  record Change(
      long rv,
      ResourceEvent.Kind kind,
      ResourceType type,
      StoredObject object,
      StoredObject previous,
      Instant at) {}

  /** What a watch starting after a resourceVersion gets: the changes since, or "too old". */
  record Since(List<Change> changes, long tooOldFloor) {
    boolean expired() {
      return tooOldFloor >= 0;
    }
  }

  private final Clock clock;
  private final Deque<Change> changes = new ArrayDeque<>();
  private Duration window = Duration.ofMinutes(5);

  /** Every resourceVersion up to this one may have been forgotten. */
  private long floor;

  /** Watches send no change above this resourceVersion ({@link Long#MAX_VALUE}: not paused). */
  private long deliverable = Long.MAX_VALUE;

  /** Bumped by {@link #bookmark()} so that waiting watches send a bookmark. */
  private long bookmarks;

  /** Bumped by {@link #closeAll()} so that open watches end. */
  private long closings;

  private int open;

  /** Told of every change here; each must return at once (it runs under the store's lock). */
  private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

  WatchHub(Clock clock) {
    this.clock = clock;
  }

  /**
   * Registers a listener told (on the changing thread, under this hub's monitor and possibly the
   * store's lock, so it must only hand the news on) whenever watches may have something new to do.
   */
  void onChange(Runnable listener) {
    listeners.add(listener);
  }

  private void changed() {
    for (Runnable l : listeners) {
      l.run();
    }
  }

  synchronized void append(Change change) {
    changes.addLast(change);
    while (changes.size() > CAPACITY) {
      floor = changes.removeFirst().rv();
    }
    changed();
  }

  /**
   * Forgets every change up to {@code currentRv}, as an etcd compaction followed by a watch cache
   * re-list does: a watch from an older resourceVersion then gets 410 {@code Expired}.
   */
  synchronized void compact(long currentRv) {
    changes.clear();
    floor = Math.max(floor, currentRv);
    changed();
  }

  synchronized void window(Duration window) {
    this.window = window;
  }

  /**
   * Returns the changes after {@code rv}, or the floor if {@code rv} is older than the history
   * holds, as {@code getAllEventsSinceLocked} in apiserver's {@code storage/cacher} does: {@code
   * too old resource version: rv (oldest-1)} when {@code rv < oldest-1}.
   */
  synchronized Since since(long rv) {
    Instant limit = clock.instant().minus(window);
    while (!changes.isEmpty() && changes.peekFirst().at().isBefore(limit)) {
      floor = changes.removeFirst().rv();
    }
    if (rv < floor) {
      return new Since(List.of(), floor);
    }
    return new Since(newerThan(rv, Long.MAX_VALUE), -1);
  }

  /**
   * The changes after {@code rv} for a watch that is already streaming, or null when the history
   * forgot a change after {@code rv} that the watch has not sent yet (by {@link #since}'s time
   * window, {@link #compact(long)} or {@link #CAPACITY}). The real watch cache pushes each change
   * into every watcher's buffer as it happens, and closes a watcher that cannot take it ({@code
   * cacheWatcher.add} calls {@code forget()}, "Forcing watcher close due to unresponsiveness"); a
   * watcher here reads from the shared history instead, so it must end in the same way rather than
   * skip the forgotten changes and go on as if it had sent them.
   */
  synchronized List<Change> after(long rv) {
    if (rv < floor) {
      return null;
    }
    return newerThan(rv, deliverable);
  }

  /**
   * The changes in {@code (rv, upTo]}, oldest first, read from the newest back to the first one at
   * or before {@code rv} (the history is in resourceVersion order): a watch that keeps up reads
   * only what is new, not the whole history (the watch cache finds its start in its cyclic buffer
   * by {@code sort.Search} on resourceVersion in {@code getAllEventsSinceLocked}, apiserver's
   * {@code storage/cacher/watch_cache.go}).
   */
  private List<Change> newerThan(long rv, long upTo) {
    List<Change> result = new ArrayList<>();
    java.util.Iterator<Change> newestFirst = changes.descendingIterator();
    while (newestFirst.hasNext()) {
      Change c = newestFirst.next();
      if (c.rv() <= rv) {
        break;
      }
      if (c.rv() <= upTo) {
        result.add(c);
      }
    }
    java.util.Collections.reverse(result);
    return result;
  }

  /**
   * Lets watches send the changes up to {@code rv} and holds back later ones; {@link
   * Long#MAX_VALUE} sends everything again.
   */
  synchronized void deliverUpTo(long rv) {
    deliverable = rv;
    changed();
  }

  /** Asks every open watch that allows bookmarks to send one now. */
  synchronized void bookmark() {
    bookmarks++;
    changed();
  }

  synchronized long bookmarks() {
    return bookmarks;
  }

  /** Ends every open watch: each one finishes its stream as when the server shuts down. */
  synchronized void closeAll() {
    closings++;
    changed();
  }

  synchronized long closings() {
    return closings;
  }

  synchronized void opened() {
    open++;
  }

  synchronized void ended() {
    open--;
    notifyAll();
  }

  /** The number of watches streaming now. */
  synchronized int open() {
    return open;
  }

  /** Waits up to {@code maxMillis} for every open watch to end; returns whether they did. */
  synchronized boolean awaitAllEnded(long maxMillis) throws InterruptedException {
    long end = System.nanoTime() + maxMillis * 1_000_000L;
    while (open > 0) {
      long left = (end - System.nanoTime()) / 1_000_000L;
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    return true;
  }
}
