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
package dev.kubejobs.core;

import dev.kubejobs.core.internal.NameShapes;
import dev.kubejobs.core.spi.KubernetesNames;
import dev.kubejobs.core.spi.ResourceKind;
import java.util.Objects;

/**
 * The address of one job execution on a cluster: {@code
 * <cluster>/<plural>.<group>/<namespace>/<name>}, for example {@code
 * prod/sparkapplications.spark.apache.org/etl/kj-7f3a}.
 *
 * <p>An id carries everything needed to find the job's resource again, so any instance of the
 * caller that talks to the same cluster can query or cancel any id, whoever submitted it.
 *
 * <p>Instances are immutable and thread safe. {@link #parse(String)} and {@link #toString()} are
 * inverse: {@code ExecutionId.parse(id.toString()).equals(id)}.
 */
public final class ExecutionId {

  private String text;
  private int hash;
  private final String cluster;
  private final String plural;
  private final String group;
  private final String namespace;
  private final String name;

  private ExecutionId(String cluster, String plural, String group, String namespace, String name) {
    this.cluster = cluster;
    this.plural = plural;
    this.group = group;
    this.namespace = namespace;
    this.name = name;
  }

  /**
   * Returns the id of a resource of the given kind.
   *
   * @param cluster the cluster name the caller configured, for example {@code prod}
   * @param kind the resource kind
   * @param namespace the resource's namespace
   * @param name the resource's name
   * @return the id
   * @throws IllegalArgumentException if a part is null or not valid (the message names the part)
   */
  public static ExecutionId of(String cluster, ResourceKind kind, String namespace, String name) {
    Objects.requireNonNull(kind, "kind");
    if (kind.group().isEmpty()) {
      throw new IllegalArgumentException(
          "kind must be a custom resource with a group, but was " + kind.plural());
    }
    return validated(cluster, kind.plural(), kind.group(), namespace, name, null);
  }

  /**
   * Parses an id written by {@link #toString()}.
   *
   * @param id the text, for example {@code prod/sparkapplications.spark.apache.org/etl/kj-7f3a}
   * @return the id
   * @throws IllegalArgumentException if the text is null, blank or not of the form {@code
   *     <cluster>/<plural>.<group>/<namespace>/<name>}; the message says which part is wrong
   */
  public static ExecutionId parse(String id) {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("execution id must not be blank, but was " + quote(id));
    }
    String[] parts = id.split("/", -1);
    if (parts.length != 4) {
      throw new IllegalArgumentException(
          "execution id must have the form <cluster>/<plural>.<group>/<namespace>/<name>, but was "
              + quote(id));
    }
    String resource = parts[1];
    int dot = resource.indexOf('.');
    if (dot <= 0 || dot == resource.length() - 1) {
      throw new IllegalArgumentException(
          "execution id's resource must have the form <plural>.<group>, but was "
              + quote(resource)
              + " in "
              + quote(id));
    }
    return validated(
        parts[0], resource.substring(0, dot), resource.substring(dot + 1), parts[2], parts[3], id);
  }

  private static ExecutionId validated(
      String cluster, String plural, String group, String namespace, String name, String text) {
    String in = text == null ? "" : " in " + quote(text);
    if (!isClusterName(cluster)) {
      throw new IllegalArgumentException(
          "cluster must be 1-253 letters, digits, '-', '_' or '.', starting and ending with a"
              + " letter or digit, but was "
              + quote(cluster)
              + in);
    }
    if (!KubernetesNames.isDns1123Label(plural)) {
      throw new IllegalArgumentException(
          "plural must be a lower-case DNS label, but was " + quote(plural) + in);
    }
    if (!KubernetesNames.isDns1123Subdomain(group)) {
      throw new IllegalArgumentException(
          "group must be a lower-case DNS subdomain, but was " + quote(group) + in);
    }
    if (!KubernetesNames.isDns1123Label(namespace)) {
      throw new IllegalArgumentException(
          "namespace must be a lower-case DNS label of at most 63 characters, but was "
              + quote(namespace)
              + in);
    }
    if (!KubernetesNames.isDns1123Subdomain(name)) {
      throw new IllegalArgumentException(
          "name must be a lower-case DNS subdomain of at most 253 characters, but was "
              + quote(name)
              + in);
    }
    return new ExecutionId(cluster, plural, group, namespace, name);
  }

  /**
   * Returns whether a text is a cluster name: 1-253 letters, digits, '-', '_' or '.', starting and
   * ending with a letter or digit. kubejobs' own rule (the cluster name is no Kubernetes name),
   * shared with {@code KubeJobs.Builder.cluster}.
   */
  static boolean isClusterName(String cluster) {
    return cluster != null && cluster.length() <= 253 && NameShapes.qualified(cluster);
  }

  /**
   * Returns the cluster name.
   *
   * @return the cluster part
   */
  public String cluster() {
    return cluster;
  }

  /**
   * Returns the plural resource name, for example {@code sparkapplications}.
   *
   * @return the plural
   */
  public String plural() {
    return plural;
  }

  /**
   * Returns the API group, for example {@code spark.apache.org}.
   *
   * @return the group
   */
  public String group() {
    return group;
  }

  /**
   * Returns the namespace of the job's resource.
   *
   * @return the namespace
   */
  public String namespace() {
    return namespace;
  }

  /**
   * Returns the name of the job's resource.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * Returns whether this id addresses a resource of the given kind (group and plural; any version).
   *
   * @param kind the kind
   * @return true if group and plural match
   */
  public boolean isOf(ResourceKind kind) {
    return kind.group().equals(group) && kind.plural().equals(plural);
  }

  /** Returns {@code <cluster>/<plural>.<group>/<namespace>/<name>}. */
  @Override
  public String toString() {
    String t = text;
    if (t == null) {
      // Built once: ids are map keys of every status read (a benign race builds equal strings).
      t = cluster + "/" + plural + "." + group + "/" + namespace + "/" + name;
      text = t;
    }
    return t;
  }

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof ExecutionId other && toString().equals(other.toString()));
  }

  @Override
  public int hashCode() {
    // Kept here too: a status read hashes each id several times, and the text is another object.
    int h = hash;
    if (h == 0) {
      h = toString().hashCode();
      hash = h;
    }
    return h;
  }

  private static String quote(String value) {
    return value == null ? "null" : "'" + value + "'";
  }
}
