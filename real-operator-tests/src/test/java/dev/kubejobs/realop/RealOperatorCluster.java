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
package dev.kubejobs.realop;

import dev.kubejobs.testkit.FakeKubelet;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A fake API server with the real operator's CRDs from the shared directory (the services,
 * configmaps and networkpolicies it creates per driver the fake serves by default), a kubeconfig
 * pointing at it, the real operator running against it, and a {@link FakeKubelet} on a timer that
 * runs the driver pods the operator creates as their {@value #SCRIPT} label says (set through
 * {@code SparkJobSpec.label}; the operator copies the pod template's labels onto the driver) or
 * their image ({@link #scriptImage}).
 */
final class RealOperatorCluster implements AutoCloseable {
  /** The label naming what the kubelet does with a driver pod: one of {@link #SCRIPTS}' keys. */
  static final String SCRIPT = "realop.test/driver";

  /** The driver's log line. */
  static final String LOG_LINE = "Pi is roughly 3.14159";

  /** How often the kubelet moves its pods by one step. */
  static final Duration KUBELET_TICK = Duration.ofMillis(500);

  /**
   * What the kubelet does with a driver pod, by its {@value #SCRIPT} label (steps of {@link
   * #KUBELET_TICK}): succeed after 20 or 40 s (an operator that reconciles late on a loaded machine
   * and never sees a shorter driver running records it {@code Failed}, as it would on a cluster),
   * exit 42 after 6 s, run until deleted, or never pull its image.
   */
  static final Map<String, FakeKubelet.Script> SCRIPTS =
      Map.of(
          "succeeds-20s", FakeKubelet.Script.succeeds().runningFor(40).log(LOG_LINE + "\n"),
          "succeeds-40s", FakeKubelet.Script.succeeds().runningFor(80).log(LOG_LINE + "\n"),
          "exits-42", FakeKubelet.Script.exits(42).runningFor(12).log("Exception in thread main\n"),
          "runs", FakeKubelet.Script.runsUntilDeleted().log(LOG_LINE + "\n"),
          "never-pulls", FakeKubelet.Script.imagePullFails());

  /**
   * The image naming a kubelet script, for a driver whose labels a test cannot set (a Gravitino
   * template carries none): a pod with image {@code scriptImage(name)} runs as {@link #SCRIPTS}'
   * {@code name} says.
   *
   * @param script one of {@link #SCRIPTS}' keys
   * @return the image
   */
  static String scriptImage(String script) {
    if (!SCRIPTS.containsKey(script)) {
      throw new IllegalArgumentException("no kubelet script " + script);
    }
    return SCRIPT_IMAGE + script + ":4.0.1";
  }

  private static final String SCRIPT_IMAGE = "realop.test/driver-";

  private final FakeKubernetesApiServer server;
  private final RealOperator operator;
  private final Path kubeconfig;
  private final FakeKubelet kubelet;

  private RealOperatorCluster(
      FakeKubernetesApiServer server, RealOperator operator, Path kubeconfig, FakeKubelet kubelet) {
    this.server = server;
    this.operator = operator;
    this.kubeconfig = kubeconfig;
    this.kubelet = kubelet;
  }

  /**
   * Starts the fake API server, registers what the operator needs, writes the kubeconfig and starts
   * the operator watching {@code namespaces}.
   *
   * @param workDir where the kubeconfig and the operator's log go
   * @param namespaces the jobs' namespaces, comma separated
   * @param operatorProperties more {@code -D} properties for the operator
   */
  static RealOperatorCluster start(
      Path workDir, String namespaces, Map<String, String> operatorProperties) {
    FakeKubernetesApiServer server = FakeKubernetesApiServer.builder().threads(96).build();
    try {
      Files.createDirectories(workDir);
      try (DirectoryStream<Path> crds = Files.newDirectoryStream(RealOperator.crdDir(), "*.yaml")) {
        for (Path crd : crds) {
          server.registerCrd(Files.readString(crd));
        }
      }
      Path kubeconfig = workDir.resolve("kubeconfig");
      Files.writeString(
          kubeconfig,
          String.join(
              "\n",
              "apiVersion: v1",
              "kind: Config",
              "clusters:",
              "- name: fake",
              "  cluster:",
              "    server: " + server.url(),
              "contexts:",
              "- name: fake",
              "  context:",
              "    cluster: fake",
              "    namespace: " + RealOperator.OPERATOR_NAMESPACE,
              "    user: operator",
              "current-context: fake",
              "users:",
              "- name: operator",
              "  user: {}",
              ""));
      RealOperator operator =
          RealOperator.prepare(kubeconfig, namespaces, workDir, operatorProperties);
      FakeKubelet.Builder node =
          FakeKubelet.builder(server).defaultScript(FakeKubelet.Script.runsUntilDeleted());
      SCRIPTS.forEach(
          (name, script) -> {
            node.script(FakeKubelet.labelled(SCRIPT, name), script);
            node.script(FakeKubelet.imageContains(SCRIPT_IMAGE + name + ":"), script);
          });
      FakeKubelet kubelet = node.build().start(KUBELET_TICK);
      RealOperatorCluster cluster = new RealOperatorCluster(server, operator, kubeconfig, kubelet);
      try {
        operator.start(Duration.ofSeconds(120));
      } catch (RuntimeException e) {
        kubelet.close();
        throw e;
      }
      return cluster;
    } catch (IOException e) {
      server.close();
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  FakeKubernetesApiServer server() {
    return server;
  }

  RealOperator operator() {
    return operator;
  }

  Path kubeconfig() {
    return kubeconfig;
  }

  @Override
  public void close() {
    try {
      operator.close();
    } finally {
      try {
        kubelet.close();
      } finally {
        server.close();
      }
    }
  }
}
