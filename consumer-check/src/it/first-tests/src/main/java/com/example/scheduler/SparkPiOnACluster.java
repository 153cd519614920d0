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
package com.example.scheduler;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.Config;

public class SparkPiOnACluster {
  public static void main(String[] args) throws Exception {
    // a kubeconfig file, else $KUBECONFIG, ~/.kube/config or the pod's service account; with
    // none of them client-java talks to http://localhost:8080, and every call reports it unreachable
    ApiClient client = args.length > 0 ? Config.fromConfig(args[0]) : Config.defaultClient();

    try (KubeJobs<SparkJobSpec> jobs =
        KubeJobs.builder(client, SparkOperators.apache()) // or SparkOperators.kubeflow()
            .cluster("prod") // written into every ExecutionId; the same on every node
            .deployment("my-scheduler") // separates schedulers sharing a namespace
            .build()) {
      SparkJobSpec spec =
          SparkJobSpec.builder()
              .namespace("spark-jobs")
              .serviceAccount("spark") // the driver's: it creates the executor pods
              .image("apache/spark:4.0.1")
              .sparkVersion("4.0.1")
              .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
              .mainClass("org.apache.spark.examples.SparkPi")
              .build();

      ExecutionId id = jobs.submitter().submit("spark-pi-1", spec); // idempotent per job id
      System.out.println("submitted " + id); // store id.toString(): any node can use it
      JobExecutionInfo info = jobs.statusReader().get(id);
      System.out.println(info.status() + " " + info.operatorState() + " " + info.message());
      System.out.println("cancel: " + jobs.canceller().cancel(id)); // never waits for the end
    }
  }
}
