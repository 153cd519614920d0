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
package dev.kubejobs.core.testing;

import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import okhttp3.Protocol;

/**
 * Clients that speak HTTP/2, as client-java's {@code ApiClient} does to a TLS API server: here
 * cleartext with prior knowledge (h2c), since the fake API server and OkHttp's MockWebServer are
 * plain.
 */
public final class Http2Clients {
  private Http2Clients() {}

  /**
   * Switches a client to HTTP/2 with prior knowledge.
   *
   * @param client the client, changed in place
   * @return {@code client}
   */
  public static ApiClient overHttp2(ApiClient client) {
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE))
            .build());
    return client;
  }
}
