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

import static dev.kubejobs.testkit.ResourceType.APACHE_SPARK_APPLICATION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import dev.kubejobs.testkit.operator.SparkAppPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a scheduler's own tests use the testkit with AssertJ; the fault test is quoted in the
 * testkit's README between the {@code --8<--} markers ({@code DocsTest} checks the quote).
 */
class TestkitUsageTest {
  static final SparkJobSpec SPEC =
      SparkJobSpec.builder()
          .namespace("spark-jobs")
          .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
          .mainClass("org.apache.spark.examples.SparkPi")
          .sparkVersion("4.0.1")
          .build();

  @RegisterExtension // one fake API server per class, emptied before each test
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().operator(Flavor.APACHE).build();

  final KubeJobs<SparkJobSpec> jobs =
      KubeJobs.builder(KUBE.client(), SparkOperators.apache())
          .cluster("test")
          .deployment("my-scheduler")
          .clock(KUBE.clock()) // each operator step moves it past the 5 s status cache
          .build();

  @Test
  void aJobGoesFromQueuedToStartedToSucceeded() {
    ExecutionId id = jobs.submitter().submit("nightly-1", SPEC);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);

    KUBE.operator().moveTo(id.namespace(), id.name(), "RunningHealthy");
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    KUBE.operator().runToEnd(id.namespace(), id.name());
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aJobOnAFailingPathFails() {
    ExecutionId id = jobs.submitter().submit("nightly-2", SPEC);

    KUBE.operator().path(id.namespace(), id.name(), SparkAppPath.FAILED);
    KUBE.operator().runToEnd(id.namespace(), id.name());

    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
  }

  @Test
  void aCancelAfterTheJobSucceededKeepsSucceeded() {
    ExecutionId id = jobs.submitter().submit("job-1", SPEC);
    KUBE.operator().moveTo(id.namespace(), id.name(), "Succeeded"); // the job ends first

    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  // --8<-- [start:fault]
  @Test
  void aLostCreateAnswerStillMakesExactlyOneApplication() {
    KUBE.server().faults().add(Fault.on("POST", ".*/sparkapplications").appliedThenLost());

    jobs.submitter().submit("job-1", SPEC); // the create lands, its answer never comes

    assertThat(KUBE.server().store().list(APACHE_SPARK_APPLICATION, "spark-jobs")).hasSize(1);
    assertThat(KUBE.server().journal().count("POST", ".*/sparkapplications")).isEqualTo(1);
  }
  // --8<-- [end:fault]
}
