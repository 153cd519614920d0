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

import static dev.kubejobs.testkit.Kube.NS;
import static dev.kubejobs.testkit.Kube.SPARK_APP;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Query parameters and headers as kube-apiserver reads and writes them. */
class WireFormatTest {

  static final String APPS = "/apis/spark.apache.org/v1/namespaces/" + NS + "/sparkapplications";

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  /**
   * kube-apiserver decodes {@code watch} (and every boolean option) with {@code
   * Convert_Slice_string_To_bool} (kubernetes/apimachinery {@code pkg/runtime/conversion.go},
   * commit eed236ce): absent, {@code 0} or {@code false} in any case is false, anything else true.
   * The Python client sends {@code watch=True}.
   */
  @ParameterizedTest
  @ValueSource(strings = {"true", "True", "TRUE", "1", "yes", "t"})
  void anyWatchValueButZeroOrFalseStartsAWatch(String value) throws IOException {
    try (RawWatch watch = RawWatch.open(kube.server(), APPS + "?watch=" + value)) {
      kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));

      assertThat(watch.code()).isEqualTo(200);
      assertThat(RawWatch.type(watch.next())).isEqualTo("ADDED");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"false", "False", "FALSE", "0"})
  void zeroOrFalseInAnyCaseIsAList(String value) throws IOException {
    Http.Answer answer = Http.send(kube.server(), "GET", APPS + "?watch=" + value, null, null);

    assertThat(answer.code()).isEqualTo(200);
    assertThat(answer.json().get("kind").getAsString()).isEqualTo("SparkApplicationList");
  }

  /** WireMock's {@code Matched-Stub-Id} and {@code Matched-Stub-Name} never reach a client. */
  @Test
  void answersCarryNoWireMockHeaders() throws IOException {
    OkHttpClient client = new OkHttpClient();
    for (String path : new String[] {"/apis", APPS, APPS + "/missing", "/nothing"}) {
      try (Response r =
          client.newCall(new Request.Builder().url(kube.server().url() + path).build()).execute()) {
        assertThat(r.headers().names())
            .as(path)
            .noneMatch(h -> h.toLowerCase(java.util.Locale.ROOT).startsWith("matched-stub"));
        assertThat(r.code()).as(path).isIn(200, 404);
      }
    }
  }
}
