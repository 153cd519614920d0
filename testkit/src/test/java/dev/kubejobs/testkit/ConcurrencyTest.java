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
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Behaviour 11: concurrent clients see one state; no lost updates under optimistic locking. */
@Tag("slow")
class ConcurrencyTest {

  static final int THREADS = 8;
  static final int OPERATIONS = 200;

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  @Test
  void twoClientsSeeOneState() {
    ApiClient first = kube.server().newClient();
    ApiClient second = kube.server().newClient();

    Kube.apps(first).create(Kube.app("pi"));

    assertThat(Kube.apps(second).get(NS, "pi").getHttpStatusCode()).isEqualTo(200);
    assertThat(Kube.apps(second).delete(NS, "pi").getHttpStatusCode()).isEqualTo(200);
    assertThat(Kube.apps(first).get(NS, "pi").getHttpStatusCode()).isEqualTo(404);
  }

  @Test
  void eightThreadsOfMixedOperationsKeepResourceVersionsUniqueAndLoseNoUpdate() throws Exception {
    // given a shared counter object and two clients shared by eight threads
    JsonObject counter = Kube.appJson("counter");
    counter.getAsJsonObject("spec").addProperty("count", 0);
    kube.server().store().create(SPARK_APP, NS, counter);
    List<ApiClient> clients = List.of(kube.server().newClient(), kube.server().newClient());
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<Result>> futures = new ArrayList<>();

    // when each thread runs 200 mixed operations
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      futures.add(pool.submit(() -> run(thread, Kube.apps(clients.get(thread % 2)))));
    }
    List<Result> results = new ArrayList<>();
    for (Future<Result> f : futures) {
      // a bound against a hang, not a speed check: 1,600 HTTP calls took over 60 s on two cores
      // shared with other builds (load 30), which made this test flaky
      results.add(f.get(10, TimeUnit.MINUTES));
    }
    pool.shutdown();

    // then every write got its own resourceVersion, increasing within each thread
    Set<Long> all = new HashSet<>();
    int writes = 0;
    int increments = 0;
    for (Result r : results) {
      assertThat(r.writeVersions).isSorted().doesNotHaveDuplicates();
      all.addAll(r.writeVersions);
      writes += r.writeVersions.size();
      increments += r.increments;
    }
    assertThat(all).hasSize(writes);
    // and no increment of the shared counter was lost
    JsonObject stored = kube.server().store().get(SPARK_APP, NS, "counter").orElseThrow();
    assertThat(stored.getAsJsonObject("spec").get("count").getAsInt())
        .isEqualTo(increments)
        .isEqualTo(THREADS * OPERATIONS / 4);
    // and each thread's own objects are exactly what it created and did not delete
    for (int t = 0; t < THREADS; t++) {
      String prefix = "t" + t + "-";
      long left =
          kube.server().store().list(SPARK_APP, NS).stream()
              .filter(
                  o -> o.getAsJsonObject("metadata").get("name").getAsString().startsWith(prefix))
              .count();
      assertThat(left).isEqualTo(results.get(t).created - results.get(t).deleted);
    }
  }

  private static final class Result {
    final List<Long> writeVersions = new ArrayList<>();
    int increments;
    int created;
    int deleted;
  }

  private static Result run(int thread, DynamicKubernetesApi api) {
    Result result = new Result();
    List<String> mine = new ArrayList<>();
    for (int i = 0; i < OPERATIONS; i++) {
      switch (i % 4) {
        case 0 -> {
          String name = "t" + thread + "-" + i;
          result.writeVersions.add(rv(ok(api.create(Kube.app(name)))));
          mine.add(name);
          result.created++;
        }
        case 1 -> {
          increment(api, result);
          result.increments++;
        }
        case 2 -> {
          String name = mine.get(mine.size() - 1);
          result.writeVersions.add(
              rv(
                  ok(
                      api.patch(
                          NS,
                          name,
                          V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                          new V1Patch("{\"metadata\":{\"labels\":{\"step\":\"" + i + "\"}}}")))));
        }
        default -> {
          KubernetesApiResponse<DynamicKubernetesListObject> list = api.list(NS);
          assertThat(list.getHttpStatusCode()).isEqualTo(200);
          if (i % 8 == 3) {
            String name = mine.remove(0);
            ok(api.delete(NS, name));
            result.deleted++;
          }
        }
      }
    }
    return result;
  }

  /** Read, add one, write back with the read resourceVersion; retry on 409. */
  private static void increment(DynamicKubernetesApi api, Result result) {
    while (true) {
      DynamicKubernetesObject current = ok(api.get(NS, "counter"));
      JsonObject spec = current.getRaw().getAsJsonObject("spec");
      spec.addProperty("count", spec.get("count").getAsInt() + 1);
      KubernetesApiResponse<DynamicKubernetesObject> put = api.update(current);
      if (put.getHttpStatusCode() == 409) {
        continue;
      }
      result.writeVersions.add(rv(ok(put)));
      return;
    }
  }

  private static DynamicKubernetesObject ok(KubernetesApiResponse<DynamicKubernetesObject> r) {
    assertThat(r.getHttpStatusCode()).as("%s", r.getStatus()).isEqualTo(200);
    return r.getObject();
  }

  private static long rv(DynamicKubernetesObject o) {
    return Long.parseLong(o.getMetadata().getResourceVersion());
  }
}
