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
package dev.kubejobs.core.spi;

import dev.kubejobs.core.ExecutionId;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A namespaced Kubernetes resource kind addressed by group, version and plural, such as {@code
 * sparkapplications.spark.apache.org/v1}.
 *
 * <p>Instances are immutable and thread safe.
 *
 * @param group the API group, for example {@code spark.apache.org}; empty for the core group
 * @param version the API version, for example {@code v1}
 * @param plural the plural resource name, for example {@code sparkapplications}
 * @param kind the kind, for example {@code SparkApplication}
 */
public record ResourceKind(String group, String version, String plural, String kind) {

  /** The core {@code v1} pods. */
  public static final ResourceKind POD = new ResourceKind("", "v1", "pods", "Pod");

  /**
   * Creates a resource kind, validating each part.
   *
   * @throws IllegalArgumentException if a part is null or not a valid Kubernetes name
   */
  public ResourceKind {
    Objects.requireNonNull(group, "group");
    requireMatch("version", version, KubernetesNames::isDns1123Label);
    requireMatch("plural", plural, KubernetesNames::isDns1123Label);
    if (kind == null || kind.isBlank()) {
      throw new IllegalArgumentException("kind must not be blank, but was " + quote(kind));
    }
    if (!group.isEmpty()) {
      requireMatch("group", group, KubernetesNames::isDns1123Subdomain);
    }
  }

  /**
   * Returns the {@code apiVersion} field value of objects of this kind.
   *
   * @return {@code group/version}, or just {@code version} for the core group
   */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /**
   * Returns the resource as written in an {@link ExecutionId} and in RBAC rules.
   *
   * @return {@code plural.group}, or just {@code plural} for the core group
   */
  public String qualifiedPlural() {
    return group.isEmpty() ? plural : plural + "." + group;
  }

  private static void requireMatch(String setting, String value, Predicate<String> rule) {
    if (!rule.test(value)) {
      throw new IllegalArgumentException(
          setting + " must be a lower-case DNS name, but was " + quote(value));
    }
  }

  private static String quote(String value) {
    return value == null ? "null" : "'" + value + "'";
  }
}
