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
import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * Small writers of Gson trees; the mappers read through {@link dev.kubejobs.core.spi.JsonView}. Not
 * a published API.
 */
final class Json {
  private Json() {}

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
