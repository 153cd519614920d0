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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.resilience.ApiCallFailure;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.spi.ResourceKind;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one send path of the gateway: every {@link KubeRequest} (JSON, watch and log alike) is built
 * by the caller's {@link ApiClient} (base path, authentication, default headers), sent on the
 * derived {@link OkHttpClient} under the {@link ResiliencePolicy}, and its failures are classified
 * by {@link KubeFailures} in one place. A 2xx answer is handed to a {@link BodyReader} inside the
 * policy (the answer is closed after it), or, for a watch, returned open by {@link #open} for
 * reading outside the policy (the stream itself is never retried and never counted by the breaker).
 *
 * <p>A request about a resource kind that is answered Go's plain-text {@code 404 page not found} is
 * checked against API discovery, which the real API server answers for a kind nothing serves; when
 * discovery does serve the kind, something in front of the API answered. The discovery request
 * names no kind, so the check never checks itself.
 *
 * <p>Thread safe.
 */
final class KubeTransport {
  private static final Logger LOG = LoggerFactory.getLogger(KubeTransport.class);
  private static final String[] AUTH_NAMES = {"BearerToken"};

  private final ApiClient client;
  private final OkHttpClient http;
  private final OkHttpClient streaming;
  private final ResiliencePolicy policy;
  private final KubeFailures failures;
  private final GetRequests gets;

  /** Reads a 2xx answer's body while it is open. */
  @FunctionalInterface
  interface BodyReader<T> {
    T read(Response response) throws IOException;
  }

  /**
   * A transport over the caller's client.
   *
   * @param client builds the requests; read, never modified
   * @param http sends them: derived from the caller's, with the gateway's timeouts
   * @param policy the policy every request runs under
   * @param clock turns a {@code Retry-After} date into a wait
   */
  KubeTransport(ApiClient client, OkHttpClient http, ResiliencePolicy policy, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.http = Objects.requireNonNull(http, "http");
    this.streaming =
        http.newBuilder().readTimeout(Duration.ZERO).callTimeout(Duration.ZERO).build();
    this.policy = Objects.requireNonNull(policy, "policy");
    this.failures = new KubeFailures(Objects.requireNonNull(clock, "clock"));
    this.gets = new GetRequests(client, AUTH_NAMES);
  }

  ResiliencePolicy policy() {
    return policy;
  }

  /**
   * Sends a request whose answer is one JSON object.
   *
   * @return the object, or empty when the answer is the verb's empty result ({@link
   *     KubeRequest.OnStatus#ABSENT})
   */
  Optional<JsonObject> json(KubeRequest request) {
    // The reader never returns null, so null here is the empty result alone.
    return Optional.ofNullable(
        exchange(request, response -> JsonBodies.requireObject(request, response), false));
  }

  /**
   * Sends a request whose answer is one JSON object, read into the compact form a snapshot holds.
   *
   * @return the object, or empty when the answer is the verb's empty result ({@link
   *     KubeRequest.OnStatus#ABSENT})
   */
  Optional<JsonTree.Obj> tree(KubeRequest request) {
    return Optional.ofNullable(
        exchange(
            request,
            response -> JsonBodies.requireBytes(request, response, JsonTree::readObject),
            false));
  }

  /**
   * Sends a request that has no empty result and reads its 2xx answer with {@code reader}, inside
   * the policy (a retried request is read again).
   *
   * @return what the reader returned
   * @throws IllegalArgumentException when the request asks for an empty result on 404
   */
  <T> T send(KubeRequest request, BodyReader<T> reader) {
    requireNoEmptyResult(request);
    return exchange(request, reader, false);
  }

  /**
   * Sends a request that has no empty result and returns its 2xx answer open, for the caller to
   * read (and close) outside the policy: a watch.
   *
   * @return the open answer
   * @throws IllegalArgumentException when the request asks for an empty result on 404
   */
  Response open(KubeRequest request) {
    requireNoEmptyResult(request);
    return exchange(request, response -> response, true);
  }

  private static void requireNoEmptyResult(KubeRequest request) {
    if (request.onNotFound() == KubeRequest.OnStatus.ABSENT) {
      throw new IllegalArgumentException(
          "a request read by a body reader or opened must not treat a 404 as absent, but was "
              + request);
    }
  }

  /** Sends under the policy and classifies: null when the answer is the verb's empty result. */
  private <T> T exchange(KubeRequest request, BodyReader<T> reader, boolean keepOpen) {
    try {
      return policy.execute(
          request.op(), request.retryable(), () -> attempt(request, reader, keepOpen));
    } catch (ApiCallFailure f) {
      throw KubeFailures.unavailable(request.about(), f);
    } catch (ApiStatusException e) {
      if (e.isPlainTextPageNotFound() && request.confirmsPlainNotFound()) {
        confirmNotServed(request, e);
      }
      if (KubeFailures.isAbsent(request, e)) {
        return null;
      }
      throw failures.interpret(request, e);
    } catch (ApiUnavailableException e) {
      if (request.about() != null && e.executionId().isEmpty()) {
        // The policy refused to send (circuit open): name the job.
        throw new ApiUnavailableException(
            request.about(), e.getMessage(), e.mayHaveBeenApplied(), e.getCause());
      }
      throw e;
    }
  }

  /** One attempt: build, send, classify; a 2xx answer goes to the reader. */
  private <T> T attempt(KubeRequest request, BodyReader<T> reader, boolean keepOpen) {
    Request built = build(request);
    Call call = clientFor(request).newCall(built);
    if (request.handle() != null) {
      request.handle().attach(call);
    }
    LOG.debug("Sending '{}'", request.op());
    Response response = null;
    boolean handedOver = false;
    try {
      response = call.execute();
      if (response.code() >= 200 && response.code() < 300) {
        if (!keepOpen) {
          response = BodyReadTimeout.handOver(call, response);
        }
        T value = reader.read(response);
        handedOver = keepOpen;
        return value;
      }
      ResponseBody body = response.body();
      throw failures.refused(request, response, body == null ? new byte[0] : body.bytes());
    } catch (IOException e) {
      throw failures.noAnswer(request, e);
    } finally {
      if (response != null && !handedOver) {
        response.close();
      }
    }
  }

  private OkHttpClient clientFor(KubeRequest request) {
    Duration readTimeout = request.readTimeout();
    if (readTimeout == null) {
      return http;
    }
    return readTimeout.isZero() ? streaming : http.newBuilder().readTimeout(readTimeout).build();
  }

  private Request build(KubeRequest request) {
    Map<String, String> headers = new HashMap<>();
    headers.put("Accept", request.accept());
    if (request.contentType() != null) {
      headers.put("Content-Type", request.contentType());
    }
    try {
      if (request.body() == null && request.method().equals("GET")) {
        return gets.get(request.path(), request.query(), headers);
      }
      Request write =
          client.buildRequest(
              null,
              request.path(),
              request.method(),
              new ArrayList<>(request.query()),
              new ArrayList<>(),
              request.body(),
              headers,
              new HashMap<>(),
              new HashMap<>(),
              AUTH_NAMES,
              null);
      return write.newBuilder().method(write.method(), OneShotBody.of(write.body())).build();
    } catch (ApiException | RuntimeException e) {
      // For example a base path that is not a URL: a configuration error of the ApiClient.
      throw new ApiUnavailableException(
          request.about(),
          "could not build the request '"
              + request.op()
              + "' from the ApiClient (check its base path and authentication): "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Lists the resources a group version serves (API discovery).
   *
   * @return the plural names, subresources included, or empty when the group version is not served
   *     (404)
   */
  Optional<List<String>> served(String group, String version) {
    String path =
        group == null || group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    KubeRequest request =
        KubeRequest.builder("discover " + path, "GET", path)
            .onNotFound(KubeRequest.OnStatus.ABSENT)
            .build();
    return json(request).map(KubeTransport::resourceNames);
  }

  private static List<String> resourceNames(JsonObject answer) {
    List<String> names = new ArrayList<>();
    JsonElement resources = answer.get("resources");
    if (resources != null && resources.isJsonArray()) {
      for (JsonElement r : resources.getAsJsonArray()) {
        if (r.isJsonObject()) {
          String name = JsonBodies.string(r.getAsJsonObject(), "name");
          if (name != null) {
            names.add(name);
          }
        }
      }
    }
    return List.copyOf(names);
  }

  /**
   * Decides what a plain-text {@code 404 page not found} means with API discovery: returns when
   * discovery does not serve the kind either (the 404 stands, as "not served"), throws when it
   * does.
   *
   * @throws ApiUnavailableException when discovery serves the kind: something else (a proxy)
   *     answered
   */
  private void confirmNotServed(KubeRequest request, ApiStatusException e) {
    ResourceKind kind = request.kind();
    Optional<List<String>> served = served(kind.group(), kind.version());
    if (served.isPresent() && served.get().contains(kind.plural())) {
      throw new ApiUnavailableException(
          request.about(),
          "'"
              + request.op()
              + "' got a plain-text 404 page although API discovery serves '"
              + kind.plural()
              + "': something in front of the Kubernetes API answered; check the ApiClient's base"
              + " path and the proxy in between",
          e);
    }
  }

  /**
   * A write's body that OkHttp may send only once. OkHttp's own retry ({@code
   * retryOnConnectionFailure}, on in the gateway's client) sends a request again after a failure on
   * a connection that served an exchange before (one the server may have closed while it was idle,
   * as kube-apiserver does after 90 s: {@code IdleTimeout} in {@code
   * k8s.io/apiserver/pkg/server/secure_serving.go}), but never one whose body is one-shot and whose
   * sending began: a POST, PATCH or DELETE that may have reached the server is the resilience
   * policy's to send again, never the connection's. A GET has no body and is sent again.
   */
  private static final class OneShotBody extends RequestBody {
    private final RequestBody body;

    private OneShotBody(RequestBody body) {
      this.body = body;
    }

    /** The one-shot form of a write's body; an empty one for a DELETE that has none. */
    static RequestBody of(RequestBody body) {
      return new OneShotBody(body == null ? RequestBody.create(new byte[0]) : body);
    }

    @Override
    public MediaType contentType() {
      return body.contentType();
    }

    @Override
    public long contentLength() throws IOException {
      return body.contentLength();
    }

    @Override
    public void writeTo(BufferedSink sink) throws IOException {
      body.writeTo(sink);
    }

    @Override
    public boolean isOneShot() {
      return true;
    }
  }
}
