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

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.google.gson.JsonElement;
import com.google.gson.JsonIOException;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.MalformedJsonException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The one JSON body reader of the gateway: a body that must be one JSON object is read from its
 * stream (no {@code byte[]} and {@code String} copies of a list page), the object read whole or
 * field by field by the caller's {@link JsonRead}; a refused answer's bytes are parsed with {@link
 * #parseObject(byte[])}. Either way, a body that after blanks does not start with an object, is
 * malformed or holds more than one value is "not JSON", whatever its content type says. Stateless.
 */
final class JsonBodies {
  /**
   * The longest string a body may hold, in characters: 64 Mi, far above what a real server sends
   * (kube-apiserver refuses a request body over 3 MiB, and etcd an object over 1.5 MiB, so an
   * operator's message of several megabytes still reads), and far below what would exhaust a heap.
   * jackson-core's default (20 M) is close enough to the sizes above that a list page of a large
   * object could meet it.
   */
  static final int MAX_STRING_LENGTH = 64 * 1024 * 1024;

  /** How deep values may nest: Gson's {@code JsonReader} default, which kubejobs always used. */
  static final int MAX_NESTING_DEPTH = 255;

  /**
   * The settings of the byte parser: the limits above; field names canonicalized (the names of one
   * body are the same strings, their hash codes computed once) but not interned; the source stream
   * not closed with the parser (the caller drains and counts it).
   */
  private static final JsonFactory SETTINGS =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxStringLength(MAX_STRING_LENGTH)
                  .maxNestingDepth(MAX_NESTING_DEPTH)
                  .build())
          .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
          .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
          .build();

  private JsonBodies() {}

  /**
   * Creates a byte parser over a stream, with a name table of its own. A factory shared by every
   * body would keep one name table for the process and copy it into each parser that meets a name
   * it lacks: real objects carry names of their own (the Kubeflow operator's {@code
   * status.executorState} is keyed by executor pod names), so nearly every list page would copy the
   * whole table, and the table would only grow until jackson-core resets it. A table per body holds
   * the names of that body alone.
   *
   * @param in the body's bytes
   * @return the parser, before its first token
   * @throws IOException as creating it reads nothing, never in practice
   */
  static JsonParser parser(InputStream in) throws IOException {
    return SETTINGS.copy().createParser(in);
  }

  /**
   * Creates a byte parser over bytes, as {@link #parser(InputStream)} does.
   *
   * @param bytes the JSON, UTF-8
   * @return the parser, before its first token
   * @throws IOException never in practice
   */
  static JsonParser parser(byte[] bytes) throws IOException {
    return SETTINGS.copy().createParser(bytes);
  }

  /**
   * Reads one JSON value from a {@link JsonReader}; its syntax errors are the caller's to catch.
   */
  @FunctionalInterface
  interface JsonRead<T> {
    T read(JsonReader reader) throws IOException;
  }

  /** A parsed answer: what was read, or null when the body was not one JSON object; its size. */
  record Parsed<T>(T value, long bytes) {}

  /**
   * Reads a 2xx answer's body as one JSON object.
   *
   * @throws ApiUnavailableException when the body is not one JSON object (naming its size)
   * @throws IOException when the stream fails (reset, shorter than its {@code Content-Length})
   */
  static JsonObject requireObject(KubeRequest request, Response response) throws IOException {
    return require(
        request,
        response,
        reader -> com.google.gson.JsonParser.parseReader(reader).getAsJsonObject());
  }

  /**
   * Reads a 2xx answer's body that must be one JSON object with {@code read}.
   *
   * @throws dev.kubejobs.core.ApiUnavailableException when the body is not one JSON object
   * @throws IOException when the stream fails
   */
  static <T> T require(KubeRequest request, Response response, JsonRead<T> read)
      throws IOException {
    Parsed<T> parsed = readObject(response.body(), read);
    if (parsed.value() == null) {
      throw KubeFailures.nonJson(request.about(), request.op(), response, parsed.bytes());
    }
    return parsed.value();
  }

  /**
   * Reads one JSON object from jackson-core's byte parser, whose current token is its {@link
   * JsonToken#START_OBJECT}, leaving the parser at the object's last token; its syntax errors are
   * the caller's to catch.
   */
  @FunctionalInterface
  interface BytesRead<T> {
    T read(JsonParser parser) throws IOException;
  }

  /**
   * Reads a 2xx answer's body that must be one JSON object with {@code read}, from its bytes; fails
   * as {@link #require(KubeRequest, Response, JsonRead)} does.
   *
   * @throws dev.kubejobs.core.ApiUnavailableException when the body is not one JSON object
   * @throws IOException when the stream fails
   */
  static <T> T requireBytes(KubeRequest request, Response response, BytesRead<T> read)
      throws IOException {
    Parsed<T> parsed = readObjectBytes(response.body(), read);
    if (parsed.value() == null) {
      throw KubeFailures.nonJson(request.about(), request.op(), response, parsed.bytes());
    }
    return parsed.value();
  }

  /**
   * Reads a body that must be one JSON object with {@code read}, from the stream: a body that,
   * after blanks, does not start with an object, is malformed or holds more than one value gives a
   * null {@code value} (and is read to its end, to count it). The stream's own failures stay {@link
   * IOException}s; what {@code read} throws on purpose (other exceptions) goes through.
   */
  static <T> Parsed<T> readObject(ResponseBody body, JsonRead<T> read) throws IOException {
    return readWhole(
        body,
        in -> {
          JsonReader reader = new JsonReader(new InputStreamReader(in, StandardCharsets.UTF_8));
          T value = read.read(reader);
          return reader.peek() == com.google.gson.stream.JsonToken.END_DOCUMENT ? value : null;
        });
  }

  /**
   * Reads a body as {@link #readObject(ResponseBody, JsonRead)} does, with jackson-core's parser
   * over its bytes: the same bodies are not one JSON object, and the same failures are the
   * stream's.
   */
  static <T> Parsed<T> readObjectBytes(ResponseBody body, BytesRead<T> read) throws IOException {
    return readWhole(body, in -> readOne(parser(in), read));
  }

  /**
   * Reads the one JSON object of a byte array with {@code read}: null when the bytes are not one
   * JSON object (malformed, another value first, or more after it).
   */
  static <T> T readObject(byte[] bytes, BytesRead<T> read) {
    try {
      return readOne(parser(bytes), read);
    } catch (JsonProcessingException | IllegalStateException e) {
      return null;
    } catch (IOException e) {
      throw new IllegalStateException("reading a byte array failed", e); // never: no stream
    }
  }

  private static <T> T readOne(JsonParser parser, BytesRead<T> read) throws IOException {
    try (parser) { // closing gives the parser's buffers and names back to the factory
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      T value = read.read(parser);
      return parser.nextToken() == null ? value : null;
    }
  }

  /** Reads the one value of a stream that starts with an object; null when more follows. */
  @FunctionalInterface
  private interface WholeRead<T> {
    T read(InputStream in) throws IOException;
  }

  private static <T> Parsed<T> readWhole(ResponseBody body, WholeRead<T> read) throws IOException {
    if (body == null) {
      return new Parsed<>(null, 0);
    }
    CountingStream counted = new CountingStream(body.byteStream());
    PushbackInputStream in = new PushbackInputStream(counted, 1);
    int first;
    do {
      first = in.read();
    } while (first >= 0 && first <= ' ');
    if (first != '{') {
      drain(in);
      return new Parsed<>(null, counted.count);
    }
    in.unread(first);
    try {
      T value = read.read(in);
      if (value != null) {
        return new Parsed<>(value, counted.count);
      }
    } catch (JsonIOException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
    } catch (JsonParseException
        | JsonProcessingException
        | IllegalStateException
        | MalformedJsonException
        | EOFException e) {
      // not one JSON object: the caller says so
    }
    drain(in);
    return new Parsed<>(null, counted.count);
  }

  private static void drain(InputStream in) throws IOException {
    byte[] skip = new byte[8192];
    while (in.read(skip) >= 0) {
      // counted by the CountingStream below
    }
  }

  /** Parses a JSON object strictly enough: null when the body is not a JSON object. */
  static JsonObject parseObject(byte[] bytes) {
    if (bytes == null || bytes.length == 0) {
      return null;
    }
    String text = new String(bytes, StandardCharsets.UTF_8).trim();
    if (!text.startsWith("{")) {
      return null;
    }
    try {
      JsonElement element = com.google.gson.JsonParser.parseString(text);
      return element.isJsonObject() ? element.getAsJsonObject() : null;
    } catch (JsonParseException | IllegalStateException e) {
      return null;
    }
  }

  /**
   * Adopts an object of an answer as a snapshot.
   *
   * @throws dev.kubejobs.core.ApiUnavailableException when it has no {@code metadata} object
   */
  static ResourceSnapshot snapshot(ExecutionId about, String op, JsonTree.Obj json) {
    if (json.object("metadata") == null) {
      throw KubeFailures.garbage(about, op, "an object without metadata");
    }
    return Snapshots.adopt(json); // parsed for this snapshot alone: no copy
  }

  /** A field's value as an object, else null (absent, not an object; or no parent). */
  static JsonObject object(JsonObject parent, String field) {
    JsonElement value = parent == null ? null : parent.get(field);
    return value != null && value.isJsonObject() ? value.getAsJsonObject() : null;
  }

  /**
   * A field's value as text, as {@link ResourceSnapshot} reads metadata: a string or other
   * primitive, else null (absent, null, object or array; or no parent).
   */
  static String string(JsonObject parent, String field) {
    JsonElement value = parent == null ? null : parent.get(field);
    return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
  }

  /** Counts the bytes read through it, for the size of a body that was not JSON. */
  private static final class CountingStream extends FilterInputStream {
    long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      count += b < 0 ? 0 : 1;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      count += Math.max(0, n);
      return n;
    }
  }
}
