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

import dev.kubejobs.core.spi.ResourceSnapshot;
import java.util.List;
import java.util.Objects;

/**
 * What a LIST answered: the objects and the list's {@code metadata.resourceVersion}, the point a
 * WATCH started right after it resumes from (client-go's reflector does the same: {@code
 * listMetaInterface.GetResourceVersion()} in {@code tools/cache/reflector.go}, {@code list}).
 *
 * @param items the objects, in the server's order; unmodifiable
 * @param resourceVersion the list's resourceVersion (of its last page when paged); empty when the
 *     server sent none
 */
public record ListResult(List<ResourceSnapshot> items, String resourceVersion) {
  /**
   * Checks and copies the parts.
   *
   * @param items the objects
   * @param resourceVersion the list's resourceVersion, or null for none
   */
  public ListResult {
    items = List.copyOf(Objects.requireNonNull(items, "items"));
    resourceVersion = resourceVersion == null ? "" : resourceVersion;
  }
}
