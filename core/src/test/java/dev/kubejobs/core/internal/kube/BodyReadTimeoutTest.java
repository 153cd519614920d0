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
package dev.kubejobs.core.internal.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.testing.Http2Clients;
import dev.kubejobs.core.testing.TestJobKind;
import io.kubernetes.client.openapi.ApiClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSink;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import okio.Source;
import okio.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The read timeout of an answer's body, over HTTP/1 and HTTP/2: each read is still bounded by the
 * request timeout once {@link BodyReadTimeout} took Okio's per-read watchdog off the body (HTTP/1:
 * the socket's own {@code SO_TIMEOUT}; HTTP/2: one alarm per body), a body that keeps arriving is
 * not cut off however long it takes, and the connection is fit for the next request (HTTP/1: whose
 * headers are read under the timeout again; HTTP/2: only the stalled stream was reset). A raw
 * socket plays the HTTP/1 API server and OkHttp's MockWebServer the HTTP/2 (h2c) one: the fake API
 * server cannot stop in the middle of a body.
 */
class BodyReadTimeoutTest {
  private static final Duration TIMEOUT = Duration.ofMillis(400);

  /** The pause between two parts of a slow body: a quarter of the request timeout. */
  private static final Duration PACE = TIMEOUT.dividedBy(4);

  private static final String HEAD =
      "{\"apiVersion\":\"kubejobs.dev/v1\",\"kind\":\"TestJobList\","
          + "\"metadata\":{\"resourceVersion\":\"7\"},\"items\":[";

  private RawServer server;
  private MockWebServer h2;

  @AfterEach
  void stop() throws IOException {
    if (server != null) {
      server.close();
    }
    if (h2 != null) {
      h2.close();
    }
  }

  /** The protocol an API server answers a list with, its body written part by part by a script. */
  enum Http {
    HTTP_1,
    HTTP_2
  }

  /** Sends one part of a body at once (flushed). */
  @FunctionalInterface
  private interface Parts {
    void send(String part) throws IOException;
  }

  /** Writes a list's body, part by part. */
  @FunctionalInterface
  private interface BodyScript {
    void write(Parts parts) throws Exception;
  }

  /** Starts a server answering one list request over {@code http} with the script's body. */
  private KubeGateway serving(Http http, BodyScript script) throws IOException {
    if (http == Http.HTTP_1) {
      server =
          new RawServer(
              (request, out) -> {
                writeHeaders(out, "Transfer-Encoding: chunked");
                script.write(part -> writeChunk(out, part.getBytes(StandardCharsets.UTF_8)));
                writeChunk(out, new byte[0]);
              });
      return gateway();
    }
    h2 = new MockWebServer();
    h2.setProtocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE));
    h2.start();
    h2.enqueue(
        new MockResponse.Builder()
            .code(200)
            .addHeader("Content-Type", "application/json")
            .body(streamed(script))
            .build());
    return h2Gateway();
  }

  private KubeGateway h2Gateway() {
    return KubeGateway.create(h2Client(), TIMEOUT, ResiliencePolicy.none());
  }

  private ApiClient h2Client() {
    return Http2Clients.overHttp2(new ApiClient().setBasePath(h2.url("/").toString()));
  }

  private static MockResponseBody streamed(BodyScript script) {
    return new MockResponseBody() {
      @Override
      public long getContentLength() {
        return -1;
      }

      @Override
      public void writeTo(BufferedSink sink) throws IOException {
        try {
          script.write(
              part -> {
                sink.writeUtf8(part);
                sink.flush();
              });
        } catch (IOException e) {
          throw e;
        } catch (Exception e) {
          throw new IOException(e);
        }
      }
    };
  }

  @ParameterizedTest
  @EnumSource(Http.class)
  void aBodyThatStopsHalfwayFailsAfterTheRequestTimeoutAsUnavailable(Http http) throws Exception {
    CountDownLatch released = new CountDownLatch(1);
    KubeGateway gateway =
        serving(
            http,
            parts -> {
              // Headers and the first item, then nothing: the connection stays open.
              parts.send(HEAD + item("a") + ",");
              released.await(30, TimeUnit.SECONDS);
            });
    List<String> seen = new CopyOnWriteArrayList<>();

    long start = System.nanoTime();
    try {
      assertThatThrownBy(() -> list(gateway, seen))
          .isInstanceOf(ApiUnavailableException.class)
          .satisfies(BodyReadTimeoutTest::timedOut);
    } finally {
      released.countDown();
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(seen).isEmpty(); // a page is handed over whole or not at all
    assertThat(took).isGreaterThanOrEqualTo(TIMEOUT).isLessThan(Duration.ofSeconds(10));
  }

  /**
   * Over HTTP/1 the bound is the kernel's: a socket's {@code SO_TIMEOUT} runs on the wall clock, so
   * this test paces the body by it. HTTP/2's alarm goes by a clock a test can give, and {@link
   * #theHttp2AlarmCutsABodyOffOnlyWhenOneReadHasWaitedTheWholeTimeout} checks it without waiting.
   */
  @Test
  void anHttp1BodyThatKeepsArrivingIsReadWhateverItTakesInAll() throws Exception {
    int items = 12;
    KubeGateway gateway =
        serving(
            Http.HTTP_1,
            parts -> {
              for (int i = 0; i < items; i++) {
                // Each item after a pause of a quarter of the request timeout: the time between
                // two reads is what this test is about, and the socket's timeout goes by the wall
                // clock, so it passes by that clock, not on a condition. The client reads each
                // part as it arrives (the page is parsed from the stream), so no pause adds to the
                // next.
                Thread.sleep(PACE.toMillis());
                parts.send((i == 0 ? HEAD : ",") + item("j" + i) + (i == items - 1 ? "]}" : ""));
              }
            });
    List<String> seen = new CopyOnWriteArrayList<>();

    long start = System.nanoTime();
    list(gateway, seen::add);

    assertThat(seen).hasSize(items);
    // 12 pauses of a quarter of the timeout: three timeouts in all, no read waited one
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(TIMEOUT.multipliedBy(2));
  }

  @Test
  void theHttp2AlarmCutsABodyOffOnlyWhenOneReadHasWaitedTheWholeTimeout() throws IOException {
    long second = TimeUnit.SECONDS.toNanos(1);
    long timeout = 30 * second;
    AtomicLong now = new AtomicLong(1_000 * second);
    Call call = new OkHttpClient().newCall(new Request.Builder().url("http://127.0.0.1/").build());
    BodyReadTimeout.Stall stall = new BodyReadTimeout.Stall(call, timeout, now::get);
    // Each read of the body waits as long as the script says (the clock moves), and the alarm
    // looks while it waits; a read that finds its call cancelled fails as a reset stream does.
    long[] waits = {29 * second, 29 * second, 30 * second};
    List<Long> looks = new ArrayList<>();
    Source body =
        new Source() {
          private int reads;

          @Override
          public long read(Buffer sink, long byteCount) throws IOException {
            now.addAndGet(waits[reads++]);
            looks.add(stall.look());
            if (call.isCanceled()) {
              throw new IOException("stream was reset: CANCEL");
            }
            sink.writeByte('x');
            return 1;
          }

          @Override
          public Timeout timeout() {
            return Timeout.NONE;
          }

          @Override
          public void close() {}
        };
    Source watched = stall.watch(body);
    Buffer sink = new Buffer();

    watched.read(sink, 1);
    now.addAndGet(40 * second); // the reader's own time between two reads does not count
    long betweenReads = stall.look();
    watched.read(sink, 1);
    assertThat(call.isCanceled()).isFalse();
    assertThatThrownBy(() -> watched.read(sink, 1))
        .isInstanceOf(SocketTimeoutException.class)
        .hasMessage("no byte of the answer's body for 30000 ms")
        .hasCauseInstanceOf(IOException.class);
    watched.close();

    assertThat(looks).containsExactly(second, second, 0L); // look again in 1 s, 1 s; cut off
    assertThat(betweenReads).isEqualTo(timeout);
    assertThat(call.isCanceled()).isTrue();
    assertThat(sink.readUtf8()).isEqualTo("xx");
    assertThat(stall.look()).as("after the body was closed").isZero();
  }

  @Test
  void anHttp2BodyCutOffResetsItsStreamOnlyAndTheConnectionServesTheNextList() throws Exception {
    CountDownLatch released = new CountDownLatch(1);
    KubeGateway gateway =
        serving(
            Http.HTTP_2,
            parts -> {
              parts.send(HEAD + item("a") + ",");
              released.await(30, TimeUnit.SECONDS);
            });
    h2.enqueue(
        new MockResponse.Builder()
            .code(200)
            .addHeader("Content-Type", "application/json")
            .body(HEAD + item("b") + "]}")
            .build());
    try {
      assertThatThrownBy(() -> list(gateway, new CopyOnWriteArrayList<>()))
          .isInstanceOf(ApiUnavailableException.class)
          .satisfies(BodyReadTimeoutTest::timedOut);
    } finally {
      released.countDown();
    }
    List<String> seen = new CopyOnWriteArrayList<>();

    list(gateway, seen);

    assertThat(seen).containsExactly("b");
    RecordedRequest first = h2.takeRequest(10, TimeUnit.SECONDS);
    RecordedRequest second = h2.takeRequest(10, TimeUnit.SECONDS);
    assertThat(second.getConnectionIndex()).isEqualTo(first.getConnectionIndex());
  }

  @Test
  void theNextRequestOnTheConnectionReadsItsHeadersUnderTheTimeoutAgain() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    CountDownLatch released = new CountDownLatch(1);
    server =
        new RawServer(
            (request, out) -> {
              if (request == 0) {
                byte[] bytes = (HEAD + item("a") + "]}").getBytes(StandardCharsets.UTF_8);
                writeHeaders(out, "Content-Length: " + bytes.length);
                out.write(bytes);
                out.flush();
              } else {
                released.await(30, TimeUnit.SECONDS); // the second request is never answered
              }
            },
            connections);
    KubeGateway gateway = gateway();
    List<String> seen = new CopyOnWriteArrayList<>();
    list(gateway, seen);

    long start = System.nanoTime();
    try {
      assertThatThrownBy(() -> list(gateway, seen))
          .isInstanceOf(ApiUnavailableException.class)
          .satisfies(BodyReadTimeoutTest::timedOut);
    } finally {
      released.countDown();
    }

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(connections.get()).isEqualTo(1); // both on one connection
  }

  @Test
  void anHttp2BodyLeftHalfReadIsClosedSoItsConnectionIsFreeAgain() throws Exception {
    h2 = new MockWebServer();
    h2.setProtocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE));
    h2.start();
    StringBuilder body = new StringBuilder(HEAD);
    for (int i = 0; i < 2_000; i++) {
      body.append(i == 0 ? "" : ",").append(item("j" + i));
    }
    h2.enqueue(
        new MockResponse.Builder()
            .code(200)
            .addHeader("Content-Type", "application/json")
            .body(body.append("]}").toString())
            .build());
    ApiClient client = h2Client();
    KubeGateway gateway = KubeGateway.create(client, TIMEOUT, ResiliencePolicy.none());

    // the reader stops at the first item, most of the body unread
    assertThatThrownBy(
            () ->
                list(
                    gateway,
                    name -> {
                      throw new UnsupportedOperationException("enough");
                    }))
        .hasMessage("enough");

    // the watched body closed the stream under it: the connection carries no call any more
    assertThat(client.getHttpClient().connectionPool().connectionCount()).isEqualTo(1);
    assertThat(client.getHttpClient().connectionPool().idleConnectionCount()).isEqualTo(1);
  }

  @Test
  void httpOneAndTwoBodiesLoseOkiosPerReadTimeoutAndKeepTheirBytes() throws IOException {
    Call call = new OkHttpClient().newCall(new Request.Builder().url("http://127.0.0.1/").build());
    for (Protocol protocol : Protocol.values()) {
      Timeout timeout = new Timeout().timeout(5, TimeUnit.SECONDS);
      Response response = answer(protocol, timeout);

      try (Response handedOver = BodyReadTimeout.handOver(call, response)) {
        boolean http1 = protocol == Protocol.HTTP_1_1 || protocol == Protocol.HTTP_1_0;
        boolean http2 = protocol == Protocol.HTTP_2 || protocol == Protocol.H2_PRIOR_KNOWLEDGE;
        assertThat(timeout.timeoutNanos())
            .as(protocol.toString())
            .isEqualTo(http1 || http2 ? 0 : TimeUnit.SECONDS.toNanos(5));
        // HTTP/2's body is watched by an alarm instead: the same bytes, through a new answer
        assertThat(handedOver != response).as(protocol.toString()).isEqualTo(http2);
        assertThat(handedOver.body().string()).isEqualTo("{}");
      }
    }
  }

  /** A read timed out somewhere in the chain (the socket's, or Okio's, which closes the socket). */
  private static void timedOut(Throwable e) {
    List<Throwable> chain = new java.util.ArrayList<>();
    for (Throwable t = e; t != null; t = t.getCause()) {
      chain.add(t);
    }
    assertThat(chain).hasAtLeastOneElementOfType(SocketTimeoutException.class);
  }

  private KubeGateway gateway() {
    ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + server.port());
    return KubeGateway.create(client, TIMEOUT, ResiliencePolicy.none());
  }

  private static void list(KubeGateway gateway, List<String> seen) {
    list(gateway, seen::add);
  }

  /** Lists the test jobs of {@code etl}, telling {@code each} every name as its page is read. */
  private static void list(KubeGateway gateway, java.util.function.Consumer<String> each) {
    ListDrain.each(
        gateway,
        null,
        TestJobKind.KIND,
        "etl",
        null,
        FieldProjection.WHOLE,
        object -> each.accept(object.name()));
  }

  private static String item(String name) {
    return "{\"apiVersion\":\"kubejobs.dev/v1\",\"kind\":\"TestJob\",\"metadata\":{\"name\":\""
        + name
        + "\",\"namespace\":\"etl\",\"uid\":\"uid-"
        + name
        + "\",\"resourceVersion\":\"3\"}}";
  }

  /** Writes one chunk of a chunked body; an empty one ends the body. */
  private static void writeChunk(OutputStream out, byte[] data) throws IOException {
    out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(data);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static void writeHeaders(OutputStream out, String length) throws IOException {
    out.write(
        ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + length + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
  }

  /** A 200 answer whose body's source has that timeout. */
  private static Response answer(Protocol protocol, Timeout timeout) {
    BufferedSource source =
        Okio.buffer(
            new ForwardingSource(new Buffer().writeUtf8("{}")) {
              @Override
              public Timeout timeout() {
                return timeout;
              }
            });
    return new Response.Builder()
        .request(new Request.Builder().url("http://127.0.0.1/").build())
        .protocol(protocol)
        .code(200)
        .message("OK")
        .body(ResponseBody.create(source, MediaType.get("application/json"), 2))
        .build();
  }

  /** What the raw server does with the n-th request it reads (counted over all connections). */
  @FunctionalInterface
  private interface Script {
    void answer(int request, OutputStream out) throws Exception;
  }

  /** A one-thread HTTP/1.1 server that reads request heads and answers them by a script. */
  private static final class RawServer implements AutoCloseable {
    private final ServerSocket socket;
    private final Thread thread;

    RawServer(Script script) throws IOException {
      this(script, new AtomicInteger());
    }

    RawServer(Script script, AtomicInteger connections) throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      thread =
          new Thread(
              () -> {
                int requests = 0;
                while (!socket.isClosed()) {
                  try (Socket s = socket.accept()) {
                    connections.incrementAndGet();
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    while (readHead(in)) {
                      script.answer(requests++, out);
                    }
                  } catch (Exception closedOrDone) {
                    // the test is over, or the client hung up: wait for the next connection
                  }
                }
              },
              "raw-api-server");
      thread.setDaemon(true);
      thread.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    /** Reads a request head (no request here has a body); false at the end of the stream. */
    private static boolean readHead(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int b;
      while ((b = in.read()) != -1) {
        head.write(b);
        byte[] h = head.toByteArray();
        int n = h.length;
        if (n >= 4
            && h[n - 4] == '\r'
            && h[n - 3] == '\n'
            && h[n - 2] == '\r'
            && h[n - 1] == '\n') {
          return true;
        }
      }
      return false;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
