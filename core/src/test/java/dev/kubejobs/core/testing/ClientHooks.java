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
package dev.kubejobs.core.testing;

import dev.kubejobs.testkit.FakeKubernetesApiServer;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Scripts one node's own view of the API server, to interleave two nodes' steps deterministically:
 * run an action (another node's step, an operator's write) right before one of this client's
 * requests is sent, or lose this client's answers — without touching the other nodes' clients.
 * Thread safe.
 */
public final class ClientHooks {
  private final List<Rule> rules = new CopyOnWriteArrayList<>();

  /** What a rule does to a matching request. */
  private enum Kind {
    BEFORE,
    LOSE_ANSWER,
    NOT_SENT
  }

  private record Rule(
      String method,
      String pathRegex,
      AtomicInteger skip,
      AtomicInteger left,
      Kind kind,
      Runnable r) {
    Rule(String method, String pathRegex, AtomicInteger left, Kind kind, Runnable r) {
      this(method, pathRegex, new AtomicInteger(), left, kind, r);
    }

    boolean take(String m, String path) {
      if (!method.equals(m) || !path.matches(pathRegex)) {
        return false;
      }
      if (skip.getAndUpdate(n -> n > 0 ? n - 1 : n) > 0) {
        return false;
      }
      return left.getAndUpdate(n -> n > 0 ? n - 1 : n) > 0;
    }
  }

  /**
   * Runs {@code action} once, right before the first request of this client that matches.
   *
   * @param method the HTTP method
   * @param pathRegex a regex over the request path
   * @param action what happens on the server between this node's previous step and this request
   * @return this
   */
  public ClientHooks before(String method, String pathRegex, Runnable action) {
    rules.add(new Rule(method, pathRegex, new AtomicInteger(1), Kind.BEFORE, action));
    return this;
  }

  /**
   * Runs {@code action} once, right before the {@code nth} request of this client that matches.
   *
   * @param method the HTTP method
   * @param pathRegex a regex over the request path
   * @param nth which matching request, from 1
   * @param action what happens on the server between this node's previous step and this request
   * @return this
   */
  public ClientHooks before(String method, String pathRegex, int nth, Runnable action) {
    if (nth < 1) {
      throw new IllegalArgumentException("nth must be at least 1, but was " + nth);
    }
    rules.add(
        new Rule(
            method,
            pathRegex,
            new AtomicInteger(nth - 1),
            new AtomicInteger(1),
            Kind.BEFORE,
            action));
    return this;
  }

  /**
   * Lets the next {@code times} matching requests reach the server, then loses their answers.
   *
   * @param method the HTTP method
   * @param pathRegex a regex over the request path
   * @param times how many requests
   * @return this
   */
  public ClientHooks loseAnswer(String method, String pathRegex, int times) {
    rules.add(new Rule(method, pathRegex, new AtomicInteger(times), Kind.LOSE_ANSWER, null));
    return this;
  }

  /**
   * Fails the next {@code times} matching requests before they are sent (connection refused).
   *
   * @param method the HTTP method
   * @param pathRegex a regex over the request path
   * @param times how many requests
   * @return this
   */
  public ClientHooks notSent(String method, String pathRegex, int times) {
    rules.add(new Rule(method, pathRegex, new AtomicInteger(times), Kind.NOT_SENT, null));
    return this;
  }

  /**
   * Returns a new client of the server whose requests pass through these hooks.
   *
   * @param server the fake server
   * @return the client
   */
  public ApiClient client(FakeKubernetesApiServer server) {
    ApiClient client = server.newClient();
    client.setHttpClient(
        client.getHttpClient().newBuilder().addInterceptor(this::intercept).build());
    return client;
  }

  private Response intercept(Interceptor.Chain chain) throws IOException {
    String method = chain.request().method();
    String path = chain.request().url().encodedPath();
    boolean lose = false;
    for (Rule rule : rules) {
      if (rule.take(method, path)) {
        switch (rule.kind()) {
          case BEFORE -> rule.r().run();
          case LOSE_ANSWER -> lose = true;
          case NOT_SENT -> throw new ConnectException("refused by the test's hook: " + path);
        }
      }
    }
    Response response = chain.proceed(chain.request());
    if (lose) {
      response.close();
      throw new IOException("answer lost by the test's hook: " + method + " " + path);
    }
    return response;
  }
}
