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

import static dev.kubejobs.testkit.Kube.NS;
import static dev.kubejobs.testkit.Kube.SPARK_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes Python client ({@code kubernetes}, Debian's {@code python3-kubernetes}) against
 * the fake. Skipped, with a message saying so, where no {@code python3} that can import {@code
 * kubernetes} is found on the {@code PATH} or in {@code /usr/bin}.
 */
@Tag("slow")
class PythonClientTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  static Path python;

  @TempDir static Path dir;

  @BeforeAll
  static void findPythonWithTheKubernetesClient() throws Exception {
    python = find();
    Assumptions.assumeTrue(
        python != null,
        "no python3 with the Kubernetes client (import kubernetes) on the PATH or in /usr/bin:"
            + " the Python client tests are skipped (Debian: apt-get install python3-kubernetes)");
  }

  private static Path find() throws InterruptedException {
    List<Path> candidates = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      for (String d : path.split(java.io.File.pathSeparator)) {
        if (!d.isEmpty()) {
          candidates.add(Path.of(d, "python3"));
        }
      }
    }
    candidates.add(Path.of("/usr/bin/python3"));
    for (Path candidate : candidates) {
      if (Files.isExecutable(candidate) && importsKubernetes(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private static boolean importsKubernetes(Path candidate) throws InterruptedException {
    try {
      Process process =
          new ProcessBuilder(candidate.toString(), "-c", "import kubernetes")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return false;
      }
      return process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * {@code watch.Watch().stream(list_namespaced_custom_object, ...)} sends {@code watch=True}
   * (capitalized, as Python prints a bool); kube-apiserver reads every value but {@code 0} and
   * {@code false} as true ({@code Convert_Slice_string_To_bool} in k8s.io/apimachinery {@code
   * pkg/runtime/conversion.go}, commit eed236ce) and streams: first the existing application as
   * ADDED, then the one created while the watch is open.
   */
  @Test
  void theWatchStreamGetsTheExistingApplicationThenTheNewOne() throws Exception {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("before"));
    Path script = dir.resolve("watch_apps.py");
    try (InputStream in = PythonClientTest.class.getResourceAsStream("/python/watch_apps.py")) {
      Files.write(script, in.readAllBytes());
    }
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process process =
        new ProcessBuilder(python.toString(), script.toString(), kube.server().url(), NS)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(Files.readString(out, StandardCharsets.UTF_8))
                      .as(
                          "the script's output; its errors: %s; requests: %s",
                          Files.readString(err), kube.server().journal().requests())
                      .contains("ADDED before\n"));
      kube.server().store().create(SPARK_APP, NS, Kube.appJson("after"));

      assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the script ends").isTrue();
      assertThat(Files.readString(err, StandardCharsets.UTF_8)).isEmpty();
      assertThat(process.exitValue()).isZero();
      assertThat(Files.readString(out, StandardCharsets.UTF_8))
          .isEqualTo("ADDED before\nADDED after\n");
      assertThat(kube.server().journal().requests("GET", ".*/sparkapplications"))
          .extracting(r -> r.queryParameter("watch"))
          .containsExactly("True");
    } finally {
      process.destroyForcibly();
    }
  }
}
