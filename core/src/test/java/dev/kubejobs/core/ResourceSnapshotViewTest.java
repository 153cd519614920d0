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

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.core.spi.JsonView;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read-only accessors of {@link ResourceSnapshot}: they read in place and change nothing. */
class ResourceSnapshotViewTest {
  private static final String POD =
      "{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"labels\":{\"a\":\"1\",\"n\":2},"
          + "\"annotations\":{\"x\":\"y\",\"o\":{}}},"
          + "\"status\":{\"phase\":\"Running\",\"attempt\":\" 42 \",\"big\":1.5,\"id\":7,"
          + "\"at\":\"2026-01-02T03:04:05Z\",\"bad\":\"yesterday\",\"gone\":null,"
          + "\"list\":[{\"name\":\"driver\"},null,\"s\"],\"history\":{\"1\":{},\"0\":{}}}}";

  private final ResourceSnapshot pod =
      ResourceSnapshot.of(JsonParser.parseString(POD).getAsJsonObject());

  @Test
  void pathReadersAreLenientAndTyped() {
    JsonView v = pod.view();
    assertThat(v.string("status", "phase")).contains("Running");
    assertThat(v.string("status", "id")).isEmpty(); // a number is not a string
    assertThat(v.number("status", "id")).contains(7L);
    assertThat(v.number("status", "attempt")).contains(42L); // a string holding a number
    assertThat(v.number("status", "big")).isEmpty(); // not whole
    assertThat(v.number("status", "phase")).isEmpty();
    assertThat(v.time("status", "at")).contains(Instant.parse("2026-01-02T03:04:05Z"));
    assertThat(v.time("status", "bad")).isEmpty();
    assertThat(v.get("status", "gone")).isEmpty(); // JSON null reads as absent
    assertThat(v.get("status", "phase", "deeper")).isEmpty(); // a step through a primitive
    assertThat(v.get("nope", "deeper")).isEmpty();
    assertThat(v.object("status", "phase")).isEmpty();
    assertThat(v.object("status").map(JsonView::size)).contains(9);
    assertThat(v.get()).containsSame(v);
  }

  @Test
  void arraysAndObjectsAreWalkedWithoutCopies() {
    JsonView list = pod.view().get("status", "list").orElseThrow();
    assertThat(list.isArray()).isTrue();
    assertThat(list.size()).isEqualTo(3);
    List<String> kinds = new ArrayList<>();
    list.forEach(
        e -> kinds.add(e.isObject() ? "object" : e.isNull() ? "null" : e.asString().orElse("?")));
    assertThat(kinds).containsExactly("object", "null", "s");
    assertThat(list.element(0).flatMap(e -> e.string("name"))).contains("driver");
    assertThat(list.element(3)).isEmpty();
    assertThat(list.element(-1)).isEmpty();
    assertThat(list.fieldNames()).isEmpty();
    assertThat(pod.view().object("status", "history").orElseThrow().fieldNames())
        .containsExactly("1", "0");
    assertThat(pod.view().get("status", "phase").orElseThrow().isString()).isTrue();
    assertThat(pod.view().get("status", "id").orElseThrow().isString()).isFalse();
    assertThat(pod.view().get("status", "phase").orElseThrow().size()).isZero();
    assertThat(pod.view().toString()).isEqualTo("JsonView{object of 2}").doesNotContain("Running");
  }

  @Test
  void forEachFieldWalksAnObjectInOrderLeavingOutNulls() {
    List<String> fields = new ArrayList<>();
    pod.view()
        .object("status")
        .orElseThrow()
        .forEachField(
            (name, value) ->
                fields.add(
                    name
                        + "="
                        + (value.isObject()
                            ? "object"
                            : value.isArray() ? "array" : value.asString().orElse("#"))));
    assertThat(fields)
        .containsExactly(
            "phase=Running",
            "attempt= 42 ",
            "big=#",
            "id=#",
            "at=2026-01-02T03:04:05Z",
            "bad=yesterday",
            "list=array",
            "history=object"); // "gone" holds null: absent, as the path readers read it
    List<String> none = new ArrayList<>();
    pod.view().get("status", "list").orElseThrow().forEachField((name, value) -> none.add(name));
    pod.view().get("status", "phase").orElseThrow().forEachField((name, value) -> none.add(name));
    assertThat(none).isEmpty();
  }

  @Test
  void theViewCannotChangeTheSnapshotAndCopiesStayCopies() {
    JsonObject copy = pod.view().copy().getAsJsonObject();
    copy.getAsJsonObject("status").addProperty("phase", "Failed");
    pod.json().getAsJsonObject("status").addProperty("phase", "Failed");
    pod.status().orElseThrow().addProperty("phase", "Failed");
    assertThat(pod.view().string("status", "phase")).contains("Running");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> pod.view().object("status").orElseThrow().fieldNames().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void oneLabelOrAnnotationReadsAsTheMapsDo() {
    assertThat(pod.label("a")).contains("1");
    assertThat(pod.label("n"))
        .contains("2")
        .isEqualTo(java.util.Optional.of(pod.labels().get("n")));
    assertThat(pod.label("b")).isEmpty();
    assertThat(pod.annotation("x")).contains("y");
    assertThat(pod.annotation("o")).isEmpty(); // not a string, as annotations() leaves it out
    assertThat(pod.annotations()).doesNotContainKey("o");
    ResourceSnapshot bare =
        ResourceSnapshot.of(JsonParser.parseString("{\"metadata\":{}}").getAsJsonObject());
    assertThat(bare.annotation("x")).isEmpty();
    assertThat(bare.label("a")).isEmpty();
    assertThat(bare.view().get("status")).isEmpty();
  }

  @Test
  void parseTimeAgreesWithTheIsoParserOnEveryFormItReads() {
    java.util.Random random = new java.util.Random(10);
    List<String> texts =
        new ArrayList<>(
            List.of(
                "2026-01-02T03:04:05Z",
                "2024-02-29T23:59:59Z",
                "2023-02-29T00:00:00Z",
                "2026-13-01T00:00:00Z",
                "2026-01-01T24:00:00Z",
                "2026-01-01T00:60:00Z",
                "2026-01-01T00:00:60Z",
                "0000-01-01T00:00:00Z",
                "2026-01-02t03:04:05z",
                "2026-01-02T03:04:05+02:00",
                "2026-01-02T03:04:05.123456Z",
                "2026-1-02T03:04:05Z",
                "2026-01-02T03:04:0xZ",
                "+2026-01-02T03:04:05Z",
                "2026-01-02 03:04:05Z",
                " 2026-01-02T03:04:05Z"));
    for (int i = 0; i < 2000; i++) {
      texts.add(
          String.format(
              java.util.Locale.ROOT,
              "%04d-%02d-%02dT%02d:%02d:%02dZ",
              random.nextInt(10000),
              random.nextInt(14),
              random.nextInt(33),
              random.nextInt(26),
              random.nextInt(62),
              random.nextInt(62)));
    }
    for (String text : texts) {
      java.util.Optional<Instant> expected;
      try {
        expected = java.util.Optional.of(java.time.OffsetDateTime.parse(text).toInstant());
      } catch (java.time.format.DateTimeParseException e) {
        expected = java.util.Optional.empty();
      }
      assertThat(ResourceSnapshot.parseTime(text)).as(text).isEqualTo(expected);
    }
  }
}
