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
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;

/**
 * One namespace's copies as a read sees them: a list (kept for the cache period; empty when the
 * caller may not list, so every job is read with a GET), or a watched view that is live (sent
 * "after" every question: its tick is the largest).
 *
 * <p>Not a published API; thread safe.
 */
final class Listing {
  /** When the LIST was sent, on the operation's logical clock. */
  final long tick;

  /** When the LIST was sent, by the instance's clock (for the cache period). */
  final Instant at;

  /** The jobs that were listed, by name (none when the caller may not list, or for a live view). */
  final Map<String, JobMemo> byName;

  private final Function<String, JobMemo> lookup;

  private Listing(
      long tick, Instant at, Map<String, JobMemo> byName, Function<String, JobMemo> lookup) {
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
  static Listing listed(long tick, Instant at, Map<String, JobMemo> byName) {
    return new Listing(tick, at, byName, byName::get);
  }

  /**
   * A watched view that is in sync: its copies are fresh for any question. Never kept in a cache
   * slot (it has no cache period).
   */
  static Listing live(Function<String, JobMemo> lookup) {
    return new Listing(Long.MAX_VALUE, Instant.MAX, Map.of(), lookup);
  }

  /** Whether the copies were read after a question asked at {@code asked} (or are live). */
  boolean freshFor(long asked) {
    return tick > asked;
  }

  /**
   * The copy of a job as this listing holds it, mapped alone (the memo made as it arrived, or made
   * now), and whether it is fresh for the question asked at {@code asked}; null when the job is not
   * held.
   */
  Copy copy(ExecutionId id, long asked, StatusPipeline pipeline) {
    JobMemo entry = lookup.apply(id.name());
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
}
