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
package dev.kubejobs.gravitino;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.spi.ToolProvider;

/**
 * The public binary shape of Gravitino's job SPI classes as {@code javap -public -s} prints it, and
 * a comparison of two shapes member by member. The reference is {@code
 * ../shared/gravitino/job-spi-main.javap.txt} (DESIGN §12), whose path the build passes as the
 * system property {@value #REFERENCE_PROPERTY}.
 */
final class SpiShape {
  /** The system property naming the reference {@code javap} output. */
  static final String REFERENCE_PROPERTY = "kubejobs.gravitinoSpiShape";

  /** The classes of the reference, in its order. */
  static final List<String> CLASSES =
      List.of(
          "org.apache.gravitino.connector.job.JobExecutor",
          "org.apache.gravitino.connector.job.JobContext",
          "org.apache.gravitino.connector.job.JobExecutionInfo",
          "org.apache.gravitino.connector.job.JobExecutionInfo$JobExecutionInfoBuilder");

  private SpiShape() {}

  /**
   * Returns the reference file, or null when it is absent (a clone without {@code ../shared}).
   *
   * @return the path, or null
   */
  static Path reference() {
    String p = System.getProperty(REFERENCE_PROPERTY);
    if (p == null || p.isBlank()) {
      return null;
    }
    Path path = Path.of(p);
    return Files.isReadable(path) ? path : null;
  }

  /** The line a test skips with when the reference is absent. */
  static String skipLine() {
    return "Gravitino's SPI shape "
        + System.getProperty(REFERENCE_PROPERTY, "(" + REFERENCE_PROPERTY + " not set)")
        + " is absent: the comparison with the real SPI's binary shape is skipped";
  }

  /**
   * Runs {@code javap -public -s} on the SPI classes found in a class path entry.
   *
   * @param classPathEntry a directory or a jar holding the classes
   * @return javap's output
   */
  static String javap(Path classPathEntry) {
    ToolProvider javap =
        ToolProvider.findFirst("javap")
            .orElseThrow(() -> new IllegalStateException("this JDK has no javap tool"));
    List<String> args = new ArrayList<>(List.of("-public", "-s", "-cp", classPathEntry.toString()));
    args.addAll(CLASSES);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = javap.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
    if (rc != 0) {
      throw new IllegalStateException("javap " + args + " failed (" + rc + "): " + err + out);
    }
    return out.toString();
  }

  /**
   * Returns the class path entry (directory or jar) a class was loaded from.
   *
   * @param type the class
   * @return its location
   */
  static Path location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(type.getName(), e);
    }
  }

  /**
   * Parses javap output: per class header, its members as {@code "<declaration> | <descriptor>"}.
   *
   * @param javap the output
   * @return the members by class header, in the output's order
   */
  static Map<String, Set<String>> parse(String javap) {
    Map<String, Set<String>> classes = new LinkedHashMap<>();
    Set<String> members = null;
    String declaration = null;
    for (String raw : javap.lines().toList()) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("Compiled from") || line.equals("}")) {
        continue;
      }
      if (line.endsWith("{")) {
        members = new LinkedHashSet<>();
        classes.put(line.substring(0, line.length() - 1).strip(), members);
      } else if (line.startsWith("descriptor:")) {
        if (members == null || declaration == null) {
          throw new IllegalArgumentException("a descriptor without a member: " + line);
        }
        members.add(declaration + " | " + line.substring("descriptor:".length()).strip());
        declaration = null;
      } else {
        declaration = line;
      }
    }
    return classes;
  }

  /**
   * Returns every difference between an actual and an expected shape, one line each: a class or a
   * member missing from the actual shape, or one it has in addition.
   *
   * @param actual the shape found
   * @param expected the reference shape
   * @return the differences, empty when the shapes are the same
   */
  static List<String> differences(String actual, String expected) {
    Map<String, Set<String>> a = parse(actual);
    Map<String, Set<String>> e = parse(expected);
    List<String> diffs = new ArrayList<>();
    for (Map.Entry<String, Set<String>> c : e.entrySet()) {
      Set<String> found = a.get(c.getKey());
      if (found == null) {
        diffs.add("missing class: " + c.getKey());
        continue;
      }
      for (String m : c.getValue()) {
        if (!found.contains(m)) {
          diffs.add("missing in " + c.getKey() + ": " + m);
        }
      }
      for (String m : found) {
        if (!c.getValue().contains(m)) {
          diffs.add("extra in " + c.getKey() + ": " + m);
        }
      }
    }
    for (String c : a.keySet()) {
      if (!e.containsKey(c)) {
        diffs.add("extra class: " + c);
      }
    }
    return diffs;
  }

  /**
   * Reads the reference shape.
   *
   * @param reference the file
   * @return its text
   */
  static String read(Path reference) {
    try {
      return Files.readString(reference);
    } catch (IOException e) {
      throw new IllegalStateException(reference.toString(), e);
    }
  }
}
