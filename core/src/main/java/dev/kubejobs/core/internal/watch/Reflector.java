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
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.internal.kube.ListResult;
import dev.kubejobs.core.internal.kube.WatchCall;
import dev.kubejobs.core.internal.kube.WatchEvent;
import dev.kubejobs.core.internal.kube.WatchHandler;
import dev.kubejobs.core.spi.ResourceKind;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The list-and-watch loop of a {@link NamespaceWatch}: one LIST, then WATCHes from the last
 * resourceVersion, into a {@link WatchStore}, as client-java's {@code ReflectorRunnable} fills its
 * {@code DeltaFIFO} ({@code
 * util/src/main/java/io/kubernetes/client/informer/cache/ReflectorRunnable.java}) and client-go's
 * reflector its store ({@code tools/cache/reflector.go}, {@code ListAndWatch}). It decides, from
 * how each watch ended, whether to watch again from where it was, to list again, or to wait on the
 * {@link Backoff} first; the class doc of {@link NamespaceWatch} lists the rules.
 *
 * <p>{@link #run()} runs on the watch's own thread until {@link #close()}, which may be called from
 * any thread and cancels the open call. Its times (the back-off, the idle limit, a watch's length)
 * are read on the view's clock.
 */
final class Reflector implements Runnable {
  // The watch's own category, so that a user's logging configuration keeps applying to it.
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceWatch.class);

  /** How one watch request ended. */
  enum End {
    /** The server ended the stream (timeoutSeconds, or it closed). */
    ENDED,
    /** The connection broke off. */
    BROKEN,
    /** The idle limit passed without anything arriving; the watchdog canceled the call. */
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
  private final WatchStore store;
  private final ClockWait time;
  private final Backoff backoff;
  private final IdleWatchdog watchdog;

  private volatile boolean closed;
  private volatile WatchStream active;

  // the reflector's thread only
  private boolean warnedForbidden;
  private boolean warnedRejected;

  Reflector(
      KubeGateway gateway,
      ResourceKind kind,
      String namespace,
      String labelSelector,
      WatchSettings settings,
      WatchStore store,
      Clock clock) {
    this.gateway = gateway;
    this.kind = kind;
    this.namespace = namespace;
    this.labelSelector = labelSelector;
    this.settings = settings;
    this.store = store;
    this.time = new ClockWait(clock);
    this.backoff = new Backoff(settings.backoff(), new ClockWait(clock), namespace);
    this.watchdog = new IdleWatchdog(settings.idleLimit(), () -> active, new ClockWait(clock));
  }

  /** The watchdog of this reflector's watches, to run on a thread of its own. */
  IdleWatchdog watchdog() {
    return watchdog;
  }

  /** Ends the loop: cancels the open call, the back-off's wait and the watchdog. */
  void close() {
    closed = true;
    backoff.close();
    watchdog.close();
    WatchStream s = active;
    if (s != null) {
      s.cancel();
    }
  }

  @Override
  public void run() {
    boolean relist = true;
    while (!closed) {
      boolean progress = false;
      String doing = relist ? "list" : "watch";
      try {
        if (relist) {
          relist();
          relist = false;
          doing = "watch";
        }
        WatchStream stream = new WatchStream(time::millis);
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
                stream.error());
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
      backoff.after(progress);
    }
    store.setInSync(false);
  }

  /** Lists and applies what the list shows; the view's resourceVersion becomes the list's. */
  private void relist() {
    ListResult list = gateway.listWithVersion(null, kind, namespace, labelSelector);
    int listed = store.replace(list.items(), list.resourceVersion());
    LOG.debug(
        "Watch of namespace '{}' listed {} objects at resourceVersion {}",
        namespace,
        listed,
        list.resourceVersion());
  }

  /** Runs one watch request from the view's resourceVersion until it ends. */
  private End watchOnce(WatchStream stream) {
    active = stream;
    watchdog.wake();
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
              stream.starting(call);
              if (closed) {
                call.cancel();
              }
            }

            @Override
            public void opened() {
              stream.opened();
              store.opened();
              LOG.debug("Watch of namespace '{}' open from {}", namespace, rv());
            }

            @Override
            public void onEvent(WatchEvent event) {
              stream.touch();
              apply(event, stream);
            }
          });
      return stream.error() == null ? End.ENDED : errorEnd(stream);
    } catch (ApiUnavailableException e) {
      if (closed) {
        return End.CLOSED;
      }
      if (stream.error() != null) {
        return errorEnd(stream);
      }
      if (stream.wasIdle()) {
        return End.IDLE;
      }
      if (!stream.isOpened()) {
        throw e;
      }
      LOG.debug("Watch of namespace '{}': {}", namespace, e.getMessage());
      return End.BROKEN;
    } finally {
      active = null;
      store.setInSync(false);
    }
  }

  private static End errorEnd(WatchStream stream) {
    return stream.error().isExpired() ? End.EXPIRED : End.ERROR;
  }

  private void apply(WatchEvent event, WatchStream stream) {
    switch (event.type()) {
      case ADDED:
      case MODIFIED:
        stream.counted();
        store.put(event.object(), event.resourceVersion());
        break;
      case DELETED:
        stream.counted();
        store.delete(event.object(), event.resourceVersion());
        break;
      case BOOKMARK:
        stream.counted();
        store.advance(event.resourceVersion());
        break;
      case ERROR:
      default:
        // The server ends the stream after an ERROR event; end it here in case it does not.
        stream.failed(event.error());
        stream.cancel();
        break;
    }
  }

  private void forbidden(String verb, JobRejectedException e) {
    store.forbidden();
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

  private String rv() {
    return store.resourceVersion();
  }
}
