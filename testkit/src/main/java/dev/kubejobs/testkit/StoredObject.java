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
import com.google.gson.JsonParser;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One object as the store holds it: its JSON, written once per resourceVersion (as etcd keeps one
 * serialized value per revision), and the few fields the store reads without parsing it. A list
 * page or a watch event copies the JSON as it is; reads that need the object parse a fresh tree
 * that the caller owns. An ASCII string keeps one byte per character, so an object costs about its
 * JSON's size, where a Gson tree of it costs several times that. Immutable, so the store, paged
 * lists' snapshots and the watch history share one instance.
 */
final class StoredObject {

  private final String json;
  private final String apiVersion;
  private final String namespace;
  private final String name;
  private final List<String> ownerUids;
  private final Map<String, String> labels;

  private StoredObject(
      String json,
      String apiVersion,
      String namespace,
      String name,
      List<String> ownerUids,
      Map<String, String> labels) {
    this.json = json;
    this.apiVersion = apiVersion;
    this.namespace = namespace;
    this.name = name;
    this.ownerUids = ownerUids;
    this.labels = labels;
  }

  /** Writes an object down; later changes to {@code o} do not reach the stored one. */
  static StoredObject of(JsonObject o) {
    JsonObject meta = InMemoryStore.metadata(o);
    List<String> owners = List.of();
    JsonElement refs = meta.get("ownerReferences");
    if (refs != null && refs.isJsonArray()) {
      owners =
          refs.getAsJsonArray().asList().stream()
              .filter(JsonElement::isJsonObject)
              .map(r -> InMemoryStore.string(r.getAsJsonObject(), "uid"))
              .filter(java.util.Objects::nonNull)
              .toList();
    }
    String apiVersion = InMemoryStore.string(o, "apiVersion");
    // Label keys repeat across objects: one string each. Every list kubejobs sends selects by
    // label, so the labels are kept read (the versions of a resource share its labels).
    Map<String, String> labels = new HashMap<>();
    InMemoryStore.labels(o).forEach((k, v) -> labels.put(k.intern(), v));
    return new StoredObject(
        ApiHandler.GSON.toJson(o),
        apiVersion == null ? null : apiVersion.intern(),
        InMemoryStore.string(meta, "namespace"),
        InMemoryStore.string(meta, "name"),
        owners,
        Map.copyOf(labels));
  }

  /** A new tree of the object, the caller's own. */
  JsonObject object() {
    return JsonParser.parseString(json).getAsJsonObject();
  }

  /** The object as served at a type's version: a new tree, the caller's own. */
  JsonObject objectAt(ResourceType type) {
    return InMemoryStore.atVersion(object(), type);
  }

  /** The JSON of the object as served at a type's version, written once when it is its own. */
  String jsonAt(ResourceType type) {
    return type.apiVersion().equals(apiVersion) ? json : ApiHandler.GSON.toJson(objectAt(type));
  }

  String apiVersion() {
    return apiVersion;
  }

  String namespace() {
    return namespace;
  }

  String name() {
    return name;
  }

  /** The object's labels, the caller's to read, not to change. */
  Map<String, String> labels() {
    return labels;
  }

  /** The uids the object's ownerReferences name. */
  List<String> ownerUids() {
    return ownerUids;
  }

  /** Whether the object's JSON holds this text (a cheap filter before parsing it). */
  boolean mentions(String text) {
    return json.contains(text);
  }

  /** Whether an ownerReference of the object names this uid. */
  boolean ownedBy(String uid) {
    return ownerUids.contains(uid);
  }
}
