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
package dev.kubejobs.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jar path the demo and {@code fake-cluster} print works from where the program was run. */
class LaunchTest {
  @TempDir Path dir;

  @Test
  void aJarBelowTheWorkingDirectoryIsPrintedRelativeToIt() throws IOException {
    Path jar =
        Files.createDirectories(dir.resolve("examples/target")).resolve("kubejobs-examples.jar");
    Files.writeString(jar, "");

    assertThat(Launch.jar(jar, dir)).isEqualTo("examples/target/kubejobs-examples.jar");
    assertThat(Launch.jar(jar, dir.resolve("examples/target"))).isEqualTo("kubejobs-examples.jar");
  }

  @Test
  void aJarElsewhereIsPrintedAbsolute() throws IOException {
    Path jar = Files.createDirectories(dir.resolve("opt")).resolve("kubejobs-examples.jar");
    Files.writeString(jar, "");

    assertThat(Launch.jar(jar, Files.createDirectories(dir.resolve("home"))))
        .isEqualTo(jar.toAbsolutePath().toString());
  }

  @Test
  void classesOutsideAJarGiveTheJarTheBuildMakesFromTheRepositoryRoot() throws IOException {
    assertThat(Launch.jar(Files.createDirectories(dir.resolve("classes")), dir))
        .isEqualTo("examples/target/kubejobs-examples.jar");
    assertThat(Launch.jar(null, dir)).isEqualTo(Launch.BUILT_JAR);
    assertThat(Launch.command()).isEqualTo("java -jar examples/target/kubejobs-examples.jar");
  }
}
