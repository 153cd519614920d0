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
import java.time.Duration;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * Idle connections: the server closes a connection that stayed idle for its idle timeout, as
 * kube-apiserver does after 90 seconds ({@code IdleTimeout} in {@code
 * k8s.io/apiserver/pkg/server/secure_serving.go}; Go's {@code http.Server} closes the connection,
 * and a client's next request on it gets no answer).
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
        FakeKubernetesApiServer.builder().idleTimeout(Duration.ofMillis(200)).build()) {
      // as kubejobs' gateway does: OkHttp must not hide the failure by sending the GET again
      OkHttpClient http = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();

      assertThat(get(http, server)).isEqualTo(200);
      assertThat(server.openConnections()).isEqualTo(1);
      await().atMost(Duration.ofSeconds(10)).until(() -> server.openConnections() == 0);

      assertThatThrownBy(() -> get(http, server))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("unexpected end of stream");
      assertThat(server.journal().requests()).hasSize(1);
      // the pool dropped the closed connection: the next call opens a new one
      assertThat(get(http, server)).isEqualTo(200);
      assertThat(server.openConnections()).isEqualTo(1);
    }
  }

  @Test
  void aConnectionInUseIsKeptOpenPastTheIdleTimeoutWhileRequestsFollowEachOther()
      throws IOException {
    try (FakeKubernetesApiServer server =
        FakeKubernetesApiServer.builder().idleTimeout(Duration.ofMillis(200)).build()) {
      OkHttpClient http = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();
      server.faults().add(Fault.on("GET", ".*").times(3).delay(Duration.ofMillis(150)));

      // 3 requests of 150 ms each, back to back: 450 ms on one connection, never idle for 200 ms
      for (int i = 0; i < 3; i++) {
        assertThat(get(http, server)).isEqualTo(200);
      }

      assertThat(server.journal().requests()).hasSize(3);
      assertThat(server.openConnections()).isEqualTo(1);
    }
  }

  @Test
  void theIdleTimeoutMustBeAtLeastOneMillisecond() {
    assertThatThrownBy(() -> FakeKubernetesApiServer.builder().idleTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("idleTimeout must be at least 1 millisecond");
  }
}
