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

import dev.kubejobs.core.spi.ResourceKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link Preflight} check found: whether the job resource's CRD is served, and every
 * permission that is missing (or could not be verified) in each namespace.
 *
 * <p>Immutable and thread safe.
 */
public final class PreflightReport {
  private final ResourceKind resourceKind;
  private final List<String> namespaces;
  private final List<Permission> checked;
  private final boolean crdServed;
  private final String crdProblem;
  private final List<Permission> missing;
  private final Map<Permission, String> unverified;
  private final List<Permission> optionalMissing;

  private PreflightReport(Builder b) {
    this.resourceKind = b.resourceKind;
    this.namespaces = List.copyOf(b.namespaces);
    this.checked = List.copyOf(b.checked);
    this.crdServed = b.crdServed;
    this.crdProblem = b.crdProblem;
    this.missing = List.copyOf(b.missing);
    this.unverified = Collections.unmodifiableMap(new LinkedHashMap<>(b.unverified));
    this.optionalMissing = List.copyOf(b.optionalMissing);
  }

  /**
   * Returns a builder for a report; used by preflight checks, and by tests of the caller's code.
   *
   * @param resourceKind the job resource kind checked
   * @param namespaces the namespaces checked
   * @return a new builder
   * @throws NullPointerException if an argument is null
   */
  public static Builder builder(ResourceKind resourceKind, List<String> namespaces) {
    return new Builder(resourceKind, namespaces);
  }

  /**
   * Returns whether kubejobs can work: the CRD is served and every permission is granted.
   *
   * @return true if nothing needs fixing
   */
  public boolean isOk() {
    return crdServed && missing.isEmpty() && unverified.isEmpty();
  }

  /**
   * Returns the job resource kind that was checked.
   *
   * @return the kind
   */
  public ResourceKind resourceKind() {
    return resourceKind;
  }

  /**
   * Returns the namespaces that were checked.
   *
   * @return an unmodifiable list
   */
  public List<String> namespaces() {
    return namespaces;
  }

  /**
   * Returns every permission that was asked about.
   *
   * @return an unmodifiable list, namespace by namespace
   */
  public List<Permission> checkedPermissions() {
    return checked;
  }

  /**
   * Returns whether the API server serves the job resource's plural in its group and version.
   *
   * @return true if served
   */
  public boolean crdServed() {
    return crdServed;
  }

  /**
   * Returns why the CRD is not taken as served.
   *
   * @return the problem and its fix, empty when the CRD is served
   */
  public Optional<String> crdProblem() {
    return Optional.ofNullable(crdProblem);
  }

  /**
   * Returns the permissions the API server says the credentials lack.
   *
   * @return an unmodifiable list, in the order checked
   */
  public List<Permission> missingPermissions() {
    return missing;
  }

  /**
   * Returns the permissions that could not be checked (the access review itself was refused or
   * failed), with why. They count as problems.
   *
   * @return an unmodifiable map from permission to reason
   */
  public Map<Permission, String> unverifiedPermissions() {
    return unverified;
  }

  /**
   * Returns the optional permissions the credentials lack (or that could not be checked). kubejobs
   * works without them, with less to say: without {@code list events} a {@link
   * dev.kubejobs.core.JobExecutionInfo#diagnosis() diagnosis} rests on the driver pod and the
   * operator's status only, and names the events it could not read. They do not make {@link
   * #isOk()} false.
   *
   * @return an unmodifiable list, in the order checked
   */
  public List<Permission> missingOptionalPermissions() {
    return optionalMissing;
  }

  /**
   * Returns a human-readable account of what is wrong and how to fix it, or that all is well.
   *
   * @return one or more lines
   */
  public String summary() {
    if (isOk()) {
      return "kubejobs preflight OK: "
          + resourceKind.qualifiedPlural()
          + " "
          + resourceKind.version()
          + " is served and all "
          + checked.size()
          + " permissions are granted in namespaces "
          + namespaces
          + optionalSummary();
    }
    StringBuilder s = new StringBuilder("kubejobs preflight found problems:");
    if (!crdServed) {
      s.append("\n- ").append(crdProblem);
    }
    if (!missing.isEmpty()) {
      s.append("\n- missing permissions: ")
          .append(missing.size())
          .append(" (grant them with a Role bound to the service account in each namespace;")
          .append(" see docs/rbac.yaml or the Preflight Javadoc for the least-privilege Role):");
      for (Permission p : missing) {
        s.append("\n    ").append(p);
      }
      s.append("\n  rules to add:");
      for (Map.Entry<String, List<String>> rule : rulesToAdd().entrySet()) {
        s.append("\n    ").append(rule.getKey()).append(" verbs: ").append(rule.getValue());
      }
    }
    if (!unverified.isEmpty()) {
      s.append("\n- permissions that could not be checked:");
      unverified.forEach((p, why) -> s.append("\n    ").append(p).append(": ").append(why));
    }
    return s.append(optionalSummary()).toString();
  }

  private String optionalSummary() {
    if (optionalMissing.isEmpty()) {
      return "";
    }
    StringBuilder s =
        new StringBuilder("\n- optional permissions not granted (kubejobs works without them):");
    for (Permission p : optionalMissing) {
      s.append("\n    ").append(p);
      if ("events".equals(p.resource()) && "create".equals(p.verb())) {
        s.append(
            ": kubejobs cannot record how it ended a job (a cancel, the no-status timeout), so"
                + " another node reads such a job gone once its resource is deleted");
      } else if ("events".equals(p.resource())) {
        s.append(
            ": diagnoses of stuck or failed jobs cannot read the namespace's events, and a node"
                + " that finds a job gone cannot read kubejobs' record of how it ended");
      }
    }
    return s.toString();
  }

  /** Groups the missing permissions into RBAC rules: namespace, group and resource to verbs. */
  private Map<String, List<String>> rulesToAdd() {
    Map<String, List<String>> rules = new LinkedHashMap<>();
    for (Permission p : missing) {
      String key =
          "namespace "
              + p.namespace()
              + ": apiGroups: [\""
              + p.group()
              + "\"] resources: [\""
              + p.resource()
              + "\"]";
      rules.computeIfAbsent(key, k -> new ArrayList<>()).add(p.verb());
    }
    return rules;
  }

  @Override
  public String toString() {
    return summary();
  }

  /** Collects a {@link PreflightReport}. Not thread safe. */
  public static final class Builder {
    private final ResourceKind resourceKind;
    private final List<String> namespaces;
    private final List<Permission> checked = new ArrayList<>();
    private boolean crdServed;
    private String crdProblem = "the CRD was not checked";
    private final List<Permission> missing = new ArrayList<>();
    private final Map<Permission, String> unverified = new LinkedHashMap<>();
    private final List<Permission> optionalMissing = new ArrayList<>();

    private Builder(ResourceKind resourceKind, List<String> namespaces) {
      this.resourceKind = Objects.requireNonNull(resourceKind, "resourceKind");
      this.namespaces = List.copyOf(namespaces);
    }

    /**
     * Records that the CRD is served.
     *
     * @return this builder
     */
    public Builder crdServed() {
      this.crdServed = true;
      this.crdProblem = null;
      return this;
    }

    /**
     * Records that the CRD is not served, or could not be checked.
     *
     * @param problem what is wrong and how to fix it
     * @return this builder
     */
    public Builder crdNotServed(String problem) {
      this.crdServed = false;
      this.crdProblem = Objects.requireNonNull(problem, "problem");
      return this;
    }

    /**
     * Records a permission that is granted.
     *
     * @param permission the permission
     * @return this builder
     */
    public Builder granted(Permission permission) {
      checked.add(Objects.requireNonNull(permission, "permission"));
      return this;
    }

    /**
     * Records a permission that is missing.
     *
     * @param permission the permission
     * @return this builder
     */
    public Builder missing(Permission permission) {
      checked.add(Objects.requireNonNull(permission, "permission"));
      missing.add(permission);
      return this;
    }

    /**
     * Records a permission whose review was refused or failed.
     *
     * @param permission the permission
     * @param reason why it could not be checked
     * @return this builder
     */
    public Builder unverified(Permission permission, String reason) {
      checked.add(Objects.requireNonNull(permission, "permission"));
      unverified.put(permission, Objects.requireNonNull(reason, "reason"));
      return this;
    }

    /**
     * Records an optional permission that is missing or could not be checked.
     *
     * @param permission the permission
     * @return this builder
     */
    public Builder missingOptional(Permission permission) {
      checked.add(Objects.requireNonNull(permission, "permission"));
      optionalMissing.add(permission);
      return this;
    }

    /**
     * Builds the report.
     *
     * @return the report
     */
    public PreflightReport build() {
      return new PreflightReport(this);
    }
  }
}
