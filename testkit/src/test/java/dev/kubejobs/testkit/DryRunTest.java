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
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code dryRun=All} on create, update, patch and delete, as kube-apiserver answers it: the write
 * is decoded, validated and answered as the real one, but {@code DryRunnableStorage}
 * (k8s.io/apiserver {@code pkg/registry/generic/registry/dryrun.go}, kubernetes commit 04791b49)
 * stores nothing, so no resourceVersion is used up and no watch event is sent. Any other value
 * fails {@code ValidateDryRun} (k8s.io/apimachinery {@code
 * pkg/apis/meta/v1/validation/validation.go}) and the handler answers {@code errors.NewInvalid} for
 * the options kind (k8s.io/apiserver {@code pkg/endpoints/handlers/create.go}, commit 02e16cb2):
 * 422, {@code CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value:
 * []string{"Server"}: supported values: "All"}.
 */
class DryRunTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  private final List<ResourceEvent> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void recordEvents() {
    kube.server().store().addListener(events::add);
  }

  private static final String APPS =
      "/apis/spark.apache.org/v1/namespaces/" + NS + "/sparkapplications";

  private static String rv() {
    return ((InMemoryStore) kube.server().store()).currentResourceVersion();
  }

  /**
   * A dry-run create answers 201 with the object as it would be stored — name generated, uid and
   * creationTimestamp set — but without a resourceVersion; the object is not stored.
   */
  @Test
  void aDryRunCreateAnswersTheObjectButStoresNothing() throws IOException {
    JsonObject app = Kube.appJson("ignored");
    app.getAsJsonObject("metadata").remove("name");
    app.getAsJsonObject("metadata").addProperty("generateName", "pi-");
    String before = rv();

    Http.Answer answer =
        Http.send(kube.server(), "POST", APPS + "?dryRun=All", "application/json", app.toString());

    assertThat(answer.code()).isEqualTo(201);
    JsonObject meta = answer.json().getAsJsonObject("metadata");
    assertThat(meta.get("name").getAsString()).startsWith("pi-").hasSize(8);
    assertThat(meta.has("uid")).isTrue();
    assertThat(meta.has("creationTimestamp")).isTrue();
    assertThat(meta.has("resourceVersion")).isFalse();
    assertThat(kube.server().store().list(SPARK_APP, NS)).isEmpty();
    assertThat(rv()).isEqualTo(before);
    assertThat(events).isEmpty();
  }

  /** A dry run is still checked: a create of an existing name answers 409 AlreadyExists. */
  @Test
  void aDryRunCreateOfAnExistingNameIsAConflict() throws IOException {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));

    Http.Answer answer =
        Http.send(
            kube.server(),
            "POST",
            APPS + "?dryRun=All",
            "application/json",
            Kube.appJson("pi").toString());

    assertThat(answer.code()).isEqualTo(409);
    assertThat(answer.json().get("reason").getAsString()).isEqualTo("AlreadyExists");
  }

  /**
   * A dry-run update and merge patch answer the changed object with the stored resourceVersion
   * ({@code DryRunnableStorage.GuaranteedUpdate} runs the update on the stored object and copies it
   * out); the stored object stays as it was.
   */
  @Test
  void aDryRunUpdateAndPatchAnswerTheChangeButKeepTheObject() throws IOException {
    JsonObject stored = kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    String storedRv = stored.getAsJsonObject("metadata").get("resourceVersion").getAsString();
    events.clear();
    JsonObject changed = stored.deepCopy();
    changed.getAsJsonObject("spec").addProperty("mainClass", "org.example.Changed");

    Http.Answer put =
        Http.send(
            kube.server(), "PUT", APPS + "/pi?dryRun=All", "application/json", changed.toString());
    Http.Answer patch =
        Http.send(
            kube.server(),
            "PATCH",
            APPS + "/pi?dryRun=All",
            "application/merge-patch+json",
            "{\"spec\":{\"mainClass\":\"org.example.Patched\"}}");

    assertThat(put.code()).isEqualTo(200);
    assertThat(put.json().getAsJsonObject("spec").get("mainClass").getAsString())
        .isEqualTo("org.example.Changed");
    assertThat(put.json().getAsJsonObject("metadata").get("resourceVersion").getAsString())
        .isEqualTo(storedRv);
    assertThat(patch.code()).isEqualTo(200);
    assertThat(patch.json().getAsJsonObject("spec").get("mainClass").getAsString())
        .isEqualTo("org.example.Patched");
    assertThat(patch.json().getAsJsonObject("metadata").get("resourceVersion").getAsString())
        .isEqualTo(storedRv);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi").orElseThrow()).isEqualTo(stored);
    assertThat(rv()).isEqualTo(storedRv);
    assertThat(events).isEmpty();
  }

  /** A dry-run update with a stale resourceVersion is still a 409 Conflict. */
  @Test
  void aDryRunUpdateStillChecksTheResourceVersion() throws IOException {
    JsonObject stored = kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    stored.getAsJsonObject("metadata").addProperty("resourceVersion", "1");

    Http.Answer put =
        Http.send(
            kube.server(), "PUT", APPS + "/pi?dryRun=All", "application/json", stored.toString());

    assertThat(put.code()).isEqualTo(409);
  }

  /**
   * A dry-run delete, by query or by {@code DeleteOptions.dryRun}, answers what the delete would (a
   * custom resource's {@code Status} Success), and the object stays.
   */
  @Test
  void aDryRunDeleteAnswersSuccessButKeepsTheObject() throws IOException {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    String before = rv();
    events.clear();

    Http.Answer byQuery =
        Http.send(kube.server(), "DELETE", APPS + "/pi?dryRun=All", "application/json", null);
    Http.Answer byBody =
        Http.send(
            kube.server(), "DELETE", APPS + "/pi", "application/json", "{\"dryRun\":[\"All\"]}");

    assertThat(byQuery.code()).isEqualTo(200);
    assertThat(byQuery.json().get("status").getAsString()).isEqualTo("Success");
    assertThat(byBody.code()).isEqualTo(200);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isPresent();
    assertThat(rv()).isEqualTo(before);
    assertThat(events).isEmpty();
  }

  /** A dry-run delete of an object with a finalizer shows the deletion mark but stores none. */
  @Test
  void aDryRunDeleteOfAFinalizedObjectShowsTheMarkOnly() throws IOException {
    JsonObject app = Kube.appJson("pi");
    app.getAsJsonObject("metadata")
        .add("finalizers", Kube.json("{'f':['example.com/keep']}").get("f"));
    kube.server().store().create(SPARK_APP, NS, app);

    Http.Answer answer =
        Http.send(kube.server(), "DELETE", APPS + "/pi?dryRun=All", "application/json", null);

    assertThat(answer.code()).isEqualTo(200);
    assertThat(answer.json().getAsJsonObject("metadata").has("deletionTimestamp")).isTrue();
    assertThat(
            kube.server()
                .store()
                .get(SPARK_APP, NS, "pi")
                .orElseThrow()
                .getAsJsonObject("metadata")
                .has("deletionTimestamp"))
        .isFalse();
  }

  /** Any value but {@code All} is a 422 naming the options kind of the verb. */
  @Test
  void anyOtherValueIsInvalidForEachVerb() throws IOException {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));

    Http.Answer create =
        Http.send(
            kube.server(),
            "POST",
            APPS + "?dryRun=Server",
            "application/json",
            Kube.appJson("x").toString());
    Http.Answer patch =
        Http.send(
            kube.server(), "PATCH", APPS + "/pi?dryRun=true", "application/merge-patch+json", "{}");
    Http.Answer delete =
        Http.send(
            kube.server(),
            "DELETE",
            APPS + "/pi",
            "application/json",
            "{\"dryRun\":[\"All\",\"x\"]}");

    assertThat(create.code()).isEqualTo(422);
    assertThat(create.json().get("reason").getAsString()).isEqualTo("Invalid");
    assertThat(create.json().get("message").getAsString())
        .isEqualTo(
            "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value:"
                + " []string{\"Server\"}: supported values: \"All\"");
    assertThat(create.json().getAsJsonObject("details").get("kind").getAsString())
        .isEqualTo("CreateOptions");
    assertThat(
            create
                .json()
                .getAsJsonObject("details")
                .getAsJsonArray("causes")
                .get(0)
                .getAsJsonObject()
                .get("field")
                .getAsString())
        .isEqualTo("dryRun");
    assertThat(patch.json().get("message").getAsString())
        .startsWith("PatchOptions.meta.k8s.io \"\" is invalid: dryRun:");
    assertThat(delete.json().get("message").getAsString())
        .endsWith("Unsupported value: []string{\"All\", \"x\"}: supported values: \"All\"");
    assertThat(kube.server().store().list(SPARK_APP, NS)).hasSize(1);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isPresent();
  }
}
