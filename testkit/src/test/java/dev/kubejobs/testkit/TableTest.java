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
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server-side printing of custom resources: {@code Accept: application/json;as=Table;v=v1;g=
 * meta.k8s.io} answers a {@code Table} built from the CRD version's {@code
 * additionalPrinterColumns}, as kubernetes/apiextensions-apiserver's {@code
 * pkg/registry/customresource/tableconvertor/tableconvertor.go} (commit 1aa2717a) builds it and
 * kubernetes/apiserver's {@code pkg/endpoints/handlers/response.go} {@code asTable} (commit
 * 24a394e5) fills each row's object.
 */
@Tag("slow")
class TableTest {

  static final String KUBECTL_ACCEPT =
      "application/json;as=Table;v=v1;g=meta.k8s.io,"
          + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
  static final String KUBEFLOW_APPS =
      "/apis/sparkoperator.k8s.io/v1beta2/namespaces/" + NS + "/sparkapplications";
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  static final MutableClock CLOCK = MutableClock.at(T0);

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().clock(CLOCK).build();

  @BeforeAll
  static void registerTheKubeflowCrd() throws IOException {
    kube.server()
        .registerCrd(
            Files.readString(
                ConformanceTest.CRDS.resolve(
                    "kubeflow-sparkoperator.k8s.io_sparkapplications.yaml")));
  }

  static JsonObject get(String path, String accept) throws IOException {
    Request request =
        new Request.Builder().url(kube.server().url() + path).header("Accept", accept).build();
    try (Response r = new OkHttpClient().newCall(request).execute()) {
      assertThat(r.code()).as(path).isEqualTo(200);
      return JsonParser.parseString(r.body().string()).getAsJsonObject();
    }
  }

  private static void createRunningApp(String name) {
    kube.server()
        .store()
        .create(
            ResourceType.KUBEFLOW_SPARK_APPLICATION,
            NS,
            Kube.json(
                "{'apiVersion':'sparkoperator.k8s.io/v1beta2','kind':'SparkApplication',"
                    + "'metadata':{'name':'"
                    + name
                    + "'},'spec':{'type':'Scala','mode':'cluster','sparkVersion':'3.5.0'},"
                    + "'status':{'applicationState':{'state':'RUNNING'},'executionAttempts':1}}"));
  }

  @Test
  void aListAsTableHasTheNameThenThePrinterColumnsWithTypedCells() throws IOException {
    createRunningApp("pi");
    CLOCK.advance(Duration.ofMinutes(3).plusSeconds(5));

    JsonObject table = get(KUBEFLOW_APPS, KUBECTL_ACCEPT);

    assertThat(table.get("kind").getAsString()).isEqualTo("Table");
    assertThat(table.get("apiVersion").getAsString()).isEqualTo("meta.k8s.io/v1");
    List<String> names = new ArrayList<>();
    table
        .getAsJsonArray("columnDefinitions")
        .forEach(c -> names.add(c.getAsJsonObject().get("name").getAsString()));
    assertThat(names)
        .containsExactly("Name", "Suspend", "Status", "Attempts", "Start", "Finish", "Age");
    JsonArray cells = table.getAsJsonArray("rows").get(0).getAsJsonObject().getAsJsonArray("cells");
    // Name, Suspend (missing: null), Status, Attempts (a string column: the number as text),
    // Start and Finish (missing), Age (HumanDuration of 3m5s).
    assertThat(cells.toString()).isEqualTo("[\"pi\",null,\"RUNNING\",\"1\",null,null,\"3m5s\"]");
    JsonObject object =
        table.getAsJsonArray("rows").get(0).getAsJsonObject().getAsJsonObject("object");
    assertThat(object.get("kind").getAsString()).isEqualTo("PartialObjectMetadata");
    assertThat(object.getAsJsonObject("metadata").get("name").getAsString()).isEqualTo("pi");
    assertThat(object.has("spec")).isFalse();
  }

  @Test
  void includeObjectAndOneObjectAndPlainJsonAreAnsweredAsTheRealServerDoes() throws IOException {
    createRunningApp("pi");

    JsonObject withObject = get(KUBEFLOW_APPS + "?includeObject=Object", KUBECTL_ACCEPT);
    JsonObject one = get(KUBEFLOW_APPS + "/pi", KUBECTL_ACCEPT);
    JsonObject plain = get(KUBEFLOW_APPS, "application/json");

    assertThat(
            withObject
                .getAsJsonArray("rows")
                .get(0)
                .getAsJsonObject()
                .getAsJsonObject("object")
                .get("kind")
                .getAsString())
        .isEqualTo("SparkApplication");
    assertThat(one.get("kind").getAsString()).isEqualTo("Table");
    assertThat(one.getAsJsonArray("rows")).hasSize(1);
    assertThat(plain.get("kind").getAsString()).isEqualTo("SparkApplicationList");
  }

  /**
   * {@code HumanDuration}'s own test table ({@code pkg/util/duration/duration_test.go} of
   * kubernetes/apimachinery, commit eed236ce), in nanoseconds.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
    "1000000000, 1s",
    "70000000000, 70s",
    "190000000000, 3m10s",
    "4200000000000, 70m",
    "169200000000000, 47h",
    "176400000000000, 2d1h",
    "698400000000000, 8d",
    "31708800000000000, 367d",
    "63162000000000000, 2y1d",
    "252295200000000000, 8y",
    "-2000000000, <invalid>",
    "-1999999999, 0s",
    "0, 0s",
    "999000000, 0s",
    "119999000000, 119s",
    "120000000000, 2m",
    "599999000000, 9m59s",
    "601000000000, 10m",
    "10799999000000, 179m",
    "10800000000000, 3h",
    "10860000000000, 3h1m",
    "28799999000000, 7h59m",
    "32340000000000, 8h",
    "172799999000000, 47h",
    "172800000000000, 2d",
    "691199999000000, 7d23h",
    "773999999000000, 8d",
    "63071999999000000, 729d",
    "63072000000000000, 2y",
    "63158399999000000, 2y",
    "63158400000000000, 2y1d",
    "126144000000000000, 4y"
  })
  void agesArePrintedAsHumanDurationPrintsThem(long nanos, String printed) {
    assertThat(Tables.humanDuration(Duration.ofNanos(nanos))).isEqualTo(printed);
  }
}
