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

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure helpers: RFC 7386 merge patch, RFC 6902 JSON patch, label selectors. */
class PatchAndSelectorTest {

  private static JsonElement json(String s) {
    return JsonParser.parseString(s.replace('\'', '"'));
  }

  @Test
  void mergePatchFollowsTheRfc7386Examples() {
    assertThat(MergePatch.apply(json("{'a':'b'}"), json("{'a':'c'}"))).isEqualTo(json("{'a':'c'}"));
    assertThat(MergePatch.apply(json("{'a':'b'}"), json("{'b':'c'}")))
        .isEqualTo(json("{'a':'b','b':'c'}"));
    assertThat(MergePatch.apply(json("{'a':'b'}"), json("{'a':null}"))).isEqualTo(json("{}"));
    assertThat(MergePatch.apply(json("{'a':['b']}"), json("{'a':'c'}")))
        .isEqualTo(json("{'a':'c'}"));
    assertThat(MergePatch.apply(json("{'a':{'b':'c'}}"), json("{'a':{'b':'d','c':null}}")))
        .isEqualTo(json("{'a':{'b':'d'}}"));
    assertThat(MergePatch.apply(json("{'e':null}"), json("{'a':1}")))
        .isEqualTo(json("{'e':null,'a':1}"));
    assertThat(MergePatch.apply(json("{}"), json("{'a':{'bb':{'ccc':null}}}")))
        .isEqualTo(json("{'a':{'bb':{}}}"));
  }

  @Test
  void jsonPatchIsAllOrNothing() {
    JsonElement doc = json("{'a':1}");

    assertThatThrownBy(
            () ->
                JsonPatch.apply(
                    doc,
                    json("[{'op':'add','path':'/b','value':2},{'op':'remove','path':'/zz'}]")
                        .getAsJsonArray()))
        .isInstanceOf(JsonPatch.PatchException.class)
        .hasMessageContaining("/zz");
    assertThat(doc).isEqualTo(json("{'a':1}"));
  }

  @Test
  void jsonPointersUnescapeTildeAndSlash() {
    assertThat(JsonPatch.tokens("/a~1b/c~0d/~01")).containsExactly("a/b", "c~d", "~1");
    assertThat(
            JsonPatch.apply(
                json("{'a/b':{'c~d':1}}"),
                json("[{'op':'replace','path':'/a~1b/c~0d','value':2}]").getAsJsonArray()))
        .isEqualTo(json("{'a/b':{'c~d':2}}"));
  }

  @Test
  void labelSelectorsEvaluateEveryOperator() {
    Map<String, String> labels = Map.of("app", "pi", "tier", "batch");

    assertThat(LabelSelector.parse("app=pi,tier in (batch, stream)").matches(labels)).isTrue();
    assertThat(LabelSelector.parse("app!=pi").matches(labels)).isFalse();
    assertThat(LabelSelector.parse("missing!=x").matches(labels)).isTrue();
    assertThat(LabelSelector.parse("tier notin (stream)").matches(labels)).isTrue();
    assertThat(LabelSelector.parse("!app").matches(labels)).isFalse();
    assertThat(LabelSelector.parse("kubejobs.dev/id").matches(labels)).isFalse();
    assertThat(LabelSelector.parse("").matches(labels)).isTrue();
    assertThatThrownBy(() -> LabelSelector.parse("a=b,,c"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
