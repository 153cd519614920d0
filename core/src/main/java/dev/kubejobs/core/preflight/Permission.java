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
package dev.kubejobs.core.preflight;

import java.util.Objects;

/**
 * One permission kubejobs needs in one namespace: a verb on a resource of an API group, as an RBAC
 * rule would grant it.
 *
 * <p>Immutable and thread safe.
 *
 * @param verb the verb, for example {@code create}
 * @param group the API group, empty for the core group
 * @param resource the plural, or {@code plural/subresource} such as {@code pods/log}
 * @param namespace the namespace
 */
public record Permission(String verb, String group, String resource, String namespace) {
  /**
   * Creates a permission.
   *
   * @throws NullPointerException if a part is null
   */
  public Permission {
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(namespace, "namespace");
  }

  /**
   * Returns the resource as {@code kubectl auth can-i} names it.
   *
   * @return {@code resource.group}, or just the resource for the core group
   */
  public String qualifiedResource() {
    if (group.isEmpty()) {
      return resource;
    }
    int slash = resource.indexOf('/');
    return slash < 0
        ? resource + "." + group
        : resource.substring(0, slash) + "." + group + resource.substring(slash);
  }

  /** Returns {@code verb qualifiedResource in namespace ns}. */
  @Override
  public String toString() {
    return verb + " " + qualifiedResource() + " in namespace " + namespace;
  }
}
