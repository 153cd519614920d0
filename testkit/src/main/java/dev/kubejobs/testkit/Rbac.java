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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The fake API server's authorization: which verbs the client's user may use on which resources. By
 * default everything is allowed. A denied request answers 403 {@code Forbidden} with a {@code
 * Status} body worded like the real server's, and {@code POST
 * /apis/authorization.k8s.io/v1/selfsubjectaccessreviews} answers from the same rules.
 *
 * <pre>{@code
 * server.rbac().deny("delete", "spark.apache.org", "sparkapplications");
 * server.rbac().allowOnly(Rbac.Rule.of("get", "", "pods"), Rbac.Rule.of("*", "", "pods/log"));
 * }</pre>
 *
 * <p>A request is allowed if no deny rule matches it and, after {@link #allowOnly(Rule...)}, an
 * allow rule matches it. Verbs are the Kubernetes ones: {@code get}, {@code list}, {@code watch},
 * {@code create}, {@code update}, {@code patch}, {@code delete}, {@code deletecollection}; a
 * subresource is named {@code plural/subresource} (for example {@code pods/log}, {@code
 * sparkapplications/status}). Discovery, {@code /version} and self-subject access reviews are
 * always allowed.
 *
 * <p>Thread safe.
 */
public final class Rbac {

  /** The user name of the default service account that denial messages name. */
  public static final String DEFAULT_USER = "system:serviceaccount:default:kubejobs";

  private final List<Rule> denied = new ArrayList<>();
  private List<Rule> allowedOnly;
  private String user = DEFAULT_USER;

  /** Creates rules that allow everything; servers create their own. */
  Rbac() {}

  /**
   * Denies a verb on a resource in every namespace.
   *
   * @param verb the verb, or {@code "*"}
   * @param group the API group ({@code ""} for core), or {@code "*"}
   * @param resource the plural, or {@code plural/subresource}, or {@code "*"}
   * @return this, to add more
   */
  public Rbac deny(String verb, String group, String resource) {
    return deny(Rule.of(verb, group, resource));
  }

  /**
   * Denies what a rule matches.
   *
   * @param rule the rule
   * @return this, to add more
   */
  public synchronized Rbac deny(Rule rule) {
    denied.add(Objects.requireNonNull(rule, "rule"));
    return this;
  }

  /**
   * Allows only what these rules match (and what no deny rule matches), replacing earlier {@code
   * allowOnly} rules.
   *
   * @param rules the rules; none means nothing is allowed
   * @return this
   */
  public synchronized Rbac allowOnly(Rule... rules) {
    allowedOnly = List.of(rules);
    return this;
  }

  /**
   * Sets the user name that denial messages and access reviews name (default {@link
   * #DEFAULT_USER}).
   *
   * @param user the user name, for example {@code system:serviceaccount:jobs:scheduler}
   * @return this
   */
  public synchronized Rbac user(String user) {
    this.user = Objects.requireNonNull(user, "user");
    return this;
  }

  /**
   * Returns the user name that denial messages name.
   *
   * @return the user name
   */
  public synchronized String user() {
    return user;
  }

  /** Allows everything again and restores the default user. */
  public synchronized void reset() {
    denied.clear();
    allowedOnly = null;
    user = DEFAULT_USER;
  }

  /**
   * Returns whether the user may use a verb on a resource in a namespace.
   *
   * @param verb the verb, for example {@code delete}
   * @param group the API group, {@code ""} for core
   * @param resource the plural, or {@code plural/subresource}
   * @param namespace the namespace, or null for all namespaces
   * @return true if allowed
   */
  public synchronized boolean allows(String verb, String group, String resource, String namespace) {
    for (Rule r : denied) {
      if (r.matches(verb, group, resource, namespace)) {
        return false;
      }
    }
    if (allowedOnly == null) {
      return true;
    }
    for (Rule r : allowedOnly) {
      if (r.matches(verb, group, resource, namespace)) {
        return true;
      }
    }
    return false;
  }

  /**
   * One RBAC rule: a verb, API group, resource and optionally a namespace, each possibly {@code
   * "*"}.
   *
   * <p>Immutable and thread safe.
   *
   * @param verb the verb, or {@code "*"}
   * @param group the API group, or {@code "*"}
   * @param resource the plural or {@code plural/subresource}, or {@code "*"}
   * @param namespace the namespace, or {@code "*"} for every namespace and the cluster scope
   */
  public record Rule(String verb, String group, String resource, String namespace) {

    /**
     * Creates a rule after checking that no part is null.
     *
     * @throws NullPointerException if a part is null
     */
    public Rule {
      verb = Objects.requireNonNull(verb, "verb").toLowerCase(Locale.ROOT);
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(resource, "resource");
      Objects.requireNonNull(namespace, "namespace");
    }

    /**
     * Creates a rule for every namespace.
     *
     * @param verb the verb, or {@code "*"}
     * @param group the API group, or {@code "*"}
     * @param resource the plural or {@code plural/subresource}, or {@code "*"}
     * @return the rule
     */
    public static Rule of(String verb, String group, String resource) {
      return new Rule(verb, group, resource, "*");
    }

    /**
     * Returns a copy of this rule limited to one namespace.
     *
     * @param namespace the namespace
     * @return the limited rule
     */
    public Rule inNamespace(String namespace) {
      return new Rule(verb, group, resource, namespace);
    }

    /**
     * Returns whether this rule matches a request.
     *
     * @param verb the verb
     * @param group the API group
     * @param resource the plural or {@code plural/subresource}
     * @param namespace the namespace, or null for the cluster scope
     * @return true if every part matches
     */
    public boolean matches(String verb, String group, String resource, String namespace) {
      return part(this.verb, verb)
          && part(this.group, group)
          && part(this.resource, resource)
          && ("*".equals(this.namespace) || this.namespace.equals(namespace));
    }

    private static boolean part(String rule, String value) {
      return "*".equals(rule) || rule.equalsIgnoreCase(value);
    }
  }
}
