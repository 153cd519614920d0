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
package dev.kubejobs.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The loops of {@link NameShapes} match exactly the patterns Kubernetes validates names with
 * (k8s.io/apimachinery {@code pkg/util/validation/validation.go}): every text of up to five
 * characters over an alphabet of each character class the patterns tell apart is checked against
 * the pattern itself.
 */
class NameShapesTest {
  private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String ALPHABET = "a0Z-_.é/";

  @Test
  void eachShapeMatchesItsPatternOnEveryShortText() {
    assertSame(NameShapes::dns1123Label, Pattern.compile(LABEL));
    assertSame(NameShapes::dns1035Label, Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?"));
    assertSame(NameShapes::dns1123Subdomain, Pattern.compile(LABEL + "(\\." + LABEL + ")*"));
    assertSame(NameShapes::qualified, Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"));
  }

  private static void assertSame(Predicate<String> shape, Pattern pattern) {
    List<String> texts = texts(5);
    int matched = 0;
    for (String text : texts) {
      boolean expected = pattern.matcher(text).matches();
      assertThat(shape.test(text)).as("'%s' against %s", text, pattern).isEqualTo(expected);
      matched += expected ? 1 : 0;
    }
    // Both answers were given many times: the comparison could fail either way.
    assertThat(matched).isBetween(50, texts.size() - 50);
  }

  private static List<String> texts(int maxLength) {
    List<String> out = new ArrayList<>();
    out.add("");
    int from = 0;
    for (int length = 1; length <= maxLength; length++) {
      int to = out.size();
      for (int i = from; i < to; i++) {
        for (char c : ALPHABET.toCharArray()) {
          out.add(out.get(i) + c);
        }
      }
      from = to;
    }
    return out;
  }
}
