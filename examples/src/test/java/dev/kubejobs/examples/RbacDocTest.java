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
package dev.kubejobs.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.preflight.Permission;
import dev.kubejobs.core.preflight.PreflightReport;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Rbac;
import dev.kubejobs.testkit.ResourceType;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.yaml.snakeyaml.Yaml;

/**
 * Checks docs/rbac.yaml against the preflight: the fake API server, allowing exactly the Role's
 * rules, passes the preflight of both Spark operators; without any one rule or verb, the preflight
 * reports exactly what was removed.
 */
class RbacDocTest {
  static final Path RBAC_YAML = Path.of("..", "docs", "rbac.yaml");

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder()
          .resource(
              new ResourceType("spark.apache.org", "v1", "sparkapplications", "SparkApplication"))
          .resource(
              new ResourceType(
                  "sparkoperator.k8s.io", "v1beta2", "sparkapplications", "SparkApplication"))
          .build();

  static String namespace;
  static List<RoleRule> rules;

  /** One rule of the Role, as written in the file. */
  record RoleRule(List<String> apiGroups, List<String> resources, List<String> verbs) {
    Stream<Rbac.Rule> grants(String namespace) {
      return apiGroups.stream()
          .flatMap(
              g ->
                  resources.stream()
                      .flatMap(
                          r ->
                              verbs.stream()
                                  .map(v -> Rbac.Rule.of(v, g, r).inNamespace(namespace))));
    }
  }

  @BeforeAll
  @SuppressWarnings("unchecked")
  static void readTheRole() throws IOException {
    List<Map<String, Object>> docs = new ArrayList<>();
    try (Reader reader = Files.newBufferedReader(RBAC_YAML)) {
      new Yaml().loadAll(reader).forEach(d -> docs.add((Map<String, Object>) d));
    }
    Map<String, Object> role =
        docs.stream().filter(d -> "Role".equals(d.get("kind"))).findFirst().orElseThrow();
    namespace = (String) ((Map<String, Object>) role.get("metadata")).get("namespace");
    rules =
        ((List<Map<String, List<String>>>) role.get("rules"))
            .stream()
                .map(r -> new RoleRule(r.get("apiGroups"), r.get("resources"), r.get("verbs")))
                .toList();
    Map<String, Object> binding =
        docs.stream().filter(d -> "RoleBinding".equals(d.get("kind"))).findFirst().orElseThrow();
    assertThat((Map<String, Object>) binding.get("roleRef"))
        .containsEntry("kind", "Role")
        .containsEntry("name", ((Map<String, Object>) role.get("metadata")).get("name"));
  }

  @Test
  void exactlyTheRolesRulesPassThePreflightOfBothOperators() {
    KUBE.server().rbac().allowOnly(grants(rules).toArray(Rbac.Rule[]::new));

    for (PreflightReport report : preflights()) {
      assertThat(report.isOk()).as(report.summary()).isTrue();
    }
  }

  @Test
  void noRulesAtAllMissEveryPermissionOfBothOperators() {
    KUBE.server().rbac().allowOnly();

    assertThat(missing())
        .hasSize((int) grants(rules).count())
        .contains(new Permission("create", "spark.apache.org", "sparkapplications", namespace))
        .contains(new Permission("get", "", "pods/log", namespace));
  }

  @Test
  void withoutTheOptionalEventsRuleThePreflightIsOkAndSaysWhatDiagnosesLose() {
    KUBE.server()
        .rbac()
        .allowOnly(
            grants(rules.stream().filter(r -> !r.resources().contains("events")).toList())
                .toArray(Rbac.Rule[]::new));

    for (PreflightReport report : preflights()) {
      assertThat(report.isOk()).as(report.summary()).isTrue();
      assertThat(report.missingPermissions()).isEmpty();
      assertThat(report.missingOptionalPermissions())
          .containsExactly(
              new Permission("list", "", "events", namespace),
              new Permission("create", "", "events", namespace));
      assertThat(report.summary()).contains("cannot read the namespace's events");
      assertThat(report.summary()).contains("cannot record how it ended a job");
    }
  }

  /**
   * docs/rbac.md states the Role's rules as a table and the preflight's count of reviews: each row
   * is one rule of rbac.yaml (resource and verbs), and the counts are what the preflight of one
   * namespace sends and reports.
   */
  @Test
  void rbacMdStatesTheRulesOfRbacYamlAndTheCountsThePreflightMakes() throws IOException {
    String doc = Files.readString(RBAC_YAML.resolveSibling("rbac.md"));
    List<String> rows =
        doc.lines()
            .filter(l -> l.startsWith("| `"))
            .map(l -> l.split("\\|"))
            .map(c -> c[1].strip().replaceFirst("^`([^`]+)`.*", "$1") + ": " + c[2].strip())
            .toList();
    assertThat(rows)
        .as("rows of docs/rbac.md's table")
        .containsExactlyElementsOf(
            rules.stream()
                .map(r -> String.join(",", r.resources()) + ": " + String.join(", ", r.verbs()))
                .toList());
    Matcher counts =
        Pattern.compile(
                "(\\d+) required permissions and (\\d+) optional ones?: the preflight sends (\\d+)"
                    + "\\s+SelfSubjectAccessReviews\\s+per namespace")
            .matcher(doc);
    assertThat(counts.find()).as("the counts sentence of docs/rbac.md").isTrue();

    KUBE.server().rbac().allowOnly();
    KubeJobs<SparkJobSpec> jobs =
        KubeJobs.<SparkJobSpec>builder(KUBE.client(), SparkOperators.apache())
            .cluster("test")
            .deployment("rbac-doc")
            .build();
    int before = KUBE.server().journal().count("POST", ".*selfsubjectaccessreviews.*");
    PreflightReport report = jobs.preflight().check(namespace);
    int reviews = KUBE.server().journal().count("POST", ".*selfsubjectaccessreviews.*") - before;

    assertThat(Integer.parseInt(counts.group(1))).isEqualTo(report.missingPermissions().size());
    assertThat(Integer.parseInt(counts.group(2)))
        .isEqualTo(report.missingOptionalPermissions().size());
    assertThat(Integer.parseInt(counts.group(3))).isEqualTo(reviews);
  }

  @TestFactory
  Stream<DynamicTest> withoutOneVerbThePreflightReportsExactlyThatPermission() {
    return grants(rules)
        .map(
            removed ->
                DynamicTest.dynamicTest(
                    "without " + removed.verb() + " " + qualified(removed),
                    () -> {
                      KUBE.server().reset();
                      KUBE.server()
                          .rbac()
                          .allowOnly(
                              grants(rules)
                                  .filter(g -> !g.equals(removed))
                                  .toArray(Rbac.Rule[]::new));

                      assertThat(missing()).containsExactly(permission(removed));
                    }));
  }

  @TestFactory
  Stream<DynamicTest> withoutOneRuleThePreflightReportsEachOfItsPermissions() {
    return rules.stream()
        .map(
            removed ->
                DynamicTest.dynamicTest(
                    "without the rule " + removed.resources() + " " + removed.verbs(),
                    () -> {
                      KUBE.server().reset();
                      KUBE.server()
                          .rbac()
                          .allowOnly(
                              grants(rules.stream().filter(r -> r != removed).toList())
                                  .toArray(Rbac.Rule[]::new));

                      assertThat(missing())
                          .containsExactlyInAnyOrderElementsOf(
                              removed.grants(namespace).map(RbacDocTest::permission).toList());
                    }));
  }

  private static Stream<Rbac.Rule> grants(List<RoleRule> rules) {
    return rules.stream().flatMap(r -> r.grants(namespace));
  }

  private static List<PreflightReport> preflights() {
    return Stream.of(SparkOperators.apache(), SparkOperators.kubeflow())
        .map(
            kind ->
                KubeJobs.<SparkJobSpec>builder(KUBE.client(), kind)
                    .cluster("test")
                    .deployment("rbac-doc")
                    .build()
                    .preflight()
                    .check(namespace))
        .toList();
  }

  private static List<Permission> missing() {
    // both operators need the same pod permissions: each missing permission once
    Set<Permission> missing = new LinkedHashSet<>();
    for (PreflightReport report : preflights()) {
      assertThat(report.crdServed()).as(report.summary()).isTrue();
      assertThat(report.unverifiedPermissions()).as(report.summary()).isEmpty();
      missing.addAll(report.missingPermissions());
      missing.addAll(report.missingOptionalPermissions());
    }
    return List.copyOf(missing);
  }

  private static Permission permission(Rbac.Rule rule) {
    return new Permission(rule.verb(), rule.group(), rule.resource(), namespace);
  }

  private static String qualified(Rbac.Rule rule) {
    return rule.group().isEmpty() ? rule.resource() : rule.resource() + "." + rule.group();
  }
}
