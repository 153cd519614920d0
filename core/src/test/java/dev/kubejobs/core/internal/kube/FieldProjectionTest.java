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

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FieldProjectionTest {
  private static final String APP =
      "{\"apiVersion\":\"v1\",\"kind\":\"App\",\"metadata\":{\"name\":\"a\",\"uid\":\"u\","
          + "\"resourceVersion\":\"7\","
          + "\"labels\":{\"x.io/y\":\"1\"},\"managedFields\":[{\"manager\":\"m\"}]},"
          + "\"spec\":{\"image\":\"i\",\"conf\":{\"k\":\"v\"},\"restart\":{\"type\":\"Never\","
          + "\"retries\":3},\"driver\":{\"podName\":\"p\",\"cores\":1}},"
          + "\"status\":{\"state\":\"RUNNING\",\"n\":12345678901234567890,\"list\":[1,{\"a\":null}]},"
          + "\"extra\":true}";

  private static JsonObject read(FieldProjection p, String json) throws IOException {
    return p.read(bytes(json)).toGson();
  }

  /**
   * jackson-core's byte parser over the JSON, as the gateway makes it, at its first token; the
   * stream gives at most 3 bytes per read, so names and values span the parser's refills.
   */
  private static JsonParser bytes(String json) throws IOException {
    InputStream trickle =
        new FilterInputStream(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))) {
          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            return super.read(b, off, Math.min(len, 3));
          }
        };
    JsonParser parser = JsonBodies.parser(trickle);
    parser.nextToken();
    return parser;
  }

  private static JsonObject json(String json) {
    return com.google.gson.JsonParser.parseString(json).getAsJsonObject();
  }

  /** A copy held, by its uid and resourceVersion. */
  private record Held(String uid, String resourceVersion) implements HeldCopy {}

  /** What a read with these copies held kept, as Gson's; null when it skipped a copy held. */
  private static JsonObject read(FieldProjection p, JsonParser in, Map<String, Held> held)
      throws IOException {
    List<String> heldNames = new java.util.ArrayList<>();
    JsonTree.Obj kept = p.read(in, held, new JsonTree.Parser(), heldNames);
    assertThat(heldNames).hasSize(kept == null ? 1 : 0);
    return kept == null ? null : kept.toGson();
  }

  @Test
  void keepsMetadataWithoutManagedFieldsAndOnlyTheFieldsNamed() throws IOException {
    FieldProjection p = FieldProjection.of(Set.of("status", "spec.restart", "spec.driver.podName"));

    JsonObject kept = read(p, APP);

    assertThat(kept)
        .isEqualTo(
            json(
                "{\"apiVersion\":\"v1\",\"kind\":\"App\",\"metadata\":{\"name\":\"a\",\"uid\":\"u\","
                    + "\"resourceVersion\":\"7\","
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
  void aCopyHeldAlreadyIsSkippedAfterItsMetadataAndAnyOtherReadOn() throws IOException {
    for (FieldProjection p :
        List.of(FieldProjection.of(Set.of("status", "spec.restart")), FieldProjection.WHOLE)) {
      JsonObject all = read(p, APP);
      assertThat(read(p, bytes(APP), Map.of())).isEqualTo(all);
      // another uid, another resourceVersion, another name, or none: not the copy held
      for (Map<String, Held> other :
          List.of(
              Map.of("a", new Held("v", "7")),
              Map.of("a", new Held("u", "8")),
              Map.of("b", new Held("u", "7")),
              Map.of("a", new Held("u", "")))) {
        assertThat(read(p, bytes(APP), other)).isEqualTo(all);
      }

      // Two objects in an array: the first is held and skipped after its metadata; the second,
      // with another resourceVersion, is read on whole.
      String second = APP.replace("\"7\"", "\"9\"");
      JsonParser in = bytes("[" + APP + "," + second + "]");
      Map<String, Held> held = Map.of("a", new Held("u", "7"));
      in.nextToken();
      assertThat(read(p, in, held)).isNull();
      in.nextToken();
      assertThat(read(p, in, held)).isEqualTo(read(p, second));
      assertThat(in.nextToken()).isEqualTo(JsonToken.END_ARRAY);
      assertThat(in.nextToken()).isNull();
    }
  }

  @Test
  void copiesHeldAndChangedInOnePageShareOneTreeParserWhereverTheirIdentityFieldsStand()
      throws IOException {
    FieldProjection p = FieldProjection.of(Set.of("status"));
    // Go's encoding/json sorts a custom resource's keys, so a real server writes name, uid and
    // resourceVersion after labels; the testkit's fake writes them first. Either way a copy held
    // is skipped, and the tree parser's stack is left as it was for the next item.
    String first =
        "{\"apiVersion\":\"v1\",\"kind\":\"App\",\"metadata\":{\"name\":\"a\",\"uid\":\"u\",\"resourceVersion\":\"7\",";
    String sorted =
        "{\"apiVersion\":\"v1\",\"kind\":\"App\",\"metadata\":{\"labels\":{\"k\":\"v\"},\"name\":\"b\",\"resourceVersion\":\"3\","
            + "\"uid\":\"w\"},\"status\":{\"state\":\"RUNNING\"}}";
    String heldFirst =
        first + "\"labels\":{\"k\":[1,{\"x\":2}]},\"z\":1},\"status\":{\"state\":\"RUNNING\"}}";
    String changed = sorted.replace("\"3\"", "\"4\"");
    Map<String, Held> held = Map.of("a", new Held("u", "7"), "b", new Held("w", "3"));
    JsonParser in = bytes("[" + heldFirst + "," + changed + "," + sorted + "," + changed + "]");
    JsonTree.Parser trees = new JsonTree.Parser();
    List<String> heldNames = new java.util.ArrayList<>();
    List<JsonObject> kept = new java.util.ArrayList<>();
    for (JsonToken t = in.nextToken(); t != JsonToken.END_ARRAY; t = in.nextToken()) {
      JsonTree.Obj item = p.read(in, held, trees, heldNames);
      if (item != null) {
        kept.add(item.toGson());
      }
      assertThat(trees.begin()).as("the stack after an item").isZero();
    }

    assertThat(heldNames).containsExactly("a", "b");
    assertThat(kept).containsExactly(json(changed), json(changed));
    // what follows the identity of a copy held is still parsed: malformed, it fails the read
    assertThatThrownBy(() -> read(p, bytes(first + "\"labels\":{\"k\":[1,}},\"status\":{}}"), held))
        .isInstanceOfAny(IOException.class, JsonParseException.class);
  }

  @Test
  void metadataAfterTheOtherFieldsIsStillLookedAtAndAnObjectWithoutItIsReadWhole()
      throws IOException {
    FieldProjection p = FieldProjection.of(Set.of("status"));
    String late =
        "{\"status\":{\"state\":\"RUNNING\"},\"metadata\":{\"name\":\"a\",\"uid\":\"u\","
            + "\"resourceVersion\":\"7\"},\"x\":1,\"status2\":{}}";
    Map<String, Held> held = Map.of("a", new Held("u", "7"));

    assertThat(read(p, bytes(late), held)).isNull();
    assertThat(read(p, bytes("{\"metadata\":\"odd\",\"status\":{}}"), held))
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
                read(
                    p,
                    bytes(
                        "{\"metadata\":{\"name\":\"a\",\"uid\":\"u\",\"resourceVersion\":\"7\"},"
                            + "\"spec\":{\"a\":[1,}},\"x\":1}"),
                    Map.of("a", new Held("u", "7"))))
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
