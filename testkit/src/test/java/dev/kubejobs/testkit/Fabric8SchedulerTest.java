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

import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A scheduler written against fabric8 — as a scheduler such as Gravitino's Kubernetes job executor
 * is — tested on the testkit without changing its client: it submits a SparkApplication as a
 * generic resource, learns its end from an informer, and reads the driver's log, while the fake
 * Apache operator moves the application.
 */
@Tag("slow")
class Fabric8SchedulerTest {

  static final String NS = "spark-jobs";

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().operator(FakeSparkOperator.Flavor.APACHE).build();

  private KubernetesClient client;
  private Fabric8SparkScheduler scheduler;

  @BeforeEach
  void connect() {
    // the only testkit-specific line: where the API server is
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(kube.server().url())
            .withRequestRetryBackoffLimit(0)
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
    scheduler = new Fabric8SparkScheduler(client, NS);
  }

  @AfterEach
  void disconnect() {
    scheduler.close();
    client.close();
  }

  @Test
  void aSubmittedJobSucceedsAndItsDriverLogIsRead() throws Exception {
    scheduler.submit("pi", "org.apache.spark.examples.SparkPi");
    CompletableFuture<String> end = scheduler.whenFinished("pi");

    kube.operator().runToEnd(NS, "pi");

    assertThat(end.get(10, TimeUnit.SECONDS)).isEqualTo("Succeeded");
    assertThat(scheduler.driverLog("pi"))
        .contains("Submitted application: Spark Pi (pi)")
        .contains(dev.kubejobs.testkit.fixtures.DriverLogs.PI_LINE);
  }

  @Test
  void aJobOnTheFailedPathFailsWithTheDriversException() throws Exception {
    scheduler.submit("broken", "org.example.Broken");
    kube.operator().path(NS, "broken", SparkAppPath.FAILED);
    CompletableFuture<String> end = scheduler.whenFinished("broken");

    kube.operator().runToEnd(NS, "broken");

    assertThat(end.get(10, TimeUnit.SECONDS)).isEqualTo("Failed");
    assertThat(scheduler.driverLog("broken"))
        .contains(dev.kubejobs.testkit.fixtures.DriverLogs.FAILURE_LINE);
  }

  @Test
  void aCancelledJobIsDeletedThroughTheOperatorsFinalizer() throws Exception {
    scheduler.submit("stop-me", "org.example.Long");
    kube.operator().moveTo(NS, "stop-me", "RunningHealthy");
    CompletableFuture<String> end = scheduler.whenFinished("stop-me");

    scheduler.cancel("stop-me");
    kube.operator().runToEnd(NS, "stop-me");

    assertThat(end.get(10, TimeUnit.SECONDS)).isEqualTo("ResourceReleased");
    assertThat(kube.server().store().get(ResourceType.APACHE_SPARK_APPLICATION, NS, "stop-me"))
        .isEmpty();
  }

  /**
   * The scheduler under test: plain fabric8 code with no knowledge of the testkit. Submits Apache
   * SparkApplications ({@code spark.apache.org/v1}), follows them with one informer, reads driver
   * logs by the operator's pod labels, cancels by deleting.
   */
  static final class Fabric8SparkScheduler implements AutoCloseable {

    static final ResourceDefinitionContext APPS =
        new ResourceDefinitionContext.Builder()
            .withGroup("spark.apache.org")
            .withVersion("v1")
            .withPlural("sparkapplications")
            .withKind("SparkApplication")
            .withNamespaced(true)
            .build();

    /** The states after which the Apache operator does nothing more for the attempt. */
    static final Set<String> FINISHED =
        Set.of(
            "Succeeded",
            "Failed",
            "SchedulingFailure",
            "DriverStartTimedOut",
            "ResourceReleased",
            "TerminatedWithoutReleaseResources");

    private final KubernetesClient client;
    private final String namespace;
    private final Map<String, CompletableFuture<String>> waiting = new ConcurrentHashMap<>();
    private final SharedIndexInformer<GenericKubernetesResource> informer;

    Fabric8SparkScheduler(KubernetesClient client, String namespace) {
      this.client = client;
      this.namespace = namespace;
      this.informer =
          client
              .genericKubernetesResources(APPS)
              .inNamespace(namespace)
              .inform(
                  new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(GenericKubernetesResource app) {
                      seen(app);
                    }

                    @Override
                    public void onUpdate(
                        GenericKubernetesResource before, GenericKubernetesResource app) {
                      seen(app);
                    }

                    @Override
                    public void onDelete(GenericKubernetesResource app, boolean unknown) {
                      seen(app);
                    }
                  });
    }

    void submit(String name, String mainClass) {
      GenericKubernetesResource app = new GenericKubernetesResource();
      app.setApiVersion("spark.apache.org/v1");
      app.setKind("SparkApplication");
      app.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
      app.setAdditionalProperty(
          "spec",
          Map.of(
              "mainClass",
              mainClass,
              "jars",
              "local:///opt/spark/examples/jars/spark-examples.jar",
              "runtimeVersions",
              Map.of("sparkVersion", "4.0.1"),
              // keep the driver pod, so its log can be read after the end
              "applicationTolerations",
              Map.of("resourceRetainPolicy", "Always")));
      client.genericKubernetesResources(APPS).inNamespace(namespace).resource(app).create();
    }

    /** Completes with the first finished state the informer sees for the application. */
    CompletableFuture<String> whenFinished(String name) {
      CompletableFuture<String> future =
          waiting.computeIfAbsent(name, n -> new CompletableFuture<>());
      GenericKubernetesResource app = informer.getStore().getByKey(namespace + "/" + name);
      if (app != null) {
        seen(app);
      }
      return future;
    }

    String driverLog(String name) {
      List<Pod> drivers =
          client
              .pods()
              .inNamespace(namespace)
              .withLabel("spark.operator/spark-app-name", name)
              .withLabel("spark-role", "driver")
              .list()
              .getItems();
      if (drivers.isEmpty()) {
        throw new IllegalStateException("no driver pod for " + name);
      }
      return client
          .pods()
          .inNamespace(namespace)
          .withName(drivers.get(0).getMetadata().getName())
          .inContainer("spark-kubernetes-driver")
          .getLog();
    }

    void cancel(String name) {
      client.genericKubernetesResources(APPS).inNamespace(namespace).withName(name).delete();
    }

    private void seen(GenericKubernetesResource app) {
      Object state = stateOf(app);
      CompletableFuture<String> future = waiting.get(app.getMetadata().getName());
      if (future != null && state != null && FINISHED.contains(state.toString())) {
        future.complete(state.toString());
      }
    }

    private static Object stateOf(GenericKubernetesResource app) {
      Object status = app.getAdditionalProperties().get("status");
      if (!(status instanceof Map<?, ?> s) || !(s.get("currentState") instanceof Map<?, ?> c)) {
        return null;
      }
      return c.get("currentStateSummary");
    }

    @Override
    public void close() {
      informer.close();
    }
  }
}
