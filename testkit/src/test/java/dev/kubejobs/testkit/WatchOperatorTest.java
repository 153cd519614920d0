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

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fake operator's writes reach a watch one by one, in the order it made them. */
class WatchOperatorTest {

  static final String NS = "jobs";
  static final ResourceType APP = ResourceType.APACHE_SPARK_APPLICATION;

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder()
          .clock(MutableClock.at(Instant.parse("2026-03-01T10:00:00Z")))
          .operator(Flavor.APACHE)
          .build();

  @Test
  void theOperatorsWritesAppearOnTheWatchInTheOrderItMadeThem() throws Exception {
    FakeSparkOperator operator = kube.operator(Flavor.APACHE);
    List<String> made = new CopyOnWriteArrayList<>();
    ResourceListener listener =
        e -> {
          if (e.type().equals(APP)) {
            made.add(e.kind() + " " + status(e.object()));
          }
        };
    kube.server().store().addListener(listener);
    String from = ((InMemoryStore) kube.server().store()).currentResourceVersion();
    try (RawWatch watch =
        RawWatch.open(
            kube.server(),
            "/apis/spark.apache.org/v1/namespaces/"
                + NS
                + "/sparkapplications?watch=true&resourceVersion="
                + from)) {
      kube.server()
          .store()
          .create(APP, NS, ApacheFixtures.noStatus().name("kj-a").namespace(NS).build());
      operator.runToEnd(NS, "kj-a");
      Kube.apps(kube.client()).delete(NS, "kj-a").throwsApiException();
      operator.runToEnd(NS, "kj-a");

      List<String> seen = new ArrayList<>();
      List<Long> versions = new ArrayList<>();
      while (seen.size() < made.size()) {
        JsonObject event = watch.next();
        seen.add(RawWatch.type(event) + " " + status(event.getAsJsonObject("object")));
        versions.add(RawWatch.rv(event));
      }

      assertThat(made).hasSizeGreaterThan(4).last().asString().startsWith("DELETED");
      assertThat(seen).containsExactlyElementsOf(made);
      assertThat(versions).isSorted().doesNotHaveDuplicates();
    } finally {
      kube.server().store().removeListener(listener);
    }
  }

  private static String status(JsonObject app) {
    return String.valueOf(app.get("status"));
  }
}
