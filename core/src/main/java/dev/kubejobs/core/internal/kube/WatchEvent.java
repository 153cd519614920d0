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
package dev.kubejobs.core.internal.kube;

import com.fasterxml.jackson.core.JsonParser;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One event of a watch stream, as kube-apiserver writes it ({@code
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go}, {@code HandleHTTP}: one {@code
 * {"type":...,"object":...}} JSON document per line).
 *
 * @param type what happened
 * @param object the object for {@link Type#ADDED}, {@link Type#MODIFIED} and {@link Type#DELETED}
 *     (for a removal its last state, carrying the removal's resourceVersion); null for {@link
 *     Type#BOOKMARK} and {@link Type#ERROR}
 * @param resourceVersion the resourceVersion the event brings the watch to; empty for {@link
 *     Type#ERROR}
 * @param error the {@code Status} of an {@link Type#ERROR} event, else null
 */
public record WatchEvent(
    Type type, ResourceSnapshot object, String resourceVersion, ErrorStatus error) {

  /** The event types of {@code k8s.io/apimachinery/pkg/watch}. */
  public enum Type {
    /** An object appeared (created, or started to match the selector). */
    ADDED,
    /** An object changed. */
    MODIFIED,
    /** An object was removed (or stopped matching the selector). */
    DELETED,
    /** Nothing changed for this watch up to {@link WatchEvent#resourceVersion()}. */
    BOOKMARK,
    /** The watch failed; the server ends the stream after it. */
    ERROR
  }

  /**
   * The {@code Status} an {@link Type#ERROR} event carries.
   *
   * @param code the HTTP-like code, for example 410 for a resourceVersion that is too old
   * @param reason the reason, for example {@code Expired}; empty when absent
   * @param message the server's message; empty when absent
   */
  public record ErrorStatus(int code, String reason, String message) {
    /**
     * Checks the parts.
     *
     * @param code the code
     * @param reason the reason, or null
     * @param message the message, or null
     */
    public ErrorStatus {
      reason = reason == null ? "" : reason;
      message = message == null ? "" : message;
    }

    /**
     * Returns whether the watch's resourceVersion is no longer served (410 {@code Expired}, or
     * {@code Gone} from servers before 1.18): the client must list again. client-go's {@code
     * isExpiredError} (tools/cache/reflector.go) accepts both reasons.
     *
     * @return whether a relist is needed
     */
    public boolean isExpired() {
      return code == 410 || "Expired".equals(reason) || "Gone".equals(reason);
    }
  }

  /**
   * Checks the parts.
   *
   * @param type the type
   * @param object the object, or null
   * @param resourceVersion the resourceVersion, or null
   * @param error the error status, or null
   */
  public WatchEvent {
    Objects.requireNonNull(type, "type");
    resourceVersion = resourceVersion == null ? "" : resourceVersion;
    if (type == Type.ERROR && error == null) {
      throw new IllegalArgumentException("an ERROR event must carry its status, but had none");
    }
  }

  /**
   * Parses one line of a watch stream.
   *
   * @param line one JSON document
   * @return the event, or null for an event type this version does not know (client-go's reflector
   *     skips those too)
   * @throws IllegalArgumentException when the line is not a watch event
   */
  static WatchEvent parse(String line) {
    return parse(line.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Parses one line of a watch stream, as its bytes (without the line's end).
   *
   * @param line one JSON document, UTF-8
   * @return the event, or null for an event type this version does not know
   * @throws IllegalArgumentException when the line is not a watch event
   */
  static WatchEvent parse(byte[] line) {
    JsonTree.Obj event;
    try (JsonParser parser = JsonBodies.parser(line)) {
      if (parser.nextToken() == null) {
        throw new IllegalArgumentException("a watch event must be JSON, but the line is empty");
      }
      Object value = JsonTree.read(parser);
      if (parser.nextToken() != null) {
        throw new IllegalArgumentException(
            "a watch event must be JSON: more than one JSON value on the line");
      }
      if (!(value instanceof JsonTree.Obj o)) {
        throw new IllegalArgumentException("a watch event must be a JSON object");
      }
      event = o;
    } catch (IOException | IllegalStateException e) {
      throw new IllegalArgumentException("a watch event must be JSON: " + e.getMessage(), e);
    }
    String typeName = event.text("type");
    JsonTree.Obj object = event.object("object");
    if (typeName == null || object == null) {
      throw new IllegalArgumentException("a watch event must have a 'type' and an 'object'");
    }
    Type type;
    try {
      type = Type.valueOf(typeName);
    } catch (IllegalArgumentException unknown) {
      return null;
    }
    if (type == Type.ERROR) {
      return new WatchEvent(
          type,
          null,
          "",
          new ErrorStatus(code(object.get("code")), object.text("reason"), object.text("message")));
    }
    JsonTree.Obj metadata = object.object("metadata");
    if (metadata == null) {
      throw new IllegalArgumentException("a " + typeName + " event's object has no metadata");
    }
    String rv = metadata.text("resourceVersion");
    if (type == Type.BOOKMARK) {
      return new WatchEvent(type, null, rv, null);
    }
    return new WatchEvent(type, Snapshots.adopt(object), rv, null); // parsed for it alone
  }

  /** An ERROR event's HTTP code: a JSON number's whole part, else 0. */
  private static int code(Object value) {
    if (!(value instanceof JsonTree.Num n)) {
      return 0;
    }
    try {
      return Integer.parseInt(n.text());
    } catch (NumberFormatException notPlain) {
      try {
        return new BigDecimal(n.text()).intValue();
      } catch (NumberFormatException notANumber) {
        return 0;
      }
    }
  }
}
