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

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/** Shared fixtures for the fake server's tests. */
final class Kube {

  static final ResourceType SPARK_APP =
      new ResourceType("spark.apache.org", "v1", "sparkapplications", "SparkApplication");

  static final String NS = "jobs";

  private Kube() {}

  static DynamicKubernetesApi apps(ApiClient client) {
    return new DynamicKubernetesApi("spark.apache.org", "v1", "sparkapplications", client);
  }

  static DynamicKubernetesApi pods(ApiClient client) {
    return new DynamicKubernetesApi("", "v1", "pods", client);
  }

  static JsonObject json(String json) {
    return JsonParser.parseString(json.replace('\'', '"')).getAsJsonObject();
  }

  /** A SparkApplication named {@code name} in {@link #NS} with a label {@code app=name}. */
  static DynamicKubernetesObject app(String name) {
    return new DynamicKubernetesObject(appJson(name));
  }

  static JsonObject appJson(String name) {
    return json(
        "{'apiVersion':'spark.apache.org/v1','kind':'SparkApplication','metadata':{'name':'"
            + name
            + "','namespace':'"
            + NS
            + "','labels':{'app':'"
            + name
            + "'}},'spec':{'mainClass':'org.example.Pi','sparkVersion':'4.0.0'}}");
  }
}
