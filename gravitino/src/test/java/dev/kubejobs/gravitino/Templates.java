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

import java.util.List;
import java.util.Map;
import org.apache.gravitino.job.SparkJobTemplate;

/** Job templates the executor tests run. */
final class Templates {
  private Templates() {}

  /** SparkPi as a Gravitino user would register it, in namespace {@code gravitino-jobs}. */
  static SparkJobTemplate sparkPi() {
    return SparkJobTemplate.builder()
        .withName("spark-pi")
        .withComment("Computes pi")
        .withExecutable("local:///opt/spark/examples/jars/spark-examples.jar")
        .withClassName("org.apache.spark.examples.SparkPi")
        .withArguments(List.of("1000"))
        .withEnvironments(Map.of("SPARK_LOG_LEVEL", "WARN"))
        .withConfigs(Map.of("spark.executor.instances", "2", "spark.sql.shuffle.partitions", "8"))
        .withCustomFields(Map.of("kubejobs.namespace", "gravitino-jobs"))
        .build();
  }
}
