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

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Direct state access: deep copies, the same rules as HTTP, typed failures, listeners. */
class ResourceStoreTest {

  static final ResourceType UNREGISTERED = new ResourceType("x.io", "v1", "things", "Thing");

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  private ResourceStore store() {
    return kube.server().store();
  }

  @Test
  void objectsInAndOutAreCopies() {
    JsonObject in = Kube.appJson("pi");
    JsonObject out = store().create(SPARK_APP, NS, in);
    in.addProperty("changed", true);
    out.addProperty("changed", true);
    store().get(SPARK_APP, NS, "pi").orElseThrow().addProperty("changed", true);
    store().list(SPARK_APP, NS).get(0).addProperty("changed", true);

    assertThat(store().get(SPARK_APP, NS, "pi").orElseThrow().has("changed")).isFalse();
  }

  @Test
  void createOfAnExistingObjectThrows409AndUpdateOfAMissingOneThrows404() {
    store().create(SPARK_APP, NS, Kube.appJson("pi"));

    assertThatThrownBy(() -> store().create(SPARK_APP, NS, Kube.appJson("pi")))
        .isInstanceOfSatisfying(
            FakeApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(409);
              assertThat(e.reason()).isEqualTo("AlreadyExists");
            });
    assertThatThrownBy(() -> store().update(SPARK_APP, NS, "zz", o -> o))
        .isInstanceOfSatisfying(FakeApiException.class, e -> assertThat(e.code()).isEqualTo(404));
    assertThat(store().delete(SPARK_APP, NS, "zz")).isFalse();
    assertThat(store().delete(SPARK_APP, NS, "pi")).isTrue();
  }

  @Test
  void updateChangesStatusBumpsResourceVersionAndKeepsIdentity() {
    JsonObject created = store().create(SPARK_APP, NS, Kube.appJson("pi"));

    JsonObject updated =
        store()
            .update(
                SPARK_APP,
                NS,
                "pi",
                o -> {
                  UpdateTest.withState(o, "RUNNING");
                  o.getAsJsonObject("metadata").addProperty("uid", "forged");
                  return o;
                });

    assertThat(UpdateTest.state(updated)).isEqualTo("RUNNING");
    assertThat(updated.getAsJsonObject("metadata").get("uid"))
        .isEqualTo(created.getAsJsonObject("metadata").get("uid"));
    assertThat(updated.getAsJsonObject("metadata").get("generation").getAsLong()).isEqualTo(1L);
    assertThat(rv(updated)).isGreaterThan(rv(created));
  }

  @Test
  void anUpdateThatChangesNothingKeepsTheResourceVersion() {
    JsonObject created = store().create(SPARK_APP, NS, Kube.appJson("pi"));

    JsonObject same = store().update(SPARK_APP, NS, "pi", o -> o);

    assertThat(rv(same)).isEqualTo(rv(created));
  }

  @Test
  void unregisteredTypesAreRefusedWithAHint() {
    assertThatThrownBy(() -> store().list(UNREGISTERED, NS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("registerResource");
  }

  @Test
  void unregisteringATypeMakesItsRequestsAnswerLikeAMissingCrd() {
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start()) {
      server.registerResource(SPARK_APP);
      server.store().create(SPARK_APP, NS, Kube.appJson("pi"));

      server.unregisterResource(SPARK_APP);

      var response = Kube.apps(server.newClient()).get(NS, "pi");
      assertThat(response.getHttpStatusCode()).isEqualTo(404);
      assertThat(response.getStatus().getMessage()).startsWith("404 page not found");
    }
  }

  @Test
  void listenersHearChangesFromHttpAndFromTheStore() {
    List<String> heard = new ArrayList<>();
    ResourceListener listener = e -> heard.add(e.kind() + " " + e.type().plural() + "/" + e.name());
    store().addListener(listener);
    try {
      Kube.apps(kube.client()).create(Kube.app("pi"));
      store().update(SPARK_APP, NS, "pi", o -> UpdateTest.withState(o, "RUNNING"));
      Kube.apps(kube.client()).delete(NS, "pi");
    } finally {
      store().removeListener(listener);
    }

    assertThat(heard)
        .containsExactly(
            "ADDED sparkapplications/pi",
            "MODIFIED sparkapplications/pi",
            "DELETED sparkapplications/pi");
  }

  private static long rv(JsonObject o) {
    return Long.parseLong(o.getAsJsonObject("metadata").get("resourceVersion").getAsString());
  }
}
