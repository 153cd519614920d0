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

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What kube-apiserver fills in on the built-in kinds other than pods and events when a client
 * writes them: the defaults of kubernetes/kubernetes {@code pkg/apis/core/v1/defaults.go} ({@code
 * SetDefaults_Service}, {@code SetDefaults_ServicePort}, {@code SetDefaults_Secret}), a Service's
 * cluster IP (its registry allocates one from the service CIDR, {@code 10.96.0.0/12} by default),
 * and a Secret's {@code stringData} written into {@code data} ({@code Convert_v1_Secret_To_core_
 * Secret} in {@code pkg/apis/core/v1/conversion.go}). Thread safe.
 */
final class BuiltInDefaults {

  private final AtomicInteger nextClusterIp = new AtomicInteger(10);

  /** Fills in a new object of a client's create; the object is changed in place. */
  void onCreate(ResourceType type, JsonObject o) {
    if (type.equals(ResourceType.SERVICE)) {
      service(o);
    }
    onWrite(type, o);
  }

  /** Fills in an object a client writes (create, update or patch); changed in place. */
  static void onWrite(ResourceType type, JsonObject o) {
    if (type.equals(ResourceType.SECRET)) {
      secret(o);
    }
  }

  private void service(JsonObject o) {
    JsonObject spec = object(o, "spec");
    putIfAbsent(spec, "type", "ClusterIP");
    putIfAbsent(spec, "sessionAffinity", "None");
    String type = InMemoryStore.string(spec, "type");
    if (!"ExternalName".equals(type)) {
      String clusterIp = InMemoryStore.string(spec, "clusterIP");
      if (clusterIp == null || clusterIp.isEmpty()) {
        int n = nextClusterIp.getAndIncrement();
        clusterIp = "10.96." + (n / 254) % 256 + "." + (n % 254 + 1);
        spec.addProperty("clusterIP", clusterIp);
      }
      if (!spec.has("clusterIPs")) {
        JsonArray ips = new JsonArray();
        ips.add(clusterIp);
        spec.add("clusterIPs", ips);
      }
      putIfAbsent(spec, "internalTrafficPolicy", "Cluster");
      if (!spec.has("ipFamilies")) {
        JsonArray families = new JsonArray();
        families.add("IPv4");
        spec.add("ipFamilies", families);
      }
      putIfAbsent(spec, "ipFamilyPolicy", "SingleStack");
    }
    JsonElement ports = spec.get("ports");
    if (ports != null && ports.isJsonArray()) {
      for (JsonElement p : ports.getAsJsonArray()) {
        if (p.isJsonObject()) {
          JsonObject port = p.getAsJsonObject();
          putIfAbsent(port, "protocol", "TCP");
          if (!port.has("targetPort") && port.has("port")) {
            port.add("targetPort", port.get("port").deepCopy());
          }
        }
      }
    }
    JsonObject status = new JsonObject();
    status.add("loadBalancer", new JsonObject());
    o.add("status", status);
  }

  private static void secret(JsonObject o) {
    putIfAbsent(o, "type", "Opaque");
    JsonElement stringData = o.remove("stringData");
    if (stringData instanceof JsonObject strings && !strings.isEmpty()) {
      JsonObject data = object(o, "data");
      for (Map.Entry<String, JsonElement> e : strings.entrySet()) {
        String value = e.getValue().isJsonPrimitive() ? e.getValue().getAsString() : "";
        data.addProperty(
            e.getKey(), Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
      }
    }
  }

  private static JsonObject object(JsonObject o, String key) {
    if (o.get(key) instanceof JsonObject child) {
      return child;
    }
    JsonObject child = new JsonObject();
    o.add(key, child);
    return child;
  }

  private static void putIfAbsent(JsonObject o, String key, String value) {
    String current = InMemoryStore.string(o, key);
    if (current == null || current.isEmpty()) {
      o.addProperty(key, value);
    }
  }
}
