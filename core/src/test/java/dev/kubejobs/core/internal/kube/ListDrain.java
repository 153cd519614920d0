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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.util.function.Consumer;

/** Tests' reading of a whole {@link KubeGateway#listPages} pull, page after page. */
final class ListDrain {
  private ListDrain() {}

  /**
   * Pulls every page, telling {@code each} every copy; fails the test if the list starts over.
   *
   * @return the last page's resourceVersion
   */
  static String each(
      KubeGateway gateway,
      ExecutionId about,
      ResourceKind kind,
      String namespace,
      String labelSelector,
      FieldProjection projection,
      Consumer<ResourceSnapshot> each) {
    ListPages pages = gateway.listPages(about, kind, namespace, labelSelector, projection, null);
    String resourceVersion = "";
    while (pages.hasNext()) {
      ListPage page = pages.next();
      if (page.startsOver()) {
        throw new AssertionError("the list started over");
      }
      page.items().forEach(each);
      resourceVersion = page.resourceVersion();
    }
    return resourceVersion;
  }
}
