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
package dev.kubejobs.core.spi;

import com.google.gson.JsonObject;
import dev.kubejobs.core.internal.kube.JsonTree;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A read-only copy of one Kubernetes object as the API server returned it (a SparkApplication or a
 * pod), with accessors for the metadata kubejobs reads.
 *
 * <p>Two ways to read it: {@link #json()}, {@link #status()} and {@link #spec()} return mutable
 * deep copies; {@link #view()} and the metadata accessors read in place, copying nothing, which is
 * what code that reads thousands of objects per poll (a status mapper) should use.
 *
 * <p>Instances are immutable and thread safe: the JSON is copied in (or, for objects the API
 * gateway parsed itself, handed over by it), never changed, and only copies or read-only views of
 * it are handed out. It is held in a compact form of its own, not as Gson trees: a status reader
 * parses every job that changed on every poll, and the copies handed out are built on demand.
 */
public final class ResourceSnapshot {
  private final JsonTree.Obj json;
  private final JsonTree.Obj metadata;
  private final JsonView view;

  /**
   * Keeps {@code json} itself: called by {@link #of} with a converted copy, and by the API gateway
   * (through {@code Snapshots}' private lookup, inside core's module) with the trees it parsed for
   * the snapshot alone.
   *
   * @throws IllegalArgumentException if the object has no {@code metadata} object
   */
  private ResourceSnapshot(JsonTree.Obj json) {
    this.json = json;
    this.metadata = json.object("metadata");
    if (metadata == null) {
      throw new IllegalArgumentException("an object must have a metadata object");
    }
    this.view = new JsonView(json);
  }

  /**
   * Returns a snapshot of the given object.
   *
   * @param object the object as JSON, with {@code metadata}
   * @return the snapshot, holding a deep copy of {@code object}
   * @throws IllegalArgumentException if the object has no {@code metadata} object
   */
  public static ResourceSnapshot of(JsonObject object) {
    Objects.requireNonNull(object, "object");
    if (!object.has("metadata") || !object.get("metadata").isJsonObject()) {
      throw new IllegalArgumentException("object must have a metadata object, but was " + object);
    }
    return new ResourceSnapshot(JsonTree.fromGson(object));
  }

  /**
   * Returns a copy of the whole object.
   *
   * @return a deep copy of the JSON
   */
  public JsonObject json() {
    return json.toGson();
  }

  /**
   * Returns a read-only view of the whole object, without copying it.
   *
   * @return the view of the object; for example {@code view().string("status", "phase")}
   */
  public JsonView view() {
    return view;
  }

  /**
   * Returns one annotation, without copying the others.
   *
   * @param key the annotation's key
   * @return its value, or empty when absent or not a string
   */
  public Optional<String> annotation(String key) {
    return metadataEntry("annotations", key);
  }

  /**
   * Returns one label, without copying the others.
   *
   * @param key the label's key
   * @return its value, or empty when absent or not a string
   */
  public Optional<String> label(String key) {
    return metadataEntry("labels", key);
  }

  /**
   * Returns a copy of the object's {@code status}, if it has one.
   *
   * @return the status object, or empty when the field is absent or not an object
   */
  public Optional<JsonObject> status() {
    JsonTree.Obj status = json.object("status");
    return status != null ? Optional.of(status.toGson()) : Optional.empty();
  }

  /**
   * Returns a copy of the object's {@code spec}, if it has one.
   *
   * @return the spec object, or empty
   */
  public Optional<JsonObject> spec() {
    JsonTree.Obj spec = json.object("spec");
    return spec != null ? Optional.of(spec.toGson()) : Optional.empty();
  }

  /**
   * Returns {@code metadata.name}.
   *
   * @return the name, or an empty string when absent
   */
  public String name() {
    return metadataString("name").orElse("");
  }

  /**
   * Returns {@code metadata.namespace}.
   *
   * @return the namespace, or an empty string when absent
   */
  public String namespace() {
    return metadataString("namespace").orElse("");
  }

  /**
   * Returns {@code metadata.uid}.
   *
   * @return the uid, or an empty string when absent
   */
  public String uid() {
    return metadataString("uid").orElse("");
  }

  /**
   * Returns {@code metadata.resourceVersion}.
   *
   * @return the resource version, or an empty string when absent
   */
  public String resourceVersion() {
    return metadataString("resourceVersion").orElse("");
  }

  /**
   * Returns {@code metadata.labels}.
   *
   * @return an unmodifiable map, empty when there are none
   */
  public Map<String, String> labels() {
    return stringMap("labels");
  }

  /**
   * Returns {@code metadata.annotations}.
   *
   * @return an unmodifiable map, empty when there are none
   */
  public Map<String, String> annotations() {
    return stringMap("annotations");
  }

  /**
   * Returns {@code metadata.finalizers}.
   *
   * @return an unmodifiable list, empty when there are none
   */
  public List<String> finalizers() {
    if (!(metadata.get("finalizers") instanceof JsonTree.Arr finalizers)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < finalizers.size(); i++) {
      String text = JsonTree.text(finalizers.get(i));
      if (text != null) {
        out.add(text);
      }
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * Returns {@code metadata.creationTimestamp}.
   *
   * @return the time, or empty when absent or not an RFC 3339 time
   */
  public Optional<Instant> creationTimestamp() {
    return metadataString("creationTimestamp").flatMap(ResourceSnapshot::parseTime);
  }

  /**
   * Returns {@code metadata.deletionTimestamp}: set once the object is being deleted.
   *
   * @return the time, or empty when the object is not being deleted
   */
  public Optional<Instant> deletionTimestamp() {
    return metadataString("deletionTimestamp").flatMap(ResourceSnapshot::parseTime);
  }

  /**
   * Returns whether the object is being deleted (it has a {@code deletionTimestamp}).
   *
   * @return true while the object waits for its finalizers
   */
  public boolean isBeingDeleted() {
    Object deletion = metadata.get("deletionTimestamp");
    return deletion != null && deletion != JsonTree.NULL;
  }

  /**
   * Parses an RFC 3339 time as written by Kubernetes.
   *
   * @param text the text, for example {@code 2026-01-02T03:04:05Z}
   * @return the instant, or empty when {@code text} is null or not a time
   */
  public static Optional<Instant> parseTime(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    Instant fast = parseSecondsUtc(text);
    if (fast != null) {
      return Optional.of(fast);
    }
    try {
      return Optional.of(java.time.OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /**
   * Parses the form Kubernetes writes, {@code yyyy-MM-ddTHH:mm:ssZ}, without a {@code
   * DateTimeFormatter} (a status mapper reads several times per job per poll); null for any other
   * form or an invalid date, which {@link #parseTime} then gives to the full parser.
   */
  private static Instant parseSecondsUtc(String t) {
    if (t.length() != 20
        || t.charAt(4) != '-'
        || t.charAt(7) != '-'
        || t.charAt(10) != 'T'
        || t.charAt(13) != ':'
        || t.charAt(16) != ':'
        || t.charAt(19) != 'Z') {
      return null;
    }
    int year = digits(t, 0, 4);
    int month = digits(t, 5, 2);
    int day = digits(t, 8, 2);
    int hour = digits(t, 11, 2);
    int minute = digits(t, 14, 2);
    int second = digits(t, 17, 2);
    if ((year | month | day | hour | minute | second) < 0) {
      return null;
    }
    try {
      return LocalDateTime.of(year, month, day, hour, minute, second).toInstant(ZoneOffset.UTC);
    } catch (DateTimeException outOfRange) {
      return null;
    }
  }

  /** The ASCII digits at {@code from}, or -1 if one is not a digit. */
  private static int digits(String t, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = t.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  private Optional<String> metadataString(String field) {
    return Optional.ofNullable(metadata.text(field));
  }

  private Optional<String> metadataEntry(String field, String key) {
    JsonTree.Obj map = metadata.object(field);
    return map == null ? Optional.empty() : Optional.ofNullable(map.text(key));
  }

  private Map<String, String> stringMap(String field) {
    JsonTree.Obj map = metadata.object(field);
    if (map == null) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < map.size(); i++) {
      String text = JsonTree.text(map.value(i));
      if (text != null) {
        out.put(map.name(i), text);
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /** Returns the object's namespace, name and resource version, never its content. */
  @Override
  public String toString() {
    return "ResourceSnapshot{" + namespace() + "/" + name() + "@" + resourceVersion() + "}";
  }
}
