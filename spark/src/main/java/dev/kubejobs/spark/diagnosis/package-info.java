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
 * The Spark operators' own diagnosis rules, to add to a {@link
 * dev.kubejobs.core.diagnosis.Diagnoser}: the Kubeflow operator's {@code errorMessage} (spark-submit's
 * stderr) and the Apache operator's state history with its last observed driver status. See
 * {@link dev.kubejobs.spark.diagnosis.SparkDiagnosisRules}.
 */
package dev.kubejobs.spark.diagnosis;
