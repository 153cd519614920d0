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
package dev.kubejobs.core.internal.watch;

import dev.kubejobs.core.spi.ResourceSnapshot;

/**
 * Hears every change a {@link NamespaceWatch} applies to its view: each ADDED, MODIFIED and DELETED
 * event, and each difference a relist reveals (an object that vanished while no watch was open is a
 * delete, a new one an add, a changed one a modify; a name that now belongs to another uid is a
 * delete followed by an add).
 *
 * <p>Called on the watch's own thread, one change at a time, in the order the view applies them; a
 * listener must return quickly (hand the change to another thread). An exception it throws is
 * logged at WARN and does not stop the watch.
 */
@FunctionalInterface
public interface WatchListener {
  /**
   * Called for one change.
   *
   * @param previousOrNull the object before the change; null for an add. For a DELETED event it is
   *     the object as the event carries it (its last state, with the removal's resourceVersion)
   * @param currentOrNull the object after the change; null for a delete
   */
  void changed(ResourceSnapshot previousOrNull, ResourceSnapshot currentOrNull);
}
