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
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 3: PUT with optimistic locking, and the status subresource. */
class UpdateTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  @Test
  void updateWithTheCurrentResourceVersionBumpsResourceVersionAndGeneration() {
    DynamicKubernetesObject app = Kube.apps(kube.client()).create(Kube.app("pi")).getObject();
    app.getRaw().getAsJsonObject("spec").addProperty("mainClass", "org.example.Other");

    KubernetesApiResponse<DynamicKubernetesObject> updated = Kube.apps(kube.client()).update(app);

    assertThat(updated.getHttpStatusCode()).isEqualTo(200);
    assertThat(Long.parseLong(updated.getObject().getMetadata().getResourceVersion()))
        .isGreaterThan(Long.parseLong(app.getMetadata().getResourceVersion()));
    assertThat(updated.getObject().getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void updateWithAStaleResourceVersionAnswers409Conflict() {
    DynamicKubernetesObject stale = Kube.apps(kube.client()).create(Kube.app("pi")).getObject();
    kube.server().store().update(SPARK_APP, NS, "pi", o -> label(o, "touched", "yes"));

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).update(stale);

    assertThat(response.getHttpStatusCode()).isEqualTo(409);
    assertThat(response.getStatus().getReason()).isEqualTo("Conflict");
    assertThat(response.getStatus().getMessage())
        .isEqualTo(
            "Operation cannot be fulfilled on sparkapplications.spark.apache.org \"pi\": the object"
                + " has been modified; please apply your changes to the latest version and try"
                + " again");
  }

  @Test
  void updateWithoutResourceVersionAnswers422Invalid() {
    DynamicKubernetesObject app = Kube.apps(kube.client()).create(Kube.app("pi")).getObject();
    app.getRaw().getAsJsonObject("metadata").remove("resourceVersion");

    KubernetesApiResponse<DynamicKubernetesObject> response = Kube.apps(kube.client()).update(app);

    assertThat(response.getHttpStatusCode()).isEqualTo(422);
    assertThat(response.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(response.getStatus().getMessage())
        .contains("metadata.resourceVersion: Invalid value: 0x0: must be specified for an update");
  }

  @Test
  void updateOfAMissingObjectAnswers404() {
    DynamicKubernetesObject ghost = Kube.app("ghost");
    ghost.getRaw().getAsJsonObject("metadata").addProperty("resourceVersion", "5");

    assertThat(Kube.apps(kube.client()).update(ghost).getHttpStatusCode()).isEqualTo(404);
  }

  @Test
  void writesToTheMainResourceLeaveStatusUnchanged() {
    kube.server().store().create(SPARK_APP, NS, withState(Kube.appJson("pi"), "RUNNING"));
    DynamicKubernetesObject app = Kube.apps(kube.client()).get(NS, "pi").getObject();
    withState(app.getRaw(), "FAILED");
    label(app.getRaw(), "touched", "yes");

    DynamicKubernetesObject updated = Kube.apps(kube.client()).update(app).getObject();

    assertThat(state(updated.getRaw())).isEqualTo("RUNNING");
    assertThat(updated.getMetadata().getLabels()).containsEntry("touched", "yes");
  }

  @Test
  void updateStatusChangesOnlyStatus() {
    // client-java's updateStatus sends a JSON patch "replace /status" to the status subresource.
    // Assumption, as on a real server: replace needs an existing status, so the object has one.
    kube.server().store().create(SPARK_APP, NS, withState(Kube.appJson("pi"), "SUBMITTED"));
    DynamicKubernetesObject app = Kube.apps(kube.client()).get(NS, "pi").getObject();
    withState(app.getRaw(), "RUNNING");
    label(app.getRaw(), "ignored", "yes");
    app.getRaw().getAsJsonObject("spec").addProperty("mainClass", "ignored");

    KubernetesApiResponse<DynamicKubernetesObject> response =
        Kube.apps(kube.client()).updateStatus(app, o -> o.getRaw().get("status"));

    assertThat(response.getHttpStatusCode()).isEqualTo(200);
    JsonObject stored = kube.server().store().get(SPARK_APP, NS, "pi").orElseThrow();
    assertThat(state(stored)).isEqualTo("RUNNING");
    assertThat(stored.getAsJsonObject("metadata").getAsJsonObject("labels").has("ignored"))
        .isFalse();
    assertThat(stored.getAsJsonObject("spec").get("mainClass").getAsString())
        .isEqualTo("org.example.Pi");
    assertThat(stored.getAsJsonObject("metadata").get("generation").getAsLong()).isEqualTo(1L);
    assertThat(kube.server().journal().count("PATCH", ".*/sparkapplications/pi/status"))
        .isEqualTo(1);
  }

  @Test
  void putToTheStatusSubresourceChangesOnlyStatusAndChecksResourceVersion() throws Exception {
    kube.server().store().create(SPARK_APP, NS, withState(Kube.appJson("pi"), "SUBMITTED"));
    JsonObject current = kube.server().store().get(SPARK_APP, NS, "pi").orElseThrow();
    JsonObject body = withState(current.deepCopy(), "COMPLETED");
    body.getAsJsonObject("spec").addProperty("mainClass", "ignored");
    JsonObject stale = body.deepCopy();
    stale.getAsJsonObject("metadata").addProperty("resourceVersion", "1");

    int ok = Http.put(kube.server(), SPARK_APP.objectPath(NS, "pi") + "/status", body).code();
    int conflict =
        Http.put(kube.server(), SPARK_APP.objectPath(NS, "pi") + "/status", stale).code();

    assertThat(ok).isEqualTo(200);
    assertThat(conflict).isEqualTo(409);
    JsonObject stored = kube.server().store().get(SPARK_APP, NS, "pi").orElseThrow();
    assertThat(state(stored)).isEqualTo("COMPLETED");
    assertThat(stored.getAsJsonObject("spec").get("mainClass").getAsString())
        .isEqualTo("org.example.Pi");
  }

  static JsonObject withState(JsonObject o, String state) {
    JsonObject status = new JsonObject();
    JsonObject appState = new JsonObject();
    appState.addProperty("state", state);
    status.add("applicationState", appState);
    o.add("status", status);
    return o;
  }

  static String state(JsonObject o) {
    return o.getAsJsonObject("status")
        .getAsJsonObject("applicationState")
        .get("state")
        .getAsString();
  }

  static JsonObject label(JsonObject o, String key, String value) {
    JsonObject meta = o.getAsJsonObject("metadata");
    if (!meta.has("labels")) {
      meta.add("labels", new JsonObject());
    }
    meta.getAsJsonObject("labels").addProperty(key, value);
    return o;
  }
}
