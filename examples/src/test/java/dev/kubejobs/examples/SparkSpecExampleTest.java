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
package dev.kubejobs.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spec and job kinds the spark module's README shows, quoted between the {@code --8<--} markers
 * ({@code DocsTest} checks the quote): the comments naming each kind's API are true.
 */
class SparkSpecExampleTest {

  @Test
  void theReadmesSpecAndKindsAreWhatItsCommentsSay() {
    // --8<-- [start:spark-spec]
    SparkJobSpec spec =
        SparkJobSpec.builder()
            .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
            .mainClass("org.apache.spark.examples.SparkPi")
            .arguments(List.of("1000"))
            .sparkVersion("4.0.1")
            .image("apache/spark:4.0.1")
            .namespace("etl")
            .executorInstances(4)
            .build();

    JobKind<SparkJobSpec> apache = SparkOperators.apache(); // spark.apache.org/v1
    JobKind<SparkJobSpec> legacy = // operators 0.3-0.4
        SparkOperators.apache(
            ApacheOptions.builder().apiVersion(ApacheOptions.ApiVersion.V1BETA1).build());
    JobKind<SparkJobSpec> kubeflow = SparkOperators.kubeflow(); // sparkoperator.k8s.io/v1beta2
    // --8<-- [end:spark-spec]

    assertThat(spec.namespace()).isEqualTo("etl");
    assertThat(apache.resourceKind().group() + "/" + apache.resourceKind().version())
        .isEqualTo("spark.apache.org/v1");
    assertThat(legacy.resourceKind().version()).isEqualTo("v1beta1");
    assertThat(kubeflow.resourceKind().group() + "/" + kubeflow.resourceKind().version())
        .isEqualTo("sparkoperator.k8s.io/v1beta2");
  }
}
