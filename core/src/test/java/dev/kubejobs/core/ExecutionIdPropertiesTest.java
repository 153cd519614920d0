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

import dev.kubejobs.core.spi.ResourceKind;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Properties of {@link ExecutionId}: it round-trips, and parse never fails untyped. Each case is
 * one seed of a {@link Random}; a failing case names its seed, and the same seed replays it.
 */
@Tag("slow")
class ExecutionIdPropertiesTest {
  private static final String LABEL_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-";

  static LongStream seeds() {
    return LongStream.range(0, 1000);
  }

  static LongStream manySeeds() {
    return LongStream.range(0, 2000);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void formatThenParseReturnsTheSameId(long seed) {
    ExecutionId id = id(new Random(seed));

    assertThat(ExecutionId.parse(id.toString())).isEqualTo(id);
    assertThat(ExecutionId.parse(id.toString()).toString()).isEqualTo(id.toString());
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("manySeeds")
  void parseReturnsAnIdOrThrowsIllegalArgumentForAnyString(long seed) {
    String text = text(new Random(seed));
    try {
      ExecutionId id = ExecutionId.parse(text);
      assertThat(id.toString()).isEqualTo(text);
    } catch (IllegalArgumentException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  /** Any text, text of id-like characters, a valid id with one character dropped, a valid id. */
  static String text(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> anyString(r, 80);
      case 1 -> string(r, "abc-./_XZ09 ", 0, 40);
      case 2 -> {
        String s = id(r).toString();
        int i = r.nextInt(s.length() + 1);
        yield i >= s.length() ? s + "/" : s.substring(0, i) + s.substring(i + 1);
      }
      default -> id(r).toString();
    };
  }

  static ExecutionId id(Random r) {
    String cluster;
    do {
      cluster = string(r, "abcXYZ019-_.", 1, 20);
    } while (!Character.isLetterOrDigit(cluster.charAt(0))
        || !Character.isLetterOrDigit(cluster.charAt(cluster.length() - 1)));
    StringBuilder group = new StringBuilder(label(r));
    for (int i = r.nextInt(3); i > 0; i--) {
      group.append('.').append(label(r));
    }
    return ExecutionId.of(
        cluster, new ResourceKind(group.toString(), "v1", label(r), "Kind"), label(r), label(r));
  }

  /** A DNS label of 1-20 characters. */
  static String label(Random r) {
    String s;
    do {
      s = string(r, LABEL_CHARS, 1, 20);
    } while (s.startsWith("-") || s.endsWith("-"));
    return s;
  }

  static String string(Random r, String chars, int min, int max) {
    int length = min + r.nextInt(max - min + 1);
    StringBuilder b = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      b.append(chars.charAt(r.nextInt(chars.length())));
    }
    return b.toString();
  }

  /**
   * Any UTF-16 text of up to {@code max} chars: ASCII, other BMP characters, supplementary
   * characters and now and then a lone surrogate.
   */
  static String anyString(Random r, int max) {
    int length = r.nextInt(max + 1);
    StringBuilder b = new StringBuilder(length);
    while (b.length() < length) {
      switch (r.nextInt(10)) {
        case 0 -> b.appendCodePoint(0x10000 + r.nextInt(0x10FFFF - 0x10000));
        case 1 -> b.append((char) (0xD800 + r.nextInt(0x800)));
        case 2, 3 -> b.append((char) r.nextInt(0xD800));
        default -> b.append((char) (0x20 + r.nextInt(0x5F)));
      }
    }
    return b.toString();
  }
}
