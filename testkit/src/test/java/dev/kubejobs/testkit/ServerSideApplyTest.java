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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server-side apply of a custom resource: {@code PATCH} with {@code application/apply-patch+yaml}
 * and a {@code fieldManager}, as kube-apiserver's field manager handles it (k8s.io/apiserver {@code
 * pkg/endpoints/handlers/patch.go} {@code applyPatcher}; sigs.k8s.io/structured-merge-diff {@code
 * merge/update.go} {@code Updater.Apply}; conflicts worded by {@code getConflictMessage} in
 * apiserver's {@code fieldmanager/internal/conflict.go}).
 */
class ServerSideApplyTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  private static final String PI =
      "/apis/spark.apache.org/v1/namespaces/" + NS + "/sparkapplications/pi";

  private static Http.Answer apply(String query, String yaml) throws IOException {
    return Http.send(kube.server(), "PATCH", PI + query, "application/apply-patch+yaml", yaml);
  }

  private static String config(String mainClass, String extra) {
    return String.join(
        "\n",
        "apiVersion: spark.apache.org/v1",
        "kind: SparkApplication",
        "metadata:",
        "  name: pi",
        "spec:",
        "  mainClass: " + mainClass,
        extra,
        "");
  }

  private static JsonObject stored() {
    return kube.server().store().get(SPARK_APP, NS, "pi").orElseThrow();
  }

  /** An apply of a missing object creates it (201) and records the manager's fields. */
  @Test
  void anApplyCreatesTheObjectAndRecordsTheManagersFields() throws IOException {
    Http.Answer answer = apply("?fieldManager=ci", config("org.example.Pi", ""));

    assertThat(answer.code()).isEqualTo(201);
    JsonObject entry =
        stored()
            .getAsJsonObject("metadata")
            .getAsJsonArray("managedFields")
            .get(0)
            .getAsJsonObject();
    assertThat(entry.get("manager").getAsString()).isEqualTo("ci");
    assertThat(entry.get("operation").getAsString()).isEqualTo("Apply");
    assertThat(entry.get("fieldsType").getAsString()).isEqualTo("FieldsV1");
    assertThat(entry.getAsJsonObject("fieldsV1"))
        .isEqualTo(Kube.json("{'f:spec':{'f:mainClass':{}}}"));
  }

  /**
   * Applying again changes the applied fields; a field the manager applied before and leaves out is
   * removed; an unchanged apply writes nothing (same resourceVersion).
   */
  @Test
  void aFieldLeftOutOfTheNextApplyIsRemovedAndANoOpWritesNothing() throws IOException {
    apply("?fieldManager=ci", config("org.example.Pi", "  proxyUser: alice"));

    Http.Answer changed = apply("?fieldManager=ci", config("org.example.Changed", ""));
    String rv = stored().getAsJsonObject("metadata").get("resourceVersion").getAsString();
    Http.Answer again = apply("?fieldManager=ci", config("org.example.Changed", ""));

    assertThat(changed.code()).isEqualTo(200);
    assertThat(stored().getAsJsonObject("spec"))
        .isEqualTo(Kube.json("{'mainClass':'org.example.Changed'}"));
    assertThat(again.code()).isEqualTo(200);
    assertThat(stored().getAsJsonObject("metadata").get("resourceVersion").getAsString())
        .isEqualTo(rv);
  }

  /**
   * Another manager applying a different value to an owned field gets a 409 naming the owner and
   * the field; with {@code force=true} it takes the field over.
   */
  @Test
  void aSecondManagerConflictsUnlessItForces() throws IOException {
    apply("?fieldManager=ci", config("org.example.Pi", "  proxyUser: alice"));

    Http.Answer conflict = apply("?fieldManager=ops", config("org.example.Other", ""));
    Http.Answer two = apply("?fieldManager=ops", config("org.example.Other", "  proxyUser: bob"));
    Http.Answer forced = apply("?fieldManager=ops&force=true", config("org.example.Other", ""));

    assertThat(conflict.code()).isEqualTo(409);
    assertThat(conflict.json().get("reason").getAsString()).isEqualTo("Conflict");
    assertThat(conflict.json().get("message").getAsString())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"ci\": .spec.mainClass");
    JsonObject cause =
        conflict
            .json()
            .getAsJsonObject("details")
            .getAsJsonArray("causes")
            .get(0)
            .getAsJsonObject();
    assertThat(cause.get("reason").getAsString()).isEqualTo("FieldManagerConflict");
    assertThat(cause.get("message").getAsString()).isEqualTo("conflict with \"ci\"");
    assertThat(cause.get("field").getAsString()).isEqualTo(".spec.mainClass");
    assertThat(two.json().get("message").getAsString())
        .isEqualTo(
            "Apply failed with 2 conflicts: conflicts with \"ci\":\n- .spec.mainClass\n-"
                + " .spec.proxyUser");
    assertThat(forced.code()).isEqualTo(200);
    assertThat(stored().getAsJsonObject("spec").get("mainClass").getAsString())
        .isEqualTo("org.example.Other");
    assertThat(stored().getAsJsonObject("metadata").getAsJsonArray("managedFields").toString())
        .contains("{\"f:spec\":{\"f:proxyUser\":{}}}");
  }

  /** The same value applied by two managers is shared, not a conflict. */
  @Test
  void theSameValueFromTwoManagersIsShared() throws IOException {
    apply("?fieldManager=ci", config("org.example.Pi", ""));

    Http.Answer shared = apply("?fieldManager=ops", config("org.example.Pi", ""));

    assertThat(shared.code()).isEqualTo(200);
    assertThat(stored().getAsJsonObject("metadata").getAsJsonArray("managedFields")).hasSize(2);
  }

  /** An apply without a field manager is a 422, worded as the patch handler words it. */
  @Test
  void anApplyWithoutAFieldManagerIsInvalid() throws IOException {
    Http.Answer answer = apply("", config("org.example.Pi", ""));

    assertThat(answer.code()).isEqualTo(422);
    assertThat(answer.json().get("message").getAsString())
        .isEqualTo(
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required"
                + " for apply patch");
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
  }
}
