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

import com.github.tomakehurst.wiremock.http.trafficlistener.WiremockNetworkTrafficListener;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the server's open connections, from Jetty's open and close events (through WireMock's
 * network traffic listener). Thread safe.
 */
final class ConnectionCounter implements WiremockNetworkTrafficListener {
  private final AtomicInteger open = new AtomicInteger();

  int open() {
    return open.get();
  }

  @Override
  public void opened(Socket socket) {
    open.incrementAndGet();
  }

  @Override
  public void incoming(Socket socket, ByteBuffer bytes) {
    // only connections are counted
  }

  @Override
  public void outgoing(Socket socket, ByteBuffer bytes) {
    // only connections are counted
  }

  @Override
  public void closed(Socket socket) {
    open.decrementAndGet();
  }
}
