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

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fake API server answers as kube-apiserver does: one test per behaviour, each naming the
 * kube-apiserver source (in {@code kubernetes/kubernetes}, under {@code staging/src/k8s.io/}) it
 * mirrors. The testkit README's conformance table lists them.
 */
class ConformanceTest {

  /** The real operators' CRDs, kept once in the repository (the spark module's test resources). */
  static final Path CRDS = Path.of("..", "spark", "src", "test", "resources", "crds");

  static final String APPS = "/apis/spark.apache.org/v1/namespaces/" + NS + "/sparkapplications";
  static final String KUBEFLOW_APPS =
      "/apis/sparkoperator.k8s.io/v1beta2/namespaces/" + NS + "/sparkapplications";

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  static List<ResourceType> apache;
  static List<ResourceType> kubeflow;

  @BeforeAll
  static void registerTheRealCrds() throws IOException {
    apache =
        kube.server()
            .registerCrd(
                Files.readString(CRDS.resolve("apache-sparkapplications.spark.apache.org.yaml")));
    kubeflow =
        kube.server()
            .registerCrd(
                Files.readString(
                    CRDS.resolve("kubeflow-sparkoperator.k8s.io_sparkapplications.yaml")));
  }

  // ---- resources that are not served ---------------------------------------------------------

  /**
   * {@code apiextensions-apiserver/pkg/apiserver/customresource_handler.go} {@code
   * crdHandler.ServeHTTP} passes a request for an unknown CRD to its delegate, which ends in {@code
   * apiserver/pkg/server/mux/pathrecorder.go}'s not-found handler ({@code http.NotFound}).
   */
  @Test
  void anUnservedResourceAnswersAPlainTextPageNotFound() throws IOException {
    Http.Answer a =
        Http.send(
            kube.server(), "GET", "/apis/nothing.example.com/v1/namespaces/x/things", null, null);

    assertThat(a.code()).isEqualTo(404);
    assertThat(a.contentType()).isEqualTo("text/plain; charset=utf-8");
    assertThat(a.body()).isEqualTo("404 page not found\n");
  }

  /** The CRD's registration gives every served version (Apache serves v1beta1 and v1). */
  @Test
  void registeringACrdServesEachServedVersion() {
    assertThat(apache).extracting(ResourceType::version).containsExactly("v1beta1", "v1");
    assertThat(kubeflow).extracting(ResourceType::kind).containsExactly("SparkApplication");
  }

  // ---- create ------------------------------------------------------------------------------

  /**
   * {@code apiserver/pkg/registry/generic/registry/store.go} {@code Store.Create}: a second object
   * of a name answers 409 {@code AlreadyExists} naming it.
   */
  @Test
  void creatingAnExistingNameAnswers409AlreadyExists() throws IOException {
    post(APPS, apacheApp("pi"));
    Http.Answer again = post(APPS, apacheApp("pi"));

    assertThat(again.code()).isEqualTo(409);
    assertThat(again.json().get("reason").getAsString()).isEqualTo("AlreadyExists");
    assertThat(again.json().getAsJsonObject("details").get("name").getAsString()).isEqualTo("pi");
  }

  /**
   * {@code apiserver/pkg/storage/etcd3/store.go} {@code store.Create} refuses an object carrying a
   * resourceVersion, which the handler answers as an internal error.
   */
  @Test
  void aCreateCarryingAResourceVersionAnswers500() throws IOException {
    JsonObject app = apacheApp("pi");
    app.getAsJsonObject("metadata").addProperty("resourceVersion", "12");

    Http.Answer a = post(APPS, app);

    assertThat(a.code()).isEqualTo(500);
    assertThat(a.json().get("message").getAsString())
        .isEqualTo(
            "Internal error occurred: resourceVersion should not be set on objects to be created");
  }

  /**
   * A custom resource body is decoded as unstructured ({@code apimachinery/pkg/apis/meta/v1/
   * unstructured/helpers.go} {@code UnstructuredJSONScheme}), which needs kind and apiVersion:
   * {@code runtime.NewMissingKindErr}.
   */
  @Test
  void aCustomResourceWithoutKindAnswers400() throws IOException {
    JsonObject app = apacheApp("pi");
    app.remove("kind");

    Http.Answer a = post(APPS, app);

    assertThat(a.code()).isEqualTo(400);
    assertThat(a.json().get("message").getAsString()).startsWith("Object 'Kind' is missing in");
  }

  /**
   * apimachinery's {@code api/validation/objectmeta.go} {@code ValidateObjectMeta} with {@code
   * util/validation/validation.go} {@code IsDNS1123Subdomain}: 422, details kind the Kind, cause on
   * {@code metadata.name}.
   */
  @Test
  void aTooLongNameAnswers422NamingTheField() throws IOException {
    Http.Answer a = post(APPS, apacheApp("a".repeat(254)));

    assertThat(a.code()).isEqualTo(422);
    JsonObject details = a.json().getAsJsonObject("details");
    assertThat(details.get("kind").getAsString()).isEqualTo("SparkApplication");
    JsonObject cause = details.getAsJsonArray("causes").get(0).getAsJsonObject();
    assertThat(cause.get("field").getAsString()).isEqualTo("metadata.name");
    assertThat(cause.get("message").getAsString()).endsWith("must be no more than 253 characters");
  }

  // ---- schema ------------------------------------------------------------------------------

  /**
   * {@code apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go} {@code
   * PruneWithOptions} drops unknown fields; {@code customresource_handler.go} reports each as a
   * warning ({@code unknown field "..."}), which {@code apiserver/pkg/endpoints/filters/warning.go}
   * writes as a {@code 299} {@code Warning} header.
   */
  @Test
  void unknownFieldsArePrunedAndNamedInAWarningHeader() throws IOException {
    JsonObject app = apacheApp("pi");
    app.getAsJsonObject("spec").addProperty("colour", "blue");
    app.getAsJsonObject("spec").getAsJsonObject("runtimeVersions").addProperty("flavour", "x");

    Http.Answer a = post(APPS, app);

    assertThat(a.code()).isEqualTo(201);
    assertThat(a.warnings())
        .containsExactly(
            "299 - \"unknown field \\\"spec.colour\\\"\"",
            "299 - \"unknown field \\\"spec.runtimeVersions.flavour\\\"\"");
    JsonObject stored = kube.server().store().get(apache.get(1), NS, "pi").orElseThrow();
    assertThat(stored.getAsJsonObject("spec").has("colour")).isFalse();
  }

  /**
   * {@code apiextensions-apiserver/pkg/apiserver/validation/validation.go} {@code
   * ValidateCustomResource}: a {@code sparkConf} value that is a number fails the schema's {@code
   * additionalProperties: {type: string}} with 422 {@code Invalid}, one cause per field ({@code
   * FieldValueTypeInvalid}), details naming the Kind.
   */
  @Test
  void aWrongTypeAnswers422InvalidWithACausePerField() throws IOException {
    JsonObject app = apacheApp("pi");
    JsonObject conf = new JsonObject();
    conf.addProperty("spark.executor.instances", 2);
    app.getAsJsonObject("spec").add("sparkConf", conf);

    Http.Answer a = post(APPS, app);

    assertThat(a.code()).isEqualTo(422);
    JsonObject details = a.json().getAsJsonObject("details");
    assertThat(details.get("kind").getAsString()).isEqualTo("SparkApplication");
    JsonObject cause = details.getAsJsonArray("causes").get(0).getAsJsonObject();
    assertThat(cause.get("reason").getAsString()).isEqualTo("FieldValueTypeInvalid");
    assertThat(cause.get("field").getAsString())
        .isEqualTo("spec.sparkConf.spark.executor.instances");
    assertThat(a.json().get("message").getAsString())
        .isEqualTo(
            "SparkApplication.spark.apache.org \"pi\" is invalid:"
                + " spec.sparkConf.spark.executor.instances: Invalid value: \"integer\":"
                + " spec.sparkConf.spark.executor.instances in body must be of type string:"
                + " \"integer\"");
  }

  /**
   * The same validator checks {@code enum}: Kubeflow's {@code spec.type} is one of Java, Python,
   * Scala, R ({@code field.NotSupported}).
   */
  @Test
  void aValueOutsideAnEnumAnswers422NotSupported() throws IOException {
    JsonObject app = kubeflowApp("pi");
    app.getAsJsonObject("spec").addProperty("type", "Go");

    Http.Answer a = post(KUBEFLOW_APPS, app);

    assertThat(a.code()).isEqualTo(422);
    JsonObject cause =
        a.json().getAsJsonObject("details").getAsJsonArray("causes").get(0).getAsJsonObject();
    assertThat(cause.get("reason").getAsString()).isEqualTo("FieldValueNotSupported");
    assertThat(cause.get("message").getAsString())
        .isEqualTo(
            "spec.type: Unsupported value: \"Go\": supported values: \"Java\", \"Python\","
                + " \"Scala\", \"R\"");
  }

  /** And {@code required}: Apache's {@code spec.runtimeVersions} ({@code field.Required}). */
  @Test
  void aMissingRequiredFieldAnswers422Required() throws IOException {
    JsonObject app = apacheApp("pi");
    app.getAsJsonObject("spec").remove("runtimeVersions");

    Http.Answer a = post(APPS, app);

    assertThat(a.code()).isEqualTo(422);
    JsonArray causes = a.json().getAsJsonObject("details").getAsJsonArray("causes");
    assertThat(causes.get(0).getAsJsonObject().get("field").getAsString())
        .isEqualTo("spec.runtimeVersions");
    assertThat(causes.get(0).getAsJsonObject().get("message").getAsString())
        .isEqualTo("spec.runtimeVersions: Required value");
  }

  /** The Kubeflow operator's own example passes the schema unchanged, with no warning. */
  @Test
  void theKubeflowSparkPiExampleIsAcceptedAsIs() throws IOException {
    JsonObject app = kubeflowApp("spark-pi");

    Http.Answer a = post(KUBEFLOW_APPS, app);

    assertThat(a.code()).isEqualTo(201);
    assertThat(a.warnings()).isEmpty();
    assertThat(a.json().get("spec")).isEqualTo(app.get("spec"));
  }

  /** Updates are validated too ({@code customResourceStrategy.ValidateUpdate}). */
  @Test
  void aMergePatchBreakingTheSchemaAnswers422() throws IOException {
    post(KUBEFLOW_APPS, kubeflowApp("pi"));

    Http.Answer a =
        Http.send(
            kube.server(),
            "PATCH",
            KUBEFLOW_APPS + "/pi",
            "application/merge-patch+json",
            "{\"spec\":{\"mode\":\"local\"}}");

    assertThat(a.code()).isEqualTo(422);
    assertThat(a.json().get("message").getAsString()).contains("spec.mode: Unsupported value");
  }

  // ---- update and patch ------------------------------------------------------------------------

  /**
   * {@code apiserver/pkg/registry/generic/registry/store.go} {@code Store.Update}: a stale
   * resourceVersion answers 409 {@code Conflict} "the object has been modified".
   */
  @Test
  void aStaleResourceVersionAnswers409Conflict() throws IOException {
    JsonObject created = post(APPS, apacheApp("pi")).json();
    created.getAsJsonObject("metadata").addProperty("resourceVersion", "1");

    Http.Answer a = Http.put(kube.server(), APPS + "/pi", created);

    assertThat(a.code()).isEqualTo(409);
    assertThat(a.json().get("message").getAsString()).contains("the object has been modified");
  }

  /**
   * A custom resource may not be updated unconditionally ({@code customResourceStrategy.
   * AllowUnconditionalUpdate} is false in {@code apiextensions-apiserver/pkg/registry/
   * customresource/strategy.go}), a pod may ({@code pkg/registry/core/pod/strategy.go}).
   */
  @Test
  void aPutWithoutResourceVersionIs422ForACustomResourceAndAllowedForAPod() throws IOException {
    JsonObject created = post(APPS, apacheApp("pi")).json();
    created.getAsJsonObject("metadata").remove("resourceVersion");
    kube.server().store().create(ResourceType.POD, NS, DeleteTest.ownedPod("driver", null));
    JsonObject pod = kube.server().store().get(ResourceType.POD, NS, "driver").orElseThrow();
    pod.getAsJsonObject("metadata").remove("resourceVersion");
    pod.getAsJsonObject("metadata").add("labels", Kube.json("{'a':'b'}"));

    assertThat(Http.put(kube.server(), APPS + "/pi", created).code()).isEqualTo(422);
    assertThat(Http.put(kube.server(), "/api/v1/namespaces/" + NS + "/pods/driver", pod).code())
        .isEqualTo(200);
  }

  /**
   * A patch carries no uid precondition ({@code apiserver/pkg/endpoints/handlers/patch.go} passes
   * no object to {@code rest.DefaultUpdatedObjectInfo}); a changed uid fails {@code
   * apimachinery/pkg/api/validation/objectmeta.go} {@code ValidateObjectMetaUpdate}: 422, field is
   * immutable.
   */
  @Test
  void aMergePatchChangingTheUidAnswers422Immutable() throws IOException {
    post(APPS, apacheApp("pi"));

    Http.Answer a =
        Http.send(
            kube.server(),
            "PATCH",
            APPS + "/pi",
            "application/merge-patch+json",
            "{\"metadata\":{\"uid\":\"other\"}}");

    assertThat(a.code()).isEqualTo(422);
    assertThat(a.json().get("message").getAsString())
        .endsWith("metadata.uid: Invalid value: \"other\": field is immutable");
    assertThat(a.json().getAsJsonObject("details").get("kind").getAsString())
        .isEqualTo("SparkApplication");
  }

  // ---- delete ------------------------------------------------------------------------------

  /**
   * {@code apiserver/pkg/registry/generic/registry/store.go} {@code Store.Delete}: a CRD's storage
   * does not return the deleted object, so it answers a {@code Status} {@code Success} with name,
   * group, kind (the plural) and uid.
   */
  @Test
  void deletingACustomResourceAnswersAStatusSuccess() throws IOException {
    String uid =
        post(APPS, apacheApp("pi")).json().getAsJsonObject("metadata").get("uid").getAsString();

    Http.Answer a = Http.send(kube.server(), "DELETE", APPS + "/pi", null, null);

    assertThat(a.code()).isEqualTo(200);
    assertThat(a.json().get("kind").getAsString()).isEqualTo("Status");
    assertThat(a.json().get("status").getAsString()).isEqualTo("Success");
    JsonObject details = a.json().getAsJsonObject("details");
    assertThat(details.get("kind").getAsString()).isEqualTo("sparkapplications");
    assertThat(details.get("uid").getAsString()).isEqualTo(uid);
  }

  /**
   * {@code apiserver/pkg/registry/rest/delete.go} {@code BeforeDelete} sets {@code
   * deletionTimestamp} and bumps {@code generation} for an object that finalizers keep; {@code
   * apiserver/pkg/endpoints/handlers/delete.go} {@code DeleteResource} answers 200 (202 only with
   * {@code orphanDependents=false}); a second DELETE changes nothing.
   */
  @Test
  void deletingAFinalizedObjectAnswers200WithItsDeletionTimestamp() throws IOException {
    JsonObject app = apacheApp("pi");
    app.getAsJsonObject("metadata").add("finalizers", Kube.json("{'f':['x/y']}").get("f"));
    post(APPS, app);

    Http.Answer first = Http.send(kube.server(), "DELETE", APPS + "/pi", null, null);
    Http.Answer second = Http.send(kube.server(), "DELETE", APPS + "/pi", null, null);

    assertThat(first.code()).isEqualTo(200);
    JsonObject meta = first.json().getAsJsonObject("metadata");
    assertThat(meta.has("deletionTimestamp")).isTrue();
    assertThat(meta.get("generation").getAsLong()).isEqualTo(2);
    assertThat(second.code()).isEqualTo(200);
    assertThat(second.json().getAsJsonObject("metadata").get("resourceVersion"))
        .isEqualTo(meta.get("resourceVersion"));
  }

  /** {@code rest.BeforeDelete} words a failed uid precondition with the Kind as resource. */
  @Test
  void aDeletePreconditionFailureIsWordedAsTheRealServerDoes() throws IOException {
    String uid =
        post(APPS, apacheApp("pi")).json().getAsJsonObject("metadata").get("uid").getAsString();

    Http.Answer a =
        Http.send(
            kube.server(),
            "DELETE",
            APPS + "/pi",
            "application/json",
            "{\"preconditions\":{\"uid\":\"old\"}}");

    assertThat(a.code()).isEqualTo(409);
    assertThat(a.json().get("message").getAsString())
        .isEqualTo(
            "Operation cannot be fulfilled on SparkApplication.spark.apache.org \"pi\": the UID in"
                + " the precondition (old) does not match the UID in record ("
                + uid
                + "). The object might have been deleted and then recreated");
    assertThat(a.json().getAsJsonObject("details").get("kind").getAsString())
        .isEqualTo("SparkApplication");
  }

  // ---- list --------------------------------------------------------------------------------

  /**
   * Custom resources support only {@code metadata.name} and {@code metadata.namespace} as field
   * labels ({@code apiextensions-apiserver/pkg/apiserver/conversion/converter.go} {@code
   * ConvertFieldLabel}: {@code field label not supported}).
   */
  @Test
  void anUnsupportedFieldSelectorOnACustomResourceAnswers400() throws IOException {
    Http.Answer bad =
        Http.send(kube.server(), "GET", APPS + "?fieldSelector=spec.type%3DScala", null, null);
    Http.Answer good =
        Http.send(kube.server(), "GET", APPS + "?fieldSelector=metadata.name%3Dpi", null, null);

    assertThat(bad.code()).isEqualTo(400);
    assertThat(bad.json().get("message").getAsString())
        .isEqualTo("field label not supported: spec.type");
    assertThat(good.code()).isEqualTo(200);
  }

  /**
   * Label selectors are parsed as apimachinery's {@code pkg/labels/selector.go} {@code Parse} does:
   * keys are qualified names, values label values, set operators need values; {@code >} and {@code
   * <} take integers.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "app=x y|400",
        "app notin ()|400",
        "app=-x|400",
        "a/b/c=1|400",
        "tier>0|200",
        "example.com/app=x|200",
        "app in (a,b),!tier|200"
      })
  void labelSelectorsAreParsedAsTheRealParserDoes(String selector, int code) throws IOException {
    String query = java.net.URLEncoder.encode(selector, java.nio.charset.StandardCharsets.UTF_8);

    assertThat(Http.send(kube.server(), "GET", APPS + "?labelSelector=" + query, null, null).code())
        .isEqualTo(code);
  }

  /**
   * {@code apiserver/pkg/storage/etcd3/store.go} {@code GetList}: later pages read at the first
   * page's resourceVersion, so objects created meanwhile do not appear; {@code remainingItemCount}
   * is set only without a selector.
   */
  @Test
  void laterPagesComeFromTheFirstPagesSnapshot() throws IOException {
    for (int i = 0; i < 3; i++) {
      post(APPS, apacheApp("a" + i));
    }
    Http.Answer first = Http.send(kube.server(), "GET", APPS + "?limit=2", null, null);
    post(APPS, apacheApp("a9"));
    // Changed after the first page: the second page still shows it as it was (etcd reads the
    // list's revision), and so does the store's own list taken before the change.
    List<JsonObject> before = kube.server().store().list(apache.get(1), NS);
    kube.server()
        .store()
        .update(
            apache.get(1),
            NS,
            "a2",
            o -> {
              o.getAsJsonObject("spec").addProperty("mainClass", "org.example.Changed");
              return o;
            });
    String token = first.json().getAsJsonObject("metadata").get("continue").getAsString();

    Http.Answer second =
        Http.send(kube.server(), "GET", APPS + "?limit=2&continue=" + token, null, null);
    Http.Answer selected =
        Http.send(kube.server(), "GET", APPS + "?limit=2&labelSelector=app", null, null);

    assertThat(first.json().getAsJsonObject("metadata").get("remainingItemCount").getAsLong())
        .isEqualTo(1);
    assertThat(second.json().getAsJsonArray("items")).hasSize(1);
    assertThat(
            second
                .json()
                .getAsJsonArray("items")
                .get(0)
                .getAsJsonObject()
                .getAsJsonObject("spec")
                .get("mainClass")
                .getAsString())
        .isEqualTo("org.example.Pi");
    assertThat(before.get(2).getAsJsonObject("spec").get("mainClass").getAsString())
        .isEqualTo("org.example.Pi");
    assertThat(second.json().getAsJsonObject("metadata").has("continue")).isFalse();
    assertThat(selected.json().getAsJsonObject("metadata").has("remainingItemCount")).isFalse();
  }

  /**
   * After a compaction the token answers 410 {@code Expired} with a token for an inconsistent
   * continuation ({@code apiserver/pkg/storage/etcd3/errors.go} {@code
   * handleCompactedErrorForPaging}).
   */
  @Test
  void aContinueTokenPastCompactionAnswers410Expired() throws IOException {
    for (int i = 0; i < 3; i++) {
      post(APPS, apacheApp("a" + i));
    }
    String token =
        Http.send(kube.server(), "GET", APPS + "?limit=2", null, null)
            .json()
            .getAsJsonObject("metadata")
            .get("continue")
            .getAsString();
    kube.server().compact();

    Http.Answer expired =
        Http.send(kube.server(), "GET", APPS + "?limit=2&continue=" + token, null, null);

    assertThat(expired.code()).isEqualTo(410);
    assertThat(expired.json().get("reason").getAsString()).isEqualTo("Expired");
    String inconsistent = expired.json().getAsJsonObject("metadata").get("continue").getAsString();
    assertThat(
            Http.send(kube.server(), "GET", APPS + "?limit=2&continue=" + inconsistent, null, null)
                .json()
                .getAsJsonArray("items"))
        .hasSize(1);
  }

  /** Items of a built-in type's list carry no kind or apiVersion (typed list encoding). */
  @Test
  void podListItemsCarryNoKind() throws IOException {
    kube.server().store().create(ResourceType.POD, NS, DeleteTest.ownedPod("driver", null));

    JsonObject item =
        Http.send(kube.server(), "GET", "/api/v1/namespaces/" + NS + "/pods", null, null)
            .json()
            .getAsJsonArray("items")
            .get(0)
            .getAsJsonObject();

    assertThat(item.has("kind")).isFalse();
    assertThat(item.has("apiVersion")).isFalse();
  }

  // ---- throttling ----------------------------------------------------------------------------

  /**
   * {@code apiserver/pkg/server/filters/maxinflight.go} {@code tooManyRequests} (also used by
   * priority and fairness) answers 429 in plain text with {@code Retry-After}.
   */
  @Test
  void theRealThrottlingAnswerIsPlainText() throws IOException {
    kube.server().faults().add(Fault.on("GET", APPS).tooManyRequestsAsText("1"));

    Http.Answer a = Http.send(kube.server(), "GET", APPS, null, null);

    assertThat(a.code()).isEqualTo(429);
    assertThat(a.contentType()).isEqualTo("text/plain; charset=utf-8");
    assertThat(a.body()).isEqualTo("Too many requests, please try again later.\n");
    assertThat(a.retryAfter()).isEqualTo("1");
  }

  // ---- helpers -----------------------------------------------------------------------------

  private static Http.Answer post(String path, JsonObject body) throws IOException {
    return Http.send(kube.server(), "POST", path, "application/json", body.toString());
  }

  private static JsonObject apacheApp(String name) {
    return Kube.json(
        "{'apiVersion':'spark.apache.org/v1','kind':'SparkApplication','metadata':{'name':'"
            + name
            + "','labels':{'app':'"
            + name
            + "'}},'spec':{'mainClass':'org.example.Pi','runtimeVersions':{'sparkVersion':'4.0.0'}}}");
  }

  private static JsonObject kubeflowApp(String name) {
    return Kube.json(
        "{'apiVersion':'sparkoperator.k8s.io/v1beta2','kind':'SparkApplication','metadata':{'name':'"
            + name
            + "'},'spec':{'type':'Scala','mode':'cluster','image':'docker.io/apache/spark:4.0.4',"
            + "'mainClass':'org.apache.spark.examples.SparkPi',"
            + "'mainApplicationFile':'local:///opt/spark/examples/jars/spark-examples.jar',"
            + "'arguments':['5000'],'sparkVersion':'4.0.4',"
            + "'driver':{'cores':1,'memory':'512m','serviceAccount':'spark'},"
            + "'executor':{'instances':1,'cores':1,'memory':'512m'}}}");
  }
}
