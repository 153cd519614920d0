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
    String body = request.getBodyAsString();
    String clientHeader = request.getHeader(FakeKubernetesApiServer.CLIENT_ID_HEADER);
    String clientId = clientHeader == null ? "" : clientHeader;
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
      return answer(method, path, query, url, contentType, body, clientId);
    }
    LOG.debug("Holding {} {} for {}", method, path, hold);
    try {
      if (hold.stage() == Hold.Stage.BEFORE_APPLYING) {
        hold.block(recorded);
      }
      ResponseDefinition answer = answer(method, path, query, url, contentType, body, clientId);
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
      String clientId) {
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
        case NON_JSON:
          return nonJson(fault.get().status());
        case STATUS:
        case TOO_MANY_REQUESTS:
          return status(fault.get());
        case STATUS_WITHOUT_BODY:
          return new ResponseDefinitionBuilder().withStatus(fault.get().status()).build();
        default:
          break;
      }
    }
    ApiHandler.Answer answer =
        handler.handle(
            new ApiHandler.Call(
                method, path, ApiHandler.parseQuery(query), contentType, body == null ? "" : body));
    LOG.debug("{} {} -> {}", method, url, answer.status());
    if (fault.isPresent() && fault.get().kind() == Fault.Kind.APPLIED_THEN_LOST) {
      return fault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER);
    }
    ResponseDefinitionBuilder response =
        new ResponseDefinitionBuilder()
            .withStatus(answer.status())
            .withHeader("Content-Type", answer.contentType())
            .withHeader("Cache-Control", "no-cache, private")
            .withBody(answer.body());
    for (Map.Entry<String, String> h : answer.headers().entrySet()) {
      response.withHeader(h.getKey(), h.getValue());
    }
    if (fault.isPresent() && fault.get().kind() == Fault.Kind.DELAY) {
      response.withFixedDelay((int) fault.get().delay().toMillis());
    }
    return response.build();
  }

  private static ResponseDefinition fault(com.github.tomakehurst.wiremock.http.Fault fault) {
    return new ResponseDefinitionBuilder().withFault(fault).build();
  }

  private static ResponseDefinition nonJson(int status) {
    String title = status + (status == 200 ? " OK" : status == 502 ? " Bad Gateway" : " Error");
    String html =
        "<html>\r\n<head><title>"
            + title
            + "</title></head>\r\n<body>\r\n<center><h1>"
            + title
            + "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
    return new ResponseDefinitionBuilder()
        .withStatus(status)
        .withHeader("Content-Type", "text/html")
        .withBody(html)
        .build();
  }

  private static ResponseDefinition status(Fault fault) {
    com.google.gson.JsonObject details = new com.google.gson.JsonObject();
    if (fault.kind() == Fault.Kind.TOO_MANY_REQUESTS) {
      details.addProperty("retryAfterSeconds", fault.retryAfterSeconds());
    }
    ResponseDefinitionBuilder b =
        new ResponseDefinitionBuilder()
            .withStatus(fault.status())
            .withHeader("Content-Type", "application/json")
            .withBody(
                ApiHandler.GSON.toJson(
                    KubeStatus.failure(fault.status(), fault.reason(), fault.message(), details)));
    if (fault.kind() == Fault.Kind.TOO_MANY_REQUESTS) {
      b.withHeader("Retry-After", Integer.toString(fault.retryAfterSeconds()));
    }
    return b.build();
  }
}
