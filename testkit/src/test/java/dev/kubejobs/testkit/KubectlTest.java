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
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code kubectl} against the fake, with both operators' real CRDs registered. Skipped,
 * with a message saying so, where no {@code kubectl} is found on the {@code PATH} or in {@code
 * /usr/bin}. Each test names the command and what kube-apiserver answers to it.
 */
@Tag("slow")
class KubectlTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder()
          .clock(MutableClock.at(java.time.Instant.parse("2026-03-01T10:00:00Z")))
          .build();

  static Path kubectl;

  @TempDir static Path home;

  @BeforeAll
  static void findKubectlAndRegisterTheCrds() throws IOException {
    kubectl = find();
    Assumptions.assumeTrue(
        kubectl != null,
        "kubectl not found on the PATH or in /usr/bin: the kubectl tests are skipped");
    kube.server()
        .registerCrd(
            Files.readString(
                ConformanceTest.CRDS.resolve("apache-sparkapplications.spark.apache.org.yaml")));
    kube.server()
        .registerCrd(
            Files.readString(
                ConformanceTest.CRDS.resolve(
                    "kubeflow-sparkoperator.k8s.io_sparkapplications.yaml")));
  }

  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    return path != null
        && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
            .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, program)));
  }

  private static Path find() {
    List<Path> candidates = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(java.io.File.pathSeparator)) {
        if (!dir.isEmpty()) {
          candidates.add(Path.of(dir, "kubectl"));
        }
      }
    }
    candidates.add(Path.of("/usr/bin/kubectl"));
    return candidates.stream().filter(Files::isExecutable).findFirst().orElse(null);
  }

  @BeforeEach
  void writeTheKubeconfig() throws IOException {
    Files.writeString(
        home.resolve("config"),
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: fake",
            "  cluster:",
            "    server: " + kube.server().url(),
            "contexts:",
            "- name: fake",
            "  context:",
            "    cluster: fake",
            "    namespace: " + NS,
            "    user: tester",
            "current-context: fake",
            "users:",
            "- name: tester",
            "  user: {}",
            ""));
  }

  /** A finished kubectl run. */
  record Run(int exit, String out, String err) {}

  /** Runs kubectl with its own kubeconfig and discovery cache, at most 60 seconds. */
  static Run kubectl(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(kubectl.toString());
    command.add("--kubeconfig=" + home.resolve("config"));
    command.add("--cache-dir=" + home.resolve("cache"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("HOME", home.toString());
    builder.redirectOutput(home.resolve("out.txt").toFile());
    builder.redirectError(home.resolve("err.txt").toFile());
    Process process = builder.start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("kubectl " + String.join(" ", args) + " ran for over 60 s");
    }
    return new Run(
        process.exitValue(),
        Files.readString(home.resolve("out.txt"), StandardCharsets.UTF_8),
        Files.readString(home.resolve("err.txt"), StandardCharsets.UTF_8));
  }

  private static JsonObject apacheApp(String apiVersion, String name) {
    return Kube.json(
        "{'apiVersion':'"
            + apiVersion
            + "','kind':'SparkApplication','metadata':{'name':'"
            + name
            + "'},'spec':{'mainClass':'org.example.Pi','runtimeVersions':{'sparkVersion':'4.0.0'}}}");
  }

  /**
   * {@code kubectl get sparkapplications.spark.apache.org} reads at the group's preferred version
   * ({@code v1}, though the CRD lists {@code v1beta1} first) and sees an application created at
   * {@code v1}; a real server answers the same object at every served version.
   */
  @Test
  void getAtThePreferredVersionSeesAnApplicationCreatedAtV1() throws Exception {
    kube.server()
        .store()
        .create(ResourceType.APACHE_SPARK_APPLICATION, NS, apacheApp("spark.apache.org/v1", "pi"));

    Run run = kubectl("get", "sparkapplications.spark.apache.org", "-o", "name");
    Run beta =
        kubectl(
            "get",
            "sparkapplications.v1beta1.spark.apache.org",
            "pi",
            "-o",
            "jsonpath={.apiVersion}");

    assertThat(run.err()).isEmpty();
    assertThat(run.exit()).isZero();
    assertThat(run.out()).isEqualTo("sparkapplication.spark.apache.org/pi\n");
    assertThat(beta.out()).isEqualTo("spark.apache.org/v1beta1");
  }

  /**
   * {@code kubectl api-resources} exits 0 with every group version's resources, short names
   * included, and no "couldn't get resource list" warning, as against a real server.
   */
  @Test
  void apiResourcesListsEveryResourceWithItsShortNames() throws Exception {
    Run run = kubectl("api-resources", "--no-headers");

    assertThat(run.err()).doesNotContain("couldn't get resource list");
    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .containsPattern("(?m)^pods +po +v1 +true +Pod$")
        .containsPattern(
            "(?m)^sparkapplications +sparkapp +spark.apache.org/v1 +true +SparkApplication$")
        .containsPattern(
            "(?m)^selfsubjectaccessreviews +authorization.k8s.io/v1 +false +SelfSubjectAccessReview$");
  }

  /** A short name resolves through discovery: {@code kubectl get sparkapp}. */
  @Test
  void aShortNameResolvesThroughDiscovery() throws Exception {
    kube.server()
        .store()
        .create(ResourceType.APACHE_SPARK_APPLICATION, NS, apacheApp("spark.apache.org/v1", "pi"));

    Run run = kubectl("get", "sparkapp.spark.apache.org", "pi", "-o", "jsonpath={.metadata.name}");

    assertThat(run.err()).isEmpty();
    assertThat(run.out()).isEqualTo("pi");
  }

  /**
   * {@code kubectl get} asks for a server-side {@code Table} and prints the CRD's {@code
   * additionalPrinterColumns}: the Kubeflow operator's SUSPEND, STATUS, ATTEMPTS, START, FINISH, as
   * against a real cluster.
   */
  @Test
  void getPrintsTheCrdsPrinterColumns() throws Exception {
    kube.server()
        .store()
        .create(
            ResourceType.KUBEFLOW_SPARK_APPLICATION,
            NS,
            Kube.json(
                "{'apiVersion':'sparkoperator.k8s.io/v1beta2','kind':'SparkApplication',"
                    + "'metadata':{'name':'pi'},'spec':{'type':'Scala','mode':'cluster'},"
                    + "'status':{'applicationState':{'state':'RUNNING'},'executionAttempts':1}}"));

    Run run = kubectl("get", "sparkapplications.sparkoperator.k8s.io");

    // Empty cells (no suspend, start or finish yet) print as blanks; the age is 0s by the server's
    // fixed clock.

    assertThat(run.err()).isEmpty();
    assertThat(run.out().lines().toList().get(0))
        .matches("NAME +SUSPEND +STATUS +ATTEMPTS +START +FINISH +AGE");
    assertThat(run.out().lines().toList().get(1)).matches("pi +RUNNING +1 +0s");
  }

  /**
   * {@code kubectl describe pod} lists the pod's events, which it finds with a field selector on
   * {@code involvedObject}, as on a real cluster.
   */
  @Test
  void describeShowsThePodsEvents() throws Exception {
    JsonObject pod =
        kube.server()
            .store()
            .create(
                ResourceType.POD,
                NS,
                Kube.json(
                    "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'pi-driver'},"
                        + "'spec':{'containers':[{'name':'spark-kubernetes-driver','image':'spark'}]}}"));
    kube.server()
        .store()
        .create(
            ResourceType.EVENT,
            NS,
            dev.kubejobs.testkit.fixtures.EventBuilder.about(pod)
                .warning("FailedScheduling", "0/3 nodes are available: 3 Insufficient cpu.")
                .reportedBy("default-scheduler")
                .at(java.time.Instant.parse("2026-03-01T10:00:00Z"))
                .build());

    Run run = kubectl("describe", "pod", "pi-driver");

    assertThat(run.err()).isEmpty();
    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .containsPattern(
            "(?m)^  Warning +FailedScheduling +\\S+ +default-scheduler +0/3 nodes are available: 3"
                + " Insufficient cpu\\.$");
  }

  /** Writes an Apache SparkApplication manifest for {@code kubectl -f}. */
  private static Path manifest(String name, String mainClass) throws IOException {
    Path file = home.resolve(name + ".yaml");
    Files.writeString(
        file,
        String.join(
            "\n",
            "apiVersion: spark.apache.org/v1",
            "kind: SparkApplication",
            "metadata:",
            "  name: " + name,
            "spec:",
            "  mainClass: " + mainClass,
            "  runtimeVersions:",
            "    sparkVersion: 4.0.0",
            ""));
    return file;
  }

  /**
   * {@code kubectl create --dry-run=server} sends {@code dryRun=All}; the server answers the object
   * as created and stores nothing, and kubectl prints "created (server dry run)".
   */
  @Test
  void createWithServerDryRunStoresNothing() throws Exception {
    Path file = manifest("pi", "org.example.Pi");

    Run run = kubectl("create", "--dry-run=server", "--validate=false", "-f", file.toString());

    assertThat(run.err()).isEmpty();
    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .isEqualTo("sparkapplication.spark.apache.org/pi created (server dry run)\n");
    assertThat(kube.server().store().list(ResourceType.APACHE_SPARK_APPLICATION, NS)).isEmpty();
  }

  /**
   * {@code kubectl diff -f} patches with {@code dryRun=All} and diffs the answer against the live
   * object: it exits 1 and shows the changed field, and the stored object is unchanged.
   */
  @Test
  void diffShowsTheChangeAServerDryRunWouldMake() throws Exception {
    Assumptions.assumeTrue(
        onPath("diff"), "no diff program on the PATH, which kubectl diff runs: test skipped");
    kube.server()
        .store()
        .create(ResourceType.APACHE_SPARK_APPLICATION, NS, apacheApp("spark.apache.org/v1", "pi"));
    Path file = manifest("pi", "org.example.Changed");

    Run run = kubectl("diff", "-f", file.toString());

    assertThat(run.err()).isEmpty();
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out())
        .containsPattern("(?m)^-  mainClass: org.example.Pi$")
        .containsPattern("(?m)^\\+  mainClass: org.example.Changed$");
    assertThat(
            kube.server()
                .store()
                .get(ResourceType.APACHE_SPARK_APPLICATION, NS, "pi")
                .orElseThrow()
                .getAsJsonObject("spec")
                .get("mainClass")
                .getAsString())
        .isEqualTo("org.example.Pi");
  }

  /**
   * Plain {@code kubectl create -f} (validation on, the default {@code --validate=strict}) reads
   * {@code /openapi/v3} and the group version's document to learn that the server takes {@code
   * fieldValidation} (cli-runtime {@code resource/query_param_verifier_v3.go}), then creates with
   * {@code fieldValidation=Strict}; without OpenAPI it failed with "failed to download openapi".
   */
  @Test
  void createWithValidationReadsTheOpenApiDocument() throws Exception {
    Run run = kubectl("create", "-f", manifest("pi", "org.example.Pi").toString());

    assertThat(run.err()).isEmpty();
    assertThat(run.exit()).isZero();
    assertThat(run.out()).isEqualTo("sparkapplication.spark.apache.org/pi created\n");
    assertThat(kube.server().store().get(ResourceType.APACHE_SPARK_APPLICATION, NS, "pi"))
        .isPresent();
  }

  /**
   * Client-side {@code kubectl apply -f}: the first run creates the object with the {@code
   * kubectl.kubernetes.io/last-applied-configuration} annotation; the second, with a changed field,
   * sends a JSON merge patch (the document offers no strategic merge patch for a custom resource)
   * and prints "configured".
   */
  @Test
  void applyCreatesThenPatchesWithTheLastAppliedConfiguration() throws Exception {
    Run first = kubectl("apply", "-f", manifest("pi", "org.example.Pi").toString());
    Run second = kubectl("apply", "-f", manifest("pi", "org.example.Changed").toString());

    assertThat(first.err()).isEmpty();
    assertThat(first.out()).isEqualTo("sparkapplication.spark.apache.org/pi created\n");
    assertThat(second.err()).isEmpty();
    assertThat(second.exit()).isZero();
    assertThat(second.out()).isEqualTo("sparkapplication.spark.apache.org/pi configured\n");
    JsonObject stored =
        kube.server().store().get(ResourceType.APACHE_SPARK_APPLICATION, NS, "pi").orElseThrow();
    assertThat(stored.getAsJsonObject("spec").get("mainClass").getAsString())
        .isEqualTo("org.example.Changed");
    assertThat(
            stored
                .getAsJsonObject("metadata")
                .getAsJsonObject("annotations")
                .get("kubectl.kubernetes.io/last-applied-configuration")
                .getAsString())
        .contains("org.example.Changed");
  }

  /**
   * {@code kubectl explain sparkapplications.spec} renders the CRD's schema from the OpenAPI v3
   * document: the field's kind, its fields with their types, and the required ones marked.
   */
  @Test
  void explainShowsTheCrdsSchema() throws Exception {
    Run run = kubectl("explain", "sparkapplications.spark.apache.org.spec");

    assertThat(run.err()).isEmpty();
    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .containsPattern("(?m)^KIND: +SparkApplication$")
        .containsPattern("(?m)^VERSION: +v1$")
        .containsPattern("(?m)^FIELD: spec <Object>$")
        .containsPattern("(?m)^  mainClass\\t<string>$")
        .containsPattern("(?m)^  runtimeVersions\\t<Object> -required-$");
  }

  /** {@code kubectl explain pods.spec.containers} renders the fixed core subset's pod schema. */
  @Test
  void explainShowsThePodSchemaOfTheCoreSubset() throws Exception {
    Run run = kubectl("explain", "pods.spec.containers");

    assertThat(run.err()).isEmpty();
    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .containsPattern("(?m)^KIND: +Pod$")
        .containsPattern("(?m)^FIELD: containers <\\[\\]Object>$")
        .containsPattern("(?m)^  image\\t<string>$")
        .containsPattern("(?m)^  name\\t<string> -required-$");
  }

  /**
   * {@code kubectl get pods} prints the server's pod Table: READY, STATUS, RESTARTS and AGE as
   * {@code printPod} computes them (see PodTableTest), and {@code -o wide} adds IP and NODE.
   */
  @Test
  void getPodsPrintsReadyStatusAndRestarts() throws Exception {
    kube.server()
        .store()
        .create(
            ResourceType.POD,
            NS,
            Kube.json(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'pi-driver'},"
                    + "'spec':{'nodeName':'node-1','containers':[{'name':'spark-kubernetes-driver','image':'spark'}]},"
                    + "'status':{'phase':'Running','podIPs':[{'ip':'10.0.0.7'}],'containerStatuses':"
                    + "[{'name':'spark-kubernetes-driver','ready':true,'restartCount':0,"
                    + "'state':{'running':{}}}]}}"));

    Run run = kubectl("get", "pods");
    Run wide = kubectl("get", "pods", "-o", "wide");

    assertThat(run.err()).isEmpty();
    assertThat(run.out().lines().toList())
        .containsExactly(
            "NAME        READY   STATUS    RESTARTS   AGE",
            "pi-driver   1/1     Running   0          0s");
    assertThat(wide.out().lines().toList().get(1))
        .matches("pi-driver +1/1 +Running +0 +0s +10\\.0\\.0\\.7 +node-1 +<none> +<none>");
  }

  /**
   * {@code kubectl auth can-i} posts its {@code SelfSubjectAccessReview} as {@code
   * application/vnd.kubernetes.protobuf} and accepts protobuf or JSON back; the fake decodes the
   * protobuf review and answers JSON. "yes" exits 0, "no" exits 1, by the server's RBAC rules.
   */
  @Test
  void authCanIAnswersByTheServersRules() throws Exception {
    kube.server().rbac().deny("delete", "spark.apache.org", "sparkapplications");

    Run create = kubectl("auth", "can-i", "create", "sparkapplications.spark.apache.org");
    Run delete = kubectl("auth", "can-i", "delete", "sparkapplications.spark.apache.org");
    Run logs = kubectl("auth", "can-i", "get", "pods", "--subresource=log");

    assertThat(create.err()).isEmpty();
    assertThat(create.exit()).isZero();
    assertThat(create.out()).isEqualTo("yes\n");
    assertThat(delete.exit()).isEqualTo(1);
    assertThat(delete.out()).isEqualTo("no\n");
    assertThat(logs.out()).isEqualTo("yes\n");
    assertThat(
            kube.server().journal().requests().stream()
                .filter(r -> r.path().endsWith("/selfsubjectaccessreviews"))
                .map(RecordedRequest::contentType)
                .distinct()
                .toList())
        .containsExactly("application/vnd.kubernetes.protobuf");
  }

  /**
   * {@code kubectl apply --server-side -f} sends an apply patch with {@code fieldManager=kubectl}
   * and prints "serverside-applied"; another manager's apply of a different value conflicts, and
   * kubectl prints the server's conflict.
   */
  @Test
  void serverSideApplyAppliesAndReportsConflicts() throws Exception {
    Run first =
        kubectl("apply", "--server-side", "-f", manifest("pi", "org.example.Pi").toString());
    Run conflict =
        kubectl(
            "apply",
            "--server-side",
            "--field-manager=ops",
            "-f",
            manifest("pi", "org.example.Other").toString());

    assertThat(first.err()).isEmpty();
    assertThat(first.exit()).isZero();
    assertThat(first.out()).isEqualTo("sparkapplication.spark.apache.org/pi serverside-applied\n");
    assertThat(conflict.exit()).isNotZero();
    assertThat(conflict.err()).contains("conflict with \"kubectl\": .spec.mainClass");
  }

  /** The one-container driver pod the logs tests read, with its log set. */
  private static void driverPodWithLog(String log) {
    kube.server()
        .store()
        .create(
            ResourceType.POD,
            NS,
            Kube.json(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'pi-driver'},"
                    + "'spec':{'containers':[{'name':'spark-kubernetes-driver','image':'spark'}]},"
                    + "'status':{'phase':'Running'}}"));
    kube.server().store().setPodLog(NS, "pi-driver", "spark-kubernetes-driver", log);
  }

  /**
   * {@code kubectl logs pi-driver} reads the pod to find its only container, then {@code GET
   * .../pods/pi-driver/log?container=spark-kubernetes-driver} and prints the text as it comes;
   * {@code --tail=1} sends {@code tailLines=1} and gets the last line only.
   */
  @Test
  void logsPrintsTheDriversLogAndItsTail() throws Exception {
    driverPodWithLog("Starting Spark\nPi is roughly 3.14\n");

    Run all = kubectl("logs", "pi-driver");
    Run tail = kubectl("logs", "pi-driver", "--tail=1");

    assertThat(all.err()).isEmpty();
    assertThat(all.exit()).isZero();
    assertThat(all.out()).isEqualTo("Starting Spark\nPi is roughly 3.14\n");
    assertThat(tail.out()).isEqualTo("Pi is roughly 3.14\n");
    assertThat(kube.server().journal().requests("GET", ".*/pods/pi-driver/log"))
        .extracting(r -> r.queryParameter("container"))
        .containsOnly("spark-kubernetes-driver");
  }

  /**
   * {@code kubectl get sparkapplications -w} lists (a Table, with the CRD's printer columns), then
   * keeps a watch open and prints a line for each change, as against a real server: here the
   * application created while it watches.
   */
  @Test
  void getWithWatchPrintsTheListThenEachNewApplication() throws Exception {
    kube.server()
        .store()
        .create(ResourceType.APACHE_SPARK_APPLICATION, NS, apacheApp("spark.apache.org/v1", "pi"));
    Path out = home.resolve("watch-out.txt");
    Process process = start(out, "get", "sparkapplications.spark.apache.org", "-w");
    try {
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.readString(out).lines().anyMatch(l -> l.startsWith("pi ")));
      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> kube.server().openWatches() == 1);

      kube.server()
          .store()
          .create(
              ResourceType.APACHE_SPARK_APPLICATION, NS, apacheApp("spark.apache.org/v1", "pi-2"));

      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.readString(out).lines().anyMatch(l -> l.startsWith("pi-2 ")));
      assertThat(Files.readString(out).lines().toList().get(0)).startsWith("NAME ");
      assertThat(process.isAlive()).as("kubectl still watching").isTrue();
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> kube.server().openWatches() == 0);
  }

  /** Starts kubectl in the background, its standard output (and error) going to {@code out}. */
  private static Process start(Path out, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(kubectl.toString());
    command.add("--kubeconfig=" + home.resolve("config"));
    command.add("--cache-dir=" + home.resolve("cache"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("HOME", home.toString());
    builder.redirectErrorStream(true);
    builder.redirectOutput(out.toFile());
    return builder.start();
  }
}
