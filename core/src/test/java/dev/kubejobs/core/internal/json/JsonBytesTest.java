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
package dev.kubejobs.core.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import com.google.gson.stream.MalformedJsonException;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link JsonBytes} against Gson: the same trees from the same JSON however it is written and
 * however its bytes arrive, the same place after a skip, and the same JSON refused.
 */
class JsonBytesTest {
  /** Buffer sizes small enough that every string, name and number spans refills, and the usual. */
  private static final int[] BUFFERS = {1, 2, 7, 16 * 1024};

  private static final String[] NAMES = {
    "a", "b", "metadata", "status", "name", "x.io/y", "é", "\u4e2d", "\ud83d\ude00", ""
  };

  /** Odd characters: 2-, 3- and 4-byte UTF-8, quotes, backslashes, controls, noncharacters. */
  private static final String ODD =
      "\u00e9\u00df\u20ac\u4e2d\ud83d\ude00\ud800\udc00\"\\/\b\f\n\r\t\u0001\u001f\u007f"
          + "<>&='\u2028\ufeff\uffff";

  private static Object bytesTree(byte[] json, int buffer) throws IOException {
    return bytesTree(new ByteArrayInputStream(json), buffer);
  }

  private static Object bytesTree(InputStream json, int buffer) throws IOException {
    JsonBytes in = new JsonBytes(json, buffer);
    Object tree = new JsonTree.Parser().read(in);
    assertThat(in.peek()).isEqualTo(JsonBytes.Token.END_DOCUMENT);
    return tree;
  }

  private static Object gsonTree(String json) throws IOException {
    JsonReader in = new JsonReader(new StringReader(json));
    Object tree = GsonTrees.read(in);
    assertThat(in.peek()).isEqualTo(JsonToken.END_DOCUMENT);
    return tree;
  }

  /** Whether two trees are the same: names in the same order, numbers of the same text. */
  private static void assertSame(Object actual, Object expected, String json) {
    if (expected instanceof JsonTree.Obj e) {
      assertThat(actual).as(json).isInstanceOf(JsonTree.Obj.class);
      JsonTree.Obj a = (JsonTree.Obj) actual;
      assertThat(a.size()).as(json).isEqualTo(e.size());
      for (int i = 0; i < e.size(); i++) {
        assertThat(a.name(i)).as(json).isEqualTo(e.name(i));
        assertSame(a.value(i), e.value(i), json);
      }
    } else if (expected instanceof JsonTree.Arr e) {
      assertThat(actual).as(json).isInstanceOf(JsonTree.Arr.class);
      JsonTree.Arr a = (JsonTree.Arr) actual;
      assertThat(a.size()).as(json).isEqualTo(e.size());
      for (int i = 0; i < e.size(); i++) {
        assertSame(a.get(i), e.get(i), json);
      }
    } else {
      assertThat(actual).as(json).isEqualTo(expected);
    }
  }

  /** Hands out a stream's bytes a few at a time, as a network stream may. */
  private static InputStream trickle(byte[] bytes, long seed) {
    Random random = new Random(seed);
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + random.nextInt(5)));
      }
    };
  }

  /** A random JSON text, written by hand: random blanks, escapes, number forms, duplicates. */
  private static final class Writer {
    final Random random;
    final StringBuilder out = new StringBuilder();

    Writer(Random random) {
      this.random = random;
    }

    void blanks() {
      int n = random.nextInt(4) == 0 ? random.nextInt(4) : 0;
      for (int i = 0; i < n; i++) {
        out.append(" \t\n\r".charAt(random.nextInt(4)));
      }
    }

    void value(int depth) {
      int kind = random.nextInt(depth < 6 ? 10 : 6);
      switch (kind) {
        case 0 -> string(text());
        case 1 -> number();
        case 2 -> out.append(random.nextBoolean() ? "true" : "false");
        case 3 -> out.append("null");
        case 4, 5 -> string(text());
        case 6, 7 -> object(depth);
        default -> array(depth);
      }
    }

    void object(int depth) {
      out.append('{');
      int n = random.nextInt(random.nextInt(8) == 0 ? 20 : 5);
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          blanks();
          out.append(',');
        }
        blanks();
        string(random.nextInt(3) == 0 ? text() : NAMES[random.nextInt(NAMES.length)]);
        blanks();
        out.append(':');
        blanks();
        value(depth + 1);
      }
      blanks();
      out.append('}');
    }

    void array(int depth) {
      out.append('[');
      int n = random.nextInt(5);
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          blanks();
          out.append(',');
        }
        blanks();
        value(depth + 1);
      }
      blanks();
      out.append(']');
    }

    String text() {
      StringBuilder s = new StringBuilder();
      int n = random.nextInt(random.nextInt(10) == 0 ? 300 : 12);
      for (int i = 0; i < n; i++) {
        if (random.nextInt(3) == 0) {
          int at = random.nextInt(ODD.codePointCount(0, ODD.length()));
          s.appendCodePoint(ODD.codePointAt(ODD.offsetByCodePoints(0, at)));
        } else {
          s.append((char) (' ' + random.nextInt(95)));
        }
      }
      return s.toString();
    }

    /** Writes a string with escapes of every form, chosen at random where one is allowed. */
    void string(String s) {
      out.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        int how = random.nextInt(4);
        if (Character.isHighSurrogate(c)) {
          char low = s.charAt(++i); // a pair: both escaped (the pair form) or both raw (4 bytes)
          out.append(how == 0 ? String.format("\\u%04x\\u%04X", (int) c, (int) low) : "" + c + low);
        } else if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if (how == 0) {
          out.append(String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
        } else if (how == 1 && "/\b\f\n\r\t".indexOf(c) >= 0) {
          out.append('\\').append("/bfnrt".charAt("/\b\f\n\r\t".indexOf(c)));
        } else {
          out.append(c); // raw, a control character included (accepted as Gson accepts it)
        }
      }
      out.append('"');
    }

    void number() {
      if (random.nextBoolean()) {
        out.append('-');
      }
      if (random.nextInt(3) == 0) {
        out.append('0');
      } else {
        out.append((char) ('1' + random.nextInt(9)));
        digits(random.nextInt(4) == 0 ? 30 : 4);
      }
      if (random.nextBoolean()) {
        out.append('.');
        out.append((char) ('0' + random.nextInt(10)));
        digits(random.nextInt(4) == 0 ? 25 : 3);
      }
      if (random.nextInt(3) == 0) {
        out.append(random.nextBoolean() ? 'e' : 'E');
        int sign = random.nextInt(3);
        out.append(sign == 0 ? "" : sign == 1 ? "+" : "-");
        out.append((char) ('0' + random.nextInt(10)));
        digits(3);
      }
    }

    void digits(int max) {
      int n = random.nextInt(max + 1);
      for (int i = 0; i < n; i++) {
        out.append((char) ('0' + random.nextInt(10)));
      }
    }
  }

  /** A random Gson tree, for Gson's own writers. */
  private static JsonElement element(Random random, int depth) {
    int kind = random.nextInt(depth < 6 ? 8 : 4);
    switch (kind) {
      case 0:
        return new JsonPrimitive(new Writer(random).text());
      case 1:
        return random.nextBoolean()
            ? new JsonPrimitive(random.nextLong())
            : new JsonPrimitive(new BigDecimal(random.nextGaussian() * 1e6).scaleByPowerOfTen(-3));
      case 2:
        return new JsonPrimitive(random.nextBoolean());
      case 3:
        return com.google.gson.JsonNull.INSTANCE;
      case 4:
      case 5:
        JsonObject object = new JsonObject();
        for (int i = random.nextInt(6); i > 0; i--) {
          object.add(NAMES[random.nextInt(NAMES.length)], element(random, depth + 1));
        }
        return object;
      default:
        JsonArray array = new JsonArray();
        for (int i = random.nextInt(5); i > 0; i--) {
          array.add(element(random, depth + 1));
        }
        return array;
    }
  }

  @Test
  void handWrittenJsonGivesGsonsTreeWhateverTheBufferAndHoweverTheBytesArrive() throws IOException {
    for (long seed = 0; seed < 400; seed++) {
      Writer writer = new Writer(new Random(seed));
      writer.blanks();
      writer.object(0);
      writer.blanks();
      String json = writer.out.toString();
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      Object expected = gsonTree(json);
      assertThat(JsonTree.toGson(expected)).as(json).isEqualTo(JsonParser.parseString(json));
      for (int buffer : BUFFERS) {
        assertSame(bytesTree(bytes, buffer), expected, json);
      }
      assertSame(bytesTree(trickle(bytes, seed), 16 * 1024), expected, json);
    }
  }

  @Test
  void gsonWrittenJsonGivesGsonsTree() throws IOException {
    Gson gson = new Gson();
    for (long seed = 0; seed < 200; seed++) {
      Random random = new Random(seed);
      JsonElement element = element(random, 0);
      StringWriter text = new StringWriter();
      JsonWriter writer = new JsonWriter(text);
      writer.setHtmlSafe(random.nextBoolean());
      writer.setIndent(random.nextBoolean() ? "" : "  ");
      gson.toJson(element, writer);
      for (String json : List.of(gson.toJson(element), text.toString())) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        for (int buffer : BUFFERS) {
          Object tree = bytesTree(bytes, buffer);
          assertThat(JsonTree.toGson(tree)).as(json).isEqualTo(JsonParser.parseString(json));
          assertSame(tree, gsonTree(json), json);
        }
      }
    }
  }

  @Test
  void skippingEachFieldLeavesTheReaderWhereGsonsSkipLeavesIt() throws IOException {
    for (long seed = 0; seed < 200; seed++) {
      Writer writer = new Writer(new Random(seed));
      writer.object(0);
      String json = writer.out.toString();
      for (int buffer : BUFFERS) {
        Random choose = new Random(seed);
        JsonBytes bytes =
            new JsonBytes(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), buffer);
        JsonReader gson = new JsonReader(new StringReader(json));
        JsonTree.Parser parser = new JsonTree.Parser();
        bytes.beginObject();
        gson.beginObject();
        while (gson.hasNext()) {
          assertThat(bytes.hasNext()).as(json).isTrue();
          assertThat(bytes.nextName()).as(json).isEqualTo(gson.nextName());
          if (choose.nextBoolean()) {
            bytes.skipValue();
            gson.skipValue();
          } else {
            assertSame(parser.read(bytes), GsonTrees.read(gson), json);
          }
        }
        assertThat(bytes.hasNext()).as(json).isFalse();
        bytes.endObject();
        gson.endObject();
        assertThat(bytes.peek()).isEqualTo(JsonBytes.Token.END_DOCUMENT);
      }
    }
  }

  @Test
  void bytesThatAreNotUtf8InAStringAreReadAsADecodingReaderReadsThem() throws IOException {
    Random random = new Random(7);
    byte[] odd = {
      (byte) 0x80, (byte) 0xbf, (byte) 0xc0, (byte) 0xc1, (byte) 0xc2, (byte) 0xdf, (byte) 0xe0,
      (byte) 0xa0, (byte) 0xed, (byte) 0x9f, (byte) 0xa0, (byte) 0xef, (byte) 0xf0, (byte) 0x90,
      (byte) 0xf4, (byte) 0x8f, (byte) 0xf5, (byte) 0xff, 'a', ' '
    };
    for (int round = 0; round < 2000; round++) {
      byte[] middle = new byte[random.nextInt(8)];
      for (int i = 0; i < middle.length; i++) {
        middle[i] = odd[random.nextInt(odd.length)];
      }
      byte[] json = new byte[middle.length + 9];
      System.arraycopy("{\"a\":\"".getBytes(StandardCharsets.US_ASCII), 0, json, 0, 6);
      System.arraycopy(middle, 0, json, 6, middle.length);
      System.arraycopy("\"}\n".getBytes(StandardCharsets.US_ASCII), 0, json, 6 + middle.length, 3);
      JsonReader decoding =
          new JsonReader(
              new InputStreamReader(new ByteArrayInputStream(json), StandardCharsets.UTF_8));
      Object expected = GsonTrees.read(decoding);
      for (int buffer : BUFFERS) {
        assertSame(bytesTree(json, buffer), expected, java.util.Arrays.toString(middle));
      }
    }
  }

  @Test
  void namesReadAgainAreTheSameStringAndEscapedOrNonAsciiNamesStillRead() throws IOException {
    String json = "{\"name\":1,\"n\\u0061me\":2,\"n\u00e4me\":3,\"x\":[{\"name\":4},{\"name\":5}]}";
    JsonBytes in = new JsonBytes(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    JsonTree.Obj tree = new JsonTree.Parser().readObject(in);

    assertThat(tree.names()).containsExactly("name", "n\u00e4me", "x");
    assertThat(tree.text("name")).isEqualTo("2");
    JsonTree.Arr x = (JsonTree.Arr) tree.get("x");
    assertThat(((JsonTree.Obj) x.get(0)).name(0)).isSameAs(((JsonTree.Obj) x.get(1)).name(0));
  }

  @Test
  void theLegacyStrictExtrasGsonAcceptsAreAccepted() throws IOException {
    for (String json :
        List.of(
            "{\"a\":[True,FALSE,nUlL],\"b\":\"\\'\"}",
            "{\"a\":\"x\u0001\ty\"}",
            "{\"\u0000\":0}")) {
      for (int buffer : BUFFERS) {
        assertSame(bytesTree(json.getBytes(StandardCharsets.UTF_8), buffer), gsonTree(json), json);
      }
    }
  }

  @Test
  void nestingUpTo255IsReadAndDeeperIsRefused() throws IOException {
    String ok = "[".repeat(255) + "]".repeat(255);
    assertSame(bytesTree(ok.getBytes(StandardCharsets.US_ASCII), 7), gsonTree(ok), "255");

    String deep = "{\"a\":" + "[".repeat(255) + "]".repeat(255) + "}";
    for (int buffer : BUFFERS) {
      assertThatThrownBy(() -> bytesTree(deep.getBytes(StandardCharsets.US_ASCII), buffer))
          .isInstanceOf(MalformedJsonException.class)
          .hasMessageContaining("255");
      JsonBytes skipping =
          new JsonBytes(new ByteArrayInputStream(deep.getBytes(StandardCharsets.US_ASCII)), buffer);
      assertThatThrownBy(skipping::skipValue).isInstanceOf(MalformedJsonException.class);
    }
  }

  /** Malformed JSON, each refused by Gson's default reader too. */
  private static final List<String> MALFORMED =
      List.of(
          "",
          "   ",
          "{",
          "{\"a\"",
          "{\"a\":",
          "{\"a\":1",
          "{\"a\":1,",
          "{\"a\":1,}",
          "{\"a\":[1,]}",
          "{\"a\":[,1]}",
          "{\"a\":[1,,2]}",
          "{\"a\":1,,\"b\":2}",
          "{,}",
          "{\"a\" 1}",
          "{\"a\"::1}",
          "{\"a\"=1}",
          "{\"a\":1 \"b\":2}",
          "{\"a\":1;\"b\":2}",
          "{\"a\":[1 2]}",
          "{a:1}",
          "{'a':1}",
          "{\"a\":'x'}",
          "{\"a\":tru}",
          "{\"a\":truex}",
          "{\"a\":Tru}",
          "{\"a\":TRUEE}",
          "{\"a\":nul}",
          "{\"a\":nulll}",
          "{\"a\":fals}",
          "{\"a\":01}",
          "{\"a\":-}",
          "{\"a\":-x}",
          "{\"a\":1.}",
          "{\"a\":1.e5}",
          "{\"a\":.5}",
          "{\"a\":1e}",
          "{\"a\":1e+}",
          "{\"a\":+1}",
          "{\"a\":0x1}",
          "{\"a\":1.5.3}",
          "{\"a\":NaN}",
          "{\"a\":-Infinity}",
          "{\"a\":\"x}",
          "{\"a\":\"x",
          "{\"a\":\"\\",
          "{\"a\":\"\\x\"}",
          "{\"a\":\"\\u12G4\"}",
          "{\"a\":\"\\u12\"}",
          "{\"a\":\"\\U1234\"}",
          "{\"a\\q\":1}",
          "{\"a\":\u00e9}",
          "{\"a\":]}",
          "{\"a\":}",
          "{\"a\":1]",
          "{\"a\":[1}",
          "[1}",
          "{\"a\":1}x",
          "{\"a\":1}{}",
          "{\"a\":1} 2",
          "{\"a\":1}\u0000",
          "//c\n{}",
          "{\"a\":1}//c",
          "{\"a\":1/*c*/}",
          "{\"a\":1}#",
          "{\"a\":" + "[".repeat(300) + "]".repeat(300) + "}",
          "{\"a\":" + "[".repeat(300));

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void malformedJsonIsRefusedWithAMalformedJsonOrEofExceptionAsGsonRefusesIt() {
    for (String json : MALFORMED) {
      Throwable gson = catchThrowable(() -> gsonTree(json));
      assertThat(gson).as("Gson on %s", json).isNotNull();
      for (int buffer : BUFFERS) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Throwable read = catchThrowable(() -> bytesTree(bytes, buffer));
        assertThat(read)
            .as("%s, buffer %d", json, buffer)
            .isInstanceOfAny(MalformedJsonException.class, EOFException.class);
        JsonBytes skipping = new JsonBytes(new ByteArrayInputStream(bytes), buffer);
        Throwable skipped =
            catchThrowable(
                () -> {
                  skipping.skipValue();
                  skipping.peek();
                });
        assertThat(skipped)
            .as("skipping %s, buffer %d", json, buffer)
            .isInstanceOfAny(MalformedJsonException.class, EOFException.class);
      }
    }
  }

  @Test
  void inputEndingInsideAValueIsAnEofException() {
    for (String json : List.of("{", "{\"a\":\"x", "{\"a\":1", "{\"a\":-", "{\"a\":tr", "{\"a\"")) {
      for (int buffer : BUFFERS) {
        assertThatThrownBy(() -> bytesTree(json.getBytes(StandardCharsets.UTF_8), buffer))
            .as(json)
            .isInstanceOf(EOFException.class);
      }
    }
  }

  @Test
  void aCallThatDoesNotFitTheNextTokenIsAnIllegalStateAsInGson() throws IOException {
    JsonBytes in = new JsonBytes(new ByteArrayInputStream("{\"a\":\"x\"}".getBytes()));
    assertThatThrownBy(in::beginArray).isInstanceOf(IllegalStateException.class);
    in.beginObject();
    assertThatThrownBy(in::nextString).isInstanceOf(IllegalStateException.class);
    assertThat(in.nextName()).isEqualTo("a");
    assertThatThrownBy(in::nextNumber).isInstanceOf(IllegalStateException.class);
    assertThat(in.nextString()).isEqualTo("x");
    assertThatThrownBy(in::skipValue).isInstanceOf(IllegalStateException.class);
    in.endObject();
    assertThat(in.peek()).isEqualTo(JsonBytes.Token.END_DOCUMENT);
    assertThat(in.offset()).isEqualTo(9);
    assertThatThrownBy(() -> new JsonBytes(InputStream.nullInputStream(), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aStreamFailureIsTheStreamsOwnIoException() {
    IOException reset = new IOException("connection reset");
    InputStream failing =
        new InputStream() {
          private int left = 20;

          @Override
          public int read() throws IOException {
            if (left-- > 0) {
              return left == 19 ? '{' : ' ';
            }
            throw reset;
          }
        };
    assertThat(catchThrowable(() -> bytesTree(failing, 4))).isSameAs(reset);
  }
}
