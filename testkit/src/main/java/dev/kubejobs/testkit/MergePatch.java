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
 * Applies JSON merge patches (RFC 7386). Not a published API.
 *
 * <p>Stateless and thread safe.
 */
final class MergePatch {

  private MergePatch() {}

  /**
   * Returns the result of merging {@code patch} into {@code target}, without changing either.
   *
   * @param target the document to patch, or null
   * @param patch the patch; {@code null} members delete keys, objects merge recursively, anything
   *     else replaces
   * @return the patched document
   */
  public static JsonElement apply(JsonElement target, JsonElement patch) {
    if (patch == null || !patch.isJsonObject()) {
      return patch == null ? null : patch.deepCopy();
    }
    JsonObject result =
        target != null && target.isJsonObject()
            ? target.getAsJsonObject().deepCopy()
            : new JsonObject();
    for (Map.Entry<String, JsonElement> e : patch.getAsJsonObject().entrySet()) {
      if (e.getValue().isJsonNull()) {
        result.remove(e.getKey());
      } else {
        result.add(e.getKey(), apply(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }
}
