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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The harness's {@code running()}: each test starts on the class's job running, with a journal that
 * holds none of the harness's own requests; and it is refused where it cannot mean that.
 */
class KubeJobsHarnessRunningTest {
  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .settings(b -> b.statusCacheTtl(Duration.ZERO))
          .submit("job-1", TestJobSpec.in("etl"))
          .running()
          .build();

  @Test
  void aTestStartsOnTheSubmittedJobRunningWithAnEmptyJournal() {
    assertThat(KUBE.server().journal().requests()).isEmpty();

    JobExecutionInfo info = KUBE.jobs().statusReader().get(KUBE.id());

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(info.operatorState()).isEqualTo("RUNNING");
  }

  @Test
  void runningWithoutASubmitIsRefused() {
    assertThatThrownBy(() -> KubeJobsHarness.testJobs().running().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(".submit(jobId, spec)");
  }

  @Test
  void runningOnAnotherKindThanTheTestKindIsRefused() {
    assertThatThrownBy(() -> KubeJobsHarness.fakeApps().submit("app-1", "etl").running().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("testJobs()");
  }
}
