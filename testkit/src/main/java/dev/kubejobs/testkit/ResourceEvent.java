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

/**
 * One change of an object in the fake API server, as told to a {@link ResourceListener}.
 *
 * <p>The object is the listener's own copy; the event is otherwise immutable and thread safe.
 *
 * @param kind what happened
 * @param type the object's resource type
 * @param object a copy of the object after the change (for {@link Kind#DELETED}, its last state)
 */
public record ResourceEvent(Kind kind, ResourceType type, JsonObject object) {

  /** What happened to the object. */
  public enum Kind {
    /** The object was created. */
    ADDED,
    /** The object was changed, including getting a {@code deletionTimestamp}. */
    MODIFIED,
    /** The object was removed from the store. */
    DELETED
  }

  /**
   * Returns the object's namespace.
   *
   * @return {@code metadata.namespace}
   */
  public String namespace() {
    return object.getAsJsonObject("metadata").get("namespace").getAsString();
  }

  /**
   * Returns the object's name.
   *
   * @return {@code metadata.name}
   */
  public String name() {
    return object.getAsJsonObject("metadata").get("name").getAsString();
  }
}
