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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.spi.ResourceSnapshot;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Naming rules of {@link JobIdentity}. */
class JobIdentityTest {
  private static final Pattern DNS_1035 = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

  @Test
  void aSafeJobIdKeepsItsReadableName() {
    assertThat(JobIdentity.of("kj", "a", "etl", "job-42").name()).isEqualTo("kj-job-42");
  }

  @Test
  void anUnsafeOrLongJobIdGetsAHashSuffixAndStaysWithin63Characters() {
    String name = JobIdentity.of("kj", "a", "etl", "Nightly ETL / 2026-01-01").name();
    assertThat(name).startsWith("kj-nightly-etl-2026-01-01-").matches(DNS_1035);
    String longName = JobIdentity.of("kj", "a", "etl", "x".repeat(500)).name();
    assertThat(longName).hasSizeLessThanOrEqualTo(63).matches(DNS_1035);
  }

  @Test
  void jobIdsDifferingOnlyInCaseOrPunctuationGetDistinctNames() {
    assertThat(JobIdentity.of("kj", "a", "etl", "Job_1").name())
        .isNotEqualTo(JobIdentity.of("kj", "a", "etl", "job-1").name())
        .isNotEqualTo(JobIdentity.of("kj", "a", "etl", "JOB.1").name());
  }

  @Test
  void ownershipNeedsJobIdDeploymentAndManagedBy() {
    JobIdentity identity = JobIdentity.of("kj", "a", "etl", "job-1");
    com.google.gson.JsonObject o = new com.google.gson.JsonObject();
    com.google.gson.JsonObject meta = new com.google.gson.JsonObject();
    com.google.gson.JsonObject labels = new com.google.gson.JsonObject();
    identity.labels().forEach(labels::addProperty);
    com.google.gson.JsonObject annotations = new com.google.gson.JsonObject();
    identity.annotations().forEach(annotations::addProperty);
    meta.add("labels", labels);
    meta.add("annotations", annotations);
    o.add("metadata", meta);
    assertThat(identity.owns(ResourceSnapshot.of(o))).isTrue();
    assertThat(JobIdentity.of("kj", "b", "etl", "job-1").owns(ResourceSnapshot.of(o))).isFalse();
    assertThat(JobIdentity.of("kj", "a", "etl", "job-2").owns(ResourceSnapshot.of(o))).isFalse();
  }

  @Test
  void invalidSettingsNameTheRule() {
    assertThatThrownBy(() -> JobIdentity.of("KJ", "a", "etl", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefix must be");
  }

  static LongStream seeds() {
    return LongStream.range(0, 1000);
  }

  /** Non-blank valid Unicode text of 1 to {@code max} chars (any characters, no lone surrogate). */
  static String jobId(Random r, int max) {
    String id;
    do {
      id = ExecutionIdPropertiesTest.anyString(r, max);
      id =
          id.codePoints()
              .filter(c -> !Character.isSurrogate((char) c) || c > 0xFFFF)
              .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
              .toString();
    } while (id.isBlank());
    return id;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void namesAreDeterministicDns1035AndAtMost63Characters(long seed) {
    String jobId = jobId(new Random(seed), 300);

    String name = JobIdentity.of("kj", "a", "etl", jobId).name();
    assertThat(name).hasSizeLessThanOrEqualTo(63).matches(DNS_1035);
    assertThat(JobIdentity.of("kj", "a", "etl", jobId).name()).isEqualTo(name);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void distinctJobIdsGetDistinctNames(long seed) {
    Random r = new Random(seed);
    String a = jobId(r, 80);
    // Half the cases are near misses: the same id with one character changed.
    String b =
        r.nextBoolean() ? jobId(r, 80) : a.substring(0, a.offsetByCodePoints(a.length(), -1)) + "x";
    if (!a.equals(b)) {
      assertThat(JobIdentity.of("kj", "d", "etl", a).name())
          .isNotEqualTo(JobIdentity.of("kj", "d", "etl", b).name());
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void jobIdsAreAcceptedExactlyWhenTheyAreValidUnicode(long seed) {
    String jobId = ExecutionIdPropertiesTest.anyString(new Random(seed), 40);
    if (jobId.isBlank()) {
      return;
    }
    boolean valid = java.nio.charset.StandardCharsets.UTF_8.newEncoder().canEncode(jobId);
    try {
      JobIdentity.of("kj", "d", "etl", jobId);
      assertThat(valid).as("accepted %s", jobId).isTrue();
    } catch (IllegalArgumentException e) {
      assertThat(valid).as("rejected: %s", e.getMessage()).isFalse();
      assertThat(e.getMessage()).contains("unpaired surrogate");
    }
  }
}
