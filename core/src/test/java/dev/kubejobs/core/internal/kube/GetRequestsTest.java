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

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import okhttp3.HttpUrl;
import okhttp3.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A GET built without {@code ApiClient.buildRequest} is the request {@code buildRequest} builds:
 * the same URL (base paths with and without a path, a trailing slash, IPv6 and international host
 * names; query values with every character a selector or continue token holds), the same headers
 * (the caller's defaults, user agent and bearer token) and no body.
 */
class GetRequestsTest {
  private static final String[] AUTH = {"BearerToken"};

  static Stream<Arguments> requests() {
    List<String> bases =
        List.of(
            "http://127.0.0.1:8080",
            "http://localhost:8080/",
            "https://api.example.com/k8s/clusters/c-1",
            "https://[::1]:6443/prefix/",
            "https://bücher.example");
    List<String> paths =
        List.of(
            "/apis/spark.apache.org/v1/namespaces/team-0/sparkapplications",
            "/api/v1/namespaces/etl/pods/job-1-driver/log");
    List<List<Pair>> queries =
        List.of(
            List.of(),
            List.of(
                new Pair(
                    "labelSelector",
                    "app.kubernetes.io/managed-by=kubejobs,kubejobs.dev/deployment in (a b),x!=é"),
                new Pair("limit", "500")),
            List.of(new Pair("continue", "eyJ2Ijoi+/=\"&?#%"), new Pair("skipped", null)));
    List<Arguments> out = new ArrayList<>();
    for (String base : bases) {
      for (String path : paths) {
        for (List<Pair> query : queries) {
          out.add(Arguments.of(base, path, query));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}{1} {2}")
  @MethodSource("requests")
  void aGetIsTheRequestBuildRequestBuilds(String base, String path, List<Pair> query)
      throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(base);
    client.setApiKeyPrefix("Bearer");
    client.setApiKey("t0ken");
    client.setUserAgent("kubejobs-test");
    client.addDefaultHeader("X-Default", "d");
    client.addDefaultCookie("c", "v");
    Map<String, String> headers = Map.of("Accept", "application/json");

    Request expected =
        client.buildRequest(
            null,
            path,
            "GET",
            new ArrayList<>(query),
            new ArrayList<>(),
            null,
            new HashMap<>(headers),
            new HashMap<>(),
            new HashMap<>(),
            AUTH,
            null);
    GetRequests gets = new GetRequests(client, AUTH);
    Request actual = gets.get(path, query, headers);

    assertThat(actual.url()).isEqualTo(expected.url());
    assertThat(actual.url().toString()).isEqualTo(expected.url().toString());
    assertThat(actual.method()).isEqualTo("GET");
    assertThat(actual.headers()).isEqualTo(expected.headers());
    assertThat(actual.header("Authorization")).isEqualTo("Bearer t0ken");
    assertThat(actual.body()).isNull();
    // A second request from the same builder (its base parsed already) is the same again.
    assertThat(gets.get(path, query, headers).url()).isEqualTo(expected.url());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("requests")
  void aChangedBasePathIsFollowed(String base, String path, List<Pair> query) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath("http://old.example:1");
    GetRequests gets = new GetRequests(client, AUTH);
    gets.get(path, query, Map.of());

    client.setBasePath(base);

    assertThat(gets.get(path, query, Map.of()).url())
        .isEqualTo(HttpUrl.get(client.buildUrl(null, path, query, List.of())));
  }

  /** A client whose authentication records the URI it is given and may add a query parameter. */
  private static final class RecordingClient extends ApiClient {
    final List<URI> uris = new ArrayList<>();
    String addedToken;

    @Override
    public void updateParamsForAuth(
        String[] authNames,
        List<Pair> queryParams,
        Map<String, String> headerParams,
        Map<String, String> cookieParams,
        String payload,
        String method,
        URI uri)
        throws ApiException {
      uris.add(uri);
      if (addedToken != null) {
        queryParams.add(new Pair("token", addedToken));
      }
      super.updateParamsForAuth(
          authNames, queryParams, headerParams, cookieParams, payload, method, uri);
    }
  }

  @ParameterizedTest(name = "{0}{1} {2}")
  @MethodSource("requests")
  void aKeptUrlGivesAuthenticationTheSameUri(String base, String path, List<Pair> query)
      throws Exception {
    RecordingClient client = new RecordingClient();
    client.setBasePath(base);
    GetRequests gets = new GetRequests(client, AUTH);

    Request first = gets.get(path, query, Map.of());
    Request second = gets.get(path, query, Map.of());

    assertThat(gets.keptUrls()).isEqualTo(1);
    assertThat(second.url()).isEqualTo(first.url());
    assertThat(client.uris).hasSize(2);
    assertThat(client.uris.get(0)).isEqualTo(first.url().uri());
    assertThat(client.uris.get(1)).isEqualTo(client.uris.get(0));
  }

  @Test
  void aParameterAddedByAuthenticationIsSentEachTimeAndNotKept() throws Exception {
    RecordingClient client = new RecordingClient();
    client.setBasePath("https://api.example.com");
    GetRequests gets = new GetRequests(client, AUTH);
    List<Pair> query = List.of(new Pair("limit", "500"));

    client.addedToken = "one";
    Request first = gets.get("/api/v1/pods", query, Map.of());
    client.addedToken = "two";
    Request second = gets.get("/api/v1/pods", query, Map.of());
    client.addedToken = null;
    Request third = gets.get("/api/v1/pods", query, Map.of());

    assertThat(first.url().query()).isEqualTo("limit=500&token=one");
    assertThat(second.url().query()).isEqualTo("limit=500&token=two");
    assertThat(third.url().query()).isEqualTo("limit=500");
  }

  @Test
  void urlsAreKeptUpToABoundAndQueriesAreToldApart() throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath("https://api.example.com");
    GetRequests gets = new GetRequests(client, AUTH);

    for (int i = 0; i <= GetRequests.KEPT_URLS + 10; i++) {
      Request r = gets.get("/api/v1/pods", List.of(new Pair("continue", "t" + i)), Map.of());
      assertThat(r.url().queryParameter("continue")).isEqualTo("t" + i);
      assertThat(gets.keptUrls()).isBetween(1, GetRequests.KEPT_URLS);
    }
    // The separator the key uses, inside a value: built each time, never mistaken for another.
    Request a = gets.get("/p", List.of(new Pair("a", "x\u0000b\u0000y")), Map.of());
    Request b = gets.get("/p", List.of(new Pair("a", "x"), new Pair("b", "y")), Map.of());
    assertThat(a.url().queryParameter("a")).isEqualTo("x\u0000b\u0000y");
    assertThat(b.url().queryParameter("a")).isEqualTo("x");
    assertThat(b.url().queryParameter("b")).isEqualTo("y");
  }
}
