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
package com.example.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the README's program for a real cluster, as pasted, against the fake API server through a
 * kubeconfig file, as the example program's fake-cluster command serves it.
 */
class SparkPiOnAClusterTest {
  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().operator(FakeSparkOperator.Flavor.APACHE).build();

  @TempDir Path dir;

  @Test
  void theProgramSubmitsOnceReadsTheStatusAndCancels() throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: fake",
            "  cluster:",
            "    server: " + KUBE.server().url(),
            "contexts:",
            "- name: fake",
            "  context:",
            "    cluster: fake",
            "    user: me",
            "current-context: fake",
            "users:",
            "- name: me",
            "  user:",
            "    token: not-a-real-token",
            ""));

    SparkPiOnACluster.main(new String[] {kubeconfig.toString()});

    assertEquals(1, KUBE.server().journal().count("POST", ".*/sparkapplications"));
    assertEquals(1, KUBE.server().journal().count("DELETE", ".*/sparkapplications/kj-spark-pi-1"));
  }
}
