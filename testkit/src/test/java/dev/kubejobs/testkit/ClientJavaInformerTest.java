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
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * client-java's {@code SharedInformerFactory} against the fake, unchanged: its reflector lists,
 * then watches from the list's resourceVersion, and its store and handlers follow the changes.
 */
class ClientJavaInformerTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  /**
   * The informer syncs from one LIST, then sees an add, a change and a delete through its watch, as
   * client-java's {@code ReflectorRunnable} does against a real server (kubernetes-client/java
   * {@code util/src/main/java/io/kubernetes/client/informer/cache/ReflectorRunnable.java}, 27.0.0:
   * list, then watch from the list's {@code resourceVersion}).
   */
  @Test
  void theInformerSyncsThenFollowsAddsChangesAndDeletes() {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("before"));
    ApiClient client = kube.server().newClient();
    // a watch is idle between changes: no read timeout, as a long-running informer is set up
    client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(Duration.ZERO).build());
    SharedInformerFactory factory = new SharedInformerFactory(client);
    SharedIndexInformer<DynamicKubernetesObject> informer =
        factory.sharedIndexInformerFor(
            // DynamicKubernetesApi, as a client-java user informs on a custom resource: only its
            // constructor registers DynamicKubernetesTypeAdaptorFactory in client-java's static
            // JSON Gson. A bare GenericKubernetesApi of the Dynamic* classes leaves Gson reading
            // DynamicKubernetesListObject reflectively (an empty raw, so getMetadata() is null and
            // ReflectorRunnable's list fails with an NPE) unless another test built one first.
            Kube.apps(client), DynamicKubernetesObject.class, 0, NS);
    List<String> seen = new CopyOnWriteArrayList<>();
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(DynamicKubernetesObject obj) {
            seen.add("add " + obj.getMetadata().getName());
          }

          @Override
          public void onUpdate(DynamicKubernetesObject oldObj, DynamicKubernetesObject newObj) {
            seen.add("update " + newObj.getMetadata().getName());
          }

          @Override
          public void onDelete(DynamicKubernetesObject obj, boolean deletedFinalStateUnknown) {
            seen.add("delete " + obj.getMetadata().getName() + " " + deletedFinalStateUnknown);
          }
        });
    try {
      factory.startAllRegisteredInformers();
      await().atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
      // hasSynced() turns true once the listed objects are popped from the DeltaFIFO; handlers are
      // told afterwards, on each ProcessorListener's own thread (client-java 27.0.0
      // util/.../informer/cache/SharedProcessor.java distribute -> ProcessorListener.add/run), so
      // the first add may still be on its way.
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(seen).containsExactly("add before"));

      kube.server().store().create(SPARK_APP, NS, Kube.appJson("after"));
      kube.server()
          .store()
          .update(
              SPARK_APP,
              NS,
              "after",
              app -> {
                app.getAsJsonObject("spec").addProperty("mainClass", "org.example.Changed");
                return app;
              });
      kube.server().store().delete(SPARK_APP, NS, "before");

      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(seen)
                      .containsExactly(
                          "add before", "add after", "update after", "delete before false"));
      assertThat(informer.getIndexer().list())
          .extracting(o -> o.getMetadata().getName())
          .containsExactly("after");
      // one LIST (client-java sends watch=false), then watches only: no relist
      assertThat(kube.server().journal().requests("GET", ".*/sparkapplications"))
          .filteredOn(r -> !"true".equals(r.queryParameter("watch")))
          .hasSize(1);
    } finally {
      factory.stopAllRegisteredInformers();
    }
  }
}
