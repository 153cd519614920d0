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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps every doc a user reads true as a whole: each relative link (and its #anchor) resolves and
 * each linked {@code Test.method} exists; each Java block is a verbatim quote of a source the build
 * compiles; no table row and no example method is stated in two docs; and no development history
 * (issue numbers, "this build") is in them.
 */
class DocsTest {
  static final Path ROOT = Path.of("..");

  /** The docs users read. */
  static final List<String> DOCS =
      List.of(
          "README.md",
          "core/README.md",
          "spark/README.md",
          "testkit/README.md",
          "testkit/README-operator.md",
          "examples/README.md",
          "docs/performance.md",
          "docs/rbac.md",
          "docs/gravitino.md",
          "gravitino/README.md",
          "CONTRIBUTING.md",
          "CHANGELOG.md");

  static final Pattern LINK = Pattern.compile("\\[`?([^\\]`]+)`?\\]\\(([^)\\s]+)\\)");
  static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  static final Pattern TEST_METHOD = Pattern.compile("^([A-Z][A-Za-z0-9]*)\\.([a-z][A-Za-z0-9]*)$");

  static Map<String, String> docs;
  static List<Path> sources;

  @BeforeAll
  static void read() throws IOException {
    docs = new LinkedHashMap<>();
    for (String doc : DOCS) {
      docs.put(doc, Files.readString(ROOT.resolve(doc)));
    }
    sources = new ArrayList<>();
    for (String dir :
        List.of("core/src", "spark/src", "testkit/src", "examples/src", "consumer-check/src")) {
      try (Stream<Path> files = Files.walk(ROOT.resolve(dir))) {
        files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
      }
    }
  }

  @Test
  void everyRelativeLinkAnchorAndLinkedTestMethodExists() throws IOException {
    int links = 0;
    int tests = 0;
    for (Map.Entry<String, String> doc : docs.entrySet()) {
      Path dir = ROOT.resolve(doc.getKey()).getParent();
      Matcher link = LINK.matcher(doc.getValue());
      while (link.find()) {
        String text = link.group(1);
        String target = link.group(2);
        if (target.matches("^[a-z]+:.*")) {
          continue; // https:, mailto:
        }
        String[] parts = target.split("#", 2);
        Path file =
            (parts[0].isEmpty() ? ROOT.resolve(doc.getKey()) : dir.resolve(parts[0]))
                .toAbsolutePath()
                .normalize();
        assertThat(file).as("[%s](%s) in %s", text, target, doc.getKey()).exists();
        links++;
        if (parts.length == 2) {
          assertThat(anchors(Files.readString(file)))
              .as("anchor of [%s](%s) in %s", text, target, doc.getKey())
              .contains(parts[1]);
        }
        Matcher test = TEST_METHOD.matcher(text);
        if (test.matches() && file.toString().endsWith(".java")) {
          assertThat(file.getFileName().toString()).isEqualTo(test.group(1) + ".java");
          assertThat(Files.readString(file))
              .as("%s in %s, linked from %s", test.group(2), target, doc.getKey())
              .containsPattern("(void|Stream<DynamicTest>) " + test.group(2) + "\\(");
          tests++;
        }
      }
    }
    assertThat(links).isGreaterThan(50);
    assertThat(tests).isGreaterThan(10);
  }

  @Test
  void everyJavaBlockIsQuotedFromACompiledSource() {
    List<String> normalized = sources.stream().map(s -> normalize(read(s))).toList();
    List<String> notCompiled = new ArrayList<>();
    int blocks = 0;
    for (Map.Entry<String, String> doc : docs.entrySet()) {
      Matcher block = JAVA_BLOCK.matcher(doc.getValue());
      while (block.find()) {
        String quote = normalize(block.group(1));
        blocks++;
        if (normalized.stream().noneMatch(s -> s.contains(quote))) {
          notCompiled.add(doc.getKey() + ": " + block.group(1).lines().findFirst().orElse(""));
        }
      }
    }
    assertThat(notCompiled).as("Java blocks quoted from no compiled source").isEmpty();
    assertThat(blocks).isGreaterThanOrEqualTo(8);
  }

  @Test
  void noExampleMethodIsQuotedInTwoDocs() {
    Pattern method =
        Pattern.compile(
            "(?m)^\\s*(?:(?:public|protected|private|static|final) )*(?:<[^>]+> )?"
                + "[\\w<>\\[\\], .]+ ([a-z][A-Za-z0-9]*)\\([^;]*\\{$");
    Map<String, String> firstDoc = new HashMap<>();
    for (Map.Entry<String, String> doc : docs.entrySet()) {
      Matcher block = JAVA_BLOCK.matcher(doc.getValue());
      while (block.find()) {
        Matcher m = method.matcher(block.group(1));
        while (m.find()) {
          String earlier = firstDoc.putIfAbsent(m.group(1), doc.getKey());
          assertThat(earlier == null || earlier.equals(doc.getKey()))
              .as("the example %s() is in %s and %s", m.group(1), earlier, doc.getKey())
              .isTrue();
        }
      }
    }
    // the README's program and test, the testkit's next steps, core's usage
    assertThat(firstDoc)
        .containsEntry("main", "README.md")
        .containsEntry("aJobIsQueuedThenStartedThenSucceeded", "README.md")
        .containsEntry("aJobOnTheFailedPathFails", "testkit/README-operator.md")
        .containsEntry("usage", "core/README.md");
  }

  @Test
  void noTableRowIsStatedInTwoDocs() {
    Map<String, String> firstDoc = new HashMap<>();
    for (Map.Entry<String, String> doc : docs.entrySet()) {
      for (String row : doc.getValue().lines().filter(l -> l.startsWith("| ")).toList()) {
        if (row.length() < 40) {
          continue; // headers such as "| setting | default | rule |"
        }
        String earlier = firstDoc.putIfAbsent(row, doc.getKey());
        assertThat(earlier == null || earlier.equals(doc.getKey()))
            .as("the row %s is in %s and %s", row, earlier, doc.getKey())
            .isTrue();
      }
    }
    assertThat(firstDoc).hasSizeGreaterThan(100);
  }

  @Test
  void userDocsCarryNoDevelopmentHistory() {
    Pattern history =
        Pattern.compile(
            "(?i)\\bissues? #?\\d+|\\(issue|\\bthis build\\b|\\bearlier builds?\\b"
                + "|\\bbranch `|please replay|race-findings"
                // a work session, a commit of this repository (a short hash; an upstream
                // source is cited by its full 40-digit commit), a dated log, a version "here"
                + "|\\bsessions?\\b|\\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,12}\\b"
                + "|\\b(?:on|since|as of|until) 20\\d\\d-\\d\\d-\\d\\d\\b|\\(\\d+\\.\\d+ here\\)"
                + "|\\bas indexed by\\b");
    for (Map.Entry<String, String> doc : docs.entrySet()) {
      Matcher m = history.matcher(doc.getValue());
      assertThat(m.find() ? m.group() : null)
          .as("development history in %s", doc.getKey())
          .isNull();
    }
  }

  /** The anchors GitHub gives the headings of a markdown file. */
  static Set<String> anchors(String markdown) {
    return markdown
        .lines()
        .filter(l -> l.startsWith("#"))
        .map(l -> l.replaceFirst("^#+\\s*", ""))
        .map(h -> h.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'))
        .collect(Collectors.toSet());
  }

  /** Each line stripped of its indent: a quote may sit at another indent than its source. */
  private static String normalize(String text) {
    return text.lines().map(String::strip).collect(Collectors.joining("\n", "", "\n"));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lines between the --8<-- markers of a source file, with their common indent removed. */
  static String region(Path source, String name) throws IOException {
    List<String> lines = Files.readAllLines(source);
    int start = -1;
    int end = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("[start:" + name + "]")) {
        start = i;
      } else if (lines.get(i).contains("[end:" + name + "]")) {
        end = i;
      }
    }
    assertThat(start).as("region %s in %s", name, source).isNotNegative().isLessThan(end);
    List<String> body = lines.subList(start + 1, end);
    int indent =
        body.stream()
            .filter(l -> !l.isBlank())
            .mapToInt(l -> l.length() - l.stripLeading().length())
            .min()
            .orElse(0);
    StringBuilder s = new StringBuilder();
    for (String l : body) {
      s.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
    }
    return s.toString();
  }
}
