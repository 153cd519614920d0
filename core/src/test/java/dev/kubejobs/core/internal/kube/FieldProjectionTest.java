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
package dev.kubejobs.core.internal.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.kubejobs.core.internal.json.JsonBytes;
import dev.kubejobs.core.internal.json.JsonTree;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class FieldProjectionTest {
  private static final String APP =
      "{\"apiVersion\":\"v1\",\"kind\":\"App\",\"metadata\":{\"name\":\"a\",\"uid\":\"u\","
          + "\"labels\":{\"x.io/y\":\"1\"},\"managedFields\":[{\"manager\":\"m\"}]},"
          + "\"spec\":{\"image\":\"i\",\"conf\":{\"k\":\"v\"},\"restart\":{\"type\":\"Never\","
          + "\"retries\":3},\"driver\":{\"podName\":\"p\",\"cores\":1}},"
          + "\"status\":{\"state\":\"RUNNING\",\"n\":12345678901234567890,\"list\":[1,{\"a\":null}]},"
          + "\"extra\":true}";

  private static JsonObject read(FieldProjection p, String json) throws IOException {
    return p.read(bytes(json)).toGson();
  }

  /** A reader of the JSON whose buffer is small enough that names and values span refills. */
  private static JsonBytes bytes(String json) {
    return new JsonBytes(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), 3);
  }

  /** What a read with {@code goOn} kept, as Gson's; null when it skipped the rest. */
  private static JsonObject read(FieldProjection p, JsonBytes in, Predicate<JsonObject> goOn)
      throws IOException {
    JsonTree.Obj kept = p.read(in, metadata -> goOn.test(metadata.toGson()), new JsonTree.Parser());
    return kept == null ? null : kept.toGson();
  }

  private static JsonObject json(String json) {
    return JsonParser.parseString(json).getAsJsonObject();
  }

  @Test
  void keepsMetadataWithoutManagedFieldsAndOnlyTheFieldsNamed() throws IOException {
    FieldProjection p = FieldProjection.of(Set.of("status", "spec.restart", "spec.driver.podName"));

    JsonObject kept = read(p, APP);

    assertThat(kept)
        .isEqualTo(
            json(
                "{\"apiVersion\":\"v1\",\"kind\":\"App\",\"metadata\":{\"name\":\"a\",\"uid\":\"u\","
                    + "\"labels\":{\"x.io/y\":\"1\"}},\"spec\":{\"restart\":{\"type\":\"Never\","
                    + "\"retries\":3},\"driver\":{\"podName\":\"p\"}},\"status\":{\"state\":"
                    + "\"RUNNING\",\"n\":12345678901234567890,\"list\":[1,{\"a\":null}]}}"));
  }

  @Test
  void aFieldNamedWhoseValueIsNotAnObjectIsKeptAsItIs() throws IOException {
    FieldProjection p = FieldProjection.of(Set.of("status.state", "spec.driver.podName"));
    String odd =
        "{\"metadata\":{\"name\":\"a\"},\"spec\":\"garbage\",\"status\":[1,2],\"other\":{}}";

    JsonObject kept = read(p, odd);

    assertThat(kept)
        .isEqualTo(json("{\"metadata\":{\"name\":\"a\"},\"spec\":\"garbage\",\"status\":[1,2]}"));
  }

  @Test
  void aPathUnderOneKeptWholeKeepsTheWholeInEitherOrder() throws IOException {
    for (List<String> paths :
        List.of(List.of("spec", "spec.driver.podName"), List.of("spec.driver.podName", "spec"))) {
      FieldProjection p = FieldProjection.of(paths);

      assertThat(read(p, APP).get("spec")).as("%s", paths).isEqualTo(json(APP).get("spec"));
    }
  }

  @Test
  void managedFieldsStayWhenNamedAndNoFieldsKeepsTheWholeResource() throws IOException {
    assertThat(
            read(FieldProjection.of(Set.of("metadata.managedFields")), APP)
                .getAsJsonObject("metadata")
                .has("managedFields"))
        .isTrue();
    assertThat(FieldProjection.of(Set.of()).isWhole()).isTrue();
    assertThat(read(FieldProjection.of(Set.of()), APP)).isEqualTo(json(APP));
    assertThat(FieldProjection.of(Set.of("status")).isWhole()).isFalse();
  }

  @Test
  void aReaderShownTheMetadataFirstGetsTheSameObjectOrSkipsTheRestUnbuilt() throws IOException {
    for (FieldProjection p :
        List.of(FieldProjection.of(Set.of("status", "spec.restart")), FieldProjection.WHOLE)) {
      List<JsonObject> shown = new ArrayList<>();
      JsonObject all =
          read(
              p,
              bytes(APP),
              metadata -> {
                shown.add(metadata);
                return true;
              });
      assertThat(all).isEqualTo(read(p, APP));
      assertThat(shown).containsExactly(all.getAsJsonObject("metadata"));

      // Two objects in an array: the first is skipped after its metadata, the second read on.
      JsonBytes in = bytes("[" + APP + "," + APP + "]");
      in.beginArray();
      assertThat(read(p, in, metadata -> false)).isNull();
      assertThat(read(p, in, metadata -> true)).isEqualTo(all);
      in.endArray();
      assertThat(in.peek()).isEqualTo(JsonBytes.Token.END_DOCUMENT);
    }
  }

  @Test
  void metadataAfterTheOtherFieldsIsStillShownAndAnObjectWithoutItIsReadWhole() throws IOException {
    FieldProjection p = FieldProjection.of(Set.of("status"));
    String late = "{\"status\":{\"state\":\"RUNNING\"},\"metadata\":{\"name\":\"a\"},\"x\":1}";
    List<JsonObject> shown = new ArrayList<>();

    assertThat(read(p, bytes(late), shown::add))
        .isEqualTo(json("{\"status\":{\"state\":\"RUNNING\"},\"metadata\":{\"name\":\"a\"}}"));
    assertThat(shown).containsExactly(json("{\"name\":\"a\"}"));
    assertThat(read(p, bytes("{\"metadata\":\"odd\",\"status\":{}}"), metadata -> false))
        .isEqualTo(json("{\"metadata\":\"odd\",\"status\":{}}"));
  }

  @Test
  void malformedJsonFailsTheReadInASkippedPartToo() {
    FieldProjection p = FieldProjection.of(Set.of("status"));

    assertThatThrownBy(() -> read(p, "{\"spec\":{\"a\":[1,}},\"status\":{}}"))
        .isInstanceOfAny(IOException.class, JsonParseException.class);
    assertThatThrownBy(() -> read(p, "{\"status\":{\"a\":1"))
        .isInstanceOfAny(IOException.class, JsonParseException.class);
    assertThatThrownBy(
            () ->
                p.read(
                    bytes("{\"metadata\":{},\"spec\":{\"a\":[1,}},\"x\":1}"),
                    metadata -> false,
                    new JsonTree.Parser()))
        .isInstanceOfAny(IOException.class, JsonParseException.class);
  }

  @Test
  void malformedPathsAreRefused() {
    for (String bad : new String[] {"", "  ", "a..b", ".a", "a.", null}) {
      assertThatThrownBy(() -> FieldProjection.of(Arrays.asList("status", bad)))
          .as("'%s'", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("JobKind.statusFields()");
    }
    assertThatThrownBy(() -> FieldProjection.of(null)).isInstanceOf(IllegalArgumentException.class);
  }
}
