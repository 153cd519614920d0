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

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SchedulerTest {
  @RegisterExtension // a fake API server and a fake Apache operator, emptied before each test
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().operator(FakeSparkOperator.Flavor.APACHE).build();

  static final SparkJobSpec SPEC =
      SparkJobSpec.builder()
          .namespace("spark-jobs")
          .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
          .mainClass("org.apache.spark.examples.SparkPi")
          .sparkVersion("4.0.1")
          .build();

  // the fake's clock: each operator step moves it 10 s, past kubejobs' 5 s status cache
  final KubeJobs<SparkJobSpec> jobs =
      KubeJobs.builder(KUBE.client(), SparkOperators.apache())
          .cluster("test")
          .deployment("my-scheduler")
          .clock(KUBE.clock())
          .build();

  @Test
  void aJobIsQueuedThenStartedThenSucceeded() {
    ExecutionId id = jobs.submitter().submit("nightly-1", SPEC);
    assertEquals(JobStatus.QUEUED, jobs.statusReader().get(id).status());
    KUBE.operator().moveTo(id.namespace(), id.name(), "RunningHealthy");
    assertEquals(JobStatus.STARTED, jobs.statusReader().get(id).status());
    KUBE.operator().runToEnd(id.namespace(), id.name());
    assertEquals(JobStatus.SUCCEEDED, jobs.statusReader().get(id).status());
  }
}
