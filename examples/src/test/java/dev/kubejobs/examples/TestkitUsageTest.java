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

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a scheduler's own tests use the testkit; quoted in the README between the {@code --8<--}
 * markers ({@code ReadmeTest.testkitSnippetIsQuotedVerbatim} checks the quote).
 */
class TestkitUsageTest {
  static final ResourceType APACHE =
      new ResourceType("spark.apache.org", "v1", "sparkapplications", "SparkApplication");
  static final SparkJobSpec SPEC =
      SparkJobSpec.builder()
          .namespace("spark-jobs")
          .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
          .mainClass("org.apache.spark.examples.SparkPi")
          .sparkVersion("4.0.1")
          .build();

  // --8<-- [start:testkit]
  @RegisterExtension // one fake API server per class, emptied before each test
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(APACHE).build();

  final KubeJobs<SparkJobSpec> jobs =
      KubeJobs.builder(KUBE.client(), SparkOperators.apache())
          .cluster("test")
          .deployment("my-scheduler")
          .build();

  @Test
  void aCancelAfterTheJobSucceededKeepsSucceeded() {
    FakeSparkOperator operator = FakeSparkOperator.apache(KUBE.server());
    ExecutionId id = jobs.submitter().submit("job-1", SPEC);
    operator.moveTo("spark-jobs", "kj-job-1", "Succeeded"); // the job ends first

    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aLostCreateAnswerStillMakesExactlyOneApplication() {
    KUBE.server().faults().add(Fault.on("POST", ".*/sparkapplications").appliedThenLost());

    jobs.submitter().submit("job-1", SPEC); // the create lands, its answer never comes

    assertThat(KUBE.server().store().list(APACHE, "spark-jobs")).hasSize(1);
    assertThat(KUBE.server().journal().count("POST", ".*/sparkapplications")).isEqualTo(1);
  }
  // --8<-- [end:testkit]
}
