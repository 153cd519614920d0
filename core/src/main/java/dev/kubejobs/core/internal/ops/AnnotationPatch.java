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
package dev.kubejobs.core.internal.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

/**
 * The merge patches that put and remove kubejobs' marks (the cancel mark, the end mark), each
 * locked to the resourceVersion of the copy it was decided on: the API server answers 409 when the
 * resource changed since ({@code Store.Update} in {@code
 * staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go}: "the object has been
 * modified"). Not a published API.
 */
final class AnnotationPatch {
  private AnnotationPatch() {}

  /** Puts {@code annotation} = {@code value}, locked to {@code resourceVersion}. */
  static JsonObject put(String resourceVersion, String annotation, String value) {
    return locked(resourceVersion, annotation, new JsonPrimitive(value));
  }

  /** Removes {@code annotation} (a merge patch's null), locked to {@code resourceVersion}. */
  static JsonObject remove(String resourceVersion, String annotation) {
    return locked(resourceVersion, annotation, JsonNull.INSTANCE);
  }

  private static JsonObject locked(String resourceVersion, String annotation, JsonElement value) {
    JsonObject annotations = new JsonObject();
    annotations.add(annotation, value);
    JsonObject metadata = new JsonObject();
    metadata.addProperty("resourceVersion", resourceVersion);
    metadata.add("annotations", annotations);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    return patch;
  }
}
