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

import static dev.kubejobs.testkit.Kube.NS;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.kubejobs.testkit.fixtures.EventBuilder;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Events, served as kube-apiserver serves them: core {@code v1} events and {@code events.k8s.io/v1}
 * events are one storage in two shapes (kubernetes/kubernetes {@code
 * pkg/apis/events/v1/conversion.go}: {@code involvedObject} ↔ {@code regarding}, {@code message} ↔
 * {@code note}, {@code count} ↔ {@code deprecatedCount}), core events select on {@code
 * involvedObject.*}, {@code reason}, {@code type} ({@code pkg/registry/core/event/strategy.go}
 * {@code ToSelectableFields}), both are watched like any resource.
 */
class EventsTest {

  static final String CORE = "/api/v1/namespaces/" + NS + "/events";
  static final String EVENTS_GROUP = "/apis/events.k8s.io/v1/namespaces/" + NS + "/events";
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  @RegisterExtension
  static final FakeKubernetesExtension kube = FakeKubernetesExtension.builder().build();

  private static JsonObject pod(String name) {
    return kube.server()
        .store()
        .create(
            ResourceType.POD,
            NS,
            Kube.json(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                    + name
                    + "'},'spec':{'containers':[{'name':'c','image':'i'}]}}"));
  }

  private static void event(JsonObject about, String reason) {
    kube.server()
        .store()
        .create(
            ResourceType.EVENT,
            NS,
            EventBuilder.about(about)
                .named(
                    about.getAsJsonObject("metadata").get("name").getAsString()
                        + "."
                        + reason.toLowerCase(java.util.Locale.ROOT))
                .warning(reason, reason + " happened")
                .reportedBy("default-scheduler")
                .at(T0)
                .count(3)
                .build());
  }

  @Test
  void aCoreEventIsServedInTheEventsGroupShapeAndBack() throws IOException {
    JsonObject pod = pod("pi");
    event(pod, "FailedScheduling");

    JsonObject inGroup =
        Http.send(kube.server(), "GET", EVENTS_GROUP + "/pi.failedscheduling", null, null).json();
    Http.Answer created =
        Http.send(
            kube.server(),
            "POST",
            EVENTS_GROUP,
            "application/json",
            Kube.json(
                    "{'apiVersion':'events.k8s.io/v1','kind':'Event','metadata':{'name':'e2'},"
                        + "'regarding':{'kind':'Pod','name':'pi','namespace':'"
                        + NS
                        + "'},'note':'pulled','reason':'Pulled','type':'Normal',"
                        + "'reportingController':'kubelet','eventTime':'2026-03-01T10:00:00.000000Z',"
                        + "'reportingInstance':'node-1','action':'Pull'}")
                .toString());
    JsonObject inCore = Http.send(kube.server(), "GET", CORE + "/e2", null, null).json();

    assertThat(inGroup.get("apiVersion").getAsString()).isEqualTo("events.k8s.io/v1");
    assertThat(inGroup.getAsJsonObject("regarding").get("name").getAsString()).isEqualTo("pi");
    assertThat(inGroup.get("note").getAsString()).isEqualTo("FailedScheduling happened");
    assertThat(inGroup.get("deprecatedCount").getAsInt()).isEqualTo(3);
    assertThat(inGroup.get("reportingController").getAsString()).isEqualTo("default-scheduler");
    assertThat(inGroup.has("involvedObject")).isFalse();
    assertThat(created.code()).isEqualTo(201);
    assertThat(inCore.get("apiVersion").getAsString()).isEqualTo("v1");
    assertThat(inCore.getAsJsonObject("involvedObject").get("name").getAsString()).isEqualTo("pi");
    assertThat(inCore.get("message").getAsString()).isEqualTo("pulled");
    assertThat(inCore.get("reportingComponent").getAsString()).isEqualTo("kubelet");
  }

  @Test
  void coreEventsAreSelectedByTheirInvolvedObject() throws IOException {
    event(pod("pi"), "FailedScheduling");
    event(pod("other"), "FailedScheduling");

    JsonArray forPi =
        Http.send(
                kube.server(),
                "GET",
                CORE + "?fieldSelector=involvedObject.name%3Dpi,involvedObject.kind%3DPod",
                null,
                null)
            .json()
            .getAsJsonArray("items");
    Http.Answer unsupported =
        Http.send(kube.server(), "GET", CORE + "?fieldSelector=note%3Dx", null, null);

    assertThat(forPi).hasSize(1);
    assertThat(forPi.get(0).getAsJsonObject().has("kind")).isFalse();
    assertThat(unsupported.code()).isEqualTo(400);
  }

  @Test
  void aCoreWatchWithAFieldSelectorSeesAnEventWrittenInTheEventsGroup() throws IOException {
    try (RawWatch watch =
        RawWatch.open(kube.server(), CORE + "?watch=true&fieldSelector=involvedObject.name%3Dpi")) {
      kube.server()
          .store()
          .create(
              ResourceType.EVENTS_K8S_IO_EVENT,
              NS,
              Kube.json(
                  "{'metadata':{'name':'other.e'},'regarding':{'kind':'Pod','name':'other'},"
                      + "'note':'n','reason':'R','type':'Normal'}"));
      kube.server()
          .store()
          .create(
              ResourceType.EVENTS_K8S_IO_EVENT,
              NS,
              Kube.json(
                  "{'metadata':{'name':'pi.e'},'regarding':{'kind':'Pod','name':'pi'},"
                      + "'note':'n','reason':'R','type':'Normal'}"));

      JsonObject event = watch.next();

      assertThat(RawWatch.type(event) + " " + RawWatch.name(event)).isEqualTo("ADDED pi.e");
      assertThat(event.getAsJsonObject("object").get("message").getAsString()).isEqualTo("n");
    }
  }

  @Test
  void bothEventResourcesAreDiscoverable() throws IOException {
    JsonArray core =
        Http.send(kube.server(), "GET", "/api/v1", null, null).json().getAsJsonArray("resources");
    Http.Answer group = Http.send(kube.server(), "GET", "/apis/events.k8s.io/v1", null, null);

    assertThat(core.toString()).contains("\"name\":\"events\"", "\"shortNames\":[\"ev\"]");
    assertThat(core.toString()).doesNotContain("events/status");
    assertThat(group.code()).isEqualTo(200);
    assertThat(group.body()).contains("\"name\":\"events\"");
  }
}
