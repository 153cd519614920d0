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

import static dev.kubejobs.testkit.Kube.NS;
import static dev.kubejobs.testkit.Kube.SPARK_APP;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watches over WebSocket, as kube-apiserver serves a watch request asking for an upgrade
 * (kubernetes/apiserver {@code pkg/endpoints/handlers/watch.go} at commit 24a394e5: {@code
 * serveWatchHandler} hands a WebSocket request to {@code websocket.Handler(server.HandleWS)}, which
 * writes each encoded event with {@code websocketFramer}, text frames for JSON): 101, then one text
 * frame per event, each the event's JSON line. fabric8 opens its watches this way first.
 */
class WebSocketWatchTest {

  static final String APPS = "/apis/spark.apache.org/v1/namespaces/" + NS + "/sparkapplications";

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  @Test
  void anUpgradedWatchSendsOneTextFramePerEventAndClosesAtItsTimeout() throws Exception {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("before"));
    List<String> frames = new CopyOnWriteArrayList<>();
    CompletableFuture<Integer> closed = new CompletableFuture<>();
    WebSocket.Listener listener =
        new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            frames.add((last ? "" : "partial:") + data);
            ws.request(1);
            return null;
          }

          @Override
          public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
          }
        };

    WebSocket socket =
        HttpClient.newHttpClient()
            .newWebSocketBuilder()
            .buildAsync(
                URI.create(
                    kube.server().url().replace("http:", "ws:")
                        + APPS
                        + "?watch=true&timeoutSeconds=2"),
                listener)
            .get(5, TimeUnit.SECONDS);
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("after"));

    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> frames.size() == 2);
    assertThat(closed.get(5, TimeUnit.SECONDS)).isEqualTo(1000);
    assertThat(socket).isNotNull();
    assertThat(frames).allMatch(f -> f.endsWith("\n") && !f.startsWith("partial:"));
    JsonObject first = JsonParser.parseString(frames.get(0)).getAsJsonObject();
    JsonObject second = JsonParser.parseString(frames.get(1)).getAsJsonObject();
    assertThat(RawWatch.type(first) + " " + RawWatch.name(first)).isEqualTo("ADDED before");
    assertThat(RawWatch.type(second) + " " + RawWatch.name(second)).isEqualTo("ADDED after");
  }

  @Test
  void anUpgradeRefusedBeforeTheWatchAnswersAPlainHttpError() throws Exception {
    kube.server().rbac().deny("watch", "spark.apache.org", "sparkapplications");

    CompletableFuture<WebSocket> attempt =
        HttpClient.newHttpClient()
            .newWebSocketBuilder()
            .buildAsync(
                URI.create(kube.server().url().replace("http:", "ws:") + APPS + "?watch=true"),
                new WebSocket.Listener() {});

    Awaitility.await().atMost(Duration.ofSeconds(5)).until(attempt::isDone);
    assertThat(attempt).isCompletedExceptionally();
    assertThat(attempt.handle((ws, t) -> t.getCause()).get())
        .isInstanceOf(java.net.http.WebSocketHandshakeException.class)
        .satisfies(
            t ->
                assertThat(
                        ((java.net.http.WebSocketHandshakeException) t).getResponse().statusCode())
                    .isEqualTo(403));
  }

  /**
   * A Ping gets a Pong with its payload, as {@code golang.org/x/net/websocket} answers one for
   * {@code HandleWS}; clients that ping (OkHttp, so fabric8 on it) drop a WebSocket whose pings go
   * unanswered.
   */
  @Test
  void aPingGetsAPongWithItsPayloadAndTheWatchGoesOn() throws Exception {
    CompletableFuture<String> pong = new CompletableFuture<>();
    List<String> frames = new CopyOnWriteArrayList<>();
    WebSocket socket =
        HttpClient.newHttpClient()
            .newWebSocketBuilder()
            .buildAsync(
                URI.create(kube.server().url().replace("http:", "ws:") + APPS + "?watch=true"),
                new WebSocket.Listener() {
                  @Override
                  public CompletionStage<?> onPong(WebSocket ws, java.nio.ByteBuffer message) {
                    pong.complete(
                        java.nio.charset.StandardCharsets.UTF_8.decode(message).toString());
                    ws.request(1);
                    return null;
                  }

                  @Override
                  public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                    frames.add(data.toString());
                    ws.request(1);
                    return null;
                  }
                })
            .get(5, TimeUnit.SECONDS);

    socket.sendPing(java.nio.ByteBuffer.wrap("are you there".getBytes())).get(5, TimeUnit.SECONDS);

    assertThat(pong.get(5, TimeUnit.SECONDS)).isEqualTo("are you there");
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("after-ping"));
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> frames.size() == 1);
    assertThat(frames.get(0)).contains("\"name\":\"after-ping\"");
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> kube.server().openWatches() == 0);
  }
}
