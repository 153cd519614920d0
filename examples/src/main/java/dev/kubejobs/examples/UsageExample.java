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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;

/**
 * The usage snippet quoted in the README (between the {@code --8<--} markers; {@code
 * ReadmeTest.usageSnippetIsQuotedVerbatim} checks the quote), run by {@code UsageExampleTest}
 * against the fake API server and fake operator.
 */
public final class UsageExample {
  private UsageExample() {}

  /**
   * Submits SparkPi, reads its status and cancels it.
   *
   * @param apiClient the caller's client
   * @return what the cancel did
   */
  // --8<-- [start:usage]
  public static CancelResult usage(ApiClient apiClient) {
    KubeJobs<SparkJobSpec> jobs =
        KubeJobs.builder(apiClient, SparkOperators.apache()) // or SparkOperators.kubeflow()
            .cluster("prod") // written into every ExecutionId; the same on every node
            .deployment("gravitino-a") // separates deployments sharing a namespace
            .statusCacheTtl(Duration.ofSeconds(5)) // one LIST per namespace per 5 s
            .build();

    SparkJobSpec spec =
        SparkJobSpec.builder()
            .namespace("spark-jobs")
            .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
            .mainClass("org.apache.spark.examples.SparkPi")
            .image("apache/spark:4.0.1")
            .sparkVersion("4.0.1")
            .arguments(List.of("1000"))
            .build();

    ExecutionId id = jobs.submitter().submit("job-42", spec); // idempotent per job id
    String stored = id.toString(); // keep it: any node of the cluster can use it

    JobExecutionInfo info = jobs.statusReader().get(stored);
    System.out.println(info.status() + " " + info.operatorState() + " " + info.message());
    System.out.println(jobs.driverLogs().tail(id, 50, 64 * 1024).text()); // never throws

    return jobs.canceller().cancel(id); // never waits; a finished job keeps its outcome
  }
  // --8<-- [end:usage]
}
