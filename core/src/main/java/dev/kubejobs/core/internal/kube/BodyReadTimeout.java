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

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import okhttp3.Call;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.AsyncTimeout;
import okio.Buffer;
import okio.ForwardingSource;
import okio.Okio;
import okio.Source;
import okio.Timeout;

/**
 * Bounds each read of an answer's body by the read timeout without Okio's per-read watchdog.
 *
 * <p>OkHttp bounds every read of a body of at most 8 KiB with an Okio {@code AsyncTimeout}, which
 * puts the read on the queue of Okio's watchdog thread and wakes that thread each time: for a list
 * page of a few hundred kilobytes, a wake-up per 8 KiB. Measured with 10,000 jobs, the wake-ups and
 * the queueing cost about a fifth of a status poll's client CPU time. Once a 2xx answer's headers
 * have arrived, its body keeps the same bound another way:
 *
 * <ul>
 *   <li>HTTP/1: the socket's own {@code SO_TIMEOUT}, which OkHttp sets to the read timeout for
 *       every exchange ({@code RealConnection.newCodec}). A read that waits longer still fails with
 *       a {@link SocketTimeoutException}, and the connection is not used again. OkHttp clears the
 *       socket source's timeout itself when a body ends and sets it again for the connection's next
 *       exchange, so nothing carries over to another request.
 *   <li>HTTP/2: a stream is read from a buffer its connection's reader thread fills, with no socket
 *       timeout of its own. The stream's timeout is cleared and one {@link Stall} alarm per body
 *       stands in for it: each read notes when it started waiting, and the alarm, due a timeout
 *       after the body was opened, looks whether a read has been waiting that long; if so it
 *       cancels the call (the stream is reset, the connection stays), else it is due again when
 *       that read would have waited a timeout. A read cut off so fails with a {@link
 *       SocketTimeoutException}, as OkHttp's own timeout does. The stream's timeout belongs to that
 *       one stream: nothing carries over.
 * </ul>
 *
 * <p>The headers are read under OkHttp's own bounds.
 */
final class BodyReadTimeout {
  private BodyReadTimeout() {}

  /**
   * Hands the per-read timeout of a 2xx answer's body over, for an answer whose body is read now
   * and closed.
   *
   * @param call the call that answered, cancelled when an HTTP/2 body stalls
   * @param response the answer, its body not read yet
   * @return the answer to read: {@code response} itself, or over HTTP/2 an answer whose body is
   *     watched; closing it closes {@code response}'s body
   */
  static Response handOver(Call call, Response response) {
    ResponseBody body = response.body();
    if (body == null) {
      return response;
    }
    Protocol protocol = response.protocol();
    Timeout perRead = body.source().timeout();
    if (protocol == Protocol.HTTP_1_1 || protocol == Protocol.HTTP_1_0) {
      perRead.timeout(0, TimeUnit.NANOSECONDS);
      return response;
    }
    long timeoutNanos = perRead.timeoutNanos();
    if ((protocol != Protocol.HTTP_2 && protocol != Protocol.H2_PRIOR_KNOWLEDGE)
        || timeoutNanos == 0) {
      return response;
    }
    perRead.timeout(0, TimeUnit.NANOSECONDS);
    Stall stall = new Stall(call, timeoutNanos);
    ResponseBody watched =
        ResponseBody.create(
            Okio.buffer(stall.watch(body.source())), body.contentType(), body.contentLength());
    return response.newBuilder().body(watched).build();
  }

  /**
   * One body's stand-in for a per-read timeout: the reads note when they wait, one alarm at a time
   * looks at them. Thread safe: reads come from the reading thread, the alarm from Okio's watchdog.
   */
  static final class Stall {
    private static final long NOT_READING = Long.MIN_VALUE;

    private final Call call;
    private final long timeoutNanos;
    private final LongSupplier nanoTime;

    /** When the read under way started waiting, {@link #NOT_READING} between reads. */
    private volatile long readingSince = NOT_READING;

    private volatile boolean ended;
    private volatile boolean cutOff;
    private volatile Alarm alarm;

    Stall(Call call, long timeoutNanos) {
      this(call, timeoutNanos, System::nanoTime);
    }

    /**
     * @param nanoTime the clock the reads and the alarm's look go by ({@link System#nanoTime}); a
     *     test gives its own
     */
    Stall(Call call, long timeoutNanos, LongSupplier nanoTime) {
      this.call = call;
      this.timeoutNanos = timeoutNanos;
      this.nanoTime = nanoTime;
    }

    /** Watches the reads of {@code body} from now on; closing the result ends the watch. */
    Source watch(Source body) {
      arm(timeoutNanos);
      return new ForwardingSource(body) {
        @Override
        public long read(Buffer sink, long byteCount) throws IOException {
          readingSince = nanoTime.getAsLong();
          try {
            return super.read(sink, byteCount);
          } catch (IOException e) {
            if (cutOff) {
              SocketTimeoutException timedOut =
                  new SocketTimeoutException(
                      "no byte of the answer's body for "
                          + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                          + " ms");
              timedOut.initCause(e);
              throw timedOut;
            }
            throw e;
          } finally {
            readingSince = NOT_READING;
          }
        }

        @Override
        public void close() throws IOException {
          end();
          super.close();
        }
      };
    }

    private void end() {
      ended = true;
      Alarm current = alarm;
      if (current != null) {
        current.exit();
      }
    }

    private void arm(long inNanos) {
      Alarm next = new Alarm();
      next.timeout(inNanos, TimeUnit.NANOSECONDS);
      alarm = next;
      next.enter();
      if (ended) {
        // end() may have looked at the alarm before this one: take it off the queue here.
        next.exit();
      }
    }

    /**
     * The alarm's look at the reads: cuts the body off when the read under way has waited a
     * timeout.
     *
     * @return in how many nanoseconds to look again, 0 when the body was cut off or has ended
     */
    long look() {
      if (ended) {
        return 0;
      }
      long since = readingSince;
      long waited = since == NOT_READING ? 0 : nanoTime.getAsLong() - since;
      if (waited >= timeoutNanos) {
        cutOff = true;
        call.cancel();
        return 0;
      }
      return timeoutNanos - waited;
    }

    /** Due when a read would have waited a timeout, at the earliest. */
    private final class Alarm extends AsyncTimeout {
      @Override
      protected void timedOut() {
        long again = look();
        if (again > 0) {
          arm(again);
        }
      }
    }
  }
}
