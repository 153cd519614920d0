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

import dev.kubejobs.core.spi.ResourceKind;
import org.junit.jupiter.api.Test;

/**
 * The places whose own copy of a DNS rule had no length bound now have the Kubernetes one (issue
 * 12): a DNS-1123 label is at most 63 characters, a DNS-1123 subdomain at most 253 (apimachinery's
 * {@code pkg/util/validation/validation.go} {@code IsDNS1123Label}, {@code IsDNS1123Subdomain}). No
 * CRD can have a longer plural, version or group, so no real kind or id is refused.
 */
class NameLengthsTest {
  private static final String LABEL_63 = "a".repeat(63);
  private static final String LABEL_64 = "a".repeat(64);
  private static final String GROUP_253 =
      "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);

  @Test
  void resourceKindTakesAPluralAndVersionOf63AndAGroupOf253Characters() {
    ResourceKind kind = new ResourceKind(GROUP_253, LABEL_63, LABEL_63, "Thing");

    assertThat(kind.qualifiedPlural()).hasSize(63 + 1 + 253);
  }

  @Test
  void resourceKindRefusesAPluralOrVersionOf64Characters() {
    assertThatThrownBy(() -> new ResourceKind("example.com", "v1", LABEL_64, "Thing"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("plural must be a lower-case DNS name, but was 'aaaa");
    assertThatThrownBy(() -> new ResourceKind("example.com", LABEL_64, "things", "Thing"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("version must be a lower-case DNS name");
  }

  @Test
  void resourceKindRefusesAGroupOf254Characters() {
    assertThatThrownBy(() -> new ResourceKind(GROUP_253 + "d", "v1", "things", "Thing"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("group must be a lower-case DNS name");
  }

  @Test
  void executionIdTakesAPluralOf63AndRefusesOneOf64Characters() {
    assertThat(ExecutionId.parse("prod/" + LABEL_63 + ".example.com/etl/kj-1").plural())
        .isEqualTo(LABEL_63);
    assertThatThrownBy(() -> ExecutionId.parse("prod/" + LABEL_64 + ".example.com/etl/kj-1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("plural must be a lower-case DNS label, but was 'aaaa");
  }
}
