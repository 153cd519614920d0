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

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.ResourceKind;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.internal.kube.ListResult;
import dev.kubejobs.core.internal.kube.WatchCall;
import dev.kubejobs.core.internal.kube.WatchEvent;
import dev.kubejobs.core.internal.kube.WatchHandler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An informer-like view of the objects of one kind that match a label selector in one namespace,
 * kept up to date by one LIST and then a WATCH from the list's resourceVersion, as client-go's
 * reflector does ({@code tools/cache/reflector.go}, {@code ListAndWatch}).
 *
 * <p><b>Why by hand and not client-java's informer.</b> client-java's {@code SharedInformer} sends
 * its requests through its own generated API calls: it would bypass the {@link KubeGateway}, which
 * owns the caller's authentication, the {@link dev.kubejobs.core.resilience.ResiliencePolicy} (an
 * open circuit must refuse a watch too), the typed errors ({@code 403} as {@link
 * JobRejectedException}, unreachable as {@link ApiUnavailableException}) and the request timeouts.
 * This class uses only {@link KubeGateway#listWithVersion} and {@link KubeGateway#watch}.
 *
 * <p><b>What it does.</b> {@link #start()} starts a daemon thread ({@code
 * kubejobs-watch-<namespace>} by default) that:
 *
 * <ul>
 *   <li>lists, and applies what the list shows to the view (objects that vanished since the last
 *       list or event are deletes, new ones adds), then watches from the list's resourceVersion
 *       with bookmarks ({@code allowWatchBookmarks=true});
 *   <li>applies each ADDED, MODIFIED and DELETED event, and remembers the resourceVersion of each
 *       event and BOOKMARK;
 *   <li>when the stream ends cleanly ({@code timeoutSeconds}), breaks off or stays silent for the
 *       idle limit, watches again from the last resourceVersion seen, without listing;
 *   <li>on 410 {@code Expired} (an ERROR event, or a 410 answer) and on any other ERROR event,
 *       lists again and watches from the new list;
 *   <li>on a failure (unreachable, 5xx, 429, open circuit, refused) waits, exponentially longer
 *       with jitter between {@link WatchSettings#backoffMin()} and {@link
 *       WatchSettings#backoffMax()}, and tries again; a watch that brought no event and lasted less
 *       than a second also counts as a failure (client-go's "very short watch"), so a server or
 *       proxy that ends every watch at once is not hammered. A transient failure of a watch is
 *       retried as a watch from the same resourceVersion, not with a new list (client-go relists
 *       after a 5xx; resuming costs the server less, and a resourceVersion that became too old
 *       answers 410, which relists);
 *   <li>on 403 marks the view {@link View#forbidden()} (the reader then polls this namespace) and
 *       logs one WARN naming the missing permission; it keeps trying at the back-off's pace and
 *       clears the mark once a watch opens.
 * </ul>
 *
 * <p>A second daemon thread (the first's name plus {@code -idle}) enforces the idle limit: it
 * cancels a watch call, even one still waiting for its answer, when nothing arrived on it for
 * {@link WatchSettings#idleLimit()}. {@link #close()} cancels the open call and ends both threads.
 *
 * <p><b>Consistency.</b> {@link #view()} costs no copy: {@link View#byName()} is a read-only view
 * over the live map (a {@link ConcurrentHashMap}) that the watch thread updates one entry at a
 * time, so a read sees each entry at least as new as it was when {@code view()} was called, and
 * possibly newer; the other components are one snapshot of the flags taken at the call. Entries
 * only move forward: each one comes from an event or a list read after the one it replaces. While
 * {@link View#inSync()} is false (no list yet, or between a lost watch and the next open one) the
 * entries may be stale and a relist may be applying itself entry by entry. The listener hears every
 * change after the map shows it.
 *
 * <p>Thread safe: {@link #view()}, {@link #awaitSync(Duration)}, {@link #invalidate(String)} and
 * {@link #close()} may be called from any thread. Nothing is shared between instances.
 */
public final class NamespaceWatch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceWatch.class);

  /** A watch shorter than this that brought no event counts as a failure (client-go's rule). */
  private static final long SHORT_WATCH_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** How long {@link #close()} waits for the threads to end. */
  private static final long JOIN_MILLIS = 10_000;

  /**
   * What the view holds at one moment.
   *
   * @param byName the objects by name: a read-only, live, weakly consistent view (see the class
   *     doc); never copied
   * @param inSync true only after a list succeeded and while the watch opened after it is open;
   *     false from the moment a watch ends until the next one is open
   * @param generation grows with every change to {@code byName} and every change of {@code inSync}:
   *     equal generations mean nothing changed in between
   * @param resourceVersion the last resourceVersion seen (list, event or bookmark); empty before
   *     the first list
   * @param forbidden whether the last attempt to list or watch was refused with 403 (or 401) and no
   *     watch has opened since
   * @param lastHeard when, by the view's clock, the server last told the view something (a list, an
   *     opened watch, an event or a bookmark); null before that
   */
  public record View(
      Map<String, ResourceSnapshot> byName,
      boolean inSync,
      long generation,
      String resourceVersion,
      boolean forbidden,
      Instant lastHeard) {}

  /** The flags published together; replaced, never changed. */
  private record State(
      boolean inSync, boolean forbidden, String resourceVersion, Instant lastHeard) {}

  /** How one watch request ended. */
  private enum End {
    /** The server ended the stream (timeoutSeconds, or it closed). */
    ENDED,
    /** The connection broke off. */
    BROKEN,
    /** The idle limit passed without anything arriving; the view canceled the call. */
    IDLE,
    /** An ERROR event with 410 Expired (or Gone). */
    EXPIRED,
    /** Another ERROR event. */
    ERROR,
    /** The view was closed. */
    CLOSED
  }

  private final KubeGateway gateway;
  private final ResourceKind kind;
  private final String namespace;
  private final String labelSelector;
  private final WatchSettings settings;
  private final Clock clock;
  private final ThreadFactory threads;
  private final WatchListener listener;
  private final UnaryOperator<ResourceSnapshot> keep;

  private final ConcurrentHashMap<String, ResourceSnapshot> entries = new ConcurrentHashMap<>();
  private final Map<String, ResourceSnapshot> readOnly = Collections.unmodifiableMap(entries);
  private final AtomicLong generation = new AtomicLong();

  /** Guards state changes and the waits of {@link #awaitSync} and the back-off. */
  private final Object lock = new Object();

  /** Wakes the idle watchdog when a watch starts and on close. */
  private final Object idleLock = new Object();

  private volatile State state = new State(false, false, "", null);
  private volatile boolean closed;
  private volatile Stream active;

  // guarded by lock
  private boolean started;
  private Thread worker;
  private Thread watchdog;

  // confined to the worker thread
  private boolean warnedForbidden;
  private boolean warnedRejected;

  private NamespaceWatch(Builder b) {
    this.gateway = b.gateway;
    this.kind = b.kind;
    this.namespace = b.namespace;
    this.labelSelector = b.labelSelector;
    this.settings = b.settings;
    this.clock = b.clock;
    this.threads = b.threads;
    this.listener = b.listener;
    this.keep = b.keep;
  }

  /**
   * Returns a builder of a view of {@code kind} in {@code namespace}.
   *
   * @param gateway the gateway every request goes through
   * @param kind the resource kind
   * @param namespace the namespace
   * @return the builder
   */
  public static Builder builder(KubeGateway gateway, ResourceKind kind, String namespace) {
    return new Builder(gateway, kind, namespace);
  }

  /**
   * Returns a factory of daemon threads named {@code kubejobs-watch-<namespace>}, the default.
   *
   * @param namespace the namespace
   * @return the factory
   */
  public static ThreadFactory daemonThreads(String namespace) {
    String name = "kubejobs-watch-" + namespace;
    return runnable -> {
      Thread t = new Thread(runnable, name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Starts following the namespace: the first list, then the watch, on the view's own thread.
   *
   * @throws IllegalStateException when started before or closed
   */
  public void start() {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException(
            "the watch of namespace '" + namespace + "' is closed; create a new one");
      }
      if (started) {
        throw new IllegalStateException(
            "the watch of namespace '" + namespace + "' was started already");
      }
      started = true;
      worker = threads.newThread(this::runWorker);
      watchdog = threads.newThread(this::runWatchdog);
      watchdog.setName(watchdog.getName() + "-idle");
      worker.start();
      watchdog.start();
    }
  }

  /**
   * Returns what the view holds now, without copying it (see the class doc for the consistency).
   *
   * @return the view
   */
  public View view() {
    State s = state;
    return new View(
        readOnly, s.inSync(), generation.get(), s.resourceVersion(), s.forbidden(), s.lastHeard());
  }

  /**
   * Waits until the view is in sync (the first list done and its watch open), the view is found
   * {@linkplain View#forbidden() forbidden}, it is closed, or the timeout passes.
   *
   * @param timeout the longest wait
   * @return whether the view is in sync
   */
  public boolean awaitSync(Duration timeout) {
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

  /**
   * Drops one object from the view, so the next read of it goes to the server (after a cancel, for
   * one); the next event about it puts it back. The listener hears nothing: the object did not
   * change on the server.
   *
   * @param name the object's name
   */
  public void invalidate(String name) {
    if (entries.remove(Objects.requireNonNull(name, "name")) != null) {
      generation.incrementAndGet();
      LOG.debug("Watch of namespace '{}' dropped '{}' from its view", namespace, name);
    }
  }

  /**
   * Stops following the namespace: cancels the open watch call and ends the view's threads, waiting
   * up to 10 seconds for them (a list in flight ends at the gateway's request timeout). The view
   * keeps its last entries and is out of sync. Calling it again does nothing.
   */
  @Override
  public void close() {
    Thread w;
    Thread d;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      w = worker;
      d = watchdog;
      lock.notifyAll();
    }
    synchronized (idleLock) {
      idleLock.notifyAll();
    }
    Stream s = active;
    if (s != null) {
      s.cancel();
    }
    setInSync(false);
    for (Thread t : new Thread[] {w, d}) {
      if (t == null || t == Thread.currentThread()) {
        continue;
      }
      try {
        t.join(JOIN_MILLIS);
        if (t.isAlive()) {
          LOG.debug("Thread '{}' still runs after close; it ends with its request", t.getName());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    LOG.debug("Watch of namespace '{}' closed", namespace);
  }

  @Override
  public String toString() {
    return "NamespaceWatch{" + kind.qualifiedPlural() + " in namespace '" + namespace + "'}";
  }

  // ---------------------------------------------------------------- the watch thread

  private void runWorker() {
    boolean relist = true;
    int failures = 0;
    while (!closed) {
      boolean progress = false;
      String doing = relist ? "list" : "watch";
      try {
        if (relist) {
          relist();
          relist = false;
          doing = "watch";
        }
        Stream stream = new Stream();
        End end = watchOnce(stream);
        progress = stream.progressed();
        switch (end) {
          case CLOSED:
            return;
          case ENDED:
            LOG.debug("Watch of namespace '{}' ended; resuming from {}", namespace, rv());
            break;
          case BROKEN:
            LOG.debug("Watch of namespace '{}' broke off; resuming from {}", namespace, rv());
            break;
          case IDLE:
            progress = true;
            LOG.debug(
                "Watch of namespace '{}' brought nothing for {}; closed it, resuming from {}",
                namespace,
                settings.idleLimit(),
                rv());
            break;
          case EXPIRED:
            relist = true;
            LOG.debug(
                "Watch of namespace '{}' from {} expired (410): listing again", namespace, rv());
            break;
          case ERROR:
          default:
            relist = true;
            progress = false;
            LOG.debug(
                "Watch of namespace '{}' got an ERROR event ({}): listing again",
                namespace,
                stream.error);
            break;
        }
      } catch (ApiStatusException e) {
        // The watch request itself was answered 410: the resourceVersion is too old.
        relist = true;
        LOG.debug("Watch of namespace '{}' was answered {}: listing again", namespace, e.code());
      } catch (JobRejectedException e) {
        if (e.reason() == JobRejectedException.Reason.FORBIDDEN) {
          forbidden(doing, e);
        } else {
          relist = true;
          rejected(doing, e);
        }
      } catch (ApiUnavailableException e) {
        if (closed) {
          break;
        }
        LOG.debug("Watch of namespace '{}' could not {}: {}", namespace, doing, e.getMessage());
      } catch (RuntimeException e) {
        if (closed) {
          break;
        }
        relist = true;
        LOG.warn(
            "Watch of namespace '{}' failed unexpectedly; it lists again after a back-off",
            namespace,
            e);
      }
      failures = progress ? 0 : failures + 1;
      if (failures > 0) {
        pause(settings.backoff(failures, ThreadLocalRandom.current().nextDouble()));
      }
    }
    setInSync(false);
  }

  /** Lists and applies what the list shows; the view's resourceVersion becomes the list's. */
  private void relist() {
    ListResult list = gateway.listWithVersion(null, kind, namespace, labelSelector);
    Map<String, ResourceSnapshot> listed = new LinkedHashMap<>();
    for (ResourceSnapshot item : list.items()) {
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
    update(s -> new State(s.inSync(), s.forbidden(), list.resourceVersion(), now));
    LOG.debug(
        "Watch of namespace '{}' listed {} objects at resourceVersion {}",
        namespace,
        listed.size(),
        list.resourceVersion());
  }

  /** Runs one watch request from the view's resourceVersion until it ends. */
  private End watchOnce(Stream stream) {
    active = stream;
    synchronized (idleLock) {
      idleLock.notifyAll();
    }
    try {
      gateway.watch(
          kind,
          namespace,
          labelSelector,
          rv(),
          settings.serverTimeout(),
          true,
          new WatchHandler() {
            @Override
            public void starting(WatchCall call) {
              stream.call = call;
              if (closed) {
                call.cancel();
              }
            }

            @Override
            public void opened() {
              stream.touch();
              stream.opened = true;
              Instant now = clock.instant();
              update(s -> new State(true, false, s.resourceVersion(), now));
              generation.incrementAndGet();
              LOG.debug("Watch of namespace '{}' open from {}", namespace, rv());
            }

            @Override
            public void onEvent(WatchEvent event) {
              stream.touch();
              apply(event, stream);
            }
          });
      return stream.error == null ? End.ENDED : errorEnd(stream);
    } catch (ApiUnavailableException e) {
      if (closed) {
        return End.CLOSED;
      }
      if (stream.error != null) {
        return errorEnd(stream);
      }
      if (stream.idle) {
        return End.IDLE;
      }
      if (!stream.opened) {
        throw e;
      }
      LOG.debug("Watch of namespace '{}': {}", namespace, e.getMessage());
      return End.BROKEN;
    } finally {
      active = null;
      setInSync(false);
    }
  }

  private static End errorEnd(Stream stream) {
    return stream.error.isExpired() ? End.EXPIRED : End.ERROR;
  }

  private void apply(WatchEvent event, Stream stream) {
    switch (event.type()) {
      case ADDED:
      case MODIFIED:
        {
          ResourceSnapshot current = event.object();
          ResourceSnapshot previous = entries.put(current.name(), keep.apply(current));
          generation.incrementAndGet();
          advance(event.resourceVersion());
          stream.events++;
          tell(previous, current);
          break;
        }
      case DELETED:
        {
          ResourceSnapshot last = event.object();
          entries.remove(last.name());
          generation.incrementAndGet();
          advance(event.resourceVersion());
          stream.events++;
          tell(last, null);
          break;
        }
      case BOOKMARK:
        advance(event.resourceVersion());
        stream.events++;
        break;
      case ERROR:
      default:
        // The server ends the stream after an ERROR event; end it here in case it does not.
        stream.error = event.error();
        stream.cancel();
        break;
    }
  }

  private void advance(String resourceVersion) {
    Instant now = clock.instant();
    if (resourceVersion.isEmpty()) {
      update(s -> new State(s.inSync(), s.forbidden(), s.resourceVersion(), now));
    } else {
      update(s -> new State(s.inSync(), s.forbidden(), resourceVersion, now));
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

  private void forbidden(String verb, JobRejectedException e) {
    update(s -> new State(s.inSync(), true, s.resourceVersion(), s.lastHeard()));
    generation.incrementAndGet();
    if (!warnedForbidden) {
      warnedForbidden = true;
      LOG.warn(
          "Cannot follow {} in namespace '{}' with a watch: {}. The status reader polls this"
              + " namespace instead; grant the ApiClient's account the '{}' verb on {} to follow"
              + " it with a watch",
          kind.qualifiedPlural(),
          namespace,
          e.getMessage(),
          "list".equals(verb) ? "list' and 'watch" : "watch",
          kind.qualifiedPlural());
    } else {
      LOG.debug("Watch of namespace '{}' still forbidden: {}", namespace, e.getMessage());
    }
  }

  private void rejected(String verb, JobRejectedException e) {
    if (!warnedRejected) {
      warnedRejected = true;
      LOG.warn(
          "Cannot {} {} in namespace '{}': {}; the watch tries again after a back-off",
          verb,
          kind.qualifiedPlural(),
          namespace,
          e.getMessage());
    } else {
      LOG.debug("Watch of namespace '{}' still refused: {}", namespace, e.getMessage());
    }
  }

  /** Waits for the back-off, or until closed. */
  private void pause(Duration wait) {
    LOG.debug("Watch of namespace '{}' waits {} before trying again", namespace, wait);
    long end = System.nanoTime() + wait.toNanos();
    synchronized (lock) {
      while (!closed) {
        long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        if (left <= 0) {
          return;
        }
        try {
          lock.wait(left);
        } catch (InterruptedException e) {
          LOG.debug("Watch of namespace '{}' interrupted while waiting", namespace);
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private String rv() {
    return state.resourceVersion();
  }

  private void setInSync(boolean inSync) {
    synchronized (lock) {
      if (state.inSync() != inSync) {
        State s = state;
        state = new State(inSync, s.forbidden(), s.resourceVersion(), s.lastHeard());
        generation.incrementAndGet();
        lock.notifyAll();
      }
    }
  }

  private void update(UnaryOperator<State> change) {
    synchronized (lock) {
      state = change.apply(state);
      lock.notifyAll();
    }
  }

  // ---------------------------------------------------------------- the idle watchdog

  private void runWatchdog() {
    long idleNanos = settings.idleLimit().toNanos();
    while (!closed) {
      Stream stream = active;
      long waitNanos = idleNanos;
      if (stream != null) {
        long quiet = System.nanoTime() - stream.lastActivity;
        if (quiet >= idleNanos) {
          if (!stream.idle) {
            stream.idle = true;
            stream.cancel();
          }
        } else {
          waitNanos = idleNanos - quiet;
        }
      }
      synchronized (idleLock) {
        if (closed || active != stream) {
          continue;
        }
        try {
          idleLock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos)));
        } catch (InterruptedException e) {
          LOG.debug("Idle watchdog of namespace '{}' interrupted; it stops", namespace);
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** One watch request: its handle and what it brought. */
  private static final class Stream {
    private final long startedAt = System.nanoTime();
    private volatile WatchCall call;
    private volatile long lastActivity = startedAt;
    private volatile boolean idle;
    private volatile boolean opened;
    // worker thread only
    private int events;
    private WatchEvent.ErrorStatus error;

    void touch() {
      lastActivity = System.nanoTime();
    }

    void cancel() {
      WatchCall c = call;
      if (c != null) {
        c.cancel();
      }
    }

    /** Whether the watch brought an event or lasted a second (client-go's "very short watch"). */
    boolean progressed() {
      return events > 0 || System.nanoTime() - startedAt >= SHORT_WATCH_NANOS;
    }
  }

  /** Builds a {@link NamespaceWatch}. Not thread safe. */
  public static final class Builder {
    private final KubeGateway gateway;
    private final ResourceKind kind;
    private final String namespace;
    private String labelSelector;
    private WatchSettings settings = WatchSettings.ofDefaults();
    private Clock clock = Clock.systemUTC();
    private ThreadFactory threads;
    private WatchListener listener;
    private UnaryOperator<ResourceSnapshot> keep = UnaryOperator.identity();

    private Builder(KubeGateway gateway, ResourceKind kind, String namespace) {
      this.gateway = Objects.requireNonNull(gateway, "gateway");
      this.kind = Objects.requireNonNull(kind, "kind");
      if (namespace == null || namespace.isEmpty()) {
        throw new IllegalArgumentException(
            "namespace must be a non-empty namespace name, but was "
                + (namespace == null ? "null" : "''"));
      }
      this.namespace = namespace;
    }

    /**
     * Sets the label selector, for example {@code app.kubernetes.io/managed-by=kubejobs}; default
     * none (every object of the kind).
     *
     * @param selector the selector, or null for none
     * @return this builder
     */
    public Builder labelSelector(String selector) {
      this.labelSelector = selector;
      return this;
    }

    /**
     * Sets the timeouts and back-off; default {@link WatchSettings#ofDefaults()}.
     *
     * @param watchSettings the settings
     * @return this builder
     */
    public Builder settings(WatchSettings watchSettings) {
      this.settings = Objects.requireNonNull(watchSettings, "settings");
      return this;
    }

    /**
     * Sets the clock that stamps {@link View#lastHeard()}; default UTC system clock. Waits (the
     * idle limit, the back-off) run on real time.
     *
     * @param viewClock the clock
     * @return this builder
     */
    public Builder clock(Clock viewClock) {
      this.clock = Objects.requireNonNull(viewClock, "clock");
      return this;
    }

    /**
     * Sets the factory of the view's two threads (the watch and its idle watchdog, whose name gets
     * {@code -idle} appended); default {@link #daemonThreads(String)}.
     *
     * @param factory the factory; its threads should be daemons
     * @return this builder
     */
    public Builder threadFactory(ThreadFactory factory) {
      this.threads = Objects.requireNonNull(factory, "threadFactory");
      return this;
    }

    /**
     * Sets what the view keeps of each object, for example only its metadata when the listener
     * keeps what it needs itself: the view's entries (and the {@code previousOrNull} the listener
     * is told) are then what this returns, and they must keep the name, uid and resourceVersion.
     * Default: the whole object.
     *
     * @param keeper turns an object into what is kept of it
     * @return this builder
     */
    public Builder keep(UnaryOperator<ResourceSnapshot> keeper) {
      this.keep = Objects.requireNonNull(keeper, "keep");
      return this;
    }

    /**
     * Sets the listener that hears every change, on the watch thread; default none.
     *
     * @param changes the listener, or null for none
     * @return this builder
     */
    public Builder listener(WatchListener changes) {
      this.listener = changes;
      return this;
    }

    /**
     * Builds the view; call {@link NamespaceWatch#start()} to start following.
     *
     * @return the view, not started
     */
    public NamespaceWatch build() {
      if (threads == null) {
        threads = daemonThreads(namespace);
      }
      return new NamespaceWatch(this);
    }
  }
}
