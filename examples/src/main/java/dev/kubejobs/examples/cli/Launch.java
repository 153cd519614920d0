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

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;

/** How to start this program again, for the commands it prints for a person to paste. */
public final class Launch {
  /** The jar the build makes, relative to the repository's root. */
  public static final String BUILT_JAR = "examples/target/kubejobs-examples.jar";

  private Launch() {}

  /**
   * Returns {@code java -jar JAR} for the jar this program runs from: its path relative to the
   * working directory when it lies below it ({@code examples/target/kubejobs-examples.jar} from the
   * repository's root), else its absolute path; {@link #BUILT_JAR} when not run from a jar (an IDE,
   * the tests).
   *
   * @return the command, to which arguments can be appended
   */
  public static String command() {
    return "java -jar " + jar(runningFrom(), Path.of("").toAbsolutePath());
  }

  /**
   * The path to print for a jar: relative to {@code workingDirectory} when below it, else absolute;
   * {@link #BUILT_JAR} when {@code location} is not a jar file.
   */
  static String jar(Path location, Path workingDirectory) {
    if (location == null
        || !location.getFileName().toString().endsWith(".jar")
        || !Files.isRegularFile(location)) {
      return BUILT_JAR;
    }
    Path absolute = location.toAbsolutePath().normalize();
    Path here = workingDirectory.toAbsolutePath().normalize();
    return absolute.startsWith(here) ? here.relativize(absolute).toString() : absolute.toString();
  }

  private static Path runningFrom() {
    try {
      CodeSource source = Launch.class.getProtectionDomain().getCodeSource();
      return source == null ? null : Path.of(source.getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }
}
