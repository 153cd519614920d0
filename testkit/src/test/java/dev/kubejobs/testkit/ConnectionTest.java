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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * Idle connections: the server closes a connection that stayed idle for its idle timeout, as
 * kube-apiserver does after 90 seconds ({@code IdleTimeout} in {@code
 * k8s.io/apiserver/pkg/server/secure_serving.go}; Go's {@code http.Server} closes the connection,
 * and a client's next request on it gets no answer); and {@code closeConnections()}, which closes
 * them when a test says.
 */
class ConnectionTest {

  private static int get(OkHttpClient http, FakeKubernetesApiServer server) throws IOException {
    Request request = new Request.Builder().url(server.url() + "/api/v1/namespaces/a/pods").build();
    try (Response response = http.newCall(request).execute()) {
      return response.code();
    }
  }

  @Test
  void theServerClosesAConnectionIdleForItsTimeoutAndACallThatReusesItGetsNoAnswer()
      throws IOException {
    try (FakeKubernetesApiServer server =
        FakeKubernetesApiServer.builder().idleTimeout(Duration.ofMillis(500)).build()) {
      // A warm server: a cold one on a loaded machine once took longer than the timeout to answer.
      assertThat(get(new OkHttpClient(), server)).isEqualTo(200);
      // as kubejobs' gateway does: OkHttp must not hide the failure by sending the GET again
      OkHttpClient http = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();

      assertThat(get(http, server)).isEqualTo(200);

      aCallOnTheClosedConnectionGetsNoAnswerAndTheNextOneANewConnection(http, server, 2);
    }
  }

  /**
   * Once the server has seen every connection closed, a call that reuses {@code http}'s pooled one
   * fails without reaching it (the journal still holds {@code requests}), and the next call opens a
   * new connection.
   */
  private static void aCallOnTheClosedConnectionGetsNoAnswerAndTheNextOneANewConnection(
      OkHttpClient http, FakeKubernetesApiServer server, int requests) throws IOException {
    await().atMost(Duration.ofSeconds(10)).until(() -> server.openConnections() == 0);

    assertThatThrownBy(() -> get(http, server))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("unexpected end of stream");
    assertThat(server.journal().requests()).hasSize(requests);
    assertThat(get(http, server)).isEqualTo(200);
  }

  @Test
  void aConnectionInUseIsKeptOpenPastTheIdleTimeoutWhileRequestsFollowEachOther()
      throws IOException {
    try (FakeKubernetesApiServer server =
        FakeKubernetesApiServer.builder().idleTimeout(Duration.ofMillis(1500)).build()) {
      // A first request on a connection of its own: a cold server on a loaded machine once took
      // longer than the idle timeout to answer it, and an answer that slow is not this test's.
      assertThat(get(new OkHttpClient(), server)).isEqualTo(200);
      AtomicInteger connects = new AtomicInteger();
      OkHttpClient http =
          new OkHttpClient.Builder()
              .retryOnConnectionFailure(false)
              .eventListener(
                  new EventListener() {
                    @Override
                    public void connectStart(
                        Call call, InetSocketAddress address, java.net.Proxy proxy) {
                      connects.incrementAndGet();
                    }
                  })
              .build();
      server.faults().add(Fault.on("GET", ".*").times(2).delay(Duration.ofMillis(900)));

      // 2 requests of 900 ms each, back to back: 1.8 s on one connection, never idle for 1.5 s
      for (int i = 0; i < 2; i++) {
        assertThat(get(http, server)).isEqualTo(200);
      }

      assertThat(server.journal().requests()).hasSize(3);
      assertThat(connects).hasValue(1); // one connection carried both
    }
  }

  @Test
  void closeConnectionsClosesEveryOpenConnectionAtOnceAndACallThatReusesOneGetsNoAnswer()
      throws IOException {
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.builder().build()) {
      OkHttpClient http = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();
      OkHttpClient other = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();
      assertThat(get(http, server)).isEqualTo(200);
      assertThat(get(other, server)).isEqualTo(200);
      assertThat(server.openConnections()).isEqualTo(2);

      assertThat(server.closeConnections()).isEqualTo(2);

      aCallOnTheClosedConnectionGetsNoAnswerAndTheNextOneANewConnection(http, server, 2);
      assertThat(server.openConnections()).isEqualTo(1);
      assertThat(server.closeConnections()).isEqualTo(1);
    }
  }

  @Test
  void theIdleTimeoutMustBeAtLeastOneMillisecond() {
    assertThatThrownBy(() -> FakeKubernetesApiServer.builder().idleTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("idleTimeout must be at least 1 millisecond");
  }
}
