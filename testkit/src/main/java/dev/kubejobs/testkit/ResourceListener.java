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

/**
 * Receives the fake API server's object changes, for fake operators that react to them.
 *
 * <p>Implementations must be thread safe: changes made on different threads are reported on those
 * threads, possibly at the same time.
 */
@FunctionalInterface
public interface ResourceListener {

  /**
   * Handles one change; called after the change, outside the store's lock.
   *
   * @param event the change, carrying a copy of the object
   */
  void onEvent(ResourceEvent event);
}
