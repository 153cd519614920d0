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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import wiremock.jakarta.servlet.http.HttpServletRequest;

/**
 * A watch served over WebSocket, as kube-apiserver's {@code WatchServer} serves a watch request
 * that asks for an upgrade (kubernetes/apiserver {@code pkg/endpoints/handlers/watch.go}, {@code
 * serveWatchHandler} → {@code websocket.Handler(server.HandleWS)}, commit 24a394e5): {@code 101
 * Switching Protocols} (RFC 6455 handshake, the one offered subprotocol echoed as {@code
 * golang.org/x/net/websocket} does), then one text frame per event (the JSON serializer encodes as
 * text, so {@code UseTextFraming}), a Pong for each Ping, and a Close frame when the watch ends.
 * This class makes the bytes; the watch's stream writes them to the connection's Jetty endpoint
 * directly, past the servlet response, which stays unused. Confined to the watch pump's thread.
 */
final class WebSocket {

  private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

  private final String key;
  private final String protocol;
  private boolean accepted;

  /** Pong frames owed to the client's pings, sent before the next events. */
  private final List<byte[]> pongs = new java.util.ArrayList<>();

  private WebSocket(String key, String protocol) {
    this.key = key;
    this.protocol = protocol;
  }

  /** The upgrade a request asks for, or null for a plain HTTP request. */
  static WebSocket of(HttpServletRequest request) {
    String upgrade = request.getHeader("Upgrade");
    String key = request.getHeader("Sec-WebSocket-Key");
    if (upgrade == null || !upgrade.equalsIgnoreCase("websocket") || key == null) {
      return null;
    }
    String protocols = request.getHeader("Sec-WebSocket-Protocol");
    String protocol =
        protocols == null || protocols.isBlank() ? null : protocols.split(",")[0].trim();
    return new WebSocket(key, protocol);
  }

  /** Whether the upgrade's answer is out and no pong is owed: nothing to send but events. */
  boolean idle() {
    return accepted && pongs.isEmpty();
  }

  /**
   * Reads what the client sent (it sends control frames only): answers each Ping with a Pong on the
   * next write, as {@code golang.org/x/net/websocket} does, so that a client that pings (OkHttp
   * fails a WebSocket whose ping gets no pong) keeps its watch; returns whether a Close came. Only
   * whole frames with a short payload (at most 125 bytes, as RFC 6455 section 5.5 bounds control
   * frames) are read.
   */
  boolean read(ByteBuffer received) {
    while (received.remaining() >= 2) {
      int opcode = received.get() & 0x0F;
      int second = received.get() & 0xFF;
      int len = second & 0x7F;
      boolean masked = (second & 0x80) != 0;
      if (len > 125 || received.remaining() < (masked ? 4 : 0) + len) {
        return opcode == 0x8;
      }
      byte[] mask = new byte[4];
      if (masked) {
        received.get(mask);
      }
      byte[] payload = new byte[len];
      received.get(payload);
      for (int i = 0; i < len; i++) {
        payload[i] ^= mask[i % 4];
      }
      if (opcode == 0x8) {
        return true;
      }
      if (opcode == 0x9) {
        pongs.add(frame(0xA, payload, 0, len));
      }
    }
    return false;
  }

  /**
   * The bytes that send these events, one text frame each, after the answer to the upgrade the
   * first time.
   */
  ByteBuffer[] frames(List<byte[]> events) {
    List<ByteBuffer> out = new java.util.ArrayList<>();
    if (!accepted) {
      out.add(ByteBuffer.wrap(head()));
      accepted = true;
    }
    for (byte[] pong : pongs) {
      out.add(ByteBuffer.wrap(pong));
    }
    pongs.clear();
    for (byte[] e : events) {
      out.add(ByteBuffer.wrap(frame(0x1, e, 0, e.length)));
    }
    return out.toArray(new ByteBuffer[0]);
  }

  /** A Close frame: 1000, normal closure. */
  ByteBuffer close() {
    return ByteBuffer.wrap(frame(0x8, new byte[] {0x03, (byte) 0xE8}, 0, 2));
  }

  private byte[] head() {
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
    return head.toString().getBytes(StandardCharsets.US_ASCII);
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
}
