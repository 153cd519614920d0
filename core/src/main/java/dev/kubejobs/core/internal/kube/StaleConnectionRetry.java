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
import java.io.InterruptedIOException;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import okhttp3.Connection;
import okhttp3.Interceptor;
import okhttp3.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a GET again when it failed on a pooled connection before any answer came, as Go's {@code
 * http.Transport} does under client-go ({@code (*persistConn).shouldRetryRequest} in {@code
 * net/http/transport.go}: a connection used before may have been closed by the server while it was
 * idle; a failure on a fresh one is real).
 *
 * <p>Why: kube-apiserver closes a connection idle for 90 seconds ({@code IdleTimeout} in {@code
 * k8s.io/apiserver/pkg/server/secure_serving.go}); OkHttp keeps idle connections for 5 minutes and
 * checks a pooled connection's socket before reusing it only for requests other than GET. The
 * gateway turns off OkHttp's {@code retryOnConnectionFailure} so that no write is ever sent twice,
 * so without this each stale connection failed one GET as "could not be reached": after an idle
 * minute, a parallel read of 10 namespaces met 5 of them, and 5 such failures in a row open the
 * default circuit breaker.
 *
 * <p>Only GETs, only on a connection this gateway used before, only before the response's headers
 * (a failure while reading a body is the caller's), and not after a timeout or a cancel (a slow or
 * abandoned call, not a closed connection). OkHttp never hands out a connection that failed again,
 * so each attempt takes another connection; after {@value #MAX_ATTEMPTS} attempts the failure goes
 * to the caller. A connection first used by another client sharing the pool counts as fresh.
 *
 * <p>Not a published API. Thread safe.
 */
final class StaleConnectionRetry {
  private static final Logger LOG = LoggerFactory.getLogger(StaleConnectionRetry.class);
  private static final int MAX_ATTEMPTS = 16;

  /** Connections an exchange of this gateway has started on; weak, as OkHttp drops them. */
  private final Set<Connection> used =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  /** Where one attempt of a GET went: set by the network interceptor. */
  private static final class Attempt {
    volatile boolean reusedConnection;
  }

  /** The application interceptor: sends a GET again after a failure on a reused connection. */
  Interceptor resender() {
    return chain -> {
      Request request = chain.request();
      if (!"GET".equals(request.method())) {
        return chain.proceed(request);
      }
      for (int attempt = 1; ; attempt++) {
        Attempt where = new Attempt();
        try {
          return chain.proceed(request.newBuilder().tag(Attempt.class, where).build());
        } catch (IOException e) {
          if (!where.reusedConnection
              || e instanceof InterruptedIOException
              || chain.call().isCanceled()
              || attempt == MAX_ATTEMPTS) {
            throw e;
          }
          LOG.debug(
              "GET {} failed on a connection used before, which the server may have closed while"
                  + " it was idle ({}); sending it again",
              request.url().encodedPath(),
              e.toString());
        }
      }
    };
  }

  /** The network interceptor: tells each attempt whether its connection was used before. */
  Interceptor connectionWatcher() {
    return chain -> {
      Attempt where = chain.request().tag(Attempt.class);
      Connection connection = chain.connection();
      if (where != null && connection != null) {
        where.reusedConnection = !used.add(connection);
      }
      return chain.proceed(chain.request());
    };
  }
}
