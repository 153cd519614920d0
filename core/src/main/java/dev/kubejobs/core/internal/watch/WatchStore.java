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
package dev.kubejobs.core.internal.watch;

import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entries of a {@link NamespaceWatch} and the flags it publishes with them (in sync, forbidden,
 * resourceVersion, last heard), as client-java's informer keeps its objects in a {@code Cache} that
 * its reflector fills ({@code util/src/main/java/io/kubernetes/client/informer/cache/Cache.java}).
 * It also tells the {@link WatchListener} of each change, after the map shows it.
 *
 * <p>Entries only move forward: each one comes from an event or a list read after the one it
 * replaces. The flags are one immutable {@link State}, replaced under a lock that also serves the
 * waits of {@link #awaitSync}; {@link #generation()} grows with every change of an entry and of the
 * in-sync flag.
 *
 * <p>Thread safe: the reflector's thread writes, any thread reads, waits or {@linkplain
 * #invalidate(String) invalidates}.
 */
final class WatchStore {
  // The watch's own category, so that a user's logging configuration keeps applying to it.
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceWatch.class);

  /** The flags published together; replaced, never changed. */
  private record State(
      boolean inSync, boolean forbidden, String resourceVersion, Instant lastHeard) {}

  private final String namespace;
  private final Clock clock;
  private final WatchListener listener;
  private final UnaryOperator<ResourceSnapshot> keep;

  private final ConcurrentHashMap<String, ResourceSnapshot> entries = new ConcurrentHashMap<>();
  private final Map<String, ResourceSnapshot> readOnly = Collections.unmodifiableMap(entries);
  private final AtomicLong generation = new AtomicLong();

  /** Guards state changes and the waits of {@link #awaitSync}. */
  private final Object lock = new Object();

  private volatile State state = new State(false, false, "", null);
  private volatile boolean closed;

  WatchStore(
      String namespace, Clock clock, WatchListener listener, UnaryOperator<ResourceSnapshot> keep) {
    this.namespace = namespace;
    this.clock = clock;
    this.listener = listener;
    this.keep = keep;
  }

  // ---------------------------------------------------------------- reads

  /** What the store holds now, without copying it. */
  NamespaceWatch.View view() {
    State s = state;
    return new NamespaceWatch.View(
        readOnly, s.inSync(), generation.get(), s.resourceVersion(), s.forbidden(), s.lastHeard());
  }

  /** The last resourceVersion seen; empty before the first list. */
  String resourceVersion() {
    return state.resourceVersion();
  }

  /** Waits until in sync, forbidden or closed, or the timeout passes; returns whether in sync. */
  boolean awaitSync(Duration timeout) {
    long end = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (!state.inSync() && !state.forbidden() && !closed) {
        long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        if (left <= 0) {
          break;
        }
        try {
          lock.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      return state.inSync();
    }
  }

  // ---------------------------------------------------------------- changes from the reflector

  /**
   * Applies what a list shows: objects that vanished are deletes, new ones adds, another uid under
   * a known name a delete and an add; the resourceVersion becomes the list's.
   *
   * @return how many objects the list held
   */
  int replace(Collection<ResourceSnapshot> items, String listResourceVersion) {
    Map<String, ResourceSnapshot> listed = new LinkedHashMap<>();
    for (ResourceSnapshot item : items) {
      listed.put(item.name(), item);
    }
    for (Map.Entry<String, ResourceSnapshot> e : entries.entrySet()) {
      if (!listed.containsKey(e.getKey()) && entries.remove(e.getKey(), e.getValue())) {
        generation.incrementAndGet();
        tell(e.getValue(), null);
      }
    }
    for (ResourceSnapshot current : listed.values()) {
      ResourceSnapshot previous = entries.put(current.name(), keep.apply(current));
      if (previous == null) {
        generation.incrementAndGet();
        tell(null, current);
      } else if (!Objects.equals(previous.uid(), current.uid())) {
        // Deleted and created again between two watches: another object under the same name.
        generation.incrementAndGet();
        tell(previous, null);
        tell(null, current);
      } else if (!Objects.equals(previous.resourceVersion(), current.resourceVersion())) {
        generation.incrementAndGet();
        tell(previous, current);
      }
    }
    Instant now = clock.instant();
    update(s -> new State(s.inSync(), s.forbidden(), listResourceVersion, now));
    return listed.size();
  }

  /** Applies an ADDED or MODIFIED event. */
  void put(ResourceSnapshot current, String eventResourceVersion) {
    ResourceSnapshot previous = entries.put(current.name(), keep.apply(current));
    generation.incrementAndGet();
    advance(eventResourceVersion);
    tell(previous, current);
  }

  /** Applies a DELETED event carrying the object's last state. */
  void delete(ResourceSnapshot last, String eventResourceVersion) {
    entries.remove(last.name());
    generation.incrementAndGet();
    advance(eventResourceVersion);
    tell(last, null);
  }

  /**
   * Notes that the server spoke now (a BOOKMARK, or any event): remembers its resourceVersion
   * unless empty.
   */
  void advance(String resourceVersion) {
    Instant now = clock.instant();
    if (resourceVersion.isEmpty()) {
      update(s -> new State(s.inSync(), s.forbidden(), s.resourceVersion(), now));
    } else {
      update(s -> new State(s.inSync(), s.forbidden(), resourceVersion, now));
    }
  }

  /** A watch opened: in sync, no longer forbidden, heard now. */
  void opened() {
    Instant now = clock.instant();
    update(s -> new State(true, false, s.resourceVersion(), now));
    generation.incrementAndGet();
  }

  /** The last list or watch was refused with 403 (or 401). */
  void forbidden() {
    update(s -> new State(s.inSync(), true, s.resourceVersion(), s.lastHeard()));
    generation.incrementAndGet();
  }

  /** Sets the in-sync flag; a change counts as a generation. */
  void setInSync(boolean inSync) {
    synchronized (lock) {
      if (state.inSync() != inSync) {
        State s = state;
        state = new State(inSync, s.forbidden(), s.resourceVersion(), s.lastHeard());
        generation.incrementAndGet();
        lock.notifyAll();
      }
    }
  }

  // ---------------------------------------------------------------- from any thread

  /** Drops one entry, without telling the listener (the object did not change on the server). */
  void invalidate(String name) {
    if (entries.remove(Objects.requireNonNull(name, "name")) != null) {
      generation.incrementAndGet();
      LOG.debug("Watch of namespace '{}' dropped '{}' from its view", namespace, name);
    }
  }

  /** Ends the waits of {@link #awaitSync} for good and marks the store out of sync. */
  void close() {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
    }
    setInSync(false);
  }

  private void update(UnaryOperator<State> change) {
    synchronized (lock) {
      state = change.apply(state);
      lock.notifyAll();
    }
  }

  private void tell(ResourceSnapshot previous, ResourceSnapshot current) {
    if (listener == null) {
      return;
    }
    try {
      listener.changed(previous, current);
    } catch (RuntimeException e) {
      LOG.warn(
          "The listener of the watch of namespace '{}' failed on '{}'; the watch goes on",
          namespace,
          (current != null ? current : previous).name(),
          e);
    }
  }
}
