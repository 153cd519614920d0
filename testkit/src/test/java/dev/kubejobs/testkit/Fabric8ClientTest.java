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

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * fabric8 kubernetes-client 7, with its default HTTP client (Vert.x), against the fake: the client
 * a scheduler such as Gravitino's Kubernetes job executor uses, unchanged.
 */
class Fabric8ClientTest {

  static final ResourceDefinitionContext APPS =
      new ResourceDefinitionContext.Builder()
          .withGroup("spark.apache.org")
          .withVersion("v1")
          .withPlural("sparkapplications")
          .withKind("SparkApplication")
          .withNamespaced(true)
          .build();

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  private KubernetesClient client;

  @BeforeEach
  void connect() {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(kube.server().url())
            .withNamespace(NS)
            .withRequestRetryBackoffLimit(0)
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  @Test
  void genericResourcesAreCreatedReadListedAndDeleted() {
    GenericKubernetesResource created =
        client
            .genericKubernetesResources(APPS)
            .inNamespace(NS)
            .resource(
                io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                    Kube.appJson("pi").toString(), GenericKubernetesResource.class))
            .create();

    assertThat(created.getMetadata().getUid()).isNotBlank();
    assertThat(client.genericKubernetesResources(APPS).inNamespace(NS).withName("pi").get())
        .isNotNull();
    assertThat(client.genericKubernetesResources(APPS).inNamespace(NS).list().getItems())
        .hasSize(1);
    assertThat(client.genericKubernetesResources(APPS).inNamespace(NS).withName("pi").delete())
        .hasSize(1);
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
  }

  /**
   * fabric8's {@code serverSideApply()} sends an apply patch with {@code fieldManager=fabric8}: the
   * first creates the object, the second changes it, and the manager owns the applied fields.
   */
  @Test
  void serverSideApplyCreatesThenChangesTheObject() {
    GenericKubernetesResource app =
        io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
            Kube.appJson("pi").toString(), GenericKubernetesResource.class);

    client.genericKubernetesResources(APPS).inNamespace(NS).resource(app).serverSideApply();
    com.google.gson.JsonObject next = Kube.appJson("pi");
    next.getAsJsonObject("spec").addProperty("mainClass", "org.example.Changed");
    GenericKubernetesResource changed =
        client
            .genericKubernetesResources(APPS)
            .inNamespace(NS)
            .resource(
                io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                    next.toString(), GenericKubernetesResource.class))
            .serverSideApply();

    assertThat(changed.get("spec", "mainClass").toString()).isEqualTo("org.example.Changed");
    assertThat(changed.getMetadata().getManagedFields())
        .singleElement()
        .satisfies(
            entry -> {
              assertThat(entry.getManager()).isEqualTo("fabric8");
              assertThat(entry.getOperation()).isEqualTo("Apply");
            });
    assertThat(
            kube.server()
                .store()
                .get(SPARK_APP, NS, "pi")
                .orElseThrow()
                .getAsJsonObject("spec")
                .get("mainClass")
                .getAsString())
        .isEqualTo("org.example.Changed");
  }

  /** fabric8's default {@code watch()} gets events at once, without a fallback delay. */
  @Test
  void theDefaultWatchGetsEventsWithinSeconds() {
    List<String> events = new CopyOnWriteArrayList<>();
    try (Watch watch =
        client
            .genericKubernetesResources(APPS)
            .inNamespace(NS)
            .watch(
                new Watcher<GenericKubernetesResource>() {
                  @Override
                  public void eventReceived(Action action, GenericKubernetesResource resource) {
                    events.add(action + " " + resource.getMetadata().getName());
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
      kube.server().store().delete(SPARK_APP, NS, "pi");

      // A generous bound for a loaded machine; that there is no fallback delay shows in the
      // journal below (one request, the WebSocket), not in wall time.
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(events).containsExactly("ADDED pi", "DELETED pi"));
      assertThat(watch).isNotNull();
    }
    // One request: the WebSocket upgrade was answered with 101, no fallback to an HTTP watch.
    assertThat(kube.server().journal().count("GET", ".*/sparkapplications")).isEqualTo(1);
  }

  /** fabric8's informer lists, then watches, and sees changes within seconds. */
  @Test
  void theInformerSyncsAndSeesChangesWithinSeconds() {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("before"));
    List<String> seen = new CopyOnWriteArrayList<>();
    try (SharedIndexInformer<GenericKubernetesResource> informer =
        client
            .genericKubernetesResources(APPS)
            .inNamespace(NS)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource obj) {
                    seen.add("add " + obj.getMetadata().getName());
                  }

                  @Override
                  public void onUpdate(
                      GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                    seen.add("update " + newObj.getMetadata().getName());
                  }

                  @Override
                  public void onDelete(
                      GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
                    seen.add("delete " + obj.getMetadata().getName());
                  }
                })) {
      // Generous bounds for a loaded machine: that the informer used its watch (no re-list, no
      // second watch) shows in the journal below, not in wall time.
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);
      kube.server().store().create(SPARK_APP, NS, Kube.appJson("after"));

      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(seen).containsExactly("add before", "add after"));
    }
    List<RecordedRequest> requests =
        kube.server().journal().requests("GET", ".*/sparkapplications");
    assertThat(requests)
        .extracting(r -> r.query().contains("watch=true"))
        .containsExactly(false, true);
  }
}
