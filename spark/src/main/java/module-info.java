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
/**
 * kubejobs for Spark: {@code SparkJobSpec} and the job kinds of the Apache Spark Kubernetes
 * Operator and the Kubeflow Spark operator ({@code dev.kubejobs.spark}), and their diagnosis rules
 * ({@code dev.kubejobs.spark.diagnosis}). The kinds' implementation ({@code
 * dev.kubejobs.spark.internal}) is not exported.
 */
module dev.kubejobs.spark {
  requires transitive dev.kubejobs.core;

  exports dev.kubejobs.spark;
  exports dev.kubejobs.spark.diagnosis;
}
