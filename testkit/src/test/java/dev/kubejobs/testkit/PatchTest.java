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

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 4: merge patch with a resourceVersion precondition, JSON patch, strategic merge. */
class PatchTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  private String resourceVersion;

  @BeforeEach
  void anApplication() {
    JsonObject app = Kube.appJson("pi");
    app.getAsJsonObject("metadata").add("annotations", Kube.json("{'a/b':'1','keep':'2'}"));
    resourceVersion =
        kube.server()
            .store()
            .create(SPARK_APP, NS, app)
            .getAsJsonObject("metadata")
            .get("resourceVersion")
            .getAsString();
  }

  private KubernetesApiResponse<DynamicKubernetesObject> patch(String type, String body) {
    return Kube.apps(kube.client()).patch(NS, "pi", type, new V1Patch(body.replace('\'', '"')));
  }

  @Test
  void mergePatchMergesAndNullDeletesKeys() {
    KubernetesApiResponse<DynamicKubernetesObject> response =
        patch(
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
            "{'metadata':{'labels':{'x':'y'},'annotations':{'a/b':null}},'spec':{'mainClass':'M'}}");

    assertThat(response.getHttpStatusCode()).isEqualTo(200);
    JsonObject meta = response.getObject().getRaw().getAsJsonObject("metadata");
    assertThat(meta.getAsJsonObject("labels").get("x").getAsString()).isEqualTo("y");
    assertThat(meta.getAsJsonObject("labels").get("app").getAsString()).isEqualTo("pi");
    assertThat(meta.getAsJsonObject("annotations").keySet()).containsExactly("keep");
    assertThat(meta.get("generation").getAsLong()).isEqualTo(2L);
  }

  @Test
  void mergePatchWithTheCurrentResourceVersionApplies() {
    KubernetesApiResponse<DynamicKubernetesObject> response =
        patch(
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
            "{'metadata':{'resourceVersion':'" + resourceVersion + "','labels':{'x':'y'}}}");

    assertThat(response.getHttpStatusCode()).isEqualTo(200);
    assertThat(response.getObject().getMetadata().getResourceVersion())
        .isNotEqualTo(resourceVersion);
  }

  @Test
  void mergePatchWithAStaleResourceVersionAnswers409Conflict() {
    kube.server().store().update(SPARK_APP, NS, "pi", o -> UpdateTest.label(o, "t", "1"));

    KubernetesApiResponse<DynamicKubernetesObject> response =
        patch(
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
            "{'metadata':{'resourceVersion':'" + resourceVersion + "','labels':{'x':'y'}}}");

    assertThat(response.getHttpStatusCode()).isEqualTo(409);
    assertThat(response.getStatus().getReason()).isEqualTo("Conflict");
    assertThat(response.getStatus().getMessage())
        .isEqualTo(
            "Operation cannot be fulfilled on sparkapplications.spark.apache.org \"pi\": the object"
                + " has been modified; please apply your changes to the latest version and try"
                + " again");
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi").orElseThrow().toString())
        .doesNotContain("\"x\"");
  }

  @Test
  void jsonPatchAppliesEveryOperationWithPointerEscaping() {
    KubernetesApiResponse<DynamicKubernetesObject> response =
        patch(
            V1Patch.PATCH_FORMAT_JSON_PATCH,
            "[{'op':'test','path':'/metadata/annotations/a~1b','value':'1'},"
                + "{'op':'remove','path':'/metadata/annotations/a~1b'},"
                + "{'op':'add','path':'/spec/args','value':['1']},"
                + "{'op':'add','path':'/spec/args/-','value':'2'},"
                + "{'op':'add','path':'/spec/args/0','value':'0'},"
                + "{'op':'replace','path':'/spec/mainClass','value':'M'},"
                + "{'op':'copy','from':'/spec/mainClass','path':'/spec/copied'},"
                + "{'op':'move','from':'/spec/copied','path':'/spec/moved'}]");

    assertThat(response.getHttpStatusCode()).isEqualTo(200);
    JsonObject raw = response.getObject().getRaw();
    assertThat(raw.getAsJsonObject("metadata").getAsJsonObject("annotations").keySet())
        .containsExactly("keep");
    assertThat(raw.getAsJsonObject("spec"))
        .isEqualTo(
            Kube.json("{'mainClass':'M','sparkVersion':'4.0.0','args':['0','1','2'],'moved':'M'}"));
  }

  @Test
  void jsonPatchWithAFailingTestAnswers422AndChangesNothing() {
    // Assumption: the real server answers a failed JSON patch with a generic 422 (reason Invalid).
    KubernetesApiResponse<DynamicKubernetesObject> response =
        patch(
            V1Patch.PATCH_FORMAT_JSON_PATCH,
            "[{'op':'test','path':'/metadata/resourceVersion','value':'1'},"
                + "{'op':'replace','path':'/spec/mainClass','value':'M'}]");

    assertThat(response.getHttpStatusCode()).isEqualTo(422);
    assertThat(response.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(response.getStatus().getDetails().getCauses().get(0).getMessage())
        .contains("test failed");
    assertThat(
            kube.server()
                .store()
                .get(SPARK_APP, NS, "pi")
                .orElseThrow()
                .getAsJsonObject("metadata")
                .get("resourceVersion")
                .getAsString())
        .isEqualTo(resourceVersion);
  }

  @Test
  void strategicMergePatchOnACustomResourceAnswers415() {
    KubernetesApiResponse<DynamicKubernetesObject> response =
        patch(V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, "{'metadata':{'labels':{'x':'y'}}}");

    assertThat(response.getHttpStatusCode()).isEqualTo(415);
    assertThat(response.getStatus().getReason()).isEqualTo("UnsupportedMediaType");
  }

  @Test
  void strategicMergePatchOnAPodIsAcceptedAsAMergePatch() throws ApiException {
    // Simplification: the fake applies strategic merge patches on pods as JSON merge patches.
    new CoreV1Api(kube.client()).createNamespacedPod(NS, CreateTest.pod("driver")).execute();

    V1Pod patched =
        PatchUtils.patch(
            V1Pod.class,
            () ->
                new CoreV1Api(kube.client())
                    .patchNamespacedPod(
                        "driver", NS, new V1Patch("{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"))
                    .buildCall(null),
            V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH,
            kube.client());

    assertThat(patched.getMetadata().getLabels()).containsEntry("x", "y");
  }

  @Test
  void patchesToTheMainResourceLeaveStatusAlone() {
    kube.server().store().update(SPARK_APP, NS, "pi", o -> UpdateTest.withState(o, "RUNNING"));

    patch(V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, "{'status':{'applicationState':{'state':'X'}}}");

    assertThat(UpdateTest.state(kube.server().store().get(SPARK_APP, NS, "pi").orElseThrow()))
        .isEqualTo("RUNNING");
  }

  @Test
  void patchOfAMissingObjectAnswers404() {
    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client())
            .patch(NS, "zz", V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch("{}"));

    assertThat(response.getHttpStatusCode()).isEqualTo(404);
    assertThat(response.getStatus().getDetails().getName()).isEqualTo("zz");
  }
}
