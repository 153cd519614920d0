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

import dev.kubejobs.spark.ApacheOptions.ApiVersion;
import dev.kubejobs.testkit.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * The testkit's constants for the Spark operators' resources are the resources the Spark kinds read
 * and write, so a test that registers {@code ResourceType.APACHE_SPARK_APPLICATION} serves what
 * {@code SparkOperators.apache()} asks for.
 */
class ServedResourceTypesTest {

  @Test
  void theTestkitConstantsAreTheSparkKindsResources() {
    assertThat(ResourceType.of(SparkOperators.apache().resourceKind()))
        .isEqualTo(ResourceType.APACHE_SPARK_APPLICATION);
    assertThat(
            ResourceType.of(
                SparkOperators.apache(
                        ApacheOptions.builder().apiVersion(ApiVersion.V1BETA1).build())
                    .resourceKind()))
        .isEqualTo(ResourceType.APACHE_SPARK_APPLICATION_V1BETA1);
    assertThat(ResourceType.of(SparkOperators.kubeflow().resourceKind()))
        .isEqualTo(ResourceType.KUBEFLOW_SPARK_APPLICATION);
  }
}
