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
package dev.kubejobs.core.testing;

import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The harness core's tests open on: each test starts on a reset server with the clock at T0 and
 * exactly the class's job submitted, whatever the test before it did. The tests run in a fixed
 * order so that the second one sees what the first one left behind, if anything is left.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubeJobsHarnessTest {
  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .deployment("gravitino-h")
          .settings(b -> b.statusCacheTtl(Duration.ZERO))
          .submit("job-1", TestJobSpec.in("etl"))
          .build();

  @Test
  @Order(1)
  void aTestGetsTheClassesJobSubmittedByItsInstanceAtT0() {
    assertThat(KUBE.clock().instant()).isEqualTo(T0);
    assertThat(KUBE.id().toString()).isEqualTo("test/testjobs.kubejobs.dev/etl/kj-job-1");
    assertThat(KUBE.store().list(TestJobKind.TYPE, "etl")).hasSize(1);
    assertThat(Fixture.annotations(KUBE.server(), "etl", "kj-job-1"))
        .containsKey("kubejobs.dev/submitted-by");
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.QUEUED);

    // leave things behind for the next test to not see
    KubeJobs<TestJobSpec> other = KUBE.newJobs();
    ExecutionId second = other.submitter().submit("job-2", TestJobSpec.in("ml"));
    assertThat(second.namespace()).isEqualTo("ml");
    KUBE.clock().advance(Duration.ofHours(3));
  }

  @Test
  @Order(2)
  void theNextTestStartsAfreshAtT0WithOnlyTheClassesJob() {
    assertThat(KUBE.clock().instant()).isEqualTo(T0);
    assertThat(KUBE.store().list(TestJobKind.TYPE, "ml")).isEmpty();
    assertThat(KUBE.store().list(TestJobKind.TYPE, "etl")).hasSize(1);
    assertThat(KUBE.server().journal().requests()).isNotEmpty();
  }

  @Test
  @Order(3)
  void anotherNodesBuilderHasTheClassesSettingsAndItsOwnDeployment() {
    KubeJobs<TestJobSpec> node = KUBE.track(KUBE.builder("gravitino-other").build());

    assertThat(node.statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.QUEUED);
    assertThatThrownBy(() -> node.submitter().submit("job-1", TestJobSpec.in("etl")))
        .hasMessageContaining("another deployment ('gravitino-h')");
  }
}
