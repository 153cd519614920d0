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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The steps after the root README's first test, with nothing but kubejobs-spark, kubejobs-testkit
 * and JUnit on the class path: a path chosen per job and the fake's clock moved past a timeout
 * (both quoted in the testkit's README-operator.md), a cancel and an unreachable API server.
 */
class OperatorPathAndClockTest {

  static final SparkJobSpec SPEC =
      SparkJobSpec.builder()
          .namespace("spark-jobs")
          .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
          .mainClass("org.apache.spark.examples.SparkPi")
          .sparkVersion("4.0.1")
          .build();

  @RegisterExtension // one fake API server and Apache operator per class, emptied before each test
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().operator(FakeSparkOperator.Flavor.APACHE).build();

  // the clock is shared with the fake: each operator transition moves it 10 s, past the 5 s cache
  final KubeJobs<SparkJobSpec> jobs =
      KubeJobs.builder(KUBE.client(), SparkOperators.apache())
          .cluster("test")
          .deployment("my-scheduler")
          .clock(KUBE.clock())
          .build();

  // --8<-- [start:path-and-clock]
  @Test
  void aJobOnTheFailedPathFails() {
    ExecutionId id = jobs.submitter().submit("nightly-2", SPEC);
    KUBE.operator().path(id.namespace(), id.name(), SparkAppPath.FAILED); // before stepping

    KUBE.operator().runToEnd(id.namespace(), id.name());

    assertEquals(JobStatus.FAILED, jobs.statusReader().get(id).status());
  }

  @Test
  void aJobThatNeverGetsAStatusFailsAfterTheNoStatusTimeout() {
    KUBE.operator().down(); // the operator is not running
    ExecutionId id = jobs.submitter().submit("nightly-3", SPEC);
    assertEquals(JobStatus.QUEUED, jobs.statusReader().get(id).status());

    KUBE.clock().advance(Duration.ofMinutes(11)); // past the 10-minute no-status timeout

    assertEquals(JobStatus.FAILED, jobs.statusReader().get(id).status());
  }
  // --8<-- [end:path-and-clock]

  @Test
  void aCancelledRunningJobEndsCancelled() {
    ExecutionId id = jobs.submitter().submit("nightly-4", SPEC);
    KUBE.operator().moveTo(id.namespace(), id.name(), "RunningHealthy");

    assertEquals(CancelResult.REQUESTED, jobs.canceller().cancel(id));
    assertTrue(
        Set.of(JobStatus.CANCELLING, JobStatus.CANCELLED)
            .contains(jobs.statusReader().get(id).status()));

    KUBE.operator().stepUntilSettled(); // the operator releases the job and its finalizer
    // gone from the cluster, yet the instance that cancelled it knows how it ended
    assertEquals(JobStatus.CANCELLED, jobs.statusReader().get(id).status());
  }

  @Test
  void anUnreachableApiServerIsATypedError() {
    ApiClient unreachable;
    try (FakeKubernetesApiServer gone = FakeKubernetesApiServer.start()) {
      unreachable = gone.newClient();
    }
    KubeJobs<SparkJobSpec> offline =
        KubeJobs.builder(unreachable, SparkOperators.apache())
            .cluster("test")
            .deployment("my-scheduler")
            .build();

    assertThrows(ApiUnavailableException.class, () -> offline.submitter().submit("x-1", SPEC));
  }
}
