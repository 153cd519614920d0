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
package dev.kubejobs.spark.internal;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.kubejobs.core.ResourceSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Lenient readers and small writers for Gson trees. Not a published API. */
final class Json {
  private Json() {}

  /** Returns the child object at the path, or empty when absent or not an object. */
  static Optional<JsonObject> object(JsonObject root, String... path) {
    JsonElement e = at(root, path);
    return e != null && e.isJsonObject() ? Optional.of(e.getAsJsonObject()) : Optional.empty();
  }

  /** Returns the element at the path, or null. */
  static JsonElement at(JsonObject root, String... path) {
    JsonElement e = root;
    for (String p : path) {
      if (e == null || !e.isJsonObject()) {
        return null;
      }
      e = e.getAsJsonObject().get(p);
    }
    return e == null || e.isJsonNull() ? null : e;
  }

  /** Returns the string at the path, or empty when absent or not a JSON string. */
  static Optional<String> string(JsonObject root, String... path) {
    JsonElement e = at(root, path);
    return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString()
        ? Optional.of(e.getAsString())
        : Optional.empty();
  }

  /** Returns the number at the path as a long, or empty when absent or not a whole number. */
  static Optional<Long> number(JsonObject root, String... path) {
    JsonElement e = at(root, path);
    if (e == null || !e.isJsonPrimitive()) {
      return Optional.empty();
    }
    JsonPrimitive p = e.getAsJsonPrimitive();
    try {
      if (p.isNumber()) {
        return Optional.of(p.getAsBigDecimal().longValueExact());
      }
      if (p.isString()) {
        return Optional.of(Long.parseLong(p.getAsString().trim()));
      }
    } catch (ArithmeticException | NumberFormatException e2) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** Returns the RFC 3339 time at the path, or empty. */
  static Optional<Instant> time(JsonObject root, String... path) {
    return string(root, path).flatMap(ResourceSnapshot::parseTime);
  }

  /** Returns a JSON object of strings. */
  static JsonObject strings(Map<String, String> values) {
    JsonObject o = new JsonObject();
    values.forEach(o::addProperty);
    return o;
  }

  /** Returns a JSON array of strings. */
  static JsonArray array(List<String> values) {
    JsonArray a = new JsonArray();
    values.forEach(a::add);
    return a;
  }
}
