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

import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.spark.SparkJobSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.gravitino.job.JobHandle;
import org.apache.gravitino.job.SparkJobTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The Gravitino mapping of every template field and every status. */
class GravitinoMappingTest {
  static final GravitinoMapping.Defaults DEFAULTS =
      new GravitinoMapping.Defaults("default-ns", "4.0.1", "apache/spark:4.0.1");

  @Test
  void everyTemplateFieldLandsInTheSpec() {
    Map<String, String> configs = new LinkedHashMap<>();
    configs.put("spark.driver.cores", "2");
    configs.put("spark.driver.memory", "3g");
    configs.put("spark.executor.cores", "4");
    configs.put("spark.executor.memory", "5g");
    configs.put("spark.executor.instances", "6");
    configs.put("spark.sql.shuffle.partitions", "8");
    SparkJobTemplate template =
        SparkJobTemplate.builder()
            .withName("nightly-etl")
            .withComment("not sent")
            .withExecutable("s3a://bucket/etl.jar")
            .withClassName("com.example.Etl")
            .withJars(List.of("s3a://bucket/dep1.jar", "s3a://bucket/dep2.jar"))
            .withFiles(List.of("s3a://bucket/app.conf"))
            .withArchives(List.of("s3a://bucket/env.tgz"))
            .withArguments(List.of("--date", "2026-12-01"))
            .withEnvironments(Map.of("TZ", "UTC"))
            .withConfigs(configs)
            .withCustomFields(Map.of("note", "ignored by kubejobs"))
            .build();

    SparkJobSpec spec = GravitinoMapping.toSpec(template, DEFAULTS);

    assertThat(spec.type()).isEqualTo(SparkJobSpec.Type.JAVA);
    assertThat(spec.mainApplicationFile()).isEqualTo("s3a://bucket/etl.jar");
    assertThat(spec.mainClass()).contains("com.example.Etl");
    assertThat(spec.jars()).containsExactly("s3a://bucket/dep1.jar", "s3a://bucket/dep2.jar");
    assertThat(spec.files()).containsExactly("s3a://bucket/app.conf");
    assertThat(spec.archives()).containsExactly("s3a://bucket/env.tgz");
    assertThat(spec.arguments()).containsExactly("--date", "2026-12-01");
    assertThat(spec.environment()).containsExactly(Map.entry("TZ", "UTC"));
    assertThat(spec.driverCores()).isEqualTo(2);
    assertThat(spec.driverMemory()).isEqualTo("3g");
    assertThat(spec.executorCores()).isEqualTo(4);
    assertThat(spec.executorMemory()).isEqualTo("5g");
    assertThat(spec.executorInstances()).isEqualTo(6);
    assertThat(spec.sparkConf()).containsExactly(Map.entry("spark.sql.shuffle.partitions", "8"));
    assertThat(spec.annotations())
        .containsExactly(Map.entry(GravitinoMapping.TEMPLATE_ANNOTATION, "nightly-etl"));
    assertThat(spec.namespace()).isEqualTo("default-ns");
    assertThat(spec.sparkVersion()).isEqualTo("4.0.1");
    assertThat(spec.image()).contains("apache/spark:4.0.1");
    assertThat(spec.serviceAccount()).isEmpty();
    assertThat(spec.toString()).doesNotContain("not sent");
  }

  @Test
  void namespaceAndImageComeFromConfigsOrCustomFieldsCustomFieldsWinning() {
    SparkJobTemplate fromConfigs =
        template()
            .withConfigs(
                Map.of(
                    "spark.kubernetes.namespace", "etl",
                    "spark.kubernetes.container.image", "repo/spark:1"))
            .build();
    SparkJobTemplate fromFields =
        template()
            .withConfigs(Map.of("spark.kubernetes.namespace", "etl"))
            .withCustomFields(
                Map.of(
                    GravitinoMapping.NAMESPACE_FIELD, "ml",
                    GravitinoMapping.IMAGE_FIELD, "repo/spark:2",
                    GravitinoMapping.SERVICE_ACCOUNT_FIELD, "spark-driver",
                    GravitinoMapping.SPARK_VERSION_FIELD, "3.5.7"))
            .build();

    SparkJobSpec a = GravitinoMapping.toSpec(fromConfigs, DEFAULTS);
    SparkJobSpec b = GravitinoMapping.toSpec(fromFields, DEFAULTS);

    assertThat(a.namespace()).isEqualTo("etl");
    assertThat(a.image()).contains("repo/spark:1");
    assertThat(a.sparkConf()).isEmpty();
    assertThat(b.namespace()).isEqualTo("ml");
    assertThat(b.image()).contains("repo/spark:2");
    assertThat(b.serviceAccount()).contains("spark-driver");
    assertThat(b.sparkVersion()).isEqualTo("3.5.7");
  }

  @Test
  void aPythonExecutableMakesAPythonSpecWithoutMainClass() {
    SparkJobSpec spec =
        GravitinoMapping.toSpec(
            SparkJobTemplate.builder().withName("py").withExecutable("s3a://b/job.py").build(),
            DEFAULTS);

    assertThat(spec.type()).isEqualTo(SparkJobSpec.Type.PYTHON);
    assertThat(spec.mainClass()).isEmpty();
  }

  @Test
  void badValuesAreRefusedNamingTheField() {
    assertThatThrownBy(
            () ->
                GravitinoMapping.toSpec(
                    template().withConfigs(Map.of("spark.executor.instances", "many")).build(),
                    DEFAULTS))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("spark.executor.instances")
        .hasMessageContaining("many");
    assertThatThrownBy(
            () ->
                GravitinoMapping.toSpec(
                    template().withCustomFields(Map.of("kubejobs.namespce", "x")).build(),
                    DEFAULTS))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("kubejobs.namespce");
  }

  @ParameterizedTest
  @EnumSource(JobStatus.class)
  void everyStatusMapsToTheGravitinoStatusOfTheSameName(JobStatus status) {
    assertThat(GravitinoMapping.toGravitino(status).name()).isEqualTo(status.name());
  }

  @Test
  void everyGravitinoStatusIsReached() {
    assertThat(List.of(JobStatus.values()))
        .extracting(GravitinoMapping::toGravitino)
        .containsExactlyInAnyOrder(JobHandle.Status.values());
  }

  private static SparkJobTemplate.Builder template() {
    return SparkJobTemplate.builder()
        .withName("t")
        .withExecutable("local:///app.jar")
        .withClassName("A");
  }
}
