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
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import okhttp3.MediaType;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import okio.Okio;
import org.junit.jupiter.api.Test;

/**
 * The byte-level body reader of list pages answers what the Gson-reader one answers: the same
 * bodies are one JSON object, the same are not (with the same size), and a failing stream is the
 * stream's own failure.
 */
class JsonBodiesTest {
  private static ResponseBody body(InputStream in) {
    return new ResponseBody() {
      @Override
      public MediaType contentType() {
        return null;
      }

      @Override
      public long contentLength() {
        return -1;
      }

      @Override
      public BufferedSource source() {
        return Okio.buffer(Okio.source(in));
      }
    };
  }

  private static ResponseBody body(String text) {
    return body(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void theByteReaderFindsTheSameBodiesOneJsonObjectWithTheSameSize() throws IOException {
    List<String> bodies =
        List.of(
            "{}",
            " \r\n\t{\"a\":[1,2.5e3,true,null,\"\\u00e9\"]}\n ",
            "\u0001\u0002{\"a\":1}",
            "",
            "   ",
            "[1,2]",
            "\"text\"",
            "<html>login</html>",
            "{\"a\":{}} trailing",
            "{\"a\":",
            "{\"a\":{}}{}",
            "{\"a\":[1,}",
            "{\"a\":1,}",
            "{\"a\":'x'}",
            "{\"a\":\"\\q\"}",
            "{\"a\":01}",
            "{\"a\":\"\u00e9\u4e2d\ud83d\ude00\"}",
            "{\"a\":1}//",
            "{\"a\":" + "[".repeat(300) + "]".repeat(300) + "}");
    for (String text : bodies) {
      JsonBodies.Parsed<JsonTree.Obj> gson =
          JsonBodies.readObject(body(text), GsonTrees::readObject);
      JsonBodies.Parsed<JsonTree.Obj> bytes =
          JsonBodies.readObjectBytes(
              body(text), reader -> new JsonTree.Parser().readObject(reader));

      assertThat(bytes.bytes()).as(text).isEqualTo(gson.bytes());
      assertThat(bytes.value() == null).as(text).isEqualTo(gson.value() == null);
      if (gson.value() != null) {
        assertThat(JsonTree.toGson(bytes.value())).as(text).isEqualTo(gson.value().toGson());
      }
    }
  }

  /**
   * jackson-core is stricter than Gson's reader where Gson is lenient even at its default
   * strictness: a literal must be written in lower case.
   */
  @Test
  void aLiteralInAnotherCaseIsNotJson() throws IOException {
    String text = "{\"a\":True}";

    JsonBodies.Parsed<JsonTree.Obj> bytes =
        JsonBodies.readObjectBytes(body(text), reader -> new JsonTree.Parser().readObject(reader));

    assertThat(bytes.value()).isNull();
    assertThat(bytes.bytes()).isEqualTo(text.length());
  }

  @Test
  void aStreamThatFailsMidwayIsTheStreamsFailureNotANonJsonBody() {
    IOException reset = new IOException("connection reset");
    InputStream failing =
        new SequenceInputStream(
            new ByteArrayInputStream("{\"items\":[{\"a\":\"".getBytes(StandardCharsets.UTF_8)),
            new InputStream() {
              @Override
              public int read() throws IOException {
                throw reset;
              }
            });

    Throwable thrown =
        catchThrowable(
            () ->
                JsonBodies.readObjectBytes(
                    body(failing), reader -> new JsonTree.Parser().readObject(reader)));

    assertThat(thrown).isSameAs(reset);
  }
}
