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
package dev.kubejobs.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.spi.JobKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every manifest the builders produce validates against the real CRD's {@code openAPIV3Schema} of
 * the served version (made strict about unknown fields, see {@link CrdSchemas}), and carries the
 * job identity's metadata.
 */
class ManifestSchemaTest {
  private static final String LONG_JOB_ID =
      "Nightly ETL / customer_orders / 2026-03-01T10:00:00Z / attempt #3 of a very long pipeline";

  /** A dozen varied specs: Java, Scala, Python, with and without deps, confs, env and labels. */
  static List<SparkJobSpec> specs() {
    SparkJobSpec base =
        SparkJobSpec.builder()
            .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
            .mainClass("org.apache.spark.examples.SparkPi")
            .sparkVersion("4.0.1")
            .namespace("etl")
            .build();
    List<SparkJobSpec> out = new ArrayList<>();
    out.add(base);
    out.add(base.toBuilder().arguments(List.of("1000")).image("apache/spark:4.0.1").build());
    out.add(base.toBuilder().mainClass(null).build());
    out.add(
        base.toBuilder()
            .type(SparkJobSpec.Type.SCALA)
            .jars(List.of("s3a://libs/delta.jar", "s3a://libs/extra.jar"))
            .files(List.of("s3a://conf/app.conf"))
            .archives(List.of("s3a://env/venv.tar.gz#venv"))
            .sparkConf(
                Map.of(
                    "spark.sql.shuffle.partitions", "200",
                    "spark.hadoop.fs.s3a.secret.key", "hunter2"))
            .build());
    out.add(
        base.toBuilder()
            .driverCores(4)
            .driverMemory("8g")
            .executorCores(8)
            .executorMemory("16g")
            .executorInstances(50)
            .serviceAccount("spark-runner")
            .build());
    out.add(
        base.toBuilder()
            .environment("AWS_REGION", "eu-west-1")
            .environment("LOG_LEVEL", "DEBUG")
            .label("team", "data-platform")
            .label("example.com/cost-center", "cc-42")
            .annotation("example.com/owner", "someone@example.com")
            .build());
    SparkJobSpec python =
        SparkJobSpec.builder()
            .type(SparkJobSpec.Type.PYTHON)
            .mainApplicationFile("local:///opt/spark/examples/src/main/python/pi.py")
            .sparkVersion("4.0.1")
            .namespace("etl")
            .build();
    out.add(python);
    out.add(
        python.toBuilder()
            .pyFiles(List.of("s3a://libs/helpers.zip", "s3a://libs/more.py"))
            .jars(List.of("s3a://libs/postgres.jar"))
            .arguments(List.of("--date", "2026-03-01"))
            .build());
    out.add(
        python.toBuilder()
            .environment("PYSPARK_PYTHON", "python3")
            .files(List.of("s3a://conf/a.json", "s3a://conf/b.json"))
            .sparkConf("spark.dynamicAllocation.enabled", "false")
            .build());
    out.add(base.toBuilder().namespace("a".repeat(63)).build());
    out.add(base.toBuilder().sparkVersion("3.5.6").executorInstances(1).build());
    out.add(
        base.toBuilder()
            .labels(Map.of("app", "orders", "tier", ""))
            .annotations(Map.of("note", "multi\nline ✓"))
            .arguments(List.of("", "with space", "ünïcödé"))
            .build());
    return out;
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    List<SparkJobSpec> specs = specs();
    List<String> jobIds = List.of("job-1", LONG_JOB_ID);
    for (int i = 0; i < specs.size(); i++) {
      SparkJobSpec spec = specs.get(i);
      String jobId = jobIds.get(i % 2);
      out.add(
          Arguments.of(
              "apache v1 #" + i, SparkOperators.apache(), CrdSchemas.APACHE, "v1", spec, jobId));
      if (i % 2 == 0) {
        out.add(
            Arguments.of(
                "apache v1 retained #" + i,
                SparkOperators.apache(
                    ApacheOptions.builder()
                        .resourceRetainPolicy(ApacheOptions.ResourceRetainPolicy.ALWAYS)
                        .resourceRetainDuration(Duration.ofDays(1))
                        .build()),
                CrdSchemas.APACHE,
                "v1",
                spec,
                jobId));
      }
      if (i % 3 == 0) {
        out.add(
            Arguments.of(
                "apache v1 timeouts and ttl #" + i,
                SparkOperators.apache(
                    ApacheOptions.builder()
                        .driverStartTimeout(Duration.ofSeconds(20))
                        .driverReadyTimeout(Duration.ofMinutes(2))
                        .executorStartTimeout(Duration.ofMillis(1))
                        .ttlAfterStop(Duration.ofHours(1))
                        .build()),
                CrdSchemas.APACHE,
                "v1",
                spec,
                jobId));
        out.add(
            Arguments.of(
                "apache v1beta1 timeouts #" + i,
                SparkOperators.apache(
                    ApacheOptions.builder()
                        .apiVersion(ApacheOptions.ApiVersion.V1BETA1)
                        .driverStartTimeout(Duration.ofSeconds(20))
                        .build()),
                CrdSchemas.APACHE,
                "v1beta1",
                spec,
                jobId));
      }
      out.add(
          Arguments.of(
              "apache v1beta1 #" + i,
              SparkOperators.apache(
                  ApacheOptions.builder()
                      .apiVersion(ApacheOptions.ApiVersion.V1BETA1)
                      .restartPolicy(ApacheOptions.RestartPolicy.values()[i % 4])
                      .resourceRetainPolicy(ApacheOptions.ResourceRetainPolicy.values()[i % 3])
                      .build()),
              CrdSchemas.APACHE,
              "v1beta1",
              spec,
              jobId));
      out.add(
          Arguments.of(
              "kubeflow #" + i,
              SparkOperators.kubeflow(
                  KubeflowOptions.builder()
                      .restartPolicy(KubeflowOptions.RestartPolicy.values()[i % 3])
                      .build()),
              CrdSchemas.KUBEFLOW,
              "v1beta2",
              spec,
              jobId));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void manifestValidatesAgainstTheCrdAndCarriesTheIdentity(
      String name,
      JobKind<SparkJobSpec> kind,
      String crd,
      String version,
      SparkJobSpec spec,
      String jobId) {
    JobIdentity identity = JobIdentity.of("kj", "prod", spec.namespace(), jobId);

    JsonObject manifest = kind.manifest(spec, identity);

    assertThat(CrdSchemas.servedVersions(crd)).contains(version);
    assertThat(CrdSchemas.validate(crd, version, manifest)).isEmpty();
    assertThat(manifest.get("apiVersion").getAsString())
        .isEqualTo(kind.resourceKind().apiVersion())
        .endsWith("/" + version);
    assertThat(manifest.get("kind").getAsString()).isEqualTo("SparkApplication");
    JsonObject metadata = manifest.getAsJsonObject("metadata");
    String resourceName = metadata.get("name").getAsString();
    assertThat(resourceName).isEqualTo(identity.name()).hasSizeLessThanOrEqualTo(63);
    assertThat(metadata.get("namespace").getAsString()).isEqualTo(spec.namespace());
    JsonObject labels = metadata.getAsJsonObject("labels");
    identity.labels().forEach((k, v) -> assertThat(labels.get(k).getAsString()).isEqualTo(v));
    spec.labels().forEach((k, v) -> assertThat(labels.get(k).getAsString()).isEqualTo(v));
    for (Map.Entry<String, JsonElement> e : labels.entrySet()) {
      assertThat(e.getValue().getAsString()).hasSizeLessThanOrEqualTo(63);
    }
    JsonObject annotations = metadata.getAsJsonObject("annotations");
    assertThat(annotations.get(JobIdentity.ANNOTATION_JOB_ID).getAsString()).isEqualTo(jobId);
    assertThat(annotations.has(JobIdentity.ANNOTATION_CANCEL_REQUESTED)).isFalse();
    for (JsonObject podLabels : podLabels(manifest, crd)) {
      identity.labels().forEach((k, v) -> assertThat(podLabels.get(k).getAsString()).isEqualTo(v));
      spec.labels().forEach((k, v) -> assertThat(podLabels.get(k).getAsString()).isEqualTo(v));
    }
    if (crd.equals(CrdSchemas.APACHE)) {
      for (String role : List.of("driverSpec", "executorSpec")) {
        assertThat(
                manifest
                    .getAsJsonObject("spec")
                    .getAsJsonObject(role)
                    .getAsJsonObject("podTemplateSpec")
                    .get("spec"))
            .as("%s.podTemplateSpec has a pod spec", role)
            .isNotNull()
            .matches(JsonElement::isJsonObject);
      }
    }
  }

  private static List<JsonObject> podLabels(JsonObject manifest, String crd) {
    JsonObject spec = manifest.getAsJsonObject("spec");
    if (crd.equals(CrdSchemas.APACHE)) {
      return List.of(
          spec.getAsJsonObject("driverSpec")
              .getAsJsonObject("podTemplateSpec")
              .getAsJsonObject("metadata")
              .getAsJsonObject("labels"),
          spec.getAsJsonObject("executorSpec")
              .getAsJsonObject("podTemplateSpec")
              .getAsJsonObject("metadata")
              .getAsJsonObject("labels"));
    }
    return List.of(
        spec.getAsJsonObject("driver").getAsJsonObject("labels"),
        spec.getAsJsonObject("executor").getAsJsonObject("labels"));
  }

  @Test
  void strictSchemaRejectsAMisspeltField() {
    JsonObject manifest = SparkOperators.apache().manifest(specs().get(0), identity("job-1"));
    manifest.getAsJsonObject("spec").addProperty("mainClas", "x");
    JsonObject kubeflow = SparkOperators.kubeflow().manifest(specs().get(0), identity("job-1"));
    kubeflow.getAsJsonObject("spec").getAsJsonObject("driver").addProperty("cores", "1");

    assertThat(CrdSchemas.validate(CrdSchemas.APACHE, "v1", manifest)).isNotEmpty();
    assertThat(CrdSchemas.validate(CrdSchemas.KUBEFLOW, "v1beta2", kubeflow)).isNotEmpty();
  }

  @Test
  void apacheJavaManifestPutsTheAppJarFirstAndResourcesInSparkConf() {
    SparkJobSpec spec =
        specs().get(3).toBuilder().environment("A", "1").serviceAccount("sa").build();

    JsonObject s =
        SparkOperators.apache().manifest(spec, identity("job-1")).getAsJsonObject("spec");

    assertThat(s.get("jars").getAsString())
        .isEqualTo("local:///opt/spark/examples/jars/spark-examples.jar");
    assertThat(s.get("mainClass").getAsString()).isEqualTo("org.apache.spark.examples.SparkPi");
    assertThat(s.getAsJsonObject("runtimeVersions").get("sparkVersion").getAsString())
        .isEqualTo("4.0.1");
    assertThat(s.get("files").getAsString()).isEqualTo("s3a://conf/app.conf");
    JsonObject conf = s.getAsJsonObject("sparkConf");
    assertThat(conf.get("spark.jars").getAsString())
        .isEqualTo(
            "local:///opt/spark/examples/jars/spark-examples.jar,s3a://libs/delta.jar,"
                + "s3a://libs/extra.jar");
    assertThat(conf.get("spark.archives").getAsString()).isEqualTo("s3a://env/venv.tar.gz#venv");
    assertThat(conf.get("spark.driver.cores").getAsString()).isEqualTo("1");
    assertThat(conf.get("spark.executor.memory").getAsString()).isEqualTo("1g");
    assertThat(conf.get("spark.executor.instances").getAsString()).isEqualTo("1");
    assertThat(conf.get("spark.kubernetes.driverEnv.A").getAsString()).isEqualTo("1");
    assertThat(conf.get("spark.executorEnv.A").getAsString()).isEqualTo("1");
    assertThat(conf.get("spark.kubernetes.authenticate.driver.serviceAccountName").getAsString())
        .isEqualTo("sa");
    JsonObject tolerations = s.getAsJsonObject("applicationTolerations");
    assertThat(tolerations.getAsJsonObject("restartConfig").get("restartPolicy").getAsString())
        .isEqualTo("Never");
    assertThat(tolerations.get("resourceRetainPolicy").getAsString()).isEqualTo("Never");
  }

  /**
   * The field names are those of {@code spec.applicationTolerations} in the Apache operator's
   * {@code v1} CRD
   * (build-tools/helm/spark-kubernetes-operator/crds/sparkapplications.spark.apache.org-v1.yaml in
   * /work/shared/reference): {@code resourceRetainPolicy} (Always, Never, OnFailure) and {@code
   * resourceRetainDurationMillis} (integer, default -1), which the {@code v1beta1} schema lacks.
   */
  @Test
  void aResourceRetainDurationIsWrittenInMillisForV1AndRefusedWithV1beta1() {
    ApacheOptions day =
        ApacheOptions.builder()
            .resourceRetainPolicy(ApacheOptions.ResourceRetainPolicy.ALWAYS)
            .resourceRetainDuration(Duration.ofDays(1))
            .build();

    JsonObject tolerations =
        SparkOperators.apache(day)
            .manifest(specs().get(0), identity("job-1"))
            .getAsJsonObject("spec")
            .getAsJsonObject("applicationTolerations");

    assertThat(tolerations.get("resourceRetainPolicy").getAsString()).isEqualTo("Always");
    assertThat(tolerations.get("resourceRetainDurationMillis").getAsLong()).isEqualTo(86_400_000L);
    assertThat(
            SparkOperators.apache()
                .manifest(specs().get(0), identity("job-1"))
                .getAsJsonObject("spec")
                .getAsJsonObject("applicationTolerations")
                .has("resourceRetainDurationMillis"))
        .as("not written by default")
        .isFalse();
    assertThatThrownBy(() -> day.toBuilder().apiVersion(ApacheOptions.ApiVersion.V1BETA1).build())
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("resourceRetainDuration must not be set with apiVersion v1beta1");
    assertThatThrownBy(() -> ApacheOptions.builder().resourceRetainDuration(Duration.ofMillis(-1)))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("resourceRetainDuration must be zero or a positive duration");
  }

  /**
   * The operator hands each pod template to Spark's template loader, which throws a
   * NullPointerException on a template without {@code spec}: every job then ends in {@code
   * SchedulingFailure} before a driver exists, as the real operator 1.0.0 showed on the testkit's
   * fake API server. The CRD's schema allows such a template, so only this assertion (and the
   * real-operator suite, which has the operator build a driver from the manifest) can see it.
   */
  @Test
  void apachePodTemplatesCarryAPodSpec() {
    JsonObject s =
        SparkOperators.apache().manifest(specs().get(5), identity("job-1")).getAsJsonObject("spec");

    for (String role : List.of("driverSpec", "executorSpec")) {
      JsonObject template = s.getAsJsonObject(role).getAsJsonObject("podTemplateSpec");
      assertThat(template.has("spec")).as(role).isTrue();
      assertThat(template.get("spec").isJsonObject()).as(role).isTrue();
    }
  }

  /**
   * The field names are those of {@code spec.applicationTolerations} in the Apache operator's
   * {@code v1} CRD (sparkapplications.spark.apache.org-v1.yaml of the operator 1.0.0's Helm chart,
   * in /work/shared/real-operators): {@code applicationTimeoutConfig.driverStartTimeoutMillis},
   * {@code driverReadyTimeoutMillis}, {@code executorStartTimeoutMillis} (in {@code v1} and {@code
   * v1beta1}) and {@code ttlAfterStopMillis} (integer, default -1, {@code v1} only).
   */
  @Test
  void operatorTimeoutsAndTtlAreWrittenInMillisOnlyWhenSet() {
    ApacheOptions options =
        ApacheOptions.builder()
            .driverStartTimeout(Duration.ofSeconds(20))
            .driverReadyTimeout(Duration.ofMinutes(2))
            .executorStartTimeout(Duration.ofMillis(1500))
            .ttlAfterStop(Duration.ZERO)
            .build();

    JsonObject tolerations =
        SparkOperators.apache(options)
            .manifest(specs().get(0), identity("job-1"))
            .getAsJsonObject("spec")
            .getAsJsonObject("applicationTolerations");
    JsonObject onlyStart =
        SparkOperators.apache(
                ApacheOptions.builder().driverStartTimeout(Duration.ofSeconds(7)).build())
            .manifest(specs().get(0), identity("job-1"))
            .getAsJsonObject("spec")
            .getAsJsonObject("applicationTolerations");
    JsonObject defaults =
        SparkOperators.apache()
            .manifest(specs().get(0), identity("job-1"))
            .getAsJsonObject("spec")
            .getAsJsonObject("applicationTolerations");

    JsonObject timeouts = tolerations.getAsJsonObject("applicationTimeoutConfig");
    assertThat(timeouts.get("driverStartTimeoutMillis").getAsLong()).isEqualTo(20_000L);
    assertThat(timeouts.get("driverReadyTimeoutMillis").getAsLong()).isEqualTo(120_000L);
    assertThat(timeouts.get("executorStartTimeoutMillis").getAsLong()).isEqualTo(1_500L);
    assertThat(tolerations.get("ttlAfterStopMillis").getAsLong()).isZero();
    assertThat(onlyStart.getAsJsonObject("applicationTimeoutConfig").keySet())
        .containsExactly("driverStartTimeoutMillis");
    assertThat(onlyStart.has("ttlAfterStopMillis")).isFalse();
    assertThat(defaults.has("applicationTimeoutConfig")).as("not written by default").isFalse();
    assertThat(defaults.has("ttlAfterStopMillis")).as("not written by default").isFalse();
    assertThat(options.toBuilder().build().toString())
        .contains("driverStartTimeout=PT20S", "ttlAfterStop=PT0S");
  }

  @Test
  void badOperatorTimeoutsAndTtlAreRefusedWithTheSettingNamed() {
    ApacheOptions.Builder b = ApacheOptions.builder();

    assertThatThrownBy(() -> b.driverStartTimeout(null))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("driverStartTimeout must be at least one millisecond");
    assertThatThrownBy(() -> b.driverStartTimeout(Duration.ZERO))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("driverStartTimeout must be at least one millisecond");
    assertThatThrownBy(() -> b.driverReadyTimeout(Duration.ofNanos(999_999)))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("driverReadyTimeout must be at least one millisecond");
    assertThatThrownBy(() -> b.executorStartTimeout(Duration.ofSeconds(-1)))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("executorStartTimeout must be at least one millisecond");
    assertThatThrownBy(() -> b.ttlAfterStop(Duration.ofMillis(-1)))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("ttlAfterStop must be zero or a positive duration");
    assertThatThrownBy(() -> b.ttlAfterStop(null))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("ttlAfterStop must be zero or a positive duration");
    assertThatThrownBy(
            () ->
                ApacheOptions.builder()
                    .ttlAfterStop(Duration.ofHours(1))
                    .apiVersion(ApacheOptions.ApiVersion.V1BETA1)
                    .build())
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("ttlAfterStop must not be set with apiVersion v1beta1");
    assertThat(
            ApacheOptions.builder()
                .apiVersion(ApacheOptions.ApiVersion.V1BETA1)
                .driverStartTimeout(Duration.ofMillis(1))
                .build()
                .driverStartTimeout())
        .contains(Duration.ofMillis(1));
  }

  @Test
  void apachePythonManifestNeverSetsJarsSoThePyFileIsThePrimaryResource() {
    SparkJobSpec spec = specs().get(7);

    JsonObject s =
        SparkOperators.apache().manifest(spec, identity("job-1")).getAsJsonObject("spec");

    assertThat(s.has("jars")).isFalse();
    assertThat(s.has("mainClass")).isFalse();
    assertThat(s.get("pyFiles").getAsString())
        .isEqualTo("local:///opt/spark/examples/src/main/python/pi.py");
    JsonObject conf = s.getAsJsonObject("sparkConf");
    assertThat(conf.get("spark.submit.pyFiles").getAsString())
        .isEqualTo("s3a://libs/helpers.zip,s3a://libs/more.py");
    assertThat(conf.get("spark.jars").getAsString()).isEqualTo("s3a://libs/postgres.jar");
    assertThat(s.getAsJsonArray("driverArgs")).hasSize(2);
  }

  @Test
  void kubeflowManifestUsesTypedFields() {
    SparkJobSpec spec =
        specs().get(7).toBuilder()
            .environment("A", "1")
            .serviceAccount("sa")
            .driverCores(2)
            .build();

    JsonObject s =
        SparkOperators.kubeflow().manifest(spec, identity("job-1")).getAsJsonObject("spec");

    assertThat(s.get("type").getAsString()).isEqualTo("Python");
    assertThat(s.get("mode").getAsString()).isEqualTo("cluster");
    assertThat(s.get("sparkVersion").getAsString()).isEqualTo("4.0.1");
    assertThat(s.get("mainApplicationFile").getAsString()).endsWith("pi.py");
    assertThat(s.getAsJsonObject("deps").getAsJsonArray("pyFiles")).hasSize(2);
    assertThat(s.getAsJsonObject("deps").getAsJsonArray("jars")).hasSize(1);
    JsonObject driver = s.getAsJsonObject("driver");
    assertThat(driver.get("cores").getAsInt()).isEqualTo(2);
    assertThat(driver.get("memory").getAsString()).isEqualTo("1g");
    assertThat(driver.get("serviceAccount").getAsString()).isEqualTo("sa");
    assertThat(driver.getAsJsonArray("env").get(0).getAsJsonObject().get("name").getAsString())
        .isEqualTo("A");
    assertThat(s.getAsJsonObject("executor").get("instances").getAsInt()).isEqualTo(1);
    assertThat(s.getAsJsonObject("restartPolicy").get("type").getAsString()).isEqualTo("Never");
    assertThat(s.getAsJsonArray("arguments")).hasSize(2);
  }

  @Test
  void identityInAnotherNamespaceThanTheSpecIsRefused() {
    SparkJobSpec spec = specs().get(0);

    assertThatThrownBy(
            () ->
                SparkOperators.apache().manifest(spec, JobIdentity.of("kj", "prod", "other", "j")))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("namespace")
        .hasMessageContaining("other");
  }

  @Test
  void kindsNameTheirResourceAndNamespace() {
    assertThat(SparkOperators.apache().resourceKind().qualifiedPlural())
        .isEqualTo("sparkapplications.spark.apache.org");
    assertThat(SparkOperators.apache().resourceKind().version()).isEqualTo("v1");
    assertThat(
            SparkOperators.apache(
                    ApacheOptions.builder().apiVersion(ApacheOptions.ApiVersion.V1BETA1).build())
                .resourceKind()
                .apiVersion())
        .isEqualTo("spark.apache.org/v1beta1");
    assertThat(SparkOperators.kubeflow().resourceKind().apiVersion())
        .isEqualTo("sparkoperator.k8s.io/v1beta2");
    assertThat(SparkOperators.kubeflow().namespaceOf(specs().get(0))).isEqualTo("etl");
  }

  private static JobIdentity identity(String jobId) {
    return JobIdentity.of("kj", "prod", "etl", jobId);
  }
}
