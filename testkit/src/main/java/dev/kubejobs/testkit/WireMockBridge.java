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

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WireMock extension that answers every request: it records it in the journal, applies a
 * matching fault, and otherwise asks the {@link ApiHandler}. Thread safe.
 */
final class WireMockBridge implements ResponseDefinitionTransformerV2 {

  private static final Logger LOG = LoggerFactory.getLogger(FakeKubernetesApiServer.class);

  private final ApiHandler handler;
  private final Faults faults;
  private final RequestJournal journal;
  private final Holds holds;
  private final Clock clock;

  WireMockBridge(
      ApiHandler handler, Faults faults, Holds holds, RequestJournal journal, Clock clock) {
    this.handler = handler;
    this.faults = faults;
    this.holds = holds;
    this.journal = journal;
    this.clock = clock;
  }

  @Override
  public String getName() {
    return "kubejobs-fake-kubernetes-api";
  }

  @Override
  public ResponseDefinition transform(ServeEvent serveEvent) {
    Request request = serveEvent.getRequest();
    String method = request.getMethod().getName().toUpperCase(Locale.ROOT);
    String url = request.getUrl();
    int q = url.indexOf('?');
    String path = q < 0 ? url : url.substring(0, q);
    String query = q < 0 ? "" : url.substring(q + 1);
    String contentType = request.getHeader("Content-Type");
    // A protobuf body is binary: kept byte for byte (one char per byte) for ProtobufReview.
    String body =
        contentType != null && contentType.startsWith(ProtobufReview.MEDIA_TYPE)
            ? new String(request.getBody(), java.nio.charset.StandardCharsets.ISO_8859_1)
            : request.getBodyAsString();
    String clientHeader = request.getHeader(FakeKubernetesApiServer.CLIENT_ID_HEADER);
    String clientId = clientHeader == null ? "" : clientHeader;
    String acceptHeader = request.getHeader("Accept");
    String accept = acceptHeader == null ? "" : acceptHeader;
    RecordedRequest recorded =
        new RecordedRequest(
            method,
            path,
            query,
            clock.instant(),
            contentType == null ? "" : contentType,
            body == null ? "" : body,
            clientId);
    journal.record(recorded);
    Hold hold = holds.take(method, path, clientId);
    if (hold == null) {
      return answer(method, path, query, url, contentType, body, clientId, accept);
    }
    LOG.debug("Holding {} {} for {}", method, path, hold);
    try {
      if (hold.stage() == Hold.Stage.BEFORE_APPLYING) {
        hold.block(recorded);
      }
      ResponseDefinition answer =
          answer(method, path, query, url, contentType, body, clientId, accept);
      if (hold.stage() == Hold.Stage.AFTER_APPLYING) {
        hold.block(recorded);
      }
      hold.answered(answer.getFault() != null ? 0 : answer.getStatus());
      return answer;
    } finally {
      holds.done(hold);
    }
  }

  private ResponseDefinition answer(
      String method,
      String path,
      String query,
      String url,
      String contentType,
      String body,
      String clientId,
      String accept) {
    Optional<Fault> fault = faults.take(method, path, clientId);
    if (fault.isPresent()) {
      LOG.debug("Answering {} {} with {}", method, path, fault.get());
    }
    if (fault.isPresent()) {
      switch (fault.get().kind()) {
        case CONNECTION_RESET:
          return fault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER);
        case EMPTY_RESPONSE:
          return fault(com.github.tomakehurst.wiremock.http.Fault.EMPTY_RESPONSE);
        default:
          ApiHandler.Answer instead = faultAnswer(fault.get());
          if (instead != null) {
            return definition(instead, false);
          }
          break;
      }
    }
    ApiHandler.Answer answer =
        handler.handle(
            new ApiHandler.Call(
                method,
                path,
                ApiHandler.parseQuery(query),
                contentType,
                body == null ? "" : body,
                accept));
    LOG.debug("{} {} -> {}", method, url, answer.status());
    if (fault.isPresent() && fault.get().kind() == Fault.Kind.APPLIED_THEN_LOST) {
      return fault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER);
    }
    ResponseDefinition response = definition(answer, true);
    if (fault.isPresent() && fault.get().kind() == Fault.Kind.DELAY) {
      return ResponseDefinitionBuilder.like(response)
          .withFixedDelay((int) fault.get().delay().toMillis())
          .build();
    }
    return response;
  }

  private static ResponseDefinition definition(ApiHandler.Answer answer, boolean noCache) {
    ResponseDefinitionBuilder response =
        new ResponseDefinitionBuilder().withStatus(answer.status()).withBody(answer.body());
    if (answer.contentType() != null) {
      response.withHeader("Content-Type", answer.contentType());
    }
    if (noCache) {
      response.withHeader("Cache-Control", "no-cache, private");
    }
    for (Map.Entry<String, String> h : answer.headers().entrySet()) {
      response.withHeader(h.getKey(), h.getValue().split("\n"));
    }
    return response.build();
  }

  /**
   * The answer a fault gives instead of the normal one, for the kinds that answer at all (not the
   * connection faults, {@link Fault.Kind#DELAY}, {@link Fault.Kind#APPLIED_THEN_LOST} or {@link
   * Fault.Kind#DROP_WATCH}, for which it is null). Shared with the watch stream handler.
   */
  static ApiHandler.Answer faultAnswer(Fault fault) {
    switch (fault.kind()) {
      case NON_JSON:
        return nonJson(fault.status());
      case STATUS:
      case TOO_MANY_REQUESTS:
        return status(fault);
      case TOO_MANY_REQUESTS_TEXT:
        return new ApiHandler.Answer(
            429,
            "text/plain; charset=utf-8",
            fault.message() + "\n",
            Map.of("X-Content-Type-Options", "nosniff", "Retry-After", fault.retryAfter()));
      case PLAIN_TEXT:
        return new ApiHandler.Answer(
            fault.status(),
            "text/plain; charset=utf-8",
            fault.message() + "\n",
            Map.of("X-Content-Type-Options", "nosniff"));
      case STATUS_WITHOUT_BODY:
        return new ApiHandler.Answer(fault.status(), null, "", Map.of());
      default:
        return null;
    }
  }

  private static ResponseDefinition fault(com.github.tomakehurst.wiremock.http.Fault fault) {
    return new ResponseDefinitionBuilder().withFault(fault).build();
  }

  private static ApiHandler.Answer nonJson(int status) {
    String title = status + (status == 200 ? " OK" : status == 502 ? " Bad Gateway" : " Error");
    String html =
        "<html>\r\n<head><title>"
            + title
            + "</title></head>\r\n<body>\r\n<center><h1>"
            + title
            + "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
    return new ApiHandler.Answer(status, "text/html", html, Map.of());
  }

  private static ApiHandler.Answer status(Fault fault) {
    com.google.gson.JsonObject details = new com.google.gson.JsonObject();
    if (fault.kind() == Fault.Kind.TOO_MANY_REQUESTS) {
      details.addProperty("retryAfterSeconds", fault.retryAfterSeconds());
    }
    return new ApiHandler.Answer(
        fault.status(),
        "application/json",
        ApiHandler.GSON.toJson(
            KubeStatus.failure(fault.status(), fault.reason(), fault.message(), details)),
        fault.kind() == Fault.Kind.TOO_MANY_REQUESTS
            ? Map.of("Retry-After", Integer.toString(fault.retryAfterSeconds()))
            : Map.of());
  }
}
