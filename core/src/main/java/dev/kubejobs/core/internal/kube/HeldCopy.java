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

import java.util.Map;

/**
 * What a reader holds of one copy of an object, handed down with a list so that the list skips that
 * copy unbuilt when the server lists it again unchanged: its uid and resourceVersion, which the API
 * server changes on every write. Plain data: a list reads these two values and calls nothing else
 * of its holder. Not a published API.
 */
public interface HeldCopy {
  /**
   * Returns the copy's uid.
   *
   * @return the uid
   */
  String uid();

  /**
   * Returns the copy's resourceVersion; empty when it had none (never the same copy then).
   *
   * @return the resourceVersion
   */
  String resourceVersion();

  /**
   * Whether an object with this metadata is a copy held: the same name, the same uid and the same
   * non-empty resourceVersion.
   *
   * @param held the copies held, by name
   * @param metadata the object's metadata
   * @return whether it is held already
   */
  static boolean isHeld(Map<String, ? extends HeldCopy> held, JsonTree.Obj metadata) {
    return isHeld(
        held, metadata.text("name"), metadata.text("uid"), metadata.text("resourceVersion"));
  }

  /**
   * Whether an object of this name, uid and resourceVersion is a copy held.
   *
   * @param held the copies held, by name
   * @param name the object's name, or null
   * @param uid its uid, or null
   * @param resourceVersion its resourceVersion, or null
   * @return whether it is held already
   */
  static boolean isHeld(
      Map<String, ? extends HeldCopy> held, String name, String uid, String resourceVersion) {
    HeldCopy copy = name == null ? null : held.get(name);
    return copy != null
        && !copy.resourceVersion().isEmpty()
        && copy.resourceVersion().equals(resourceVersion)
        && copy.uid().equals(uid);
  }
}
