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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A resource type made from another library's kind record, and the checks of its parts. */
class ResourceTypeTest {

  /** A record shaped as kubejobs-core's ResourceKind, which the testkit cannot depend on. */
  record KindLike(String group, String version, String plural, String kind) {}

  record Extra(int weight, String kind, String plural, String version, String group) {}

  record NoPlural(String group, String version, String kind) {}

  @Test
  void aKindRecordOfAnotherLibraryBecomesTheTypeWithTheSameParts() {
    ResourceType type =
        ResourceType.of(
            new KindLike("spark.apache.org", "v1", "sparkapplications", "SparkApplication"));

    assertThat(type).isEqualTo(ResourceType.APACHE_SPARK_APPLICATION);
    assertThat(ResourceType.of(new Extra(3, "Pod", "pods", "v1", ""))).isEqualTo(ResourceType.POD);
  }

  @Test
  void aRecordWithoutOneOfTheFourPartsOrWithAnInvalidPartIsRefused() {
    assertThatThrownBy(() -> ResourceType.of(new NoPlural("g.io", "v1", "Thing")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no String component named plural");
    assertThatThrownBy(() -> ResourceType.of(new KindLike("g.io", "v1", "Things", "Thing")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("plural must be lower case");
  }
}
