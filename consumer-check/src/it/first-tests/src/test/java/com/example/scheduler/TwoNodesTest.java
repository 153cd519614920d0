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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import io.kubernetes.client.openapi.ApiClient;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two scheduler nodes on one fake API server, as the testkit's README shows them (this file is the
 * quote's compiled source): node A's cancel is held inside the server while node B reads, and its
 * DELETE's answer is lost.
 */
class TwoNodesTest {
  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().operator(FakeSparkOperator.Flavor.APACHE).build();

  static final SparkJobSpec SPEC =
      SparkJobSpec.builder()
          .namespace("spark-jobs")
          .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
          .mainClass("org.apache.spark.examples.SparkPi")
          .sparkVersion("4.0.1")
          .build();

  final ExecutorService executor = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopTheThread() {
    executor.shutdownNow();
  }

  @Test
  void aCancelHeldOnNodeAWhileNodeBReadsEndsRequestedThoughItsAnswerIsLost() throws Exception {
    FakeKubernetesApiServer server = KUBE.server();
    // --8<-- [start:two-nodes]
    ApiClient nodeA = server.newClient("node-a");   // adds header X-Kubejobs-Testkit-Client: node-a
    ApiClient nodeB = server.newClient("node-b");
    KubeJobs<SparkJobSpec> jobsA = KubeJobs.builder(nodeA, SparkOperators.apache())
        .cluster("test").deployment("my-scheduler").build();
    KubeJobs<SparkJobSpec> jobsB = KubeJobs.builder(nodeB, SparkOperators.apache())
        .cluster("test").deployment("my-scheduler").build();
    ExecutionId id = jobsA.submitter().submit("job-1", SPEC);
    KUBE.operator().moveTo(id.namespace(), id.name(), "RunningHealthy");

    // Only node A loses its DELETE's answer; node B's requests are untouched.
    server.faults().add(Fault.on("DELETE", ".*/sparkapplications/.*").forClient("node-a").appliedThenLost());

    // Hold node A's DELETE before it is applied, let node B act, then release A.
    Hold delete = server.hold(Hold.on("DELETE", ".*/sparkapplications/kj-job-1").forClient("node-a"));
    Future<CancelResult> cancel = executor.submit(() -> jobsA.canceller().cancel(id));
    delete.awaitArrived();            // A's DELETE is inside the server; nothing applied yet
    JobStatus seenByB = jobsB.statusReader().get(id).status(); // B reads and decides meanwhile
    delete.release();                 // now A's DELETE is applied (faults see it only now) and answered
    int answer = delete.awaitAnswered(); // the HTTP status it got (0 if a fault closed the connection)
    // --8<-- [end:two-nodes]

    assertEquals(JobStatus.CANCELLING, seenByB); // A's cancel mark is on, the delete not yet
    assertEquals(0, answer); // the fault closed the connection: A never got the answer
    // A's cancel does not fail on the lost answer: it finds the application being deleted
    assertTrue(
        Set.of(CancelResult.REQUESTED, CancelResult.ALREADY_DELETING).contains(cancel.get(30, TimeUnit.SECONDS)));
    JsonObject app =
        server.store().get(ResourceType.APACHE_SPARK_APPLICATION, id.namespace(), id.name()).get();
    assertTrue(app.getAsJsonObject("metadata").has("deletionTimestamp"));
  }
}
