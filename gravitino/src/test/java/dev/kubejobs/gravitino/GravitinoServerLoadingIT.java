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
package dev.kubejobs.gravitino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.fixtures.DriverLogs;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.gravitino.connector.job.JobExecutor;
import org.apache.gravitino.job.JobHandle;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A Gravitino server stand-in loads kubejobs-gravitino's shaded jar from a {@code libs/} stand-in
 * holding the server's own library versions (Jackson 2.15.2, snakeyaml 2.0, Gson 2.11.0, Guava
 * 32.1.3, SLF4J API 2.0.17 without a provider, commons-lang3 3.14.0, commons-io 2.18.0,
 * commons-collections4 4.4, OkHttp 4.11.0 with okio 3.2.0 and Kotlin 1.8.21: apache/gravitino
 * {@code gradle/libs.versions.toml} at main commit f461aa31aa758e9b8f2743795a34fc31f8456a68), by
 * the class name of {@code gravitino.conf}, with {@link GravitinoServerStandIn} (a port of the
 * server's {@code JobExecutorFactory}), and runs jobs through {@link GravitinoJobManagerStandIn} (a
 * port of its {@code JobManager}) on two nodes, each with its own class loader and its own pull
 * thread, against the fake cluster with each Spark operator. The server's SPI classes are checked
 * at the real binary shape first, and a pull thread ended by an {@link Error} (which ends
 * Gravitino's pull for good) fails the test at once. Runs after {@code package}: {@code ./mvnw -B
 * -ntp -pl gravitino -am verify}.
 */
class GravitinoServerLoadingIT {
  static final String NS = "gravitino-jobs";
  static final String CLASS = "dev.kubejobs.gravitino.KubeJobsSparkExecutor";
  static final Path SHADED = Path.of(System.getProperty("kubejobs.shadedJar"));
  static final Path SERVER_LIBS = Path.of(System.getProperty("kubejobs.serverLibs"));
  static final Duration PULL_INTERVAL = Duration.ofMillis(50);

  @RegisterExtension
  static final FakeKubernetesExtension KUBE = FakeKubernetesExtension.builder().build();

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(FakeSparkOperator.Flavor.class)
  void theServerLoadsTheShadedJarByNameAndRunsSubmitPullCancelGoneOutputAndClose(
      FakeSparkOperator.Flavor flavor) throws Exception {
    FakeSparkOperator operator = FakeSparkOperator.builder(flavor, KUBE.server()).build();
    Map<String, String> conf = serverConf(flavor, "10");
    JobExecutor nodeA;
    try (URLClassLoader serverA = GravitinoServerStandIn.libsLoader(SERVER_LIBS, SHADED);
        URLClassLoader serverB = GravitinoServerStandIn.libsLoader(SERVER_LIBS, SHADED)) {
      nodeA = GravitinoServerStandIn.createExecutor(conf, serverA);
      try (JobExecutor a = nodeA;
          JobExecutor nodeB = GravitinoServerStandIn.createExecutor(conf, serverB);
          GravitinoJobManagerStandIn manager =
              new GravitinoJobManagerStandIn("lake", dir.toFile())) {
        // then: the executor is the shaded jar's, in the server's loader beside the server's
        // own (older) Jackson
        assertThat(a.getClass().getClassLoader()).isSameAs(serverA);
        assertThat(a.getClass().getProtectionDomain().getCodeSource().getLocation())
            .isEqualTo(SHADED.toUri().toURL());
        assertThat(
                Class.forName("com.fasterxml.jackson.databind.ObjectMapper", false, serverA)
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .getPath())
            .endsWith("jackson-databind-2.15.2.jar");

        // and the server's SPI classes, which the executor links to, are at the real shape
        assertServerSpiAtTheRealShape(serverA);

        // given: three jobs, two submitted on node A, one on node B, all running, and each node
        // pulling on its own thread as Gravitino's job manager does
        manager.registerTemplate("spark-pi", Templates.sparkPi());
        long done = manager.runJob(a, "spark-pi");
        long cancelled = manager.runJob(a, "spark-pi");
        long gone = manager.runJob(nodeB, "spark-pi");
        for (long id : List.of(done, cancelled, gone)) {
          operator.moveTo(NS, "kj-job-" + id, running(flavor));
        }
        manager.startPulling(a, PULL_INTERVAL);
        manager.startPulling(nodeB, PULL_INTERVAL);
        awaitPulls(manager)
            .untilAsserted(
                () -> {
                  for (long id : List.of(done, cancelled, gone)) {
                    assertThat(manager.job(id).status()).isEqualTo(JobHandle.Status.STARTED);
                  }
                });

        // when: node B reads a running job's output within the caps
        List<String> out = nodeB.getJobStdout(manager.job(done).executionId(), 2, 200);
        // and cancels a job node A submitted (node A's pull held meanwhile: the Kubeflow
        // operator's application is gone at once, see the executor's contract); one job runs to
        // its end; one is deleted outside
        manager.whilePullsPaused(a, () -> manager.cancel(nodeB, cancelled));
        operator.runToEnd(NS, "kj-job-" + cancelled);
        operator.runToEnd(NS, "kj-job-" + done);
        KUBE.api(operator.resourceType()).delete(NS, "kj-job-" + gone);
        operator.runToEnd(NS, "kj-job-" + gone);

        // then
        assertThat(out).isNotEmpty().hasSizeLessThanOrEqualTo(2);
        assertThat(String.join("\n", out).getBytes(StandardCharsets.UTF_8).length)
            .isLessThanOrEqualTo(200);
        awaitPulls(manager)
            .untilAsserted(
                () -> {
                  assertThat(manager.job(done).status()).isEqualTo(JobHandle.Status.SUCCEEDED);
                  assertThat(manager.job(cancelled).status()).isEqualTo(JobHandle.Status.CANCELLED);
                  assertThat(manager.job(gone).status()).isEqualTo(JobHandle.Status.FAILED);
                });
        assertThat(manager.job(done).finishedAt()).isNotNull();
        assertThat(nodeA.getJobStdout(manager.job(done).executionId(), 1000, 1 << 20))
            .as("a finished job's output, its driver pod kept (a day by default on Apache)")
            .contains(DriverLogs.PI_LINE);
        assertThat(manager.pullErrors()).isEmpty();
        assertThat(manager.endedPulls()).isEmpty();
      }
      // and close released it: a later call says so
      JobExecutor closed = nodeA;
      assertThatThrownBy(() -> closed.getJobExecutionInfo("prod/sparkapplications.x/ns/n"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("closed");
    }
  }

  /**
   * What one pull costs: Gravitino's job manager asks {@code getJobExecutionInfo} once per active
   * job on every node, every {@code gravitino.job.statusPullIntervalInMs}. The figure is printed
   * for docs/gravitino.md. A pull of N jobs costs one LIST per namespace on each node and no GET:
   * the status reader answers a loop of single gets from the listing it made for the first one.
   */
  @ParameterizedTest
  @EnumSource(FakeSparkOperator.Flavor.class)
  void onePullOfManyJobsOnTwoNodesCostsOneListPerNamespaceOnEachNodeAndNoGet(
      FakeSparkOperator.Flavor flavor) throws Exception {
    int jobs = 25;
    FakeSparkOperator operator = FakeSparkOperator.builder(flavor, KUBE.server()).build();
    Map<String, String> conf = serverConf(flavor, "5000"); // the default period
    try (URLClassLoader serverA = GravitinoServerStandIn.libsLoader(SERVER_LIBS, SHADED);
        URLClassLoader serverB = GravitinoServerStandIn.libsLoader(SERVER_LIBS, SHADED);
        JobExecutor nodeA = GravitinoServerStandIn.createExecutor(conf, serverA);
        JobExecutor nodeB = GravitinoServerStandIn.createExecutor(conf, serverB);
        GravitinoJobManagerStandIn manager = new GravitinoJobManagerStandIn("lake", dir.toFile())) {
      // given: many running jobs, submitted on both nodes
      manager.registerTemplate("spark-pi", Templates.sparkPi());
      List<Long> ids = new java.util.ArrayList<>();
      for (int i = 0; i < jobs; i++) {
        long id = manager.runJob(i % 2 == 0 ? nodeA : nodeB, "spark-pi");
        operator.moveTo(NS, "kj-job-" + id, running(flavor));
        ids.add(id);
      }
      KUBE.server().journal().clear();

      // when: one pull on each node
      manager.pull(nodeA);
      manager.pull(nodeB);

      // then: every job was answered, with one LIST on each node and no GET of a single job
      List<String> requests =
          KUBE.server().journal().requests().stream().map(r -> r.verb() + " " + r.path()).toList();
      long lists = requests.stream().filter(r -> r.endsWith("/sparkapplications")).count();
      System.out.printf(
          "%s: one pull of %d jobs on 2 nodes cost %d requests (%d LIST, %d GET)%n",
          flavor, jobs, requests.size(), lists, requests.size() - lists);
      for (long id : ids) {
        assertThat(manager.job(id).status()).isEqualTo(JobHandle.Status.STARTED);
      }
      assertThat(requests).allMatch(r -> r.startsWith("GET ")).hasSize(2);
      assertThat(requests).allMatch(r -> r.endsWith("/sparkapplications"));
    }
  }

  @Test
  void aServerWithABadSettingStopsWithTheFactorysErrorNamingTheKey() throws IOException {
    Map<String, String> conf = new HashMap<>(serverConf(FakeSparkOperator.Flavor.APACHE, "10"));
    conf.put("gravitino.jobExecutor.kubejobs.operator", "yarn");

    try (URLClassLoader server = GravitinoServerStandIn.libsLoader(SERVER_LIBS, SHADED)) {
      assertThatThrownBy(() -> GravitinoServerStandIn.createExecutor(conf, server))
          .hasMessage("Failed to create job executor: kubejobs")
          .rootCause()
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("gravitino.jobExecutor.kubejobs.operator")
          .hasMessageContaining("yarn");
    }
  }

  /**
   * Awaits a condition of the job records while the nodes pull; fails at once when a pull thread
   * ended on an {@link Error} (in Gravitino, every job of that node would stay as it is forever).
   */
  static ConditionFactory awaitPulls(GravitinoJobManagerStandIn manager) {
    return await()
        .atMost(Duration.ofSeconds(20))
        .failFast(
            "a pull thread ended on an Error, as Gravitino's would: " + manager.endedPulls(),
            () -> !manager.endedPulls().isEmpty());
  }

  /**
   * Asserts that the SPI classes the server's loader resolves are the stand-ins compiled at the
   * real binary shape: every public member equals {@code
   * ../shared/gravitino/job-spi-main.javap.txt} (when that file is present), and Lombok's builder
   * class is there under its real name.
   */
  static void assertServerSpiAtTheRealShape(ClassLoader server) throws ClassNotFoundException {
    Class<?> builder = Class.forName(SpiShape.CLASSES.get(3), false, server);
    Path spi = SpiShape.location(builder);
    for (String name : SpiShape.CLASSES) {
      assertThat(SpiShape.location(Class.forName(name, false, server))).isEqualTo(spi);
    }
    Path reference = SpiShape.reference();
    if (reference == null) {
      System.out.println(SpiShape.skipLine());
      return;
    }
    assertThat(SpiShape.differences(SpiShape.javap(spi), SpiShape.read(reference)))
        .as("the server's SPI classes in %s against %s", spi, reference)
        .isEmpty();
  }

  /**
   * A Gravitino 1.3.0 server loads the class (its factory has no check of the SPI), but the
   * executor's {@code initialize} finds no {@code JobContext} nor {@code JobExecutionInfo} and
   * stops the server with one sentence naming the Gravitino versions that work, instead of
   * accepting jobs whose status pull would die.
   */
  @Test
  void aGravitino130ServerStopsAtInitializeWithTheVersionsThatWork() throws IOException {
    Map<String, String> conf = serverConf(FakeSparkOperator.Flavor.APACHE, "10");

    try (URLClassLoader server = GravitinoServerStandIn.libsLoaderOf130(SERVER_LIBS, SHADED)) {
      assertThatThrownBy(() -> GravitinoServerStandIn.createExecutorAs130(conf, server))
          .hasMessage("Failed to create job executor: kubejobs")
          .cause()
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              KubeJobsSparkExecutor.NEEDS_GRAVITINO
                  + ", but this server has no org.apache.gravitino.connector.job.JobContext.");
    }
    assertThat(KUBE.server().journal().requests()).as("nothing sent to the cluster").isEmpty();
  }

  private Map<String, String> serverConf(FakeSparkOperator.Flavor flavor, String cachePeriodMs)
      throws IOException {
    String p = "gravitino.jobExecutor.kubejobs.";
    return Map.of(
        "gravitino.job.executor",
        "kubejobs",
        p + "class",
        CLASS,
        p + "kubeconfig",
        KubeJobsSparkExecutorTest.kubeconfig(dir, KUBE.server()).toString(),
        p + "cluster",
        "prod",
        p + "operator",
        flavor.name().toLowerCase(Locale.ROOT),
        p + "statusCachePeriodMs",
        cachePeriodMs);
  }

  private static String running(FakeSparkOperator.Flavor flavor) {
    return flavor == FakeSparkOperator.Flavor.APACHE ? "RunningHealthy" : "RUNNING";
  }
}
