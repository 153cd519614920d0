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

import static dev.kubejobs.testkit.Kube.SPARK_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A thousand open watches on a server with the default 24 worker threads, as watch mode over 100
 * namespaces makes (an operator's informers, kubejobs' own watch source): each namespace is listed
 * and then watched from the list's resourceVersion, ten times over, half of the watches as chunked
 * HTTP streams and half over WebSocket (fabric8's way), all with bookmarks. Every watch gets every
 * change of its namespace, and other requests are answered while they are open, because an open
 * watch holds no worker thread.
 *
 * <p>The client is the JDK's {@link HttpClient}, which reads every stream with a few threads of its
 * own; a blocking client would need a thread per watch on the test's side. What was measured is
 * written to {@code target/many-watches.txt}.
 */
@Tag("slow")
class ManyWatchesTest {

  private static final int NAMESPACES = 100;
  private static final int WATCHES_PER_NAMESPACE = 10;
  private static final int WATCHES = NAMESPACES * WATCHES_PER_NAMESPACE;
  private static final Duration GENEROUS = Duration.ofMinutes(2);

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  /** One watch as the test sees it: the events it got, whether it has begun and ended. */
  private static final class Watcher {
    final String namespace;
    final boolean webSocket;
    final Queue<JsonObject> events = new ConcurrentLinkedQueue<>();
    final CompletableFuture<Integer> opened = new CompletableFuture<>();
    final CompletableFuture<Void> ended = new CompletableFuture<>();

    Watcher(String namespace, boolean webSocket) {
      this.namespace = namespace;
      this.webSocket = webSocket;
    }

    void line(String line) {
      if (!line.isBlank()) {
        events.add(JsonParser.parseString(line).getAsJsonObject());
      }
    }

    boolean saw(String type, String name) {
      return events.stream()
          .anyMatch(
              e ->
                  e.get("type").getAsString().equals(type)
                      && name.equals(
                          e.getAsJsonObject("object")
                              .getAsJsonObject("metadata")
                              .get("name")
                              .getAsString()));
    }

    boolean sawBookmarkAt(String rv) {
      return events.stream()
          .anyMatch(
              e ->
                  e.get("type").getAsString().equals("BOOKMARK")
                      && rv.equals(
                          e.getAsJsonObject("object")
                              .getAsJsonObject("metadata")
                              .get("resourceVersion")
                              .getAsString()));
    }
  }

  @Test
  void aThousandWatchesWithTheirListsRunOnTheDefaultServerAndEachGetsItsEvents()
      throws IOException {
    FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
    try { // closed in the test (its close is measured) and again, a no-op, if the test fails first
      server.registerResource(SPARK_APP);
      assertThat(server.workerThreads()).isEqualTo(24);
      int busyIdle = server.busyWorkerThreads();
      int jvmThreadsBefore = Thread.activeCount();

      long start = System.nanoTime();
      List<Watcher> watchers = new ArrayList<>();
      for (int n = 0; n < NAMESPACES; n++) {
        for (int w = 0; w < WATCHES_PER_NAMESPACE; w++) {
          Watcher watcher = new Watcher("ns-" + n, w % 2 == 1);
          watchers.add(watcher);
          listThenWatch(server, watcher);
        }
      }
      await().atMost(GENEROUS).until(() -> watchers.stream().allMatch(w -> w.opened.isDone()));
      await().atMost(GENEROUS).until(() -> server.openWatches() == WATCHES);
      long openMillis = millisSince(start);
      assertThat(watchers).allMatch(w -> w.opened.join() == (w.webSocket ? 101 : 200));

      // No watch holds a worker: once the opening is over, as many are busy as with none open.
      await().atMost(GENEROUS).until(() -> server.busyWorkerThreads() <= busyIdle);
      int busyOpen = server.busyWorkerThreads();
      int jvmThreadsOpen = Thread.activeCount();
      long pumpCpuOpen = pumpCpuNanos();
      long openAt = System.nanoTime();

      // Another client is answered promptly while the thousand watches are open.
      long getStart = System.nanoTime();
      CompletableFuture<HttpResponse<String>> get =
          http.sendAsync(
              HttpRequest.newBuilder(URI.create(server.url() + apps("ns-0"))).build(),
              HttpResponse.BodyHandlers.ofString());
      await().atMost(Duration.ofSeconds(10)).until(get::isDone);
      long getMillis = millisSince(getStart);
      assertThat(get.join().statusCode()).isEqualTo(200);

      // Create, change and delete one application per namespace through the API.
      long crudStart = System.nanoTime();
      List<CompletableFuture<HttpResponse<String>>> writes = new ArrayList<>();
      for (int n = 0; n < NAMESPACES; n++) {
        writes.add(
            send(
                server, "POST", apps("ns-" + n), "application/json", appIn("ns-" + n, "app-" + n)));
      }
      awaitAnswered(writes, 201);
      await().atMost(GENEROUS).until(() -> watchers.stream().allMatch(w -> w.saw("ADDED", app(w))));
      long addedMillis = millisSince(crudStart);
      writes.clear();
      for (int n = 0; n < NAMESPACES; n++) {
        writes.add(
            send(
                server,
                "PATCH",
                apps("ns-" + n) + "/app-" + n,
                "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"seen\":\"yes\"}}}"));
      }
      awaitAnswered(writes, 200);
      await()
          .atMost(GENEROUS)
          .until(() -> watchers.stream().allMatch(w -> w.saw("MODIFIED", app(w))));
      writes.clear();
      for (int n = 0; n < NAMESPACES; n++) {
        writes.add(send(server, "DELETE", apps("ns-" + n) + "/app-" + n, null, null));
      }
      awaitAnswered(writes, 200);
      await()
          .atMost(GENEROUS)
          .until(() -> watchers.stream().allMatch(w -> w.saw("DELETED", app(w))));
      for (Watcher w : watchers) {
        // Nothing from other namespaces, nothing twice: ADDED, MODIFIED, DELETED of its own app.
        assertThat(w.events)
            .extracting(e -> e.get("type").getAsString())
            .containsExactly("ADDED", "MODIFIED", "DELETED");
      }

      // One event to every watch at once: a bookmark at the current resourceVersion.
      String rv = ((InMemoryStore) server.store()).currentResourceVersion();
      long bookmarkStart = System.nanoTime();
      server.sendWatchBookmarks();
      await().atMost(GENEROUS).until(() -> watchers.stream().allMatch(w -> w.sawBookmarkAt(rv)));
      long bookmarkMillis = millisSince(bookmarkStart);
      assertThat(server.openWatches()).isEqualTo(WATCHES);
      long pumpCpuMillis = TimeUnit.NANOSECONDS.toMillis(pumpCpuNanos() - pumpCpuOpen);
      long openFor = millisSince(openAt);

      long closeStart = System.nanoTime();
      server.close();
      assertThat(server.openWatches()).isZero();
      await().atMost(GENEROUS).until(() -> watchers.stream().allMatch(w -> w.ended.isDone()));
      long closeMillis = millisSince(closeStart);

      Files.writeString(
          Path.of("target", "many-watches.txt"),
          String.format(
              "%d watches (%d namespaces; %d chunked HTTP, %d WebSocket) on %d worker threads%n"
                  + "busy workers: %d with none open, %d with all open; JVM threads: %d before,"
                  + " %d with all open (client included)%n"
                  + "open all (LIST + watch each): %d ms%n"
                  + "a GET while all are open: %d ms%n"
                  + "%d creates seen as ADDED by every watch: %d ms%n"
                  + "one bookmark to every watch: %d ms%n"
                  + "close the server, every watch ended at the client: %d ms%n"
                  + "the watch pump's CPU while all were open (GET, CRUD, bookmark, hang-up"
                  + " checks every 50 ms): %d ms in %d ms%n",
              WATCHES,
              NAMESPACES,
              WATCHES / 2,
              WATCHES / 2,
              server.workerThreads(),
              busyIdle,
              busyOpen,
              jvmThreadsBefore,
              jvmThreadsOpen,
              openMillis,
              getMillis,
              NAMESPACES,
              addedMillis,
              bookmarkMillis,
              closeMillis,
              pumpCpuMillis,
              openFor),
          StandardCharsets.UTF_8);
    } finally {
      server.close();
    }
  }

  /** The CPU time so far of the watch pump threads in this JVM (other servers' are idle). */
  private static long pumpCpuNanos() {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("fake-kubernetes-watch-pump-"))
        .mapToLong(t -> mx.getThreadCpuTime(t.getId()))
        .sum();
  }

  private static String apps(String namespace) {
    return "/apis/spark.apache.org/v1/namespaces/" + namespace + "/sparkapplications";
  }

  private static String appIn(String namespace, String name) {
    JsonObject app = Kube.appJson(name);
    app.getAsJsonObject("metadata").addProperty("namespace", namespace);
    return app.toString();
  }

  private static String app(Watcher w) {
    return "app-" + w.namespace.substring("ns-".length());
  }

  private static long millisSince(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
  }

  private static void awaitAnswered(
      List<CompletableFuture<HttpResponse<String>>> answers, int status) {
    await().atMost(GENEROUS).until(() -> answers.stream().allMatch(CompletableFuture::isDone));
    assertThat(answers).allMatch(a -> a.join().statusCode() == status);
  }

  private CompletableFuture<HttpResponse<String>> send(
      FakeKubernetesApiServer server, String method, String path, String type, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path));
    if (type != null) {
      request.header("Content-Type", type);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** LISTs the watcher's namespace, then watches it from the list's resourceVersion. */
  private void listThenWatch(FakeKubernetesApiServer server, Watcher watcher) {
    send(server, "GET", apps(watcher.namespace), null, null)
        .thenAccept(
            list -> {
              String rv =
                  JsonParser.parseString(list.body())
                      .getAsJsonObject()
                      .getAsJsonObject("metadata")
                      .get("resourceVersion")
                      .getAsString();
              String path =
                  apps(watcher.namespace)
                      + "?watch=true&allowWatchBookmarks=true&resourceVersion="
                      + rv;
              if (watcher.webSocket) {
                webSocketWatch(server, watcher, path);
              } else {
                httpWatch(server, watcher, path);
              }
            })
        .exceptionally(
            e -> {
              watcher.opened.completeExceptionally(e);
              return null;
            });
  }

  private void httpWatch(FakeKubernetesApiServer server, Watcher watcher, String path) {
    HttpResponse.BodyHandler<Void> handler =
        info -> {
          watcher.opened.complete(info.statusCode());
          return HttpResponse.BodySubscribers.fromLineSubscriber(
              new Flow.Subscriber<String>() {
                @Override
                public void onSubscribe(Flow.Subscription subscription) {
                  subscription.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(String line) {
                  watcher.line(line);
                }

                @Override
                public void onError(Throwable throwable) {
                  watcher.ended.completeExceptionally(throwable);
                }

                @Override
                public void onComplete() {
                  watcher.ended.complete(null);
                }
              });
        };
    http.sendAsync(HttpRequest.newBuilder(URI.create(server.url() + path)).build(), handler)
        .exceptionally(
            e -> {
              watcher.opened.completeExceptionally(e);
              return null;
            });
  }

  private void webSocketWatch(FakeKubernetesApiServer server, Watcher watcher, String path) {
    StringBuilder frame = new StringBuilder();
    http.newWebSocketBuilder()
        .buildAsync(
            URI.create(server.url().replace("http:", "ws:") + path),
            new WebSocket.Listener() {
              @Override
              public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                frame.append(data);
                if (last) {
                  watcher.line(frame.toString());
                  frame.setLength(0);
                }
                ws.request(1);
                return null;
              }

              @Override
              public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                watcher.ended.complete(null);
                return null;
              }

              @Override
              public void onError(WebSocket ws, Throwable error) {
                watcher.ended.completeExceptionally(error);
              }
            })
        .whenComplete(
            (ws, e) -> {
              if (e != null) {
                watcher.opened.completeExceptionally(e);
              } else {
                watcher.opened.complete(101);
              }
            });
  }
}
