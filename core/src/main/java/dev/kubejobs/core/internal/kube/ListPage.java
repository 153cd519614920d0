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

/**
 * One page of a list as {@link ListPages} hands it to its caller: the projected copies the page
 * brought, the names of the copies it brought unchanged (held by the caller already, so skipped
 * unbuilt), and what the page ended with. The copies are the caller's: nothing else holds them.
 *
 * @param startsOver whether the list started again with this page (the continue token of the page
 *     before had expired): the pages handed before belong to a snapshot that is gone
 * @param items the copies, in the server's order
 * @param held the names of the copies held already that the page listed unchanged
 * @param resourceVersion the page's {@code metadata.resourceVersion}, empty when it had none
 * @param continueToken the page's continue token; empty on the last page
 */
public record ListPage(
    boolean startsOver,
    List<ResourceSnapshot> items,
    List<String> held,
    String resourceVersion,
    String continueToken) {
  /**
   * Checks the parts.
   *
   * @param startsOver whether the list started again
   * @param items the copies
   * @param held the names of copies held
   * @param resourceVersion the resourceVersion, or null
   * @param continueToken the continue token, or null
   */
  public ListPage {
    items = List.copyOf(items);
    held = List.copyOf(held);
    resourceVersion = resourceVersion == null ? "" : resourceVersion;
    continueToken = continueToken == null ? "" : continueToken;
  }

  /**
   * Whether this is the list's last page.
   *
   * @return whether no page follows
   */
  public boolean isLast() {
    return continueToken.isEmpty();
  }
}
