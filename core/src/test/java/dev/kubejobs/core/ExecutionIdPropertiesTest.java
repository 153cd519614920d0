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

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of {@link ExecutionId}: it round-trips, and parse never fails untyped. */
class ExecutionIdPropertiesTest {

  @Property
  void formatThenParseReturnsTheSameId(@ForAll("ids") ExecutionId id) {
    assertThat(ExecutionId.parse(id.toString())).isEqualTo(id);
    assertThat(ExecutionId.parse(id.toString()).toString()).isEqualTo(id.toString());
  }

  @Property(tries = 2000)
  void parseReturnsAnIdOrThrowsIllegalArgumentForAnyString(@ForAll("texts") String text) {
    try {
      ExecutionId id = ExecutionId.parse(text);
      assertThat(id.toString()).isEqualTo(text);
    } catch (IllegalArgumentException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  @Provide
  Arbitrary<String> texts() {
    Arbitrary<String> any = Arbitraries.strings().ofMaxLength(80);
    Arbitrary<String> slashy = Arbitraries.strings().withChars("abc-./_XZ09 ").ofMaxLength(40);
    Arbitrary<String> nearlyValid =
        ids()
            .map(ExecutionId::toString)
            .flatMap(s -> Arbitraries.integers().between(0, s.length()).map(i -> mutate(s, i)));
    return Arbitraries.oneOf(any, slashy, nearlyValid, ids().map(ExecutionId::toString));
  }

  private static String mutate(String s, int i) {
    return i >= s.length() ? s + "/" : s.substring(0, i) + s.substring(i + 1);
  }

  @Provide
  Arbitrary<ExecutionId> ids() {
    Arbitrary<String> label =
        Arbitraries.strings()
            .withChars("abcdefghijklmnopqrstuvwxyz0123456789-")
            .ofMinLength(1)
            .ofMaxLength(20)
            .filter(s -> !s.startsWith("-") && !s.endsWith("-"));
    Arbitrary<String> cluster =
        Arbitraries.strings()
            .withChars("abcXYZ019-_.")
            .ofMinLength(1)
            .ofMaxLength(20)
            .filter(s -> Character.isLetterOrDigit(s.charAt(0)))
            .filter(s -> Character.isLetterOrDigit(s.charAt(s.length() - 1)));
    Arbitrary<String> group = label.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join(".", l));
    return Combinators.combine(cluster, label, group, label, label)
        .as(
            (c, plural, g, ns, name) ->
                ExecutionId.of(c, new ResourceKind(g, "v1", plural, "Kind"), ns, name));
  }
}
