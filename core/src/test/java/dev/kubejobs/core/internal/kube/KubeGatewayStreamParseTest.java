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

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Successful answers are parsed from the response stream: what is a JSON object, and what is not,
 * stays what it was when the body was read whole first (blanks first allowed; anything else is the
 * non-JSON error, which gives the body's whole size).
 */
class KubeGatewayStreamParseTest {
  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).build();

  private static final String OBJECT = ".*/testjobs/kj-1";
  private KubeGateway gateway;

  @BeforeEach
  void setUp() {
    gateway = KubeGateway.create(KUBE.client(), Duration.ofSeconds(5), ResiliencePolicy.none());
  }

  @Test
  void anObjectAfterBlanksIsParsedWhateverTheContentType() {
    KUBE.server()
        .faults()
        .add(Fault.on("GET", OBJECT).plainText(200, " \r\n\t {\"metadata\":{\"name\":\"kj-1\"}}"));

    assertThat(gateway.get(null, TestJobKind.KIND, "etl", "kj-1"))
        .hasValueSatisfying(s -> assertThat(s.name()).isEqualTo("kj-1"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "[1,2]",
        "\"text\"",
        "<html>login</html>",
        "{\"metadata\":{}} trailing",
        "{\"metadata\":",
        "{\"metadata\":{}}{}",
        "  {\"metadata\": [1, 2,"
      })
  void aBodyThatIsNotOneJsonObjectIsTheNonJsonErrorWithTheWholeBodySize(String body) {
    KUBE.server().faults().add(Fault.on("GET", OBJECT).plainText(200, body));
    int size = (body + "\n").getBytes(StandardCharsets.UTF_8).length; // the server adds "\n"

    assertThatThrownBy(() -> gateway.get(null, TestJobKind.KIND, "etl", "kj-1"))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("got a non-JSON answer (200, text/plain")
        .hasMessageContaining(", " + size + " bytes) instead of the Kubernetes API");
  }

  private static final String LIST = ".*/testjobs";

  /** A list page is read from its bytes with the same answer to what is not one JSON object. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "[1,2]",
        "<html>login</html>",
        "{\"items\":[]} trailing",
        "{\"items\":[{\"metadata\":{\"name\":\"a\"}},",
        "{\"items\":[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"x\":[1,}}}]}",
        "{\"items\":[],\"metadata\":{\"continue\":\"\\q\"}}",
        "{\"items\":[]}{}",
        "{\"items\":[{\"metadata\":{\"name\":\"\u00e9\"}}],}"
      })
  void aListPageThatIsNotOneJsonObjectIsTheNonJsonErrorWithTheWholeBodySize(String body) {
    KUBE.server().faults().add(Fault.on("GET", LIST).plainText(200, body));
    int size = (body + "\n").getBytes(StandardCharsets.UTF_8).length; // the server adds "\n"

    assertThatThrownBy(
            () ->
                ListDrain.each(
                    gateway, null, TestJobKind.KIND, "etl", null, FieldProjection.WHOLE, o -> {}))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("got a non-JSON answer (200, text/plain")
        .hasMessageContaining(", " + size + " bytes) instead of the Kubernetes API");
  }

  /** Items that are not objects, or not an array, are garbage, not a non-JSON page. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"items\":{}}",
        "{\"items\":\"x\"}",
        "{\"items\":[1]}",
        "{\"items\":[{\"metadata\":{\"name\":\"a\"}},null]}",
        "{\"items\":[{\"spec\":{}}]}"
      })
  void aListPageWithItemsThatAreNotObjectsIsGarbage(String body) {
    KUBE.server().faults().add(Fault.on("GET", LIST).plainText(200, body));

    assertThatThrownBy(
            () ->
                ListDrain.each(
                    gateway, null, TestJobKind.KIND, "etl", null, FieldProjection.WHOLE, o -> {}))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("from the API server; is the base path a Kubernetes API?")
        .hasMessageNotContaining("non-JSON");
  }

  /** Names and values with escapes and non-ASCII text are read from the bytes as written. */
  @Test
  void aListPageWithEscapesAndNonAsciiTextIsReadAsWritten() {
    KUBE.server()
        .faults()
        .add(
            Fault.on("GET", LIST)
                .plainText(
                    200,
                    "{\"kind\":\"TestJobList\",\"metadata\":{\"resourceVersion\":\"7\"},"
                        + "\"items\":[{\"metadata\":{\"name\":\"kj-\\u00e9\",\"n\\u0061mespace\":"
                        + "\"\u4e2d\ud83d\ude00\"}}, {\"metadata\":{\"name\":\"kj-2\"}}]}"));
    java.util.List<dev.kubejobs.core.spi.ResourceSnapshot> seen = new java.util.ArrayList<>();

    assertThat(
            ListDrain.each(
                gateway, null, TestJobKind.KIND, "etl", null, FieldProjection.WHOLE, seen::add))
        .isEqualTo("7");

    assertThat(seen).extracting(s -> s.name()).containsExactly("kj-\u00e9", "kj-2");
    assertThat(seen.get(0).namespace()).isEqualTo("\u4e2d\ud83d\ude00");
  }
}
