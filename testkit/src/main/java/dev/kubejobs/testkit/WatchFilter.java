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

import com.github.tomakehurst.wiremock.core.Options;
import com.github.tomakehurst.wiremock.http.AdminRequestHandler;
import com.github.tomakehurst.wiremock.http.HttpServer;
import com.github.tomakehurst.wiremock.http.HttpServerFactory;
import com.github.tomakehurst.wiremock.http.StubRequestHandler;
import com.github.tomakehurst.wiremock.jetty11.Jetty11HttpServer;
import com.github.tomakehurst.wiremock.jetty11.Jetty11HttpUtils;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import wiremock.jakarta.servlet.AsyncContext;
import wiremock.jakarta.servlet.AsyncEvent;
import wiremock.jakarta.servlet.AsyncListener;
import wiremock.jakarta.servlet.DispatcherType;
import wiremock.jakarta.servlet.Filter;
import wiremock.jakarta.servlet.FilterChain;
import wiremock.jakarta.servlet.ServletException;
import wiremock.jakarta.servlet.ServletRequest;
import wiremock.jakarta.servlet.ServletResponse;
import wiremock.jakarta.servlet.http.HttpServletRequest;
import wiremock.jakarta.servlet.http.HttpServletResponse;
import wiremock.org.eclipse.jetty.io.EndPoint;
import wiremock.org.eclipse.jetty.servlet.FilterHolder;
import wiremock.org.eclipse.jetty.servlet.ServletContextHandler;
import wiremock.org.eclipse.jetty.util.Callback;
import wiremock.org.eclipse.jetty.util.thread.Invocable;
import wiremock.org.eclipse.jetty.util.thread.QueuedThreadPool;
import wiremock.org.eclipse.jetty.util.thread.ThreadPool;

/**
 * Serves {@code GET ...?watch=true} (or {@code watch=1}) as kube-apiserver's {@code WatchServer}
 * does ({@code staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go}, {@code HandleHTTP}):
 * 200, {@code Content-Type: application/json}, a chunked body of one {@code
 * {"type":...,"object":...}} line per event, flushed as each event is written, until {@code
 * timeoutSeconds} pass (a clean end of the stream), the server closes or resets, the client hangs
 * up, or a {@link Fault.Builder#dropWatchAfter(int)} fault cuts the connection. Which events a
 * watch gets follows the watch cache ({@code staging/src/k8s.io/apiserver/pkg/storage/cacher}):
 * initial ADDED events, resuming after a resourceVersion, 410 {@code Expired} for one that is too
 * old, and selector transitions as in {@code cacheWatcher.convertToWatchEvent}.
 *
 * <p>Why a servlet filter and not the {@link WireMockBridge}: WireMock 3 writes a response body
 * with one copy and one flush at the end ({@code WireMockHandlerDispatchingServlet
 * .writeAndTranslateExceptions}), and Jetty aggregates small writes, so a streamed body would reach
 * the client only when the watch ends; and a WireMock extension answers on the request's thread,
 * which it holds until the answer is complete. This filter sits in front of WireMock's servlet on
 * the same port and context (installed through {@link #serverFactory}, WireMock's {@code
 * decorateMockServiceContextBeforeConfig} hook), takes watch requests only, and writes to the
 * connection itself. It uses WireMock's shaded Jetty and servlet classes, so a WireMock upgrade may
 * need it adjusted.
 *
 * <p>No watch holds a thread. The filter puts the request in servlet async mode ({@link
 * HttpServletRequest#startAsync()}, the filter is async-supported and the first one in the chain)
 * and returns the worker to Jetty's pool; one "watch pump" thread per server then serves every open
 * watch: it wakes when the {@link WatchHub} changes, at a watch's timers (bookmarks, {@code
 * timeoutSeconds}, the hang-up check) and when a write is done, and writes each watch's events with
 * Jetty's non-blocking writes ({@link EndPoint#write(Callback, ByteBuffer...)}), at most one write
 * in flight per watch: a client that reads slowly holds back its own watch only. Thread safe; a
 * stream's state is confined to the pump thread.
 */
final class WatchFilter implements Filter, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FakeKubernetesApiServer.class);

  /**
   * How long the watch waits for a future resourceVersion before it answers {@code Too large
   * resource version}, as the watch cache's {@code blockTimeout} (3 s) does.
   */
  private static final long TOO_LARGE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(3);

  /** How often a watch waiting for a future resourceVersion looks at the store again. */
  private static final long TOO_LARGE_POLL_MILLIS = 10;

  /** The stream's length without {@code timeoutSeconds}: the server's default request timeout. */
  private static final long DEFAULT_TIMEOUT_SECONDS = 1_800;

  /** One write carries events up to about this many bytes; the rest go in the next write. */
  private static final int WRITE_BATCH_BYTES = 64 * 1024;

  /** A write the client has not taken after this long ends its watch. */
  private static final long WRITE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

  private static final AtomicInteger PUMPS = new AtomicInteger();

  private final ApiHandler handler;
  private final InMemoryStore store;
  private final Faults faults;
  private final RequestJournal journal;
  private final Clock clock;

  /** How often an idle watch checks whether its client has gone. */
  private final long hangUpCheckNanos;

  /** The one thread that serves every open watch. */
  private final ScheduledThreadPoolExecutor pump;

  /** The watches streaming now. Confined to the pump thread. */
  private final Set<Stream> streams = new LinkedHashSet<>();

  /** What a hang-up check reads into; one for all, as they all run on the pump thread. */
  private final ByteBuffer checkBuffer = ByteBuffer.allocateDirect(256);

  /** Whether a pass over every stream is queued for a change of the hub. */
  private final AtomicBoolean passQueued = new AtomicBoolean();

  private volatile Duration bookmarkInterval = Duration.ofMinutes(1);

  /** The server's worker pool, once the server is built. */
  private volatile ThreadPool workers;

  WatchFilter(
      ApiHandler handler,
      InMemoryStore store,
      Faults faults,
      RequestJournal journal,
      Clock clock,
      Duration hangUpCheck) {
    this.handler = handler;
    this.store = store;
    this.faults = faults;
    this.journal = journal;
    this.clock = clock;
    this.hangUpCheckNanos = hangUpCheck.toNanos();
    int n = PUMPS.incrementAndGet();
    this.pump =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "fake-kubernetes-watch-pump-" + n);
              t.setDaemon(true);
              return t;
            });
    pump.setRemoveOnCancelPolicy(true);
    store.watchHub().onChange(this::hubChanged);
  }

  /** A factory for WireMock's Jetty server with this filter in front of WireMock's servlet. */
  HttpServerFactory serverFactory() {
    WatchFilter filter = this;
    return new HttpServerFactory() {
      @Override
      public HttpServer buildHttpServer(
          Options options, AdminRequestHandler admin, StubRequestHandler stubs) {
        // The hook runs inside the super constructor: it may use only the captured local.
        class JettyServer extends Jetty11HttpServer {
          JettyServer(Options o, AdminRequestHandler a, StubRequestHandler s) {
            super(o, a, s);
          }

          @Override
          protected void decorateMockServiceContextBeforeConfig(ServletContextHandler context) {
            FilterHolder holder = new FilterHolder(filter);
            // Async-supported so that a watch can leave its worker thread (startAsync); the
            // filter is the first in the chain, so nothing before it turns async support off.
            holder.setAsyncSupported(true);
            context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
          }

          ThreadPool workers() {
            return jettyServer.getThreadPool();
          }
        }
        JettyServer server = new JettyServer(options, admin, stubs);
        filter.workers = server.workers();
        return server;
      }
    };
  }

  void bookmarkInterval(Duration interval) {
    this.bookmarkInterval = interval;
  }

  /**
   * How many of the server's worker threads are busy now, Jetty's own acceptor and selector threads
   * included (they run as long jobs of the same pool); -1 before the server is built.
   */
  int busyWorkerThreads() {
    return workers instanceof QueuedThreadPool pool ? pool.getBusyThreads() : -1;
  }

  /** The size of the server's worker pool; -1 before the server is built. */
  int workerThreads() {
    return workers instanceof QueuedThreadPool pool ? pool.getMaxThreads() : -1;
  }

  /** Stops the pump thread; call once the server has stopped. */
  @Override
  public void close() {
    pump.shutdownNow();
  }

  /** The hub changed: one pass over every stream, however many changes come before it runs. */
  private void hubChanged() {
    if (passQueued.compareAndSet(false, true)) {
      run(
          () -> {
            passQueued.set(false);
            for (Stream s : List.copyOf(streams)) {
              s.safely(s::pump);
            }
          });
    }
  }

  /** Runs a task on the pump thread; after {@link #close()} it is dropped. */
  private void run(Runnable task) {
    schedule(task, 0);
  }

  private ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
    Runnable guarded =
        () -> {
          try {
            task.run();
          } catch (RuntimeException e) {
            LOG.warn("A watch task failed", e);
          }
        };
    try {
      return pump.schedule(guarded, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      LOG.debug("The watch pump has stopped: {}", e.toString());
      return null;
    }
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    String query = request.getQueryString() == null ? "" : request.getQueryString();
    Map<String, String> params = ApiHandler.parseQuery(query);
    String watch = params.get("watch");
    if (!"GET".equals(request.getMethod()) || !ApiHandler.isTrue(watch)) {
      chain.doFilter(req, new WithoutWireMockHeaders((HttpServletResponse) res));
      return;
    }
    serve(request, (HttpServletResponse) res, query, params);
  }

  private void serve(
      HttpServletRequest request,
      HttpServletResponse response,
      String query,
      Map<String, String> params)
      throws IOException {
    String path = request.getRequestURI();
    String clientHeader = request.getHeader(FakeKubernetesApiServer.CLIENT_ID_HEADER);
    String clientId = clientHeader == null ? "" : clientHeader;
    String contentType = request.getContentType();
    journal.record(
        new RecordedRequest(
            "GET",
            path,
            query,
            clock.instant(),
            contentType == null ? "" : contentType,
            "",
            clientId));
    Optional<Fault> fault = faults.take("WATCH", path, clientId);
    int dropAfter = -1;
    long delayNanos = 0;
    if (fault.isPresent()) {
      LOG.debug("Answering watch {} with {}", path, fault.get());
      switch (fault.get().kind()) {
        case CONNECTION_RESET:
        case APPLIED_THEN_LOST:
          closeConnection(response, true);
          return;
        case EMPTY_RESPONSE:
          closeConnection(response, false);
          return;
        case DELAY:
          delayNanos = fault.get().delay().toNanos();
          break;
        case DROP_WATCH:
          dropAfter = fault.get().events();
          break;
        default:
          write(response, WireMockBridge.faultAnswer(fault.get()));
          return;
      }
    }
    ApiHandler.Call call = new ApiHandler.Call("GET", path, params, contentType, "");
    if (delayNanos == 0) {
      ApiHandler.WatchOutcome outcome = handler.handleWatch(call);
      if (outcome.answer() != null) {
        LOG.debug("GET {}?{} -> {}", path, query, outcome.answer().status());
        write(response, outcome.answer());
        return;
      }
      start(request, response, query, outcome.watch(), dropAfter, 0);
    } else {
      // The delay passes on the pump's timer, not on this thread; the answer comes after it.
      start(request, response, query, null, dropAfter, delayNanos);
    }
  }

  /**
   * Leaves the worker thread: the request goes async and its stream begins on the pump thread,
   * after {@code delayNanos}; {@code watch} null means the request is routed then.
   */
  private void start(
      HttpServletRequest request,
      HttpServletResponse response,
      String query,
      ApiHandler.WatchRequest watch,
      int dropAfter,
      long delayNanos) {
    AsyncContext async = request.startAsync();
    async.setTimeout(0);
    String path = request.getRequestURI();
    boolean http2 = request.getProtocol() != null && request.getProtocol().startsWith("HTTP/2");
    WebSocket webSocket = WebSocket.of(request);
    String type = request.getContentType();
    Runnable begin =
        () -> {
          ApiHandler.WatchRequest routed = watch;
          if (routed == null) {
            ApiHandler.WatchOutcome outcome =
                handler.handleWatch(
                    new ApiHandler.Call("GET", path, ApiHandler.parseQuery(query), type, ""));
            if (outcome.answer() != null) {
              LOG.debug("GET {}?{} -> {}", path, query, outcome.answer().status());
              try {
                write(response, outcome.answer());
              } catch (IOException e) {
                LOG.debug("Watch {} answer not written: {}", path, e.toString());
              }
              async.complete();
              return;
            }
            routed = outcome.watch();
          }
          LOG.debug("Watching {}?{}", path, query);
          Stream stream = new Stream(routed, async, response, dropAfter, webSocket, http2);
          stream.safely(stream::begin);
        };
    if (schedule(begin, delayNanos) == null) {
      async.complete();
    }
  }

  private static void write(HttpServletResponse response, ApiHandler.Answer answer)
      throws IOException {
    response.setStatus(answer.status());
    if (answer.contentType() != null) {
      response.setContentType(answer.contentType());
    }
    for (Map.Entry<String, String> h : answer.headers().entrySet()) {
      for (String value : h.getValue().split("\n")) {
        response.addHeader(h.getKey(), value);
      }
    }
    byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  /**
   * Closes the connection without more bytes, as WireMock's own connection faults do ({@code
   * JettyFaultInjector}): with a reset (linger 0) or a plain close.
   */
  private static void closeConnection(HttpServletResponse response, boolean reset)
      throws IOException {
    Jetty11HttpUtils utils = new Jetty11HttpUtils();
    Socket socket = utils.socket(utils.unwrapResponse(response));
    if (reset) {
      socket.setSoLinger(true, 0);
    }
    socket.close();
  }

  /**
   * Keeps WireMock's own headers ({@code Matched-Stub-Id}, {@code Matched-Stub-Name}) out of the
   * answers: no Kubernetes API server sends them.
   */
  static final class WithoutWireMockHeaders
      extends wiremock.jakarta.servlet.http.HttpServletResponseWrapper {
    WithoutWireMockHeaders(HttpServletResponse response) {
      super(response);
    }

    private static boolean wireMocks(String name) {
      return name != null && name.regionMatches(true, 0, "Matched-Stub-", 0, 13);
    }

    @Override
    public void setHeader(String name, String value) {
      if (!wireMocks(name)) {
        super.setHeader(name, value);
      }
    }

    @Override
    public void addHeader(String name, String value) {
      if (!wireMocks(name)) {
        super.addHeader(name, value);
      }
    }
  }

  /** What a stream does once its write is out. */
  private enum Then {
    /** Go on: look for more to send. */
    MORE,
    /** End the stream cleanly. */
    END,
    /** Apply a drop fault: cut the connection. */
    DROP
  }

  /**
   * One watch's stream: where it is in the hub's history, its timers and its one write in flight.
   * Confined to the pump thread, but for {@link #released()}, which Jetty may call from its own.
   */
  private final class Stream implements AsyncListener {
    private final ApiHandler.WatchRequest watch;
    private final String storageKey;
    private final AsyncContext async;
    private final HttpServletResponse response;
    private final int dropAfter;
    private final WebSocket webSocket;
    private final boolean http2;
    private final WatchHub hub = store.watchHub();
    private final long closings;
    private final long deadline;
    private final long tooLargeDeadline;
    private final AtomicBoolean released = new AtomicBoolean();
    private EndPoint endPoint;
    private long bookmarks;
    private long position;
    private long nextBookmark;
    private long nextLivenessCheck;

    /** The current objects still to send as ADDED events, or null once sent. */
    private Iterator<StoredObject> initial;

    /** The ERROR event's status to send instead of any other event, then end; or null. */
    private JsonObject error;

    private int sent;
    private boolean begun;
    private boolean ended;
    private boolean writing;
    private long writeStarted;
    private ScheduledFuture<?> tick;

    /**
     * @param webSocket the upgrade to answer (the stream is then WebSocket frames), or null for a
     *     plain HTTP stream
     * @param http2 whether the watch is a stream of an HTTP/2 connection, which it shares with the
     *     client's other requests: it is then written through the stream's channel (a DATA frame
     *     per write) and never reads or writes the connection itself
     */
    Stream(
        ApiHandler.WatchRequest watch,
        AsyncContext async,
        HttpServletResponse response,
        int dropAfter,
        WebSocket webSocket,
        boolean http2) {
      this.watch = watch;
      this.storageKey = InMemoryStore.storageKey(watch.type());
      this.async = async;
      this.response = response;
      this.dropAfter = dropAfter;
      this.webSocket = webSocket;
      this.http2 = http2;
      this.closings = hub.closings();
      this.bookmarks = hub.bookmarks();
      long now = System.nanoTime();
      long timeoutSeconds =
          watch.timeoutSeconds() > 0 ? watch.timeoutSeconds() : DEFAULT_TIMEOUT_SECONDS;
      this.deadline = now + TimeUnit.SECONDS.toNanos(timeoutSeconds);
      this.tooLargeDeadline = now + TOO_LARGE_WAIT_NANOS;
      hub.opened();
      async.addListener(this);
    }

    /**
     * Fixes where the watch starts, then answers: a client's watch() returns on the 101 or the 200,
     * and a change it makes next must come after that start, not be taken into a later snapshot and
     * never sent. kube-apiserver does the same: ListResource calls rw.Watch (the cacher takes the
     * initial events and registers the watcher) before serveWatchHandler writes the status
     * (kubernetes/apiserver pkg/endpoints/handlers/get.go, commit 24a394e5).
     */
    void begin() {
      String rv = watch.resourceVersion();
      if (rv == null || rv.isEmpty() || rv.equals("0")) {
        // No starting point: the current state as synthetic ADDED events first, as the watch
        // cache's getIntervalFromStoreLocked (resourceVersion 0) and the etcd watcher's initial
        // sync (no resourceVersion) do, then the changes after it.
        InMemoryStore.Snapshot snapshot = store.snapshot(watch.type(), watch.namespace());
        List<StoredObject> matching = new ArrayList<>();
        for (StoredObject o : snapshot.items()) {
          if (watch.matches(o)) {
            matching.add(o);
          }
        }
        initial = matching.iterator();
        position = Long.parseLong(snapshot.resourceVersion());
      } else {
        position = Long.parseLong(rv);
        long current = Long.parseLong(store.currentResourceVersion());
        if (current < position) {
          if (System.nanoTime() - tooLargeDeadline < 0) {
            // The watch cache waits (blockTimeout, 3 s) for the store to reach it: look again.
            if (schedule(
                    () -> safely(this::begin), TimeUnit.MILLISECONDS.toNanos(TOO_LARGE_POLL_MILLIS))
                == null) {
              released();
            }
            return;
          }
          error = tooLarge(position, current);
        } else {
          WatchHub.Since since = hub.since(position);
          if (since.expired()) {
            // 200, then one ERROR event and the end: the cacher answers a too-old
            // resourceVersion with newErrWatcher(errors.NewResourceExpired("too old resource
            // version: X (Y)")).
            error =
                errorStatus(
                    410,
                    "Expired",
                    "too old resource version: " + position + " (" + since.tooOldFloor() + ")");
          }
        }
      }
      Jetty11HttpUtils utils = new Jetty11HttpUtils();
      try {
        if (webSocket == null) {
          // Begin the stream as HandleHTTP does: status and headers, flushed at once.
          response.setStatus(200);
          response.setContentType("application/json");
          response.setHeader("Cache-Control", "no-cache, private");
          response.flushBuffer();
        }
        endPoint = utils.unwrapEndPoint(utils.unwrapResponse(response));
      } catch (IOException | RuntimeException e) {
        LOG.debug("Watch ended by its connection before its first byte: {}", e.toString());
        gone();
        return;
      }
      begun = true;
      streams.add(this);
      long now = System.nanoTime();
      nextBookmark = now + bookmarkInterval.toNanos();
      nextLivenessCheck = now + hangUpCheckNanos;
      pump();
      scheduleTick();
    }

    /**
     * Runs a step of this stream; one that fails unexpectedly ends this stream as if its client had
     * gone, and leaves the other streams alone.
     */
    void safely(Runnable step) {
      try {
        step.run();
      } catch (RuntimeException e) {
        LOG.warn("A watch of {} failed and ends", watch.type(), e);
        if (!ended) {
          gone();
        }
      }
    }

    /** Sends what there is to send now, unless a write is still out. */
    void pump() {
      if (!begun || ended || writing) {
        return;
      }
      List<byte[]> events = new ArrayList<>();
      Then then = send(events);
      if (events.isEmpty() && (webSocket == null || webSocket.idle())) {
        if (then != Then.MORE) {
          after(then);
        }
        return;
      }
      writing = true;
      writeStarted = System.nanoTime();
      Callback done =
          Callback.from(
              Invocable.InvocationType.NON_BLOCKING,
              () -> run(() -> safely(() -> written(null, then))),
              failure -> run(() -> safely(() -> written(failure, then))));
      try {
        if (webSocket != null) {
          endPoint.write(done, webSocket.frames(events));
        } else if (http2) {
          // HTTP/2 has no chunks: each write is a DATA frame of this stream. The connection's
          // bytes belong to every stream on it, so raw chunks written there would break them all.
          utils().unwrapResponse(response).getHttpChannel().write(joined(events), false, done);
        } else {
          endPoint.write(done, WholeChunks.of(events));
        }
      } catch (RuntimeException e) {
        done.failed(e);
      }
    }

    /**
     * Collects the events to send now into {@code events}, up to about {@link #WRITE_BATCH_BYTES}
     * (a batch may stop early; the next pump goes on), and says what follows the write.
     */
    private Then send(List<byte[]> events) {
      int[] bytes = {0};
      if (dropDue()) {
        return Then.DROP;
      }
      if (error != null) {
        add(events, bytes, eventJson("ERROR", ApiHandler.GSON.toJson(error)));
        return dropDue() ? Then.DROP : Then.END;
      }
      while (initial != null && initial.hasNext()) {
        if (bytes[0] >= WRITE_BATCH_BYTES) {
          return Then.MORE;
        }
        add(events, bytes, eventJson("ADDED", initial.next().jsonAt(watch.type())));
        if (dropDue()) {
          return Then.DROP;
        }
      }
      initial = null;
      List<WatchHub.Change> changes = hub.after(position);
      if (changes == null) {
        // Changes this watch had not sent yet were forgotten: end the stream cleanly, as the
        // cacher closes a watcher that fell behind; the client resumes and gets 410 Expired.
        LOG.debug(
            "Closing a watch of {} that fell behind the history at {}", watch.type(), position);
        return Then.END;
      }
      for (WatchHub.Change change : changes) {
        if (bytes[0] >= WRITE_BATCH_BYTES) {
          return Then.MORE;
        }
        position = change.rv();
        String event = event(change);
        if (event != null) {
          add(events, bytes, event);
          if (dropDue()) {
            return Then.DROP;
          }
        }
      }
      if (hub.closings() != closings) {
        return Then.END;
      }
      long now = System.nanoTime();
      boolean asked = hub.bookmarks() != bookmarks;
      if (asked || now - nextBookmark >= 0) {
        bookmarks = hub.bookmarks();
        nextBookmark = now + bookmarkInterval.toNanos();
        if (watch.bookmarks()) {
          // A bookmark does not count towards a drop fault's events.
          events.add(line(bookmark(position)));
          bytes[0] += events.get(events.size() - 1).length;
        }
      }
      // timeoutSeconds passed: the handler returns and the stream ends cleanly.
      return now - deadline >= 0 ? Then.END : Then.MORE;
    }

    private void add(List<byte[]> events, int[] bytes, String event) {
      byte[] line = line(event);
      events.add(line);
      bytes[0] += line.length;
      sent++;
    }

    private boolean dropDue() {
      return dropAfter >= 0 && sent >= dropAfter;
    }

    /** A write is out (or failed): go on as its batch said. */
    private void written(Throwable failure, Then then) {
      writing = false;
      if (ended) {
        return;
      }
      if (failure != null) {
        LOG.debug("Watch client went away: {}", failure.toString());
        gone();
        return;
      }
      if (then == Then.MORE) {
        // Changes that came while the write was out, or the rest of a batch.
        pump();
      } else {
        after(then);
      }
    }

    private void after(Then then) {
      if (then == Then.DROP) {
        drop();
      } else if (then == Then.END) {
        finish();
      }
    }

    /** The stream's timer: a write the client does not take, a hang-up, bookmarks, the end. */
    private void tick() {
      tick = null;
      if (ended) {
        return;
      }
      long now = System.nanoTime();
      if (writing && now - writeStarted - WRITE_TIMEOUT_NANOS >= 0) {
        LOG.debug("The watch client did not take an event in {} s", WRITE_TIMEOUT_NANOS / 1e9);
        gone();
        return;
      }
      if (now - nextLivenessCheck >= 0) {
        nextLivenessCheck = now + hangUpCheckNanos;
        if (clientGone()) {
          gone();
          return;
        }
      }
      // Changes come by the hub's pass; a tick pumps only for what is due by time or a pong.
      if (now - nextBookmark >= 0
          || now - deadline >= 0
          || (webSocket != null && !webSocket.idle())) {
        pump();
      }
      scheduleTick();
    }

    private void scheduleTick() {
      if (ended) {
        return;
      }
      long next = nextLivenessCheck;
      if (writing) {
        next = Math.min(next, writeStarted + WRITE_TIMEOUT_NANOS);
      } else {
        next = Math.min(next, Math.min(deadline, nextBookmark));
      }
      if (tick != null) {
        tick.cancel(false);
      }
      tick = schedule(() -> safely(this::tick), next - System.nanoTime());
    }

    /** Ends the stream cleanly: the chunked body's last chunk, or a WebSocket Close frame. */
    private void finish() {
      end();
      if (webSocket == null) {
        // Jetty writes the last chunk (HTTP/2: ends the stream) and then tells onComplete.
        async.complete();
        return;
      }
      endPoint.write(
          Callback.from(
              Invocable.InvocationType.NON_BLOCKING, this::closeWebSocket, e -> closeWebSocket()),
          webSocket.close());
    }

    /** The client hung up or stopped reading: end without another byte. */
    private void gone() {
      end();
      if (!http2 && endPoint != null) {
        // The connection is the watch's own; over HTTP/2 it carries other streams.
        endPoint.close();
      }
      released();
      complete();
    }

    /** Applies a drop fault once its events are out: the connection closes without a last chunk. */
    private void drop() {
      LOG.debug("Dropping the watch after {} events", sent);
      end();
      try {
        closeConnection(response, true);
      } catch (IOException | RuntimeException e) {
        LOG.debug("Dropping a watch: {}", e.toString());
      }
      released();
      complete();
    }

    private void closeWebSocket() {
      endPoint.close();
      released();
      complete();
    }

    private void complete() {
      try {
        async.complete();
      } catch (IllegalStateException e) {
        LOG.debug("Completing a watch: {}", e.toString());
      }
    }

    private void end() {
      ended = true;
      streams.remove(this);
      if (tick != null) {
        tick.cancel(false);
        tick = null;
      }
    }

    /** The watch no longer counts as open; once only, whoever comes first. */
    private void released() {
      if (released.compareAndSet(false, true)) {
        hub.ended();
      }
    }

    @Override
    public void onComplete(AsyncEvent event) {
      released();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      // The async timeout is off (0): a watch ends at its own timeoutSeconds.
    }

    @Override
    public void onError(AsyncEvent event) {
      LOG.debug("Watch failed in Jetty: {}", String.valueOf(event.getThrowable()));
      released();
      run(
          () -> {
            if (!ended) {
              end();
              complete();
            }
          });
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      // Nothing: the stream is registered once, when it is made.
    }

    /**
     * Whether the client closed the connection, which the server otherwise learns only on its next
     * write; the real server learns it from the request's context ({@code req.Context().Done()} in
     * {@code HandleHTTP}). A client sends nothing during a watch, so a non-blocking read of the
     * connection sees either nothing (open) or its end.
     */
    private boolean clientGone() {
      try {
        if (!endPoint.isOpen() || endPoint.isInputShutdown()) {
          return true;
        }
        if (http2) {
          // The connection carries other streams' frames: reading it would take them. The
          // stream itself says whether the client reset it (RST_STREAM) or it ended.
          return utils().unwrapResponse(response).getHttpChannel()
                  instanceof wiremock.org.eclipse.jetty.http2.server.HttpChannelOverHTTP2 channel
              && streamGone(channel.getHttpTransport().getStream());
        }
        // Jetty buffers are in flush mode: an empty one has limit 0, and fill appends after it.
        ByteBuffer received = checkBuffer.clear().limit(0);
        int n = endPoint.fill(received);
        if (n > 0 && webSocket != null) {
          // A WebSocket client sends nothing but control frames: a Close ends it, a Ping gets a
          // Pong with the next write (the tick that checked pumps next).
          return webSocket.read(received);
        }
        return n < 0;
      } catch (IOException | RuntimeException e) {
        LOG.debug("Watch connection check failed: {}", e.toString());
        return true;
      }
    }

    /**
     * The event a change makes for this watch, or null, as the cacher's {@code
     * cacheWatcher.convertToWatchEvent} decides: the object passes the watch's namespace and
     * selectors now and/or before the change; passing now only is ADDED, both MODIFIED, before only
     * DELETED with the previous state carrying the change's resourceVersion.
     */
    private String event(WatchHub.Change change) {
      // One store per resource: a change made at any served version shows at the watched one.
      if (!change.type().equals(watch.type())
          && !InMemoryStore.storageKey(change.type()).equals(storageKey)) {
        return null;
      }
      // Selectors see the object as served at the watched version (an event's shape differs);
      // namespace and labels are the same at every version and read without parsing.
      boolean now = change.kind() != ResourceEvent.Kind.DELETED && watch.matches(change.object());
      boolean before = change.previous() != null && watch.matches(change.previous());
      if (now) {
        return eventJson(before ? "MODIFIED" : "ADDED", change.object().jsonAt(watch.type()));
      }
      if (before) {
        JsonObject last = change.previous().objectAt(watch.type());
        InMemoryStore.metadata(last).addProperty("resourceVersion", Long.toString(change.rv()));
        return eventJson("DELETED", ApiHandler.GSON.toJson(last));
      }
      return null;
    }

    /**
     * A BOOKMARK: an object of the watched kind carrying only its resourceVersion, as the cacher's
     * bookmark events do (the {@code k8s.io/initial-events-end} annotation only comes with {@code
     * sendInitialEvents}, which the fake does not support).
     */
    private String bookmark(long rv) {
      JsonObject object = new JsonObject();
      object.addProperty("kind", watch.type().kind());
      object.addProperty("apiVersion", watch.type().apiVersion());
      JsonObject meta = new JsonObject();
      meta.addProperty("resourceVersion", Long.toString(rv));
      object.add("metadata", meta);
      return eventJson("BOOKMARK", ApiHandler.GSON.toJson(object));
    }
  }

  private static boolean streamGone(wiremock.org.eclipse.jetty.http2.IStream stream) {
    return stream == null || stream.isReset() || stream.isClosed();
  }

  private static Jetty11HttpUtils utils() {
    return new Jetty11HttpUtils();
  }

  /** An event as written: its JSON and a newline. */
  private static byte[] line(String event) {
    return (event + "\n").getBytes(StandardCharsets.UTF_8);
  }

  private static ByteBuffer joined(List<byte[]> events) {
    int size = 0;
    for (byte[] e : events) {
      size += e.length;
    }
    ByteBuffer all = ByteBuffer.allocate(size);
    for (byte[] e : events) {
      all.put(e);
    }
    return all.flip();
  }

  /**
   * The status of the ERROR event {@code waitUntilFreshAndBlock} answers a resourceVersion the
   * store has not reached in 3 s with: {@code Too large resource version} (504 {@code Timeout},
   * cause {@code ResourceVersionTooLarge}).
   */
  private static JsonObject tooLarge(long rv, long current) {
    JsonObject status =
        errorStatus(504, "Timeout", "Too large resource version: " + rv + ", current: " + current);
    JsonObject details = new JsonObject();
    com.google.gson.JsonArray causes = new com.google.gson.JsonArray();
    JsonObject cause = new JsonObject();
    cause.addProperty("reason", "ResourceVersionTooLarge");
    cause.addProperty("message", "Too large resource version");
    causes.add(cause);
    details.add("causes", causes);
    details.addProperty("retryAfterSeconds", 1);
    status.add("details", details);
    return status;
  }

  /**
   * The body of an HTTP watch, one whole chunk per event ({@code size CRLF data CRLF}), written to
   * the connection at once, as Go's {@code net/http} chunked writer writes each event that {@code
   * WatchServer.HandleHTTP} flushes ({@code chunkedWriter.Write} in {@code
   * src/net/http/internal/chunked.go} in golang/go). Jetty's own writer holds back a chunk's
   * closing CRLF until the next chunk or the end, and a client that reads it before handing the
   * chunk on (the Python client's urllib3) would see each event only when the next one comes. The
   * headers are Jetty's; the terminating {@code 0 CRLF CRLF} is too, written when the response
   * completes.
   */
  private static final class WholeChunks {
    private WholeChunks() {}

    static ByteBuffer[] of(List<byte[]> events) {
      ByteBuffer[] chunks = new ByteBuffer[events.size()];
      for (int i = 0; i < chunks.length; i++) {
        byte[] data = events.get(i);
        byte[] size =
            (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuffer chunk = ByteBuffer.allocate(size.length + data.length + 2);
        chunk.put(size).put(data).put((byte) '\r').put((byte) '\n').flip();
        chunks[i] = chunk;
      }
      return chunks;
    }
  }

  /**
   * A watch event's JSON, {@code {"type":...,"object":...}}, around the object's JSON as it is
   * (what Gson writes for the same event object).
   */
  private static String eventJson(String type, String objectJson) {
    return "{\"type\":\"" + type + "\",\"object\":" + objectJson + "}";
  }

  /** A {@code Status} as an ERROR event carries it: no details unless the error has them. */
  private static JsonObject errorStatus(int code, String reason, String message) {
    JsonObject status = KubeStatus.failure(code, reason, message, null);
    status.remove("details");
    return status;
  }
}
