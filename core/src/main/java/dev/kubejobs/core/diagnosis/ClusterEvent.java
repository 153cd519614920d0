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
package dev.kubejobs.core.diagnosis;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One Kubernetes Event, read from either shape the cluster serves.
 *
 * <p>{@code core/v1} events carry {@code involvedObject}, {@code count}, {@code firstTimestamp} and
 * {@code lastTimestamp}. Events written through {@code events.k8s.io/v1} and read back through
 * {@code core/v1} have {@code firstTimestamp}/{@code lastTimestamp} null, the time in {@code
 * eventTime}, repeats in {@code series} ({@code count}, {@code lastObservedTime}) and an empty
 * {@code source}; read through {@code events.k8s.io/v1} they name the object {@code regarding} and
 * the message {@code note}. All of them read as the same value here.
 *
 * <p>Immutable and thread safe.
 */
public final class ClusterEvent {
  private final String namespace;
  private final String kind;
  private final String name;
  private final String uid;
  private final String type;
  private final String reason;
  private final String message;
  private final String reporter;
  private final int count;
  private final Instant firstSeen;
  private final Instant lastSeen;

  private ClusterEvent(
      String namespace,
      String kind,
      String name,
      String uid,
      String type,
      String reason,
      String message,
      String reporter,
      int count,
      Instant firstSeen,
      Instant lastSeen) {
    this.namespace = namespace;
    this.kind = kind;
    this.name = name;
    this.uid = uid;
    this.type = type;
    this.reason = reason;
    this.message = message;
    this.reporter = reporter;
    this.count = count;
    this.firstSeen = firstSeen;
    this.lastSeen = lastSeen;
  }

  /**
   * Reads an event object of either shape.
   *
   * @param event the event as JSON ({@code core/v1} or {@code events.k8s.io/v1})
   * @return the event
   * @throws NullPointerException if {@code event} is {@code null}
   */
  public static ClusterEvent of(JsonObject event) {
    Objects.requireNonNull(event, "event");
    JsonObject regarding = object(event, "involvedObject");
    if (regarding == null) {
      regarding = object(event, "regarding");
    }
    if (regarding == null) {
      regarding = new JsonObject();
    }
    JsonObject metadata = object(event, "metadata");
    String namespace = string(regarding, "namespace");
    if (namespace.isEmpty() && metadata != null) {
      namespace = string(metadata, "namespace");
    }
    String message = string(event, "message");
    if (message.isEmpty()) {
      message = string(event, "note");
    }
    JsonObject source = object(event, "source");
    String reporter = source == null ? "" : string(source, "component");
    if (reporter.isEmpty()) {
      reporter = string(event, "reportingComponent");
    }
    if (reporter.isEmpty()) {
      reporter = string(event, "reportingController");
    }
    JsonObject series = object(event, "series");
    int count = 0;
    if (series != null) {
      count = (int) number(series, "count");
    }
    if (count <= 0) {
      count = (int) number(event, "count");
    }
    if (count <= 0) {
      count = (int) number(event, "deprecatedCount");
    }
    if (count <= 0) {
      count = 1;
    }
    Instant first = time(event, "firstTimestamp");
    if (first == null) {
      first = time(event, "deprecatedFirstTimestamp");
    }
    if (first == null) {
      first = time(event, "eventTime");
    }
    if (first == null && metadata != null) {
      first = time(metadata, "creationTimestamp");
    }
    Instant last = series == null ? null : time(series, "lastObservedTime");
    if (last == null) {
      last = time(event, "lastTimestamp");
    }
    if (last == null) {
      last = time(event, "deprecatedLastTimestamp");
    }
    if (last == null) {
      last = time(event, "eventTime");
    }
    if (last == null) {
      last = first;
    }
    return new ClusterEvent(
        namespace,
        string(regarding, "kind"),
        string(regarding, "name"),
        string(regarding, "uid"),
        string(event, "type"),
        string(event, "reason"),
        message,
        reporter,
        count,
        first,
        last);
  }

  /**
   * Returns the namespace of the object the event is about.
   *
   * @return the namespace, empty when not written
   */
  public String namespace() {
    return namespace;
  }

  /**
   * Returns the kind of the object the event is about, e.g. {@code Pod}.
   *
   * @return the kind, empty when not written
   */
  public String kind() {
    return kind;
  }

  /**
   * Returns the name of the object the event is about.
   *
   * @return the name, empty when not written
   */
  public String name() {
    return name;
  }

  /**
   * Returns the uid of the object the event is about.
   *
   * @return the uid, empty when not written
   */
  public String uid() {
    return uid;
  }

  /**
   * Returns the type, {@code Normal} or {@code Warning}.
   *
   * @return the type, empty when not written
   */
  public String type() {
    return type;
  }

  /**
   * Returns the reason, e.g. {@code FailedScheduling}.
   *
   * @return the reason, empty when not written
   */
  public String reason() {
    return reason;
  }

  /**
   * Returns the message (or {@code note}) as written, not capped.
   *
   * @return the message, empty when not written
   */
  public String message() {
    return message;
  }

  /**
   * Returns the component that reported it ({@code source.component}, else {@code
   * reportingComponent}, else {@code reportingController}).
   *
   * @return the reporter, empty when not written
   */
  public String reporter() {
    return reporter;
  }

  /**
   * Returns how often the event was seen: {@code series.count}, else {@code count}, else 1.
   *
   * @return the count, at least 1
   */
  public int count() {
    return count;
  }

  /**
   * Returns when it was first seen: {@code firstTimestamp}, else {@code eventTime}.
   *
   * @return the time, empty when none was written
   */
  public Optional<Instant> firstSeen() {
    return Optional.ofNullable(firstSeen);
  }

  /**
   * Returns when it was last seen: {@code series.lastObservedTime}, else {@code lastTimestamp},
   * else {@code eventTime}.
   *
   * @return the time, empty when none was written
   */
  public Optional<Instant> lastSeen() {
    return Optional.ofNullable(lastSeen);
  }

  /**
   * Returns whether this event is about the given object.
   *
   * @param objectKind the kind, e.g. {@code Pod}
   * @param objectName the name
   * @param objectUid the uid, or {@code null}/empty to match any incarnation of the name
   * @return true when kind and name match, and the uids match where both are known
   */
  public boolean isAbout(String objectKind, String objectName, String objectUid) {
    if (!kind.equals(objectKind) || !name.equals(objectName)) {
      return false;
    }
    return objectUid == null || objectUid.isEmpty() || uid.isEmpty() || uid.equals(objectUid);
  }

  /**
   * Returns this event as evidence, its message capped.
   *
   * @return the evidence
   */
  public Evidence toEvidence() {
    return Evidence.builder(Evidence.Source.EVENT, kind + " " + namespace + "/" + name)
        .type(type)
        .reason(reason)
        .message(message)
        .count(count)
        .firstSeen(firstSeen)
        .lastSeen(lastSeen)
        .build();
  }

  @Override
  public String toString() {
    return toEvidence().toString();
  }

  private static JsonObject object(JsonObject o, String field) {
    JsonElement e = o.get(field);
    return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
  }

  private static String string(JsonObject o, String field) {
    JsonElement e = o.get(field);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : "";
  }

  private static long number(JsonObject o, String field) {
    JsonElement e = o.get(field);
    if (e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
      return e.getAsLong();
    }
    return 0;
  }

  private static Instant time(JsonObject o, String field) {
    String s = string(o, field);
    return s.isEmpty() ? null : ResourceSnapshot.parseTime(s).orElse(null);
  }
}
