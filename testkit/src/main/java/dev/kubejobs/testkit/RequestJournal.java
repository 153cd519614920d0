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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Every request that reached the fake API server, in arrival order, including requests answered by
 * a {@link Fault} or refused by RBAC; direct {@link ResourceStore} calls are not recorded.
 *
 * <pre>{@code
 * assertThat(server.journal().count("GET", "/api/v1/namespaces/ns/pods")).isEqualTo(1);
 * }</pre>
 *
 * <p>Thread safe.
 */
public final class RequestJournal {

  private final List<RecordedRequest> requests = new ArrayList<>();

  /** Creates an empty journal; servers create their own. */
  RequestJournal() {}

  /**
   * Counts the requests with this verb whose path (without query) matches the regular expression
   * completely.
   *
   * @param verb the HTTP method, or {@code "*"} for any
   * @param pathRegex a regular expression over the path, for example {@code
   *     "/apis/spark.apache.org/v1/namespaces/[^/]+/sparkapplications"}
   * @return the number of matching requests so far
   */
  public int count(String verb, String pathRegex) {
    return requests(verb, pathRegex).size();
  }

  /**
   * Returns the requests with this verb whose path (without query) matches the regular expression
   * completely, in arrival order.
   *
   * @param verb the HTTP method, or {@code "*"} for any
   * @param pathRegex a regular expression over the path
   * @return a snapshot of the matching requests
   */
  public List<RecordedRequest> requests(String verb, String pathRegex) {
    Pattern p = Pattern.compile(pathRegex);
    String v = verb.toUpperCase(Locale.ROOT);
    List<RecordedRequest> result = new ArrayList<>();
    for (RecordedRequest r : requests()) {
      if (("*".equals(v) || r.verb().equals(v)) && p.matcher(r.path()).matches()) {
        result.add(r);
      }
    }
    return result;
  }

  /**
   * Returns every recorded request, in arrival order.
   *
   * @return a snapshot of the journal
   */
  public synchronized List<RecordedRequest> requests() {
    return List.copyOf(requests);
  }

  /** Forgets every recorded request. */
  public synchronized void clear() {
    requests.clear();
  }

  /**
   * Records a request.
   *
   * @param request the request
   */
  synchronized void record(RecordedRequest request) {
    requests.add(request);
  }
}
