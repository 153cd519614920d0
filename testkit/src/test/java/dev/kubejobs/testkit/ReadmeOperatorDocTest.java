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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The first-test example of {@code README-operator.md} is the consumer check's real test, quoted
 * verbatim between its {@code --8<--} markers.
 */
class ReadmeOperatorDocTest {

  private static final Path FIRST_TEST =
      Path.of(
          "../consumer-check/src/it/first-tests/src/test/java/com/example/scheduler/FirstTest.java");

  @Test
  void theFirstTestExampleIsQuotedVerbatimFromTheConsumerCheck() throws IOException {
    List<String> lines = Files.readAllLines(FIRST_TEST);
    int start = indexOf(lines, "// --8<-- [start:first-test]");
    int end = indexOf(lines, "// --8<-- [end:first-test]");
    List<String> quoted = new ArrayList<>();
    for (String line : lines.subList(start + 1, end)) {
      quoted.add(line.startsWith("  ") ? line.substring(2) : line);
    }

    String readme = Files.readString(Path.of("README-operator.md"));

    assertThat(quoted).hasSizeGreaterThan(20);
    assertThat(readme).contains("```java\n" + String.join("\n", quoted) + "\n```");
  }

  private static int indexOf(List<String> lines, String marker) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).trim().equals(marker)) {
        return i;
      }
    }
    throw new AssertionError("no line " + marker + " in " + FIRST_TEST);
  }
}
