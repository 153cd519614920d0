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

import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.NotBlank;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

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

  @Property
  void namesAreDeterministicDns1035AndAtMost63Characters(
      @ForAll @NotBlank @StringLength(max = 300) String jobId) {
    String name = JobIdentity.of("kj", "a", "etl", jobId).name();
    assertThat(name).hasSizeLessThanOrEqualTo(63).matches(DNS_1035);
    assertThat(JobIdentity.of("kj", "a", "etl", jobId).name()).isEqualTo(name);
  }

  @Property
  void distinctJobIdsGetDistinctNames(
      @ForAll @NotBlank @StringLength(max = 80) String a,
      @ForAll @NotBlank @StringLength(max = 80) String b) {
    if (!a.equals(b)) {
      assertThat(JobIdentity.of("kj", "d", "etl", a).name())
          .isNotEqualTo(JobIdentity.of("kj", "d", "etl", b).name());
    }
  }
}
