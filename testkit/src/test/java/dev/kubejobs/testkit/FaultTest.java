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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 9: faults per verb and path, as values, for the next N requests. */
class FaultTest {

  static final String APPS = "/apis/spark.apache.org/v1/namespaces/[^/]+/sparkapplications";

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  /** A client that does not silently replay requests on a reset connection. */
  private static ApiClient noRetryClient() {
    ApiClient client = kube.server().newClient();
    client.setHttpClient(
        client.getHttpClient().newBuilder().retryOnConnectionFailure(false).build());
    return client;
  }

  @Test
  void connectionResetIsThrownAndChangesNothing() {
    kube.server().faults().add(Fault.on("POST", APPS).connectionReset());

    assertThatThrownBy(() -> Kube.apps(noRetryClient()).create(Kube.app("pi")))
        .isInstanceOf(IllegalStateException.class)
        .hasCauseInstanceOf(IOException.class);
    assertThat(kube.server().store().list(SPARK_APP, NS)).isEmpty();
  }

  @Test
  void okHttpSilentlyReplaysAPostWhoseConnectionWasReset() {
    // OkHttp's retryOnConnectionFailure (on by default) sends the POST again: two on the wire.
    kube.server().faults().add(Fault.on("POST", APPS).times(1).connectionReset());

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).create(Kube.app("pi"));

    assertThat(response.getHttpStatusCode()).isEqualTo(200);
    assertThat(kube.server().journal().count("POST", APPS)).isEqualTo(2);
  }

  @Test
  void emptyResponseIsThrownAsAnIoFailure() {
    kube.server().faults().add(Fault.on("GET", APPS + "/pi").emptyResponse());

    assertThatThrownBy(() -> Kube.apps(noRetryClient()).get(NS, "pi"))
        .isInstanceOf(IllegalStateException.class)
        .hasCauseInstanceOf(IOException.class);
  }

  @Test
  void aNonJson502ProxyPageIsReportedWithTheHtmlAsMessage() {
    // client-java cannot parse the HTML as a Status, so it reports the code and the raw body.
    kube.server().faults().add(Fault.on("GET", APPS + "/pi").nonJson(502));

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).get(NS, "pi");

    assertThat(response.getHttpStatusCode()).isEqualTo(502);
    assertThat(response.getStatus().getMessage()).contains("<title>502 Bad Gateway</title>");
  }

  @Test
  void aNonJson200ProxyPageComesBackAsCode200WithoutAnObject() {
    // client-java 27 fact: a 200 whose body is not JSON is not thrown; the response has code 200,
    // no object, and a synthetic Status whose message is the raw body. Check getObject() != null.
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    kube.server().faults().add(Fault.on("GET", APPS + "/pi").nonJson(200));

    KubernetesApiResponse<DynamicKubernetesObject> page = Kube.apps(kube.client()).get(NS, "pi");

    assertThat(page.getHttpStatusCode()).isEqualTo(200);
    assertThat(page.getObject()).isNull();
    assertThat(page.getStatus().getMessage()).contains("<title>200 OK</title>");
    assertThat(Kube.apps(kube.client()).get(NS, "pi").isSuccess()).isTrue();
  }

  @Test
  void aDelayLongerThanTheReadTimeoutIsATimeoutAfterTheChangeWasMade() {
    kube.server().faults().add(Fault.on("POST", APPS).delay(Duration.ofMillis(1500)));
    ApiClient impatient = noRetryClient();
    impatient.setReadTimeout(300);

    assertThatThrownBy(() -> Kube.apps(impatient).create(Kube.app("pi")))
        .isInstanceOf(IllegalStateException.class)
        .hasCauseInstanceOf(SocketTimeoutException.class);
    // the server made the change although the caller gave up (a cold server may take a moment)
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () -> assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isPresent());
  }

  @Test
  void aShortDelayStillAnswersNormally() {
    kube.server().faults().add(Fault.on("POST", APPS).delay(Duration.ofMillis(100)));

    assertThat(Kube.apps(kube.client()).create(Kube.app("pi")).getHttpStatusCode()).isEqualTo(200);
  }

  @Test
  void anyStatusCodeIsAnsweredWithAStatusBodyAndChangesNothing() {
    kube.server()
        .faults()
        .add(Fault.on("POST", APPS).status(503, "ServiceUnavailable", "etcd is unhappy"));

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).create(Kube.app("pi"));

    assertThat(response.getHttpStatusCode()).isEqualTo(503);
    assertThat(response.getStatus().getReason()).isEqualTo("ServiceUnavailable");
    assertThat(response.getStatus().getMessage()).isEqualTo("etcd is unhappy");
    assertThat(kube.server().store().list(SPARK_APP, NS)).isEmpty();
  }

  @Test
  void anErrorWithoutBodyIsThrownAsRuntimeExceptionOfApiException() {
    kube.server().faults().add(Fault.on("GET", APPS + "/pi").statusWithoutBody(503));

    assertThatThrownBy(() -> Kube.apps(kube.client()).get(NS, "pi"))
        .isInstanceOf(RuntimeException.class)
        .hasCauseInstanceOf(io.kubernetes.client.openapi.ApiException.class)
        .satisfies(
            e ->
                assertThat(((io.kubernetes.client.openapi.ApiException) e.getCause()).getCode())
                    .isEqualTo(503));
  }

  @Test
  void tooManyRequestsAnswers429WithRetryAfter() throws Exception {
    kube.server().faults().add(Fault.on("GET", APPS + "/pi").times(2).tooManyRequests(7));

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).get(NS, "pi");
    Http.Answer raw = Http.send(kube.server(), "GET", SPARK_APP.objectPath(NS, "pi"), null, null);

    assertThat(response.getHttpStatusCode()).isEqualTo(429);
    assertThat(response.getStatus().getReason()).isEqualTo("TooManyRequests");
    assertThat(response.getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(7);
    assertThat(raw.code()).isEqualTo(429);
    assertThat(raw.retryAfter()).isEqualTo("7");
  }

  @Test
  void appliedThenLostMakesTheChangeAndTheCallerSeesAFailure() {
    kube.server().faults().add(Fault.on("POST", APPS).appliedThenLost());

    assertThatThrownBy(() -> Kube.apps(noRetryClient()).create(Kube.app("pi")))
        .isInstanceOf(IllegalStateException.class)
        .hasCauseInstanceOf(IOException.class);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isPresent();
  }

  @Test
  void appliedThenLostWithTheDefaultClientAnswersAlreadyExistsForOurOwnObject() {
    // OkHttp replays the POST after the reset; the object exists by then.
    kube.server().faults().add(Fault.on("POST", APPS).appliedThenLost());

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).create(Kube.app("pi"));

    assertThat(response.getHttpStatusCode()).isEqualTo(409);
    assertThat(response.getStatus().getReason()).isEqualTo("AlreadyExists");
    assertThat(kube.server().journal().count("POST", APPS)).isEqualTo(2);
  }

  @Test
  void appliedThenLostDeleteIsReplayedInto404() {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    kube.server().faults().add(Fault.on("DELETE", APPS + "/pi").appliedThenLost());

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).delete(NS, "pi");

    assertThat(response.getHttpStatusCode()).isEqualTo(404);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
  }

  @Test
  void appliedThenLostPatchWithAResourceVersionIsReplayedInto409() {
    String rv =
        kube.server()
            .store()
            .create(SPARK_APP, NS, Kube.appJson("pi"))
            .getAsJsonObject("metadata")
            .get("resourceVersion")
            .getAsString();
    kube.server().faults().add(Fault.on("PATCH", APPS + "/pi").appliedThenLost());

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client())
            .patch(
                NS,
                "pi",
                io.kubernetes.client.custom.V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                new io.kubernetes.client.custom.V1Patch(
                    "{\"metadata\":{\"resourceVersion\":\""
                        + rv
                        + "\",\"labels\":{\"cancel\":\"requested\"}}}"));

    assertThat(response.getHttpStatusCode()).isEqualTo(409);
    assertThat(response.getStatus().getReason()).isEqualTo("Conflict");
    assertThat(
            kube.server()
                .store()
                .get(SPARK_APP, NS, "pi")
                .orElseThrow()
                .getAsJsonObject("metadata")
                .getAsJsonObject("labels")
                .get("cancel")
                .getAsString())
        .isEqualTo("requested");
  }

  @Test
  void aFaultAnswersOnlyTheNextNMatchingRequestsOfItsVerb() {
    Fault twice = Fault.on("GET", APPS + "/pi").times(2).status(500, "InternalError", "boom");
    kube.server().faults().add(twice);

    assertThat(Kube.apps(kube.client()).create(Kube.app("pi")).getHttpStatusCode()).isEqualTo(200);
    assertThat(Kube.apps(kube.client()).get(NS, "pi").getHttpStatusCode()).isEqualTo(500);
    assertThat(kube.server().faults().remaining(twice)).isEqualTo(1);
    assertThat(Kube.apps(kube.client()).get(NS, "pi").getHttpStatusCode()).isEqualTo(500);
    assertThat(Kube.apps(kube.client()).get(NS, "pi").getHttpStatusCode()).isEqualTo(200);
    assertThat(kube.server().faults().active()).isEmpty();
  }

  @Test
  void skipLetsTheFirstMatchingRequestsThrough() {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("a"));
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("b"));
    kube.server().faults().add(Fault.on("GET", APPS).skip(1).status(500, "InternalError", "x"));
    io.kubernetes.client.util.generic.options.ListOptions page =
        new io.kubernetes.client.util.generic.options.ListOptions();
    page.setLimit(1);

    var first = Kube.apps(kube.client()).list(NS, page);
    page.setContinue(first.getObject().getMetadata().getContinue());
    var second = Kube.apps(kube.client()).list(NS, page);

    assertThat(first.getHttpStatusCode()).isEqualTo(200);
    assertThat(second.getHttpStatusCode()).isEqualTo(500);
  }

  @Test
  void aForeverFaultAnswersUntilCleared() {
    kube.server().faults().add(Fault.on("*", "/apis/.*").forever().status(503, "x", "down"));

    assertThat(Kube.apps(kube.client()).get(NS, "a").getHttpStatusCode()).isEqualTo(503);
    assertThat(Kube.apps(kube.client()).list(NS).getHttpStatusCode()).isEqualTo(503);
    kube.server().faults().clear();
    assertThat(Kube.apps(kube.client()).list(NS).getHttpStatusCode()).isEqualTo(200);
  }
}
