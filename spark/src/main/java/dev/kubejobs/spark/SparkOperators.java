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

import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.spark.internal.ApacheJobKind;
import dev.kubejobs.spark.internal.KubeflowJobKind;
import java.util.Objects;

/**
 * The job kinds of the two Spark operators kubejobs speaks to: the Apache Spark Kubernetes Operator
 * ({@code spark.apache.org/v1}) and the Kubeflow Spark operator ({@code
 * sparkoperator.k8s.io/v1beta2}). Each kind builds the SparkApplication for a {@link SparkJobSpec},
 * maps its status (DESIGN.md section 4) and finds its driver pod.
 *
 * <p>This class only holds factories. The kinds it returns are immutable and thread safe.
 */
public final class SparkOperators {
  private SparkOperators() {}

  /**
   * Returns the Apache Spark Kubernetes Operator kind with the {@link ApacheOptions#ofDefaults()
   * defaults}: API version {@code v1}, restart policy Never, no-status timeout 10 minutes.
   *
   * @return the job kind
   */
  public static JobKind<SparkJobSpec> apache() {
    return apache(ApacheOptions.ofDefaults());
  }

  /**
   * Returns the Apache Spark Kubernetes Operator kind with the given options.
   *
   * @param options the options
   * @return the job kind
   */
  public static JobKind<SparkJobSpec> apache(ApacheOptions options) {
    return new ApacheJobKind(Objects.requireNonNull(options, "options"));
  }

  /**
   * Returns the Kubeflow Spark operator kind with the {@link KubeflowOptions#ofDefaults()
   * defaults}: restart policy Never, no-status timeout 10 minutes.
   *
   * @return the job kind
   */
  public static JobKind<SparkJobSpec> kubeflow() {
    return kubeflow(KubeflowOptions.ofDefaults());
  }

  /**
   * Returns the Kubeflow Spark operator kind with the given options.
   *
   * @param options the options
   * @return the job kind
   */
  public static JobKind<SparkJobSpec> kubeflow(KubeflowOptions options) {
    return new KubeflowJobKind(Objects.requireNonNull(options, "options"));
  }
}
