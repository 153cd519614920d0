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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Map;

/**
 * Converts an event between its {@code v1} and {@code events.k8s.io/v1} shapes, as kube-apiserver
 * does through its internal type (kubernetes/kubernetes {@code pkg/apis/events/v1/conversion.go}
 * and the generated conversions): {@code involvedObject} ↔ {@code regarding}, {@code message} ↔
 * {@code note}, {@code source} ↔ {@code deprecatedSource}, {@code firstTimestamp}/{@code
 * lastTimestamp}/{@code count} ↔ {@code deprecatedFirstTimestamp}/{@code
 * deprecatedLastTimestamp}/{@code deprecatedCount}, {@code reportingComponent} ↔ {@code
 * reportingController}; every other field keeps its name.
 */
final class EventShapes {

  /** Core field → events.k8s.io field. */
  private static final Map<String, String> RENAMED =
      Map.of(
          "involvedObject", "regarding",
          "message", "note",
          "source", "deprecatedSource",
          "firstTimestamp", "deprecatedFirstTimestamp",
          "lastTimestamp", "deprecatedLastTimestamp",
          "count", "deprecatedCount",
          "reportingComponent", "reportingController");

  private EventShapes() {}

  /**
   * The event in the shape of {@code type} ({@link ResourceType#EVENT} or the events.k8s.io one).
   */
  static JsonObject convert(JsonObject event, ResourceType type) {
    boolean toEventsGroup = type.equals(ResourceType.EVENTS_K8S_IO_EVENT);
    JsonObject out = new JsonObject();
    for (Map.Entry<String, JsonElement> e : event.entrySet()) {
      out.add(rename(e.getKey(), toEventsGroup), e.getValue());
    }
    out.addProperty("apiVersion", type.apiVersion());
    out.addProperty("kind", "Event");
    return out;
  }

  private static String rename(String field, boolean toEventsGroup) {
    if (toEventsGroup) {
      return RENAMED.getOrDefault(field, field);
    }
    for (Map.Entry<String, String> e : RENAMED.entrySet()) {
      if (e.getValue().equals(field)) {
        return e.getKey();
      }
    }
    return field;
  }
}
