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
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 * the client only when the watch ends. This filter sits in front of WireMock's servlet on the same
 * port and context (installed through {@link #serverFactory}, WireMock's {@code
 * decorateMockServiceContextBeforeConfig} hook), takes watch requests only, and writes to the
 * servlet response itself. It uses WireMock's shaded Jetty and servlet classes, so a WireMock
 * upgrade may need it adjusted.
 *
 * <p>Each open watch occupies one of the server's worker threads. Thread safe.
 */
final class WatchFilter implements Filter {

  private static final Logger LOG = LoggerFactory.getLogger(FakeKubernetesApiServer.class);

  /**
   * How long the watch waits for a future resourceVersion before it answers {@code Too large
   * resource version}, as the watch cache's {@code blockTimeout} (3 s) does.
   */
  private static final long TOO_LARGE_WAIT_MILLIS = 3_000;

  /** The stream's length without {@code timeoutSeconds}: the server's default request timeout. */
  private static final long DEFAULT_TIMEOUT_SECONDS = 1_800;

  private final ApiHandler handler;
  private final InMemoryStore store;
  private final Faults faults;
  private final RequestJournal journal;
  private final Clock clock;

  /** How often an idle watch checks whether its client has gone. */
  private final long hangUpCheckNanos;

  private volatile Duration bookmarkInterval = Duration.ofMinutes(1);

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
  }

  /** A factory for WireMock's Jetty server with this filter in front of WireMock's servlet. */
  HttpServerFactory serverFactory() {
    WatchFilter filter = this;
    return new HttpServerFactory() {
      @Override
      public HttpServer buildHttpServer(
          Options options, AdminRequestHandler admin, StubRequestHandler stubs) {
        // The hook runs inside the super constructor: it may use only the captured local.
        return new Jetty11HttpServer(options, admin, stubs) {
          @Override
          protected void decorateMockServiceContextBeforeConfig(ServletContextHandler context) {
            context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
          }
        };
      }
    };
  }

  void bookmarkInterval(Duration interval) {
    this.bookmarkInterval = interval;
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
    try {
      serve(request, (HttpServletResponse) res, query, params);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void serve(
      HttpServletRequest request,
      HttpServletResponse response,
      String query,
      Map<String, String> params)
      throws IOException, InterruptedException {
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
          Thread.sleep(fault.get().delay().toMillis());
          break;
        case DROP_WATCH:
          dropAfter = fault.get().events();
          break;
        default:
          write(response, WireMockBridge.faultAnswer(fault.get()));
          return;
      }
    }
    ApiHandler.WatchOutcome outcome =
        handler.handleWatch(new ApiHandler.Call("GET", path, params, contentType, ""));
    if (outcome.answer() != null) {
      LOG.debug("GET {}?{} -> {}", path, query, outcome.answer().status());
      write(response, outcome.answer());
      return;
    }
    WatchHub hub = store.watchHub();
    hub.opened();
    try {
      LOG.debug("Watching {}?{}", path, query);
      WebSocket webSocket = WebSocket.of(request, response);
      boolean http2 = request.getProtocol() != null && request.getProtocol().startsWith("HTTP/2");
      new Stream(outcome.watch(), response, dropAfter, webSocket, http2).run(hub);
      if (webSocket != null) {
        webSocket.close();
      } else {
        // End the chunked body now (its last chunk), before close() may stop the server.
        response.getOutputStream().close();
      }
    } catch (IOException e) {
      LOG.debug("Watch {} ended by its connection: {}", path, e.toString());
    } finally {
      hub.ended();
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

  /** One watch's stream. Confined to the request's thread. */
  private final class Stream {
    private final ApiHandler.WatchRequest watch;
    private final HttpServletResponse response;
    private final int dropAfter;
    private final WebSocket webSocket;
    private final boolean http2;
    private OutputStream out;
    private int sent;

    /**
     * @param webSocket the upgrade to answer (the stream is then WebSocket frames), or null for a
     *     plain HTTP stream
     * @param http2 whether the watch is a stream of an HTTP/2 connection, which it shares with the
     *     client's other requests: it is then written through the servlet's stream (a DATA frame
     *     per flushed event) and never reads or writes the connection itself
     */
    Stream(
        ApiHandler.WatchRequest watch,
        HttpServletResponse response,
        int dropAfter,
        WebSocket webSocket,
        boolean http2) {
      this.watch = watch;
      this.response = response;
      this.dropAfter = dropAfter;
      this.webSocket = webSocket;
      this.http2 = http2;
    }

    void run(WatchHub hub) throws IOException, InterruptedException {
      long closings = hub.closings();
      long bookmarks = hub.bookmarks();
      long timeoutSeconds =
          watch.timeoutSeconds() > 0 ? watch.timeoutSeconds() : DEFAULT_TIMEOUT_SECONDS;
      long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
      // Fix where the watch starts before answering: a client's watch() returns on the 101 or the
      // 200, and a change it makes next must come after that start, not be taken into a later
      // snapshot and never sent. kube-apiserver does the same: ListResource calls rw.Watch (the
      // cacher takes the initial events and registers the watcher) before serveWatchHandler writes
      // the status (kubernetes/apiserver pkg/endpoints/handlers/get.go, commit 24a394e5).
      long position;
      List<String> initial = new ArrayList<>();
      JsonObject error = null;
      String rv = watch.resourceVersion();
      if (rv == null || rv.isEmpty() || rv.equals("0")) {
        // No starting point: the current state as synthetic ADDED events first, as the watch
        // cache's getIntervalFromStoreLocked (resourceVersion 0) and the etcd watcher's initial
        // sync (no resourceVersion) do, then the changes after it.
        InMemoryStore.Snapshot snapshot = store.snapshot(watch.type(), watch.namespace());
        for (StoredObject o : snapshot.items()) {
          if (watch.matches(o)) {
            initial.add(o.jsonAt(watch.type()));
          }
        }
        position = Long.parseLong(snapshot.resourceVersion());
      } else {
        position = Long.parseLong(rv);
        error = awaitResourceVersion(position);
        if (error == null) {
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
      if (webSocket != null) {
        out = webSocket.accept();
      } else {
        // Begin the stream as HandleHTTP does: status and headers, flushed at once.
        response.setStatus(200);
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-cache, private");
        response.flushBuffer();
        if (http2) {
          // HTTP/2 has no chunks: each flush is a DATA frame of this stream. The connection's
          // bytes belong to every stream on it, so raw chunks written there would break them all.
          out = response.getOutputStream();
        } else {
          Jetty11HttpUtils utils = new Jetty11HttpUtils();
          out = new WholeChunks(utils.unwrapEndPoint(utils.unwrapResponse(response)));
        }
      }
      if (dropped()) {
        return;
      }
      if (error != null) {
        send("ERROR", error);
        return;
      }
      for (String o : initial) {
        if (!send(eventJson("ADDED", o))) {
          return;
        }
      }
      long nextBookmark = System.nanoTime() + bookmarkInterval.toNanos();
      long nextLivenessCheck = System.nanoTime() + hangUpCheckNanos;
      while (true) {
        List<WatchHub.Change> changes = hub.after(position);
        if (changes == null) {
          // Changes this watch had not sent yet were forgotten: end the stream cleanly, as the
          // cacher closes a watcher that fell behind; the client resumes and gets 410 Expired.
          LOG.debug(
              "Closing a watch of {} that fell behind the history at {}", watch.type(), position);
          return;
        }
        for (WatchHub.Change change : changes) {
          position = change.rv();
          String event = event(change);
          if (event != null && !send(event)) {
            return;
          }
        }
        if (hub.closings() != closings) {
          return;
        }
        long now = System.nanoTime();
        boolean asked = hub.bookmarks() != bookmarks;
        if (asked || now - nextBookmark >= 0) {
          bookmarks = hub.bookmarks();
          nextBookmark = now + bookmarkInterval.toNanos();
          if (watch.bookmarks() && !bookmark(position)) {
            return;
          }
        }
        if (now - deadline >= 0) {
          // timeoutSeconds passed: the handler returns and the stream ends cleanly.
          return;
        }
        if (now - nextLivenessCheck >= 0) {
          nextLivenessCheck = now + hangUpCheckNanos;
          if (clientGone()) {
            return;
          }
        }
        long waitNanos =
            Math.min(deadline - now, Math.min(nextBookmark - now, nextLivenessCheck - now));
        hub.await(position, bookmarks, closings, Math.max(1, waitNanos / 1_000_000L));
      }
    }

    /**
     * Whether the client closed the connection, which the server otherwise learns only on its next
     * write; the real server learns it from the request's context ({@code req.Context().Done()} in
     * {@code HandleHTTP}). A client sends nothing during a watch, so a non-blocking read of the
     * connection sees either nothing (open) or its end.
     */
    private boolean clientGone() {
      try {
        Jetty11HttpUtils utils = new Jetty11HttpUtils();
        EndPoint endPoint = utils.unwrapEndPoint(utils.unwrapResponse(response));
        if (!endPoint.isOpen() || endPoint.isInputShutdown()) {
          return true;
        }
        if (http2) {
          // The connection carries other streams' frames: reading it would take them. The
          // stream itself says whether the client reset it (RST_STREAM) or it ended.
          return utils.unwrapResponse(response).getHttpChannel()
                  instanceof wiremock.org.eclipse.jetty.http2.server.HttpChannelOverHTTP2 channel
              && streamGone(channel.getHttpTransport().getStream());
        }
        // Jetty buffers are in flush mode: an empty one has limit 0, and fill appends after it.
        ByteBuffer received = ByteBuffer.allocate(256).limit(0);
        int n = endPoint.fill(received);
        if (n > 0 && webSocket != null) {
          // A WebSocket client sends nothing but control frames: a Close (opcode 8) ends it.
          return (received.get(0) & 0x0F) == 0x8;
        }
        return n < 0;
      } catch (IOException | RuntimeException e) {
        LOG.debug("Watch connection check failed: {}", e.toString());
        return true;
      }
    }

    private static boolean streamGone(wiremock.org.eclipse.jetty.http2.IStream stream) {
      return stream == null || stream.isReset() || stream.isClosed();
    }

    /**
     * Waits (up to the watch cache's 3 s) for the store to reach a future resourceVersion; returns
     * null when it did, else the status of the ERROR event {@code waitUntilFreshAndBlock} answers
     * with: {@code Too large resource version} (504 {@code Timeout}, cause {@code
     * ResourceVersionTooLarge}).
     */
    private JsonObject awaitResourceVersion(long rv) throws InterruptedException {
      long end = System.nanoTime() + TOO_LARGE_WAIT_MILLIS * 1_000_000L;
      long current = Long.parseLong(store.currentResourceVersion());
      WatchHub hub = store.watchHub();
      while (current < rv && System.nanoTime() - end < 0) {
        hub.await(current, hub.bookmarks(), hub.closings(), 50);
        current = Long.parseLong(store.currentResourceVersion());
      }
      if (current >= rv) {
        return null;
      }
      JsonObject status =
          errorStatus(
              504, "Timeout", "Too large resource version: " + rv + ", current: " + current);
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
     * The event a change makes for this watch, or null, as the cacher's {@code
     * cacheWatcher.convertToWatchEvent} decides: the object passes the watch's namespace and
     * selectors now and/or before the change; passing now only is ADDED, both MODIFIED, before only
     * DELETED with the previous state carrying the change's resourceVersion.
     */
    private String event(WatchHub.Change change) {
      // One store per resource: a change made at any served version shows at the watched one.
      if (!InMemoryStore.storageKey(change.type()).equals(InMemoryStore.storageKey(watch.type()))) {
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
    private boolean bookmark(long rv) throws IOException {
      JsonObject object = new JsonObject();
      object.addProperty("kind", watch.type().kind());
      object.addProperty("apiVersion", watch.type().apiVersion());
      JsonObject meta = new JsonObject();
      meta.addProperty("resourceVersion", Long.toString(rv));
      object.add("metadata", meta);
      return write(eventJson("BOOKMARK", ApiHandler.GSON.toJson(object)));
    }

    private boolean send(String type, JsonObject object) throws IOException {
      return send(eventJson(type, ApiHandler.GSON.toJson(object)));
    }

    /** Writes an event that counts towards a drop fault; false once the stream is over. */
    private boolean send(String event) throws IOException {
      if (!write(event)) {
        return false;
      }
      sent++;
      return !dropped();
    }

    private boolean write(String event) {
      try {
        out.write((event + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        return true;
      } catch (IOException e) {
        LOG.debug("Watch client went away: {}", e.toString());
        return false;
      }
    }

    /** Applies a drop fault once its events are out: the connection closes without a last chunk. */
    private boolean dropped() throws IOException {
      if (dropAfter < 0 || sent < dropAfter) {
        return false;
      }
      LOG.debug("Dropping the watch after {} events", sent);
      closeConnection(response, true);
      return true;
    }
  }

  /**
   * The body of an HTTP watch, one whole chunk per write ({@code size CRLF data CRLF}), written to
   * the connection at once, as Go's {@code net/http} chunked writer writes each event that {@code
   * WatchServer.HandleHTTP} flushes ({@code chunkedWriter.Write} in {@code
   * src/net/http/internal/chunked.go} in golang/go). Jetty's own writer holds back a chunk's
   * closing CRLF until the next chunk or the end, and a client that reads it before handing the
   * chunk on (the Python client's urllib3) would see each event only when the next one comes. The
   * headers are Jetty's; the terminating {@code 0 CRLF CRLF} is too, written when the response
   * completes.
   */
  private static final class WholeChunks extends OutputStream {
    private static final long WRITE_TIMEOUT_SECONDS = 10;
    private final EndPoint endPoint;

    WholeChunks(EndPoint endPoint) {
      this.endPoint = endPoint;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return;
      }
      byte[] size = (Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.US_ASCII);
      ByteBuffer chunk = ByteBuffer.allocate(size.length + len + 2);
      chunk.put(size).put(b, off, len).put((byte) '\r').put((byte) '\n').flip();
      wiremock.org.eclipse.jetty.util.FutureCallback written =
          new wiremock.org.eclipse.jetty.util.FutureCallback();
      endPoint.write(written, chunk);
      try {
        written.get(WRITE_TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while writing a watch event", e);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        throw new IOException("the watch client did not take an event: " + e, e);
      }
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
