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

import java.util.concurrent.TimeUnit;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Leaves the read timeout of an HTTP/1 answer's body to the socket alone.
 *
 * <p>OkHttp bounds each read of an HTTP/1 connection twice: the socket's own {@code SO_TIMEOUT},
 * set to the read timeout for every exchange ({@code RealConnection.newCodec}), and Okio's {@code
 * AsyncTimeout} around every read of at most 8 KiB, which puts the read on the queue of Okio's
 * watchdog thread and wakes that thread each time. For a list page of a few hundred kilobytes that
 * is a wake-up per 8 KiB: measured with 10,000 jobs, the watchdog's wake-ups and the queueing cost
 * about a fifth of a status poll's client CPU time. Once an answer's headers have arrived, its
 * body's reads keep only the socket's bound, which is the same read timeout: a read that waits
 * longer than it still fails, with a {@link java.net.SocketTimeoutException}, and the connection is
 * not used again. The headers are read under both, as OkHttp sets them.
 *
 * <p>Only HTTP/1: an HTTP/2 stream is read from a buffer its connection's reader thread fills, so
 * there the stream's own timeout is the only bound, and it is kept. OkHttp clears the socket
 * source's timeout itself when a body ends and sets it again for the connection's next exchange, so
 * nothing carries over to another request.
 */
final class SocketReadTimeout {
  private SocketReadTimeout() {}

  /**
   * Hands the per-read timeout of a 2xx answer's body over to the socket, for an HTTP/1 answer
   * whose body is read now and closed.
   *
   * @param response the answer, its body not read yet
   */
  static void handOver(Response response) {
    Protocol protocol = response.protocol();
    if (protocol != Protocol.HTTP_1_1 && protocol != Protocol.HTTP_1_0) {
      return;
    }
    ResponseBody body = response.body();
    if (body != null) {
      body.source().timeout().timeout(0, TimeUnit.MILLISECONDS);
    }
  }
}
