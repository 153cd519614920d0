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

import dev.kubejobs.core.ApiUnavailableException;
import java.io.IOException;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an open watch answer: the newline-delimited JSON stream of events, each handed to the
 * {@link WatchHandler} as it arrives, on the calling thread, until the server ends the stream.
 * Blank lines are skipped, an event of a type this version does not know is skipped and logged, a
 * line that is not an event ends the watch as an {@link ApiUnavailableException}, and so does a
 * stream that broke off. Stateless.
 */
final class WatchStream {
  private static final Logger LOG = LoggerFactory.getLogger(WatchStream.class);

  private WatchStream() {}

  /** Reads the stream of an open 2xx answer to its end; the caller closes the answer. */
  static void read(String op, Response response, WatchHandler handler) {
    ResponseBody body = response.body();
    if (body == null) {
      return;
    }
    try (BufferedSource source = body.source()) {
      while (!source.exhausted()) {
        long end = source.indexOf((byte) '\n');
        byte[] line = end < 0 ? source.readByteArray() : source.readByteArray(end);
        if (end >= 0) {
          source.skip(1);
        }
        if (isBlank(line)) {
          continue;
        }
        WatchEvent event;
        try {
          event = WatchEvent.parse(line);
        } catch (IllegalArgumentException e) {
          throw new ApiUnavailableException(
              null,
              "'"
                  + op
                  + "' got a line that is not a watch event ("
                  + e.getMessage()
                  + "); is the base path a Kubernetes API?",
              e);
        }
        if (event == null) {
          LOG.debug("'{}' skipped an event of a type this version does not know", op);
          continue;
        }
        handler.onEvent(event);
      }
      LOG.debug("'{}' ended: the server closed the stream", op);
    } catch (IOException e) {
      throw new ApiUnavailableException(
          null,
          "'" + op + "' broke off: " + e + "; watch again from the last resourceVersion seen",
          e);
    }
  }

  /** Whether a line holds nothing but blanks (a carriage return of a CRLF end included). */
  private static boolean isBlank(byte[] line) {
    for (byte b : line) {
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }
}
