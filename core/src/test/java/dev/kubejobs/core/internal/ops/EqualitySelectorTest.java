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
package dev.kubejobs.core.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The per-job driver selector is matched against pods listed together only when it is
 * equality-based; anything else (set-based, inequality, existence) makes the job's pod be looked up
 * alone, as apimachinery's labels.Parse would read it differently.
 */
class EqualitySelectorTest {
  @Test
  void equalityPairsAreTheLabelsAMatchingPodMustCarry() {
    assertThat(EqualitySelector.parse("spark-role=driver,spark.operator/spark-app-name=kj-a"))
        .isEqualTo(Map.of("spark-role", "driver", "spark.operator/spark-app-name", "kj-a"));
    assertThat(EqualitySelector.parse("a==b, c = d")).isEqualTo(Map.of("a", "b", "c", "d"));
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"a!=b", "a in (b,c)", "!a", "a", "a=b,a=c", "=b", "a=b=c", "a=b,,c=d"})
  void anythingElseCannotBeMatchedHere(String selector) {
    assertThat(EqualitySelector.parse(selector)).isNull();
  }
}
