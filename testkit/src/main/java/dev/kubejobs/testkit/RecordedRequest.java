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

import java.time.Instant;

/**
 * One request that reached the fake API server, as kept by the {@link RequestJournal}.
 *
 * <p>Immutable and thread safe.
 *
 * @param verb the HTTP method, upper case
 * @param path the path, without the query string
 * @param query the raw query string without {@code ?}, or {@code ""} if there was none
 * @param time when it arrived, by the server's clock
 * @param contentType the request's {@code Content-Type} header, or {@code ""}
 * @param body the request body as text, or {@code ""}
 * @param clientId the id of the {@linkplain FakeKubernetesApiServer#newClient(String) client} that
 *     sent it, or {@code ""} for a client without one
 */
public record RecordedRequest(
    String verb,
    String path,
    String query,
    Instant time,
    String contentType,
    String body,
    String clientId) {

  /**
   * Creates a request recorded from a client without an id.
   *
   * @param verb the HTTP method, upper case
   * @param path the path, without the query string
   * @param query the raw query string without {@code ?}, or {@code ""}
   * @param time when it arrived
   * @param contentType the {@code Content-Type} header, or {@code ""}
   * @param body the request body, or {@code ""}
   */
  public RecordedRequest(
      String verb, String path, String query, Instant time, String contentType, String body) {
    this(verb, path, query, time, contentType, body, "");
  }

  /**
   * Returns the value of a query parameter, decoded, if the request had it.
   *
   * @param name the parameter's name, for example {@code labelSelector}
   * @return the first value, or null if absent
   */
  public String queryParameter(String name) {
    if (query.isEmpty()) {
      return null;
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      if (decode(key).equals(name)) {
        return eq < 0 ? "" : decode(pair.substring(eq + 1));
      }
    }
    return null;
  }

  /** Returns {@code VERB path?query}, followed by {@code from <clientId>} if the client had one. */
  @Override
  public String toString() {
    return verb
        + " "
        + path
        + (query.isEmpty() ? "" : "?" + query)
        + (clientId.isEmpty() ? "" : " from " + clientId);
  }

  private static String decode(String s) {
    return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
  }
}
