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
package dev.kubejobs.testkit.operator;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** JSON reading helpers for the fake operator tests. */
final class OperatorTestSupport {

  static final String NS = "jobs";

  private OperatorTestSupport() {}

  static String str(JsonObject root, String... path) {
    JsonElement e = root;
    for (String key : path) {
      if (e == null || !e.isJsonObject()) {
        return null;
      }
      e = e.getAsJsonObject().get(key);
    }
    return e == null || e.isJsonNull() || !e.isJsonPrimitive() ? null : e.getAsString();
  }

  static JsonObject obj(JsonObject root, String... path) {
    JsonElement e = root;
    for (String key : path) {
      if (e == null || !e.isJsonObject()) {
        return null;
      }
      e = e.getAsJsonObject().get(key);
    }
    return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
  }

  static JsonObject app(FakeKubernetesApiServer server, FakeSparkOperator op, String name) {
    return server.store().get(op.resourceType(), NS, name).orElseThrow();
  }

  static Optional<JsonObject> pod(FakeKubernetesApiServer server, String name) {
    return server.store().get(ResourceType.POD, NS, name);
  }

  static List<String> finalizers(JsonObject o) {
    List<String> out = new ArrayList<>();
    JsonObject meta = o.getAsJsonObject("metadata");
    if (meta.has("finalizers")) {
      for (JsonElement f : meta.getAsJsonArray("finalizers")) {
        out.add(f.getAsString());
      }
    }
    return out;
  }

  /** Returns the history's states ordered by numeric key. */
  static List<String> historyInOrder(JsonObject history) {
    List<Long> keys = new ArrayList<>();
    history.keySet().forEach(k -> keys.add(Long.parseLong(k)));
    keys.sort(null);
    List<String> states = new ArrayList<>();
    for (Long k : keys) {
      states.add(str(history, String.valueOf(k), "currentStateSummary"));
    }
    return states;
  }

  static JsonObject container(JsonObject pod, String name) {
    JsonArray statuses = pod.getAsJsonObject("status").getAsJsonArray("containerStatuses");
    for (JsonElement c : statuses) {
      if (name.equals(c.getAsJsonObject().get("name").getAsString())) {
        return c.getAsJsonObject();
      }
    }
    throw new AssertionError("no container " + name + " in " + pod);
  }
}
