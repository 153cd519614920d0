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

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.NetworkingV1Api;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1NetworkPolicySpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The namespaced basics every cluster serves without a CRD (services, config maps, secrets, service
 * accounts, network policies) and owner-reference garbage collection, through client-java's typed
 * APIs: what the Apache Spark operator creates per driver (a Service, two ConfigMaps, a
 * NetworkPolicy, all owned by the driver pod) and what a cluster then does with them.
 */
class ClusterBasicsTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  private CoreV1Api core() {
    return new CoreV1Api(kube.client());
  }

  private NetworkingV1Api networking() {
    return new NetworkingV1Api(kube.client());
  }

  @Test
  void discoveryListsTheBasicsWithTheirShortNamesAndOnlyPodsAndServicesHaveAStatus()
      throws ApiException {
    List<String> core = new ArrayList<>();
    List<String> shortNames = new ArrayList<>();
    for (V1APIResource r : core().getAPIResources().execute().getResources()) {
      core.add(r.getName());
      if (r.getShortNames() != null) {
        shortNames.addAll(r.getShortNames());
      }
    }
    assertThat(core)
        .contains(
            "pods",
            "pods/status",
            "services",
            "services/status",
            "configmaps",
            "secrets",
            "serviceaccounts")
        .doesNotContain("configmaps/status", "secrets/status", "serviceaccounts/status");
    assertThat(shortNames).contains("svc", "cm", "sa");

    List<String> net = new ArrayList<>();
    for (V1APIResource r : networking().getAPIResources().execute().getResources()) {
      net.add(r.getName() + ":" + r.getKind() + ":" + r.getShortNames());
    }
    assertThat(net).containsExactly("networkpolicies:NetworkPolicy:[netpol]");
  }

  /**
   * Each basic kind is created, read, listed and deleted with client-java's typed API. A DELETE
   * answers the object for services and service accounts (their storages set {@code
   * ReturnDeletedObject}, kubernetes/kubernetes {@code pkg/registry/core/service/storage} and
   * {@code .../serviceaccount/storage}), a {@code Status} {@code Success} for the others.
   */
  @Test
  void eachBasicKindIsCreatedReadListedAndDeletedWithTheTypedClient() throws ApiException {
    V1Service service =
        core()
            .createNamespacedService(
                NS,
                new V1Service()
                    .metadata(new V1ObjectMeta().name("driver-svc"))
                    .spec(
                        new V1ServiceSpec()
                            .clusterIP("None")
                            .selector(Map.of("spark-role", "driver"))
                            .addPortsItem(new V1ServicePort().name("driver-rpc").port(7078))))
            .execute();
    V1ConfigMap configMap =
        core()
            .createNamespacedConfigMap(
                NS,
                new V1ConfigMap()
                    .metadata(new V1ObjectMeta().name("spark-conf"))
                    .data(Map.of("spark.properties", "spark.app.name=pi")))
            .execute();
    core()
        .createNamespacedSecret(
            NS,
            new V1Secret()
                .metadata(new V1ObjectMeta().name("token"))
                .stringData(Map.of("token", "s3cr3t")))
        .execute();
    core()
        .createNamespacedServiceAccount(
            NS, new V1ServiceAccount().metadata(new V1ObjectMeta().name("spark")))
        .execute();
    networking()
        .createNamespacedNetworkPolicy(
            NS,
            new V1NetworkPolicy()
                .metadata(new V1ObjectMeta().name("driver-netpol"))
                .spec(
                    new V1NetworkPolicySpec()
                        .podSelector(new V1LabelSelector().matchLabels(Map.of("a", "b")))))
        .execute();

    assertThat(service.getMetadata().getUid()).isNotBlank();
    assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(service.getSpec().getType()).isEqualTo("ClusterIP");
    assertThat(service.getSpec().getPorts().get(0).getProtocol()).isEqualTo("TCP");
    assertThat(configMap.getData()).containsEntry("spark.properties", "spark.app.name=pi");

    assertThat(core().readNamespacedService("driver-svc", NS).execute().getSpec().getSelector())
        .containsEntry("spark-role", "driver");
    assertThat(core().readNamespacedConfigMap("spark-conf", NS).execute().getData())
        .containsKey("spark.properties");
    V1Secret secret = core().readNamespacedSecret("token", NS).execute();
    assertThat(secret.getType()).isEqualTo("Opaque");
    assertThat(
            kube.server()
                .store()
                .get(ResourceType.SECRET, NS, "token")
                .orElseThrow()
                .has("stringData"))
        .isFalse();
    assertThat(new String(secret.getData().get("token"), StandardCharsets.UTF_8))
        .isEqualTo("s3cr3t");
    assertThat(core().readNamespacedServiceAccount("spark", NS).execute().getMetadata().getName())
        .isEqualTo("spark");
    assertThat(
            networking()
                .readNamespacedNetworkPolicy("driver-netpol", NS)
                .execute()
                .getSpec()
                .getPodSelector()
                .getMatchLabels())
        .containsEntry("a", "b");

    assertThat(core().listNamespacedService(NS).execute().getItems()).hasSize(1);
    assertThat(core().listNamespacedConfigMap(NS).execute().getItems()).hasSize(1);
    assertThat(core().listNamespacedSecret(NS).execute().getItems()).hasSize(1);
    assertThat(core().listNamespacedServiceAccount(NS).execute().getItems()).hasSize(1);
    assertThat(networking().listNamespacedNetworkPolicy(NS).execute().getItems()).hasSize(1);
    assertThat(networking().listNetworkPolicyForAllNamespaces().execute().getItems()).hasSize(1);

    assertThat(core().deleteNamespacedService("driver-svc", NS).execute().getMetadata().getName())
        .isEqualTo("driver-svc");
    assertThat(core().deleteNamespacedServiceAccount("spark", NS).execute().getMetadata().getName())
        .isEqualTo("spark");
    V1Status deletedConfigMap = core().deleteNamespacedConfigMap("spark-conf", NS).execute();
    assertThat(deletedConfigMap.getStatus()).isEqualTo("Success");
    assertThat(core().deleteNamespacedSecret("token", NS).execute().getStatus())
        .isEqualTo("Success");
    assertThat(
            networking().deleteNamespacedNetworkPolicy("driver-netpol", NS).execute().getStatus())
        .isEqualTo("Success");

    for (ResourceType type :
        List.of(
            ResourceType.SERVICE,
            ResourceType.CONFIG_MAP,
            ResourceType.SECRET,
            ResourceType.SERVICE_ACCOUNT,
            ResourceType.NETWORK_POLICY)) {
      assertThat(kube.server().store().list(type, NS)).as(type.plural()).isEmpty();
    }
    assertThatThrownBy(() -> core().readNamespacedConfigMap("spark-conf", NS).execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  /**
   * What Spark's submission client does with a driver's resources (fabric8 {@code
   * resourceList(...).forceConflicts().serverSideApply()}, Spark's {@code
   * KubernetesClientApplication}): server-side apply creates a ConfigMap and a Service, then
   * applies them again with the driver pod as owner; a strategic merge patch of a network policy is
   * read as a merge patch.
   */
  @Test
  void fabric8ServerSideAppliesTheBasicsAsSparksSubmissionClientDoes() {
    io.fabric8.kubernetes.client.Config config =
        new io.fabric8.kubernetes.client.ConfigBuilder(io.fabric8.kubernetes.client.Config.empty())
            .withMasterUrl(kube.server().url())
            .withNamespace(NS)
            .withRequestRetryBackoffLimit(0)
            .build();
    try (io.fabric8.kubernetes.client.KubernetesClient client =
        new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build()) {
      io.fabric8.kubernetes.api.model.ConfigMap cm =
          new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
              .withNewMetadata()
              .withName("spark-drv-conf-map")
              .withNamespace(NS)
              .endMetadata()
              .addToData("spark.properties", "spark.app.name=pi")
              .build();
      io.fabric8.kubernetes.api.model.Service svc =
          new io.fabric8.kubernetes.api.model.ServiceBuilder()
              .withNewMetadata()
              .withName("pi-driver-svc")
              .withNamespace(NS)
              .endMetadata()
              .withNewSpec()
              .withClusterIP("None")
              .addNewPort()
              .withName("driver-rpc-port")
              .withPort(7078)
              .endPort()
              .endSpec()
              .build();
      client.resourceList(cm, svc).forceConflicts().serverSideApply();

      io.fabric8.kubernetes.api.model.Pod driver =
          client
              .pods()
              .resource(
                  new io.fabric8.kubernetes.api.model.PodBuilder()
                      .withNewMetadata()
                      .withName("pi-driver")
                      .endMetadata()
                      .withNewSpec()
                      .addNewContainer()
                      .withName("spark-kubernetes-driver")
                      .withImage("spark")
                      .endContainer()
                      .endSpec()
                      .build())
              .create();
      io.fabric8.kubernetes.api.model.OwnerReference owner =
          new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
              .withApiVersion("v1")
              .withKind("Pod")
              .withName("pi-driver")
              .withUid(driver.getMetadata().getUid())
              .withController(true)
              .build();
      cm.getMetadata().setOwnerReferences(List.of(owner));
      svc.getMetadata().setOwnerReferences(List.of(owner));
      client.resourceList(cm, svc).forceConflicts().serverSideApply();

      assertThat(
              client
                  .configMaps()
                  .withName("spark-drv-conf-map")
                  .get()
                  .getMetadata()
                  .getOwnerReferences())
          .extracting(io.fabric8.kubernetes.api.model.OwnerReference::getUid)
          .containsExactly(driver.getMetadata().getUid());
      assertThat(client.services().withName("pi-driver-svc").get().getSpec().getClusterIP())
          .isEqualTo("None");

      var netpols = client.genericKubernetesResources("networking.k8s.io/v1", "NetworkPolicy");
      netpols
          .resource(
              new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                  .withApiVersion("networking.k8s.io/v1")
                  .withKind("NetworkPolicy")
                  .withNewMetadata()
                  .withName("pi-netpol")
                  .endMetadata()
                  .addToAdditionalProperties("spec", Map.of("podSelector", Map.of()))
                  .build())
          .create();
      netpols
          .withName("pi-netpol")
          .patch(
              io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                  io.fabric8.kubernetes.client.dsl.base.PatchType.STRATEGIC_MERGE),
              "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
      assertThat(netpols.withName("pi-netpol").get().getMetadata().getLabels())
          .containsEntry("a", "b");

      client.pods().withName("pi-driver").withGracePeriod(0).delete();
      assertThat(client.configMaps().withName("spark-drv-conf-map").get()).isNull();
      assertThat(client.services().withName("pi-driver-svc").get()).isNull();
    }
  }

  @Test
  void theBasicsCannotBeUnregistered() {
    assertThatThrownBy(() -> kube.server().unregisterResource(ResourceType.CONFIG_MAP))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Deleting a driver pod removes what the operator made for it, owned by the pod: the garbage
   * collector deletes an object whose owners are all gone ({@code attemptToDeleteItem} in
   * kubernetes/kubernetes {@code pkg/controller/garbagecollector/garbagecollector.go}); in the
   * background by default, so the pod's DELETE does not wait for them.
   */
  @Test
  void deletingTheDriverPodCollectsItsServiceConfigMapsAndNetworkPolicy() throws ApiException {
    V1Pod driver =
        core()
            .createNamespacedPod(
                NS,
                new V1Pod()
                    .metadata(new V1ObjectMeta().name("pi-driver"))
                    .spec(
                        new io.kubernetes.client.openapi.models.V1PodSpec()
                            .addContainersItem(
                                new io.kubernetes.client.openapi.models.V1Container()
                                    .name("spark-kubernetes-driver")
                                    .image("spark"))))
            .execute();
    V1OwnerReference byDriver =
        new V1OwnerReference()
            .apiVersion("v1")
            .kind("Pod")
            .name("pi-driver")
            .uid(driver.getMetadata().getUid())
            .controller(true);
    core()
        .createNamespacedService(
            NS,
            new V1Service()
                .metadata(new V1ObjectMeta().name("pi-driver-svc").addOwnerReferencesItem(byDriver))
                .spec(new V1ServiceSpec().clusterIP("None")))
        .execute();
    for (String name : List.of("spark-drv-conf-map", "spark-exec-conf-map")) {
      core()
          .createNamespacedConfigMap(
              NS,
              new V1ConfigMap()
                  .metadata(new V1ObjectMeta().name(name).addOwnerReferencesItem(byDriver))
                  .data(Map.of("k", "v")))
          .execute();
    }
    networking()
        .createNamespacedNetworkPolicy(
            NS,
            new V1NetworkPolicy()
                .metadata(new V1ObjectMeta().name("pi-netpol").addOwnerReferencesItem(byDriver))
                .spec(new V1NetworkPolicySpec().podSelector(new V1LabelSelector())))
        .execute();
    core()
        .createNamespacedConfigMap(
            NS, new V1ConfigMap().metadata(new V1ObjectMeta().name("unowned")).data(Map.of()))
        .execute();

    core().deleteNamespacedPod("pi-driver", NS).execute();

    assertThat(core().listNamespacedService(NS).execute().getItems()).isEmpty();
    assertThat(core().listNamespacedConfigMap(NS).execute().getItems())
        .extracting(c -> c.getMetadata().getName())
        .containsExactly("unowned");
    assertThat(networking().listNamespacedNetworkPolicy(NS).execute().getItems()).isEmpty();
  }

  /**
   * An object with another owner still present is not deleted; the collector removes the reference
   * to the owner that is gone ({@code attemptToDeleteItem}: solid owners left, dangling references
   * patched away).
   */
  @Test
  void anObjectWithAnOwnerLeftStaysAndLosesTheReferenceToTheOneGone() {
    JsonObject first = pod("first");
    JsonObject second = pod("second");
    kube.server()
        .store()
        .create(ResourceType.CONFIG_MAP, NS, configMap("shared", List.of(first, second), false));
    kube.server()
        .store()
        .create(ResourceType.CONFIG_MAP, NS, configMap("only", List.of(first), false));

    kube.server().store().delete(ResourceType.POD, NS, "first");

    JsonObject shared =
        kube.server().store().get(ResourceType.CONFIG_MAP, NS, "shared").orElseThrow();
    JsonArray refs = shared.getAsJsonObject("metadata").getAsJsonArray("ownerReferences");
    assertThat(refs).hasSize(1);
    assertThat(refs.get(0).getAsJsonObject().get("name").getAsString()).isEqualTo("second");
    assertThat(kube.server().store().get(ResourceType.CONFIG_MAP, NS, "only")).isEmpty();

    kube.server().store().delete(ResourceType.POD, NS, "second");
    assertThat(kube.server().store().get(ResourceType.CONFIG_MAP, NS, "shared")).isEmpty();
  }

  /**
   * Foreground deletion: the DELETE answers the owner with a {@code deletionTimestamp} and the
   * {@code foregroundDeletion} finalizer (apiserver {@code registry/generic/registry/store.go}
   * {@code updateForGracefulDeletionAndFinalizers}); it stays while a dependent with {@code
   * blockOwnerDeletion: true} exists, and goes when the last one is gone ({@code
   * processDeletingDependentsItem} in the garbage collector). Here a dependent's own finalizer
   * keeps it (and so the owner) until a controller removes that finalizer.
   */
  @Test
  void aForegroundDeleteKeepsTheOwnerUntilItsBlockingDependentsAreGone() throws ApiException {
    JsonObject app = kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    JsonObject held = configMap("held", List.of(app), true);
    held.getAsJsonObject("metadata").add("finalizers", Kube.json("{'f':['x.io/keep']}").get("f"));
    kube.server().store().create(ResourceType.CONFIG_MAP, NS, held);
    kube.server()
        .store()
        .create(ResourceType.CONFIG_MAP, NS, configMap("loose", List.of(app), false));

    DynamicKubernetesApi apps = Kube.apps(kube.client());
    io.kubernetes.client.util.generic.options.DeleteOptions foreground =
        new io.kubernetes.client.util.generic.options.DeleteOptions();
    foreground.setPropagationPolicy("Foreground");
    var answer = apps.delete(NS, "pi", foreground);

    assertThat(answer.getHttpStatusCode()).isEqualTo(200);
    assertThat(answer.getObject().getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(answer.getObject().getMetadata().getFinalizers())
        .containsExactly("foregroundDeletion");
    assertThat(kube.server().store().get(ResourceType.CONFIG_MAP, NS, "loose")).isEmpty();
    JsonObject heldNow =
        kube.server().store().get(ResourceType.CONFIG_MAP, NS, "held").orElseThrow();
    assertThat(heldNow.getAsJsonObject("metadata").has("deletionTimestamp")).isTrue();
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isPresent();

    kube.server()
        .store()
        .update(
            ResourceType.CONFIG_MAP,
            NS,
            "held",
            o -> {
              o.getAsJsonObject("metadata").remove("finalizers");
              return o;
            });

    assertThat(kube.server().store().get(ResourceType.CONFIG_MAP, NS, "held")).isEmpty();
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
  }

  /** Foreground with nothing blocking: marked, then gone at once (watchers see both). */
  @Test
  void aForegroundDeleteWithNothingBlockingRemovesTheOwnerAfterMarkingIt() {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    List<ResourceEvent> events = new ArrayList<>();
    ResourceListener listener = events::add;
    kube.server().store().addListener(listener);
    try {
      io.kubernetes.client.util.generic.options.DeleteOptions foreground =
          new io.kubernetes.client.util.generic.options.DeleteOptions();
      foreground.setPropagationPolicy("Foreground");
      Kube.apps(kube.client()).delete(NS, "pi", foreground);
    } finally {
      kube.server().store().removeListener(listener);
    }
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
    assertThat(events)
        .extracting(e -> e.kind() + " " + e.name())
        .containsExactly("MODIFIED pi", "DELETED pi");
  }

  private JsonObject pod(String name) {
    return kube.server().store().create(ResourceType.POD, NS, DeleteTest.ownedPod(name, null));
  }

  private static JsonObject configMap(String name, List<JsonObject> owners, boolean block) {
    JsonObject cm = Kube.json("{'metadata':{'name':'" + name + "'},'data':{}}");
    JsonArray refs = new JsonArray();
    for (JsonObject owner : owners) {
      JsonObject ref = new JsonObject();
      ref.addProperty("apiVersion", owner.get("apiVersion").getAsString());
      ref.addProperty("kind", owner.get("kind").getAsString());
      ref.addProperty("name", owner.getAsJsonObject("metadata").get("name").getAsString());
      ref.addProperty("uid", owner.getAsJsonObject("metadata").get("uid").getAsString());
      if (block) {
        ref.addProperty("blockOwnerDeletion", true);
      }
      refs.add(ref);
    }
    cm.getAsJsonObject("metadata").add("ownerReferences", refs);
    return cm;
  }
}
