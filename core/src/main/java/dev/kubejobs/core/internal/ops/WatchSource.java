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
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.watch.NamespaceWatch;
import dev.kubejobs.core.internal.watch.WatchSettings;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status reader's copies in watch mode: per namespace a {@link NamespaceWatch} (LIST, then
 * WATCH), started at the first read of a job in it. The view keeps only each object's metadata;
 * this source keeps, per job, the mapping made from each new resourceVersion as it arrives (and the
 * copy only while a driver pod or a follow-up needs it), so a followed job costs what its mapping
 * costs.
 *
 * <p>A namespace's copies are served only while its watch is in sync; otherwise {@link #live}
 * answers null and the reader polls. Not a published API; thread safe.
 */
final class WatchSource implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WatchSource.class);

  private final KubeJobsContext<?> ctx;
  private final ResourceKind resourceKind;
  private final StatusPipeline pipeline;
  private final AtomicLong ticks;
  private final WatchSettings settings;
  private final Duration firstWait;
  private final ChangedJobs changed;
  private final ConcurrentHashMap<String, Watched> watches = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * Creates the source; nothing starts until the first read.
   *
   * @param ticks the operation's logical clock, the one its questions are asked on: a copy mapped
   *     ahead as its event arrives is stamped with a tick of it
   * @param recordChanges whether to record the jobs whose resource changed in {@link #changes()}
   *     (for a reader that tells a listener of changes)
   */
  WatchSource(
      KubeJobsContext<?> ctx,
      StatusPipeline pipeline,
      AtomicLong ticks,
      WatchSettings settings,
      Duration firstWait,
      boolean recordChanges) {
    this.ctx = ctx;
    this.resourceKind = ctx.jobKind().resourceKind();
    this.pipeline = pipeline;
    this.ticks = ticks;
    this.settings = settings;
    this.firstWait = firstWait;
    this.changed = recordChanges ? new ChangedJobs() : null;
  }

  /** One namespace's watch and the jobs it holds. */
  private record Watched(NamespaceWatch watch, Map<String, JobMemo> entries) {}

  /**
   * Returns a namespace's live copies, starting its watch at the first call (and waiting for its
   * first sync then, up to the request timeout).
   *
   * @return the copies, or null when the namespace's watch is not in sync (poll instead)
   */
  Listing live(String namespace) {
    if (closed) {
      return null;
    }
    Watched watched = watches.get(namespace);
    boolean first = false;
    if (watched == null) {
      synchronized (watches) {
        watched = watches.get(namespace);
        if (watched == null && !closed) {
          watched = start(namespace);
          first = true;
        }
      }
      if (watched == null) {
        return null;
      }
    }
    if (first && !watched.watch.awaitSync(firstWait)) {
      LOG.debug("The watch of namespace {} is not in sync yet; polling it meanwhile", namespace);
    }
    NamespaceWatch.View view = watched.watch.view();
    if (!view.inSync() || view.forbidden()) {
      return null;
    }
    return Listing.live(watched.entries::get);
  }

  private Watched start(String namespace) {
    Map<String, JobMemo> entries = new ConcurrentHashMap<>();
    NamespaceWatch watch =
        NamespaceWatch.builder(ctx.gateway(), resourceKind, namespace)
            .labelSelector(StatusOperation.SELECTOR)
            .settings(settings)
            .keep(WatchSource::metadataOnly)
            .listener((previous, current) -> apply(namespace, entries, previous, current))
            .build();
    Watched watched = new Watched(watch, entries);
    watches.put(namespace, watched);
    watch.start();
    LOG.debug("Watching {} in namespace {}", resourceKind.qualifiedPlural(), namespace);
    return watched;
  }

  /** Keeps a job's mapping from each new copy; runs on the watch's thread. */
  private void apply(
      String namespace,
      Map<String, JobMemo> entries,
      ResourceSnapshot previous,
      ResourceSnapshot current) {
    String name = current != null ? current.name() : previous.name();
    ExecutionId id;
    try {
      id = ExecutionId.of(ctx.cluster(), resourceKind, namespace, name);
    } catch (IllegalArgumentException e) {
      LOG.debug(
          "Ignoring {} '{}' in namespace {}: {}",
          resourceKind.kind(),
          name,
          namespace,
          e.getMessage());
      return;
    }
    if (current == null) {
      entries.remove(name);
    } else {
      JobMemo entry = new JobMemo(current);
      entry.mapAhead(id, pipeline, ticks.incrementAndGet(), "its watch event arrived");
      entries.put(name, entry);
    }
    if (changed != null) {
      changed.add(id);
    }
  }

  /** What the view keeps of an object: its name, uid and resourceVersion (the namespace is its). */
  private static ResourceSnapshot metadataOnly(ResourceSnapshot object) {
    com.google.gson.JsonObject metadata = new com.google.gson.JsonObject();
    metadata.addProperty("name", object.name());
    metadata.addProperty("uid", object.uid());
    metadata.addProperty("resourceVersion", object.resourceVersion());
    com.google.gson.JsonObject kept = new com.google.gson.JsonObject();
    kept.add("metadata", metadata);
    return ResourceSnapshot.of(kept);
  }

  /**
   * Drops a job's copy, so its next read goes to the server (after a cancel); its next event puts
   * it back.
   */
  void forget(ExecutionId id) {
    Watched watched = watches.get(id.namespace());
    if (watched != null) {
      watched.entries.remove(id.name());
      watched.watch.invalidate(id.name());
    }
  }

  /**
   * The jobs whose resource changed since they were last taken, when recorded (else empty): the
   * reader takes them from here; the watch never calls into it.
   */
  Optional<ChangedJobs> changes() {
    return Optional.ofNullable(changed);
  }

  /** Ends every watch, and wakes up whoever waits for changes. Idempotent. */
  @Override
  public void close() {
    synchronized (watches) {
      closed = true;
    }
    if (changed != null) {
      changed.close();
    }
    for (Watched w : watches.values()) {
      w.watch.close();
    }
  }
}
