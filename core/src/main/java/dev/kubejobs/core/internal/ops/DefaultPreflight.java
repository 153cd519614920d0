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
package dev.kubejobs.core.internal.ops;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.AccessReview;
import dev.kubejobs.core.preflight.Permission;
import dev.kubejobs.core.preflight.Preflight;
import dev.kubejobs.core.preflight.PreflightReport;
import dev.kubejobs.core.spi.KubernetesNames;
import dev.kubejobs.core.spi.ResourceKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Preflight} of a {@code KubeJobs} instance: one discovery request for the CRD, then one
 * SelfSubjectAccessReview per permission and namespace, all through the instance's gateway. Not a
 * published API. Thread safe (stateless).
 */
public final class DefaultPreflight implements Preflight {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultPreflight.class);

  private final KubeJobsContext<?> context;

  /**
   * Creates the check of an instance.
   *
   * @param context the instance's settings and gateway
   */
  public DefaultPreflight(KubeJobsContext<?> context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  /**
   * Returns the permissions kubejobs uses in one namespace for a job resource kind: the kind's
   * create/get/list/patch/delete, pods get/list/delete and pods/log get.
   *
   * @param kind the job resource kind
   * @param namespace the namespace
   * @return the permissions, in that order
   */
  public static List<Permission> requiredPermissions(ResourceKind kind, String namespace) {
    List<Permission> required = new ArrayList<>();
    for (String verb : List.of("create", "get", "list", "patch", "delete")) {
      required.add(new Permission(verb, kind.group(), kind.plural(), namespace));
    }
    for (String verb : List.of("get", "list", "delete")) {
      required.add(new Permission(verb, "", "pods", namespace));
    }
    required.add(new Permission("get", "", "pods/log", namespace));
    return required;
  }

  /**
   * Returns the permissions kubejobs can do without in one namespace, each costing one feature:
   * events list (the diagnosis of a stuck or failed job reads the namespace's events, and a node
   * that finds a job gone reads kubejobs' record of how it ended) and events create (that record,
   * written when kubejobs ends a job itself: a cancel, the no-status timeout).
   *
   * @param namespace the namespace
   * @return the permissions, in that order
   */
  public static List<Permission> optionalPermissions(String namespace) {
    return List.of(
        new Permission("list", "", "events", namespace),
        new Permission("create", "", "events", namespace));
  }

  @Override
  public PreflightReport check(Collection<String> namespaces) {
    List<String> checkedNamespaces = validate(namespaces);
    ResourceKind kind = context.jobKind().resourceKind();
    PreflightReport.Builder report = PreflightReport.builder(kind, checkedNamespaces);
    checkCrd(kind, report);
    for (String namespace : checkedNamespaces) {
      for (Permission p : requiredPermissions(kind, namespace)) {
        review(p, false, report);
      }
      for (Permission p : optionalPermissions(namespace)) {
        review(p, true, report);
      }
    }
    PreflightReport done = report.build();
    if (done.isOk()) {
      LOG.debug("{}", done.summary());
    } else {
      LOG.warn("{}", done.summary());
    }
    return done;
  }

  private void checkCrd(ResourceKind kind, PreflightReport.Builder report) {
    String what = kind.qualifiedPlural() + " version " + kind.version();
    Optional<List<String>> served;
    try {
      served = context.gateway().servedResources(kind.group(), kind.version());
    } catch (ApiUnavailableException e) {
      throw e;
    } catch (RuntimeException e) {
      report.crdNotServed(
          "could not tell whether "
              + what
              + " is served: API discovery of "
              + kind.apiVersion()
              + " failed ("
              + e.getMessage()
              + ")");
      return;
    }
    if (served.isEmpty()) {
      report.crdNotServed(
          "CRD not installed: the API server does not serve "
              + kind.apiVersion()
              + ", so "
              + what
              + " cannot be created; install the operator's CRD (with version "
              + kind.version()
              + ")");
    } else if (!served.get().contains(kind.plural())) {
      report.crdNotServed(
          "CRD not installed: the API server serves "
              + kind.apiVersion()
              + " but not "
              + kind.plural()
              + "; install the CRD of "
              + kind.kind()
              + " (with version "
              + kind.version()
              + ")");
    } else {
      report.crdServed();
    }
  }

  private void review(Permission p, boolean optional, PreflightReport.Builder report) {
    String resource = p.resource();
    String subresource = null;
    int slash = resource.indexOf('/');
    if (slash >= 0) {
      subresource = resource.substring(slash + 1);
      resource = resource.substring(0, slash);
    }
    AccessReview answer;
    try {
      answer =
          context
              .gateway()
              .selfSubjectAccessReview(p.verb(), p.group(), resource, subresource, p.namespace());
    } catch (ApiUnavailableException e) {
      throw e;
    } catch (RuntimeException e) {
      if (optional) {
        LOG.debug("Optional permission {} could not be checked", p, e);
        report.missingOptional(p);
      } else {
        report.unverified(p, "the SelfSubjectAccessReview failed: " + e.getMessage());
      }
      return;
    }
    if (answer.allowed()) {
      report.granted(p);
    } else if (optional) {
      LOG.debug("Missing optional permission: {} ({})", p, answer.reason());
      report.missingOptional(p);
    } else {
      LOG.debug("Missing permission: {} ({})", p, answer.reason());
      report.missing(p);
    }
  }

  private static List<String> validate(Collection<String> namespaces) {
    if (namespaces == null || namespaces.isEmpty()) {
      throw new IllegalArgumentException(
          "namespaces must name at least one namespace jobs run in, but was " + namespaces);
    }
    Set<String> out = new LinkedHashSet<>();
    for (String ns : namespaces) {
      if (!KubernetesNames.isDns1123Label(ns)) {
        throw new IllegalArgumentException(
            "namespaces must be lower-case DNS labels of at most 63 characters, but one was "
                + (ns == null ? "null" : "'" + ns + "'"));
      }
      out.add(ns);
    }
    return List.copyOf(out);
  }
}
