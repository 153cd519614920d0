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

import static dev.kubejobs.testkit.Kube.SPARK_APP;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The store keeps each object's JSON once and reads a namespace from its range of the index: what
 * clients see must not tell. Namespaces whose names start alike sort next to each other, and the
 * objects a caller hands in or gets back are its own.
 */
class StoreIndexTest {

  private static final String APPS = "/apis/spark.apache.org/v1";

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  @Test
  void pagesOfANamespaceHoldItsObjectsOnlyInNameOrder() throws IOException {
    // "team-1" is a prefix of "team-1-a" and "team-10", which sort right after it.
    for (String ns : List.of("team-10", "team-1-a", "team-1", "team-0")) {
      for (String name : List.of("c", "a", "b")) {
        kube.server().store().create(SPARK_APP, ns, app(ns, name));
      }
    }

    assertThat(pages(APPS + "/namespaces/team-1/sparkapplications", 2))
        .containsExactly("team-1/a", "team-1/b", "team-1/c");
    assertThat(pages(APPS + "/sparkapplications", 5))
        .containsExactly(
            "team-0/a",
            "team-0/b",
            "team-0/c",
            "team-1/a",
            "team-1/b",
            "team-1/c",
            "team-1-a/a",
            "team-1-a/b",
            "team-1-a/c",
            "team-10/a",
            "team-10/b",
            "team-10/c");
  }

  @Test
  void aListItemIsTheObjectAGetAnswers() throws IOException {
    kube.server().store().create(SPARK_APP, "team-2", app("team-2", "a"));
    String path = APPS + "/namespaces/team-2/sparkapplications";

    JsonElement item = Http.send(kube.server(), "GET", path, null, null).json().get("items");
    JsonObject got = Http.send(kube.server(), "GET", path + "/a", null, null).json();

    assertThat(item.getAsJsonArray()).containsExactly(got);
  }

  @Test
  void objectsHandedInOrOutAreTheCallersOwn() {
    JsonObject handedIn = app("team-3", "a");
    JsonObject created = kube.server().store().create(SPARK_APP, "team-3", handedIn);
    handedIn.getAsJsonObject("spec").addProperty("mainClass", "changed.In");
    created.getAsJsonObject("spec").addProperty("mainClass", "changed.Out");
    JsonObject updated =
        kube.server()
            .store()
            .update(
                SPARK_APP,
                "team-3",
                "a",
                o -> {
                  o.getAsJsonObject("metadata").addProperty("generateName", "x-");
                  return o;
                });
    updated.getAsJsonObject("spec").addProperty("mainClass", "changed.Again");

    JsonObject stored = kube.server().store().get(SPARK_APP, "team-3", "a").orElseThrow();

    assertThat(stored.getAsJsonObject("spec").get("mainClass").getAsString())
        .isEqualTo("org.example.Pi");
    assertThat(stored.getAsJsonObject("metadata").get("generateName").getAsString())
        .isEqualTo("x-");
  }

  /** Every page of a list at {@code limit} per page: namespace/name of each item, in order. */
  private static List<String> pages(String path, int limit) throws IOException {
    List<String> names = new ArrayList<>();
    String cont = null;
    do {
      JsonObject page =
          Http.send(
                  kube.server(),
                  "GET",
                  path + "?limit=" + limit + (cont == null ? "" : "&continue=" + cont),
                  null,
                  null)
              .json();
      for (JsonElement item : page.getAsJsonArray("items")) {
        JsonObject meta = item.getAsJsonObject().getAsJsonObject("metadata");
        names.add(meta.get("namespace").getAsString() + "/" + meta.get("name").getAsString());
      }
      JsonElement next = page.getAsJsonObject("metadata").get("continue");
      cont = next == null ? null : next.getAsString();
    } while (cont != null);
    return names;
  }

  private static JsonObject app(String namespace, String name) {
    JsonObject app = Kube.appJson(name);
    app.getAsJsonObject("metadata").addProperty("namespace", namespace);
    return app;
  }
}
