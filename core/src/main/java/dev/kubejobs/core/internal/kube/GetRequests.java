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

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * Builds a GET without a body as the caller's {@code ApiClient.buildRequest} builds it — the same
 * URL, the same default headers, cookies and authentication (applied by the client's own {@code
 * updateParamsForAuth}) — without parsing the whole URL text twice per request: the base URL is
 * parsed once and each request's path and query are added to a copy of it. A status poll sends a
 * LIST per namespace per cache period, and {@code buildRequest} (two {@code buildUrl}s, a {@code
 * URI} and an {@code HttpUrl} parsed from text, host name canonicalization included) cost a tenth
 * of such a poll's client CPU. The URLs last built (and the {@code URI} authentication is given)
 * are kept, up to {@link #KEPT_URLS}: a poll lists the same namespaces with the same query every
 * cache period, and re-encoding a URL for its {@code URI} still cost a twelfth of it. {@code
 * GetRequestsTest} checks the requests against {@code buildRequest}'s. Thread safe.
 */
final class GetRequests {
  private final ApiClient client;
  private final String[] authNames;

  /** How many built URLs are kept per base URL; all are dropped when more are built. */
  static final int KEPT_URLS = 1024;

  /** The last base URL text seen, its parse and the URLs built on it; replaced together. */
  private volatile Base base;

  private record Base(
      String text, HttpUrl url, String pathPrefix, ConcurrentHashMap<String, Built> built) {}

  /** A URL built for a path and query, and its {@code URI}. */
  private record Built(HttpUrl url, URI uri) {}

  GetRequests(ApiClient client, String[] authNames) {
    this.client = client;
    this.authNames = authNames.clone();
  }

  /**
   * Builds the GET.
   *
   * @param path the path below the base URL, starting with '/'
   * @param query the query parameters, in order (a null value is left out, as buildUrl does)
   * @param headers the request's own headers; the client's defaults are added after them
   * @return the request
   * @throws ApiException when the client's authentication refuses to apply
   * @throws IllegalArgumentException when the client's base path is not an HTTP URL
   */
  Request get(String path, List<Pair> query, Map<String, String> headers) throws ApiException {
    Base b = base();
    List<Pair> params = new ArrayList<>(query);
    Map<String, String> headerParams = new HashMap<>(headers);
    Map<String, String> cookies = new HashMap<>();
    Built built = built(b, path, query);
    HttpUrl url = built.url();
    client.updateParamsForAuth(authNames, params, headerParams, cookies, "", "GET", built.uri());
    if (params.size() != query.size()) {
      url = url(b, path, params); // the authentication added a query parameter
    }
    Request.Builder request = new Request.Builder().url(url);
    client.processHeaderParams(headerParams, request);
    client.processCookieParams(cookies, request);
    return request.get().build();
  }

  private Base base() {
    // What buildUrl puts before a path: the base path, or the selected server's URL.
    String text = client.buildUrl(null, "", List.of(), List.of());
    Base b = base;
    if (b == null || !b.text().equals(text)) {
      HttpUrl url = HttpUrl.get(text);
      // buildUrl appends the path to the text: a base without a path adds none.
      int authorityEnd = text.indexOf('/', text.indexOf("//") + 2);
      String prefix = authorityEnd < 0 ? "" : url.encodedPath();
      b = new Base(text, url, prefix, new ConcurrentHashMap<>());
      base = b;
    }
    return b;
  }

  /** The URL for a path and query on the base, built once while kept. */
  private Built built(Base b, String path, List<Pair> query) {
    StringBuilder key = new StringBuilder(path.length() + 64).append(path);
    for (Pair p : query) {
      if (p.getValue() != null) {
        // A name or value holding '\u0000' cannot be told apart here: built afresh, not kept.
        key.append('\u0000').append(p.getName()).append('\u0000').append(p.getValue());
      }
    }
    String k = key.toString();
    Built kept = b.built().get(k);
    if (kept != null) {
      return kept;
    }
    HttpUrl url = url(b, path, query);
    Built made = new Built(url, url.uri());
    if (noSeparator(query)) {
      if (b.built().size() >= KEPT_URLS) {
        b.built().clear();
      }
      b.built().put(k, made);
    }
    return made;
  }

  private static boolean noSeparator(List<Pair> query) {
    for (Pair p : query) {
      if (p.getValue() != null
          && (p.getName().indexOf('\u0000') >= 0 || p.getValue().indexOf('\u0000') >= 0)) {
        return false;
      }
    }
    return true;
  }

  /** The number of URLs kept (for tests). */
  int keptUrls() {
    Base b = base;
    return b == null ? 0 : b.built().size();
  }

  private HttpUrl url(Base b, String path, List<Pair> params) {
    HttpUrl.Builder url = b.url().newBuilder().encodedPath(b.pathPrefix() + path);
    for (Pair p : params) {
      if (p.getValue() != null) {
        url.addEncodedQueryParameter(
            client.escapeString(p.getName()), client.escapeString(p.getValue()));
      }
    }
    return url.build();
  }
}
