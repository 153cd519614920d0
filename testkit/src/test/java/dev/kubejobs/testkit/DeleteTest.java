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
import io.kubernetes.client.openapi.models.V1Preconditions;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.DeleteOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 5: delete, finalizers, preconditions, propagation and garbage collection. */
class DeleteTest {

  static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-03-01T12:00:00Z"));

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).clock(CLOCK).build();

  @Test
  void deleteWithoutFinalizersRemovesTheObjectAndAnswersItsLastState() {
    // Assumption: for custom resources the real server answers 200 with the deleted object.
    String uid = create(Kube.appJson("pi")).getAsJsonObject("metadata").get("uid").getAsString();

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).delete(NS, "pi");

    assertThat(response.getHttpStatusCode()).isEqualTo(200);
    assertThat(response.getObject().getMetadata().getUid()).isEqualTo(uid);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
    assertThat(Kube.apps(kube.client()).get(NS, "pi").getHttpStatusCode()).isEqualTo(404);
  }

  @Test
  void deleteCanAnswerAStatusSuccessInstead() {
    // client-java's generic API then returns a KubernetesApiResponse with a Status and no object.
    String uid = create(Kube.appJson("pi")).getAsJsonObject("metadata").get("uid").getAsString();
    kube.server().deleteAnswersStatus(true);

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).delete(NS, "pi");

    assertThat(response.getHttpStatusCode()).isEqualTo(200);
    assertThat(response.getObject()).isNull();
    assertThat(response.getStatus().getStatus()).isEqualTo("Success");
    assertThat(response.getStatus().getDetails().getUid()).isEqualTo(uid);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
  }

  @Test
  void deleteOfAMissingObjectAnswers404() {
    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).delete(NS, "zz");

    assertThat(response.getHttpStatusCode()).isEqualTo(404);
    assertThat(response.getStatus().getReason()).isEqualTo("NotFound");
  }

  @Test
  void finalizersKeepTheObjectWithADeletionTimestampUntilAPatchRemovesTheLast() {
    JsonObject app = Kube.appJson("pi");
    app.getAsJsonObject("metadata").add("finalizers", Kube.json("{'f':['a/x','a/y']}").get("f"));
    create(app);

    // when deleted: it stays, with deletionTimestamp from the clock
    KubernetesApiResponse<DynamicKubernetesObject> deleted =
        Kube.apps(kube.client()).delete(NS, "pi");
    assertThat(deleted.isSuccess()).isTrue();
    assertThat(deleted.getObject().getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(stored("pi").getAsJsonObject("metadata").get("deletionTimestamp").getAsString())
        .isEqualTo("2026-03-01T12:00:00Z");

    // when one finalizer is removed it still stays
    Kube.apps(kube.client())
        .patch(
            NS,
            "pi",
            V1Patch.PATCH_FORMAT_JSON_PATCH,
            new V1Patch("[{\"op\":\"remove\",\"path\":\"/metadata/finalizers/0\"}]"));
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isPresent();

    // when the last is removed it disappears
    KubernetesApiResponse<DynamicKubernetesObject> last =
        Kube.apps(kube.client())
            .patch(
                NS,
                "pi",
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                new V1Patch("{\"metadata\":{\"finalizers\":null}}"));
    assertThat(last.getHttpStatusCode()).isEqualTo(200);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
  }

  @Test
  void anUpdateRemovingTheLastFinalizerOfADeletingObjectRemovesIt() {
    JsonObject app = Kube.appJson("pi");
    app.getAsJsonObject("metadata").add("finalizers", Kube.json("{'f':['a/x']}").get("f"));
    create(app);
    kube.server().store().delete(SPARK_APP, NS, "pi");
    DynamicKubernetesObject deleting = Kube.apps(kube.client()).get(NS, "pi").getObject();
    deleting.getRaw().getAsJsonObject("metadata").remove("finalizers");

    assertThat(Kube.apps(kube.client()).update(deleting).isSuccess()).isTrue();
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
  }

  @Test
  void preconditionsOnUidAndResourceVersionAnswer409OnMismatch() {
    JsonObject created = create(Kube.appJson("pi"));
    String uid = created.getAsJsonObject("metadata").get("uid").getAsString();
    String rv = created.getAsJsonObject("metadata").get("resourceVersion").getAsString();

    KubernetesApiResponse<DynamicKubernetesObject> wrongUid =
        Kube.apps(kube.client()).delete(NS, "pi", options(new V1Preconditions().uid("other")));
    KubernetesApiResponse<DynamicKubernetesObject> wrongRv =
        Kube.apps(kube.client())
            .delete(NS, "pi", options(new V1Preconditions().resourceVersion("1")));

    assertThat(wrongUid.getHttpStatusCode()).isEqualTo(409);
    assertThat(wrongUid.getStatus().getReason()).isEqualTo("Conflict");
    assertThat(wrongUid.getStatus().getMessage())
        .contains("Precondition failed: UID in precondition: other, UID in object meta: " + uid);
    assertThat(wrongRv.getHttpStatusCode()).isEqualTo(409);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isPresent();

    KubernetesApiResponse<DynamicKubernetesObject> matching =
        Kube.apps(kube.client())
            .delete(NS, "pi", options(new V1Preconditions().uid(uid).resourceVersion(rv)));
    assertThat(matching.getHttpStatusCode()).isEqualTo(200);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
  }

  @Test
  void dependentsOfADeletedOwnerAreGarbageCollectedInBackground() {
    JsonObject owner = create(Kube.appJson("pi"));
    kube.server().store().create(ResourceType.POD, NS, ownedPod("pi-driver", owner));
    kube.server().store().create(ResourceType.POD, NS, ownedPod("unrelated", null));

    DeleteOptions background = new DeleteOptions();
    background.setPropagationPolicy("Background");
    assertThat(Kube.apps(kube.client()).delete(NS, "pi", background).isSuccess()).isTrue();

    assertThat(kube.server().store().get(ResourceType.POD, NS, "pi-driver")).isEmpty();
    assertThat(kube.server().store().get(ResourceType.POD, NS, "unrelated")).isPresent();
  }

  @Test
  void dependentsAreCollectedWhenTheOwnersLastFinalizerGoes() {
    JsonObject app = Kube.appJson("pi");
    app.getAsJsonObject("metadata").add("finalizers", Kube.json("{'f':['a/x']}").get("f"));
    JsonObject owner = create(app);
    kube.server().store().create(ResourceType.POD, NS, ownedPod("pi-driver", owner));
    List<ResourceEvent> events = new ArrayList<>();
    ResourceListener listener = events::add;
    kube.server().store().addListener(listener);
    try {
      Kube.apps(kube.client()).delete(NS, "pi");
      assertThat(kube.server().store().get(ResourceType.POD, NS, "pi-driver")).isPresent();

      kube.server().store().update(SPARK_APP, NS, "pi", o -> removeFinalizers(o));

      assertThat(kube.server().store().get(ResourceType.POD, NS, "pi-driver")).isEmpty();
      assertThat(events)
          .extracting(e -> e.kind() + " " + e.name())
          .containsExactly("MODIFIED pi", "DELETED pi", "DELETED pi-driver");
    } finally {
      kube.server().store().removeListener(listener);
    }
  }

  @Test
  void orphanPropagationKeepsDependentsAndDropsTheirOwnerReference() {
    JsonObject owner = create(Kube.appJson("pi"));
    kube.server().store().create(ResourceType.POD, NS, ownedPod("pi-driver", owner));
    DeleteOptions orphan = new DeleteOptions();
    orphan.setPropagationPolicy("Orphan");

    assertThat(Kube.apps(kube.client()).delete(NS, "pi", orphan).isSuccess()).isTrue();

    JsonObject pod = kube.server().store().get(ResourceType.POD, NS, "pi-driver").orElseThrow();
    assertThat(pod.getAsJsonObject("metadata").getAsJsonArray("ownerReferences")).isEmpty();
  }

  private static DeleteOptions options(V1Preconditions preconditions) {
    DeleteOptions options = new DeleteOptions();
    options.setPreconditions(preconditions);
    return options;
  }

  private static JsonObject removeFinalizers(JsonObject o) {
    o.getAsJsonObject("metadata").remove("finalizers");
    return o;
  }

  private static JsonObject create(JsonObject o) {
    return kube.server().store().create(SPARK_APP, NS, o);
  }

  private static JsonObject stored(String name) {
    return kube.server().store().get(SPARK_APP, NS, name).orElseThrow();
  }

  static JsonObject ownedPod(String name, JsonObject owner) {
    JsonObject pod =
        Kube.json(
            "{'metadata':{'name':'"
                + name
                + "'},'spec':{'containers':[{'name':'spark-kubernetes-driver','image':'spark'}]}}");
    if (owner != null) {
      JsonObject ref = new JsonObject();
      ref.addProperty("apiVersion", owner.get("apiVersion").getAsString());
      ref.addProperty("kind", owner.get("kind").getAsString());
      ref.addProperty("name", owner.getAsJsonObject("metadata").get("name").getAsString());
      ref.addProperty("uid", owner.getAsJsonObject("metadata").get("uid").getAsString());
      ref.addProperty("controller", true);
      com.google.gson.JsonArray refs = new com.google.gson.JsonArray();
      refs.add(ref);
      pod.getAsJsonObject("metadata").add("ownerReferences", refs);
    }
    return pod;
  }
}
