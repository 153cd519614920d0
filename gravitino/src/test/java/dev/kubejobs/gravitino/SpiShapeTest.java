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

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.apache.gravitino.connector.job.JobExecutor;
import org.junit.jupiter.api.Test;

/**
 * The SPI stand-ins of {@code gravitino-stubs}, which this module compiles against, have the binary
 * shape of Gravitino's real classes: every public class and member (declaration and descriptor) of
 * {@code javap -public -s} on the compiled stand-ins equals {@code
 * ../shared/gravitino/job-spi-main.javap.txt}, members the real classes lack included. The executor
 * links to these names at run time in the server: a member the server's classes lack is a {@code
 * NoSuchMethodError} in Gravitino's status pull. Skipped, with one line, when the reference file is
 * absent.
 */
class SpiShapeTest {

  @Test
  void theStandInsCompiledClassesHaveExactlyTheRealSpisPublicMembers() {
    Path reference = SpiShape.reference();
    assumeTrue(reference != null, SpiShape::skipLine);
    Path standIns = SpiShape.location(JobExecutor.class);

    String actual = SpiShape.javap(standIns);

    assertThat(SpiShape.differences(actual, SpiShape.read(reference)))
        .as("javap -public -s of the stand-ins in %s against %s", standIns, reference)
        .isEmpty();
  }

  @Test
  void aOneLetterChangeOfAMemberNameAndAnExtraMemberAreDifferences() {
    Path reference = SpiShape.reference();
    assumeTrue(reference != null, SpiShape::skipLine);
    String real = SpiShape.read(reference);
    String renamed = real.replace(" withStatus(", " withStatuz(");
    String finishedAt =
        "  public java.time.Instant finishedAt();\n    descriptor: ()Ljava/time/Instant;\n";
    String extra =
        real.replace(
            finishedAt,
            finishedAt
                + "\n  public boolean canEqual(java.lang.Object);\n"
                + "    descriptor: (Ljava/lang/Object;)Z\n");

    assertThat(renamed).isNotEqualTo(real);
    assertThat(extra).isNotEqualTo(real);
    assertThat(SpiShape.differences(real, real)).isEmpty();
    assertThat(SpiShape.differences(renamed, real))
        .hasSize(2)
        .anyMatch(d -> d.startsWith("missing in ") && d.contains(" withStatus("))
        .anyMatch(d -> d.startsWith("extra in ") && d.contains(" withStatuz("));
    assertThat(SpiShape.differences(extra, real))
        .singleElement()
        .asString()
        .startsWith(
            "extra in public final class org.apache.gravitino.connector.job.JobExecutionInfo")
        .contains("canEqual");
  }
}
