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
