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
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The compact tree reads, through jackson-core's byte parser as the gateway configures it, what
 * Gson's parser reads, and converts both ways without loss.
 */
class JsonTreeTest {
  /** A byte parser over the JSON, at its first token. */
  private static JsonParser bytes(String json) throws IOException {
    JsonParser parser = JsonBodies.parser(json.getBytes(StandardCharsets.UTF_8));
    parser.nextToken();
    return parser;
  }

  private static Object read(String json) throws IOException {
    return JsonTree.read(bytes(json));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "[]",
        "{\"a\":null,\"b\":true,\"c\":false,\"d\":\"x\\\"y\\u00e9\\n\",\"e\":[1,-2.5e3,{}],\"f\":{}}",
        "{\"n\":12345678901234567890123,\"m\":1.0,\"z\":-0,\"s\":\"12\"}",
        "{\"a\":1,\"b\":2,\"a\":3}",
        "[null,[[\"deep\"]],{\"k\":[{\"l\":\"m\"}]}]",
        "\"text\"",
        "42"
      })
  void readsWhatGsonReadsAndConvertsBackToTheSameTree(String json) throws IOException {
    JsonElement gson = com.google.gson.JsonParser.parseString(json);

    Object tree = read(json);

    assertThat(JsonTree.toGson(tree)).isEqualTo(gson);
    assertThat(JsonTree.toGson(tree).toString()).isEqualTo(gson.toString());
    assertThat(JsonTree.toGson(JsonTree.fromGson(gson))).isEqualTo(gson);
  }

  @Test
  void aNameReadTwiceKeepsItsFirstPlaceAndItsLastValueInSmallAndLargeObjects() throws IOException {
    for (int fields : List.of(3, 11, 12, 13, 40)) {
      StringBuilder json = new StringBuilder("{");
      for (int i = 0; i < fields; i++) {
        json.append("\"f").append(i).append("\":").append(i).append(',');
      }
      json.append("\"f0\":\"again\",\"f").append(fields - 1).append("\":\"last\"}");

      JsonTree.Obj obj = (JsonTree.Obj) read(json.toString());

      assertThat(obj.size()).as("%d fields", fields).isEqualTo(fields);
      assertThat(obj.name(0)).isEqualTo("f0");
      assertThat(obj.get("f0")).isEqualTo("again");
      assertThat(obj.text("f" + (fields - 1))).isEqualTo("last");
      assertThat(obj.text("f1")).isEqualTo(fields > 2 ? "1" : "last");
      assertThat(obj.has("f" + fields)).isFalse();
      assertThat(obj.get("f" + fields)).isNull();
      assertThat(obj.names()).hasSize(fields).startsWith("f0", "f1").contains("f2");
      assertThat(JsonTree.toGson(obj))
          .isEqualTo(com.google.gson.JsonParser.parseString(json.toString()));
    }
  }

  @Test
  void namesAreFoundWhateverTheirSpellingOrInstanceAndHashCodesSharedDoNotConfuse()
      throws IOException {
    String longName = "x".repeat(70); // longer than the reader keeps in its table
    JsonTree.Obj obj =
        (JsonTree.Obj)
            read(
                "{\"status\":1,\"BB\":0,\"na\\u006de\":\"escaped\",\""
                    + longName
                    + "\":1,\"name\":\"plain\",\"st\u00e4te\":2,\""
                    + longName
                    + "\":3}");

    assertThat(obj.text("status")).isEqualTo("1");
    assertThat(obj.size()).isEqualTo(5);
    assertThat(obj.text("name")).isEqualTo("plain"); // the escaped spelling is the same name
    assertThat(obj.text(new String("name".toCharArray()))).isEqualTo("plain");
    assertThat(obj.text(longName)).isEqualTo("3");
    assertThat(obj.text("st\u00e4te")).isEqualTo("2");
    assertThat(obj.has("nam")).isFalse();
    assertThat(obj.has("Aa")).isFalse(); // "Aa" and "BB" share a hash code
    assertThat(obj.text("BB")).isEqualTo("0");
  }

  @Test
  void largeObjectsNestedInLargeObjectsKeepTheirOwnNamesOnOneReusedParser() throws IOException {
    String inner = fields("i", 15, "\"i3\":\"again\"");
    String outer =
        fields("o", 13, "\"nested\":" + inner + ",\"list\":[" + inner + ",1],\"o0\":\"again\"");
    JsonTree.Parser parser = new JsonTree.Parser();

    for (int round = 0; round < 2; round++) {
      Object tree = parser.read(bytes(outer));

      assertThat(JsonTree.toGson(tree)).isEqualTo(com.google.gson.JsonParser.parseString(outer));
      JsonTree.Obj obj = (JsonTree.Obj) tree;
      assertThat(obj.text("o0")).isEqualTo("again");
      assertThat(obj.object("nested").text("i3")).isEqualTo("again");
      assertThat(obj.object("nested").size()).isEqualTo(15);
      assertThat(obj.get("i3")).isNull();
    }
  }

  /** An object of {@code count} fields {@code <prefix><i>: i}, then {@code more}. */
  private static String fields(String prefix, int count, String more) {
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i < count; i++) {
      json.append('"').append(prefix).append(i).append("\":").append(i).append(',');
    }
    return json.append(more).append('}').toString();
  }

  @Test
  void primitivesReadAsTextAsGsonWouldGiveThem() throws IOException {
    JsonTree.Obj obj =
        (JsonTree.Obj) read("{\"s\":\"x\",\"n\":7.50,\"t\":true,\"z\":null,\"o\":{},\"a\":[]}");

    assertThat(obj.text("s")).isEqualTo("x");
    assertThat(obj.text("n")).isEqualTo("7.50");
    assertThat(obj.text("t")).isEqualTo("true");
    assertThat(obj.text("z")).isNull();
    assertThat(obj.get("z")).isSameAs(JsonTree.NULL);
    assertThat(obj.has("z")).isTrue();
    assertThat(obj.text("o")).isNull();
    assertThat(obj.object("o")).isNotNull();
    assertThat(obj.text("a")).isNull();
    assertThat(obj.object("a")).isNull();
  }

  @Test
  void aConvertedTreeSharesNothingWithTheGsonItCameFrom() {
    JsonObject gson =
        com.google.gson.JsonParser.parseString("{\"s\":{\"state\":\"RUNNING\"}}").getAsJsonObject();

    JsonTree.Obj tree = JsonTree.fromGson(gson);
    gson.getAsJsonObject("s").addProperty("state", "FAILED");
    JsonObject back = tree.toGson();
    back.getAsJsonObject("s").addProperty("state", "GONE");

    assertThat(tree.object("s").text("state")).isEqualTo("RUNNING");
  }

  @Test
  void malformedOrTooDeepJsonFailsTheRead() throws IOException {
    assertThatThrownBy(() -> read("{\"a\":[1,}")).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> read("{\"a\":1")).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> read("[".repeat(300) + "]".repeat(300)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("nesting depth");
    read("[".repeat(255) + "]".repeat(255)); // Gson's default depth still reads
    assertThatThrownBy(() -> JsonTree.readObject(bytes("[1]")))
        .isInstanceOf(IllegalStateException.class);
  }

  /**
   * An operator's message of several megabytes (the Spark operator copies a driver's error into
   * {@code status.applicationState.errorMessage}) reads whole: kube-apiserver accepts a request
   * body of up to 3 MiB, so the parser's string limit must lie above that, as it does (64 Mi).
   */
  @Test
  void aMessageOfFiveMegabytesReadsWhole() throws IOException {
    String message = "x".repeat(5 * 1024 * 1024);

    JsonTree.Obj obj =
        JsonTree.readObject(bytes("{\"status\":{\"errorMessage\":\"" + message + "\"}}"));

    assertThat(obj.object("status").text("errorMessage")).hasSize(5 * 1024 * 1024);
  }
}
