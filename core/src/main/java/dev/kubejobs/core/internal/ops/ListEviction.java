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

import dev.kubejobs.core.internal.KubeJobsContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;

/**
 * The eviction of the {@link StatusCache}: drops the lists of namespaces nobody read for a while
 * from the {@link SingleFlight}'s slots, so they are not kept forever.
 *
 * <p>Not a published API; thread safe.
 */
final class ListEviction {
  /** How long the list of a namespace nobody reads is kept (unless the cache period is longer). */
  static final Duration KEPT_UNREAD = Duration.ofMinutes(10);

  private final KubeJobsContext<?> ctx;
  private final Duration ttl;
  private final ConcurrentMap<String, SingleFlight.Slot> slots;

  /** When the lists nobody read are looked at next. */
  private volatile Instant nextSweep = Instant.MIN;

  ListEviction(
      KubeJobsContext<?> ctx, Duration ttl, ConcurrentMap<String, SingleFlight.Slot> slots) {
    this.ctx = ctx;
    this.ttl = ttl;
    this.slots = slots;
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
    for (Map.Entry<String, SingleFlight.Slot> e : slots.entrySet()) {
      if (keep.contains(e.getKey())) {
        continue;
      }
      SingleFlight.Slot slot = e.getValue();
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
}
