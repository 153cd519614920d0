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
