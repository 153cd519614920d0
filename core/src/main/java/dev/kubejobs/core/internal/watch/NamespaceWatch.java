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
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
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
 *       with jitter (Resilience4j's {@code IntervalFunction}) from {@link
 *       WatchSettings#backoffMin()} up to {@link WatchSettings#backoffMax()}, and tries again; a
 *       watch that brought no event and lasted less than a second also counts as a failure
 *       (client-go's "very short watch"), so a server or proxy that ends every watch at once is not
 *       hammered. A transient failure of a watch is retried as a watch from the same
 *       resourceVersion, not with a new list (client-go relists after a 5xx; resuming costs the
 *       server less, and a resourceVersion that became too old answers 410, which relists);
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
 * <p><b>Its parts</b>, split as client-java's informer splits its own ({@code
 * util/src/main/java/io/kubernetes/client/informer/cache/}: {@code ReflectorRunnable}, {@code
 * Cache}): a {@link Reflector} runs the list-and-watch loop above into a {@link WatchStore}, which
 * holds the entries and the published flags and tells the listener; the reflector waits on a {@link
 * Backoff} after failures, and an {@link IdleWatchdog} cancels a silent watch. This class only
 * builds them, owns their two threads and answers the caller.
 *
 * <p>Thread safe: {@link #view()}, {@link #awaitSync(Duration)}, {@link #invalidate(String)} and
 * {@link #close()} may be called from any thread. Nothing is shared between instances.
 */
public final class NamespaceWatch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceWatch.class);

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

  private final ResourceKind kind;
  private final String namespace;
  private final ThreadFactory threads;
  private final WatchStore store;
  private final Reflector reflector;

  /** Guards starting and closing. */
  private final Object lock = new Object();

  // guarded by lock
  private boolean started;
  private boolean closed;
  private Thread worker;
  private Thread watchdog;

  private NamespaceWatch(Builder b) {
    this.kind = b.kind;
    this.namespace = b.namespace;
    this.threads = b.threads;
    this.store = new WatchStore(b.namespace, b.clock, b.listener, b.keep);
    this.reflector =
        new Reflector(b.gateway, b.kind, b.namespace, b.labelSelector, b.settings, store, b.clock);
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
      worker = threads.newThread(reflector);
      watchdog = threads.newThread(reflector.watchdog());
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
    return store.view();
  }

  /**
   * Waits until the view is in sync (the first list done and its watch open), the view is found
   * {@linkplain View#forbidden() forbidden}, it is closed, or the timeout passes.
   *
   * @param timeout the longest wait
   * @return whether the view is in sync
   */
  public boolean awaitSync(Duration timeout) {
    return store.awaitSync(timeout);
  }

  /**
   * Drops one object from the view, so the next read of it goes to the server (after a cancel, for
   * one); the next event about it puts it back. The listener hears nothing: the object did not
   * change on the server.
   *
   * @param name the object's name
   */
  public void invalidate(String name) {
    store.invalidate(name);
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
    }
    reflector.close();
    store.close();
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
     * Sets the clock that stamps {@link View#lastHeard()} and that the view's own waits run on (the
     * back-off, the idle limit, the length of a watch); default UTC system clock. A test that moves
     * its clock ends those waits without real time passing. {@link
     * NamespaceWatch#awaitSync(Duration)}, the caller's wait, runs on real time.
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
