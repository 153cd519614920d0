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
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the server's open connections, from Jetty's open and close events (through WireMock's
 * network traffic listener), and closes them on demand. Thread safe.
 */
final class ConnectionCounter implements WiremockNetworkTrafficListener {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionCounter.class);

  private final AtomicInteger open = new AtomicInteger();
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

  int open() {
    return open.get();
  }

  /**
   * Closes every connection open now; Jetty sees each one end as if the client had closed it.
   *
   * @return how many were closed
   */
  int closeAll() {
    int closed = 0;
    for (Socket socket : List.copyOf(sockets)) {
      try {
        socket.close();
        closed++;
      } catch (IOException e) {
        LOG.debug("Closing a connection of the fake API server failed: {}", e.toString());
      }
      // Jetty does not hear of a close made under it until it next touches the connection.
      forget(socket);
    }
    return closed;
  }

  private void forget(Socket socket) {
    if (sockets.remove(socket)) {
      open.decrementAndGet(); // once per connection, whoever closed it
    }
  }

  @Override
  public void opened(Socket socket) {
    sockets.add(socket);
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
    forget(socket);
  }
}
