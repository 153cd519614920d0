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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user on the module path can reach of kubejobs-core: the API and SPI packages, never an
 * {@code internal} one. Checked on the compiled descriptor and by compiling a small consumer module
 * against this module and the jars it requires, as {@code javac --module-path} would for a user.
 */
class ModulePathTest {

  @Test
  void theDescriptorExportsEveryApiPackageAndNoInternalOne() throws IOException {
    ModuleDescriptor core = coreDescriptor();
    Set<String> exported =
        core.exports().stream()
            .filter(e -> !e.isQualified())
            .map(Exports::source)
            .collect(Collectors.toSet());
    Set<String> api =
        core.packages().stream().filter(p -> !p.contains(".internal")).collect(Collectors.toSet());

    assertThat(core.name()).isEqualTo("dev.kubejobs.core");
    assertThat(exported).isEqualTo(api).contains("dev.kubejobs.core", "dev.kubejobs.core.spi");
    assertThat(core.exports()).noneMatch(e -> e.source().contains(".internal"));
    assertThat(core.opens()).isEmpty();
  }

  @Test
  void aConsumerModuleCompilesAgainstTheApiButCannotSeeAnInternalType(@TempDir Path dir)
      throws IOException {
    String moduleInfo = "module consumer { requires dev.kubejobs.core; }";
    String usesApi =
        "package consumer; public class UsesApi {"
            + " dev.kubejobs.core.KubeJobs<?> jobs; dev.kubejobs.core.spi.JobKind<?> kind;"
            + " dev.kubejobs.core.status.JobStatusReader reader; }";
    String usesInternal =
        "package consumer; public class UsesInternal {"
            + " dev.kubejobs.core.internal.ops.StatusPipeline pipeline; }";

    assertThat(compile(dir.resolve("api"), moduleInfo, "UsesApi", usesApi)).isEmpty();
    assertThat(compile(dir.resolve("internal"), moduleInfo, "UsesInternal", usesInternal))
        .singleElement()
        .asString()
        .contains("dev.kubejobs.core.internal.ops")
        .containsAnyOf("is not visible", "does not export");
  }

  /** Compiles a one-class module {@code consumer}; returns the error messages. */
  private static List<String> compile(Path dir, String moduleInfo, String className, String source)
      throws IOException {
    Path src = Files.createDirectories(dir.resolve("src/consumer"));
    Files.writeString(dir.resolve("src/module-info.java"), moduleInfo);
    Files.writeString(src.resolve(className + ".java"), source);
    Path out = Files.createDirectories(dir.resolve("out"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      List<String> options =
          List.of(
              "--module-path",
              modulePath().stream().map(Path::toString).collect(Collectors.joining(":")),
              "-d",
              out.toString());
      boolean ok =
          javac
              .getTask(
                  null,
                  files,
                  diagnostics,
                  options,
                  null,
                  files.getJavaFileObjects(
                      dir.resolve("src/module-info.java"), src.resolve(className + ".java")))
              .call();
      List<String> errors = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          errors.add(d.getMessage(Locale.ROOT));
        }
      }
      assertThat(ok).as("compiled without errors: %s", errors).isEqualTo(errors.isEmpty());
      return errors;
    }
  }

  /**
   * This module's classes and the class path entries of the modules it requires, transitively, as a
   * user's module path would hold them (the test's class path also holds test libraries whose
   * automatic modules would otherwise all be resolved together).
   */
  private static List<Path> modulePath() {
    Map<String, Path> byName = new HashMap<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path path = Paths.get(entry);
      moduleAt(path).ifPresent(m -> byName.putIfAbsent(m.descriptor().name(), path));
    }
    List<Path> path = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of("dev.kubejobs.core"));
    while (!todo.isEmpty()) {
      String name = todo.pop();
      Path at = byName.get(name);
      if (!seen.add(name) || at == null) {
        continue;
      }
      path.add(at);
      moduleAt(at).ifPresent(m -> m.descriptor().requires().forEach(r -> todo.push(r.name())));
    }
    assertThat(path).hasSizeGreaterThan(5);
    return path;
  }

  private static Optional<ModuleReference> moduleAt(Path path) {
    if (!Files.exists(path)) {
      return Optional.empty();
    }
    try {
      return ModuleFinder.of(path).findAll().stream().findFirst();
    } catch (RuntimeException notAModule) {
      // A jar whose automatic module name cannot be derived is not on a user's module path.
      return Optional.empty();
    }
  }

  private static ModuleDescriptor coreDescriptor() throws IOException {
    Path classes;
    try {
      classes =
          Paths.get(KubeJobs.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
      return ModuleDescriptor.read(in);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
