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

import com.github.tomakehurst.wiremock.jetty11.Jetty11HttpUtils;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import wiremock.jakarta.servlet.http.HttpServletRequest;
import wiremock.jakarta.servlet.http.HttpServletResponse;
import wiremock.org.eclipse.jetty.io.EndPoint;
import wiremock.org.eclipse.jetty.util.FutureCallback;

/**
 * A watch served over WebSocket, as kube-apiserver's {@code WatchServer} serves a watch request
 * that asks for an upgrade (kubernetes/apiserver {@code pkg/endpoints/handlers/watch.go}, {@code
 * serveWatchHandler} → {@code websocket.Handler(server.HandleWS)}, commit 24a394e5): {@code 101
 * Switching Protocols} (RFC 6455 handshake, the one offered subprotocol echoed as {@code
 * golang.org/x/net/websocket} does), then one text frame per event (the JSON serializer encodes as
 * text, so {@code UseTextFraming}), and a Close frame when the watch ends. The frames are written
 * to the connection's Jetty endpoint directly, past the servlet response, which stays unused.
 * Confined to the request's thread.
 */
final class WebSocket {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WebSocket.class);
  private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final long WRITE_TIMEOUT_SECONDS = 10;

  private final EndPoint endPoint;
  private final String key;
  private final String protocol;

  private WebSocket(EndPoint endPoint, String key, String protocol) {
    this.endPoint = endPoint;
    this.key = key;
    this.protocol = protocol;
  }

  /** The upgrade a request asks for, or null for a plain HTTP request. */
  static WebSocket of(HttpServletRequest request, HttpServletResponse response) {
    String upgrade = request.getHeader("Upgrade");
    String key = request.getHeader("Sec-WebSocket-Key");
    if (upgrade == null || !upgrade.equalsIgnoreCase("websocket") || key == null) {
      return null;
    }
    Jetty11HttpUtils utils = new Jetty11HttpUtils();
    String protocols = request.getHeader("Sec-WebSocket-Protocol");
    String protocol =
        protocols == null || protocols.isBlank() ? null : protocols.split(",")[0].trim();
    return new WebSocket(utils.unwrapEndPoint(utils.unwrapResponse(response)), key, protocol);
  }

  /** Answers the upgrade and returns the stream whose every write is sent as one text frame. */
  OutputStream accept() throws IOException {
    StringBuilder head =
        new StringBuilder("HTTP/1.1 101 Switching Protocols\r\n")
            .append("Upgrade: websocket\r\n")
            .append("Connection: Upgrade\r\n")
            .append("Sec-WebSocket-Accept: ")
            .append(accept(key))
            .append("\r\n");
    if (protocol != null) {
      head.append("Sec-WebSocket-Protocol: ").append(protocol).append("\r\n");
    }
    head.append("\r\n");
    send(head.toString().getBytes(StandardCharsets.US_ASCII));
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        send(frame(0x1, b, off, len));
      }
    };
  }

  /** Sends a Close frame (1000, normal closure) and closes the connection. */
  void close() {
    try {
      send(frame(0x8, new byte[] {0x03, (byte) 0xE8}, 0, 2));
    } catch (IOException e) {
      LOG.debug("The WebSocket client went before the Close frame: {}", e.toString());
    } finally {
      endPoint.close();
    }
  }

  /** The {@code Sec-WebSocket-Accept} value for a key (RFC 6455 section 4.2.2). */
  static String accept(String key) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      return Base64.getEncoder()
          .encodeToString(
              sha1.digest((key.trim() + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is missing from this JVM", e);
    }
  }

  /** A server frame: FIN, the opcode, the length, unmasked payload (RFC 6455 section 5.2). */
  static byte[] frame(int opcode, byte[] payload, int off, int len) {
    int header = len < 126 ? 2 : len < 65_536 ? 4 : 10;
    byte[] frame = new byte[header + len];
    frame[0] = (byte) (0x80 | opcode);
    if (len < 126) {
      frame[1] = (byte) len;
    } else if (len < 65_536) {
      frame[1] = 126;
      frame[2] = (byte) (len >>> 8);
      frame[3] = (byte) len;
    } else {
      frame[1] = 127;
      for (int i = 0; i < 8; i++) {
        frame[2 + i] = (byte) ((long) len >>> (56 - 8 * i));
      }
    }
    System.arraycopy(payload, off, frame, header, len);
    return frame;
  }

  private void send(byte[] bytes) throws IOException {
    FutureCallback written = new FutureCallback();
    endPoint.write(written, ByteBuffer.wrap(bytes));
    try {
      written.get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing to the WebSocket", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("the WebSocket client did not take a frame: " + e, e);
    }
  }
}
