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
package dev.kubejobs.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Hold;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Status reads with the status cache off: every read goes to the server and maps the job again, yet
 * {@code getAll} answers each job, the mapper's warning is logged once, and a reader that finds the
 * job gone after another reported its outcome answers that outcome.
 */
class ReadsWithoutCacheTest {
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .settings(b -> b.statusCacheTtl(Duration.ZERO))
          .submit("job-1", TestJobSpec.in("etl"))
          .build();

  private final FakeKubernetesApiServer server = KUBE.server();

  private void status(String json) {
    Fixture.setStatus(server, "etl", "kj-job-1", json);
  }

  @Test
  void getAllWithoutACacheReadsEachJob() {
    status("{\"state\":\"RUNNING\"}");

    JobStatusResult result = KUBE.jobs().statusReader().getAll(List.of(KUBE.id())).get(KUBE.id());

    assertThat(result.orElseThrow().status()).isEqualTo(JobStatus.STARTED);
  }

  @Test
  void theMappersWarningIsLoggedOnce() {
    status("{\"state\":\"PENDING_RERUN\"}");

    try (LogCapture logs = LogCapture.start()) {
      KUBE.jobs().statusReader().get(KUBE.id());
      KUBE.jobs().statusReader().get(KUBE.id());

      assertThat(logs.warnings())
          .filteredOn(l -> l.contains("unknown state PENDING_RERUN"))
          .hasSize(1);
    }
  }

  @Test
  void aReaderThatFindsTheJobGoneAfterAnotherReportedItsOutcomeAnswersThatOutcome()
      throws Exception {
    status("{\"state\":\"SUCCEEDED\"}");
    Hold firstRead = server.hold(Hold.on("GET", OBJECT).beforeApplying());
    CompletableFuture<JobExecutionInfo> slow =
        CompletableFuture.supplyAsync(() -> KUBE.jobs().statusReader().get(KUBE.id()));
    firstRead.awaitArrived();

    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    firstRead.release();

    assertThat(slow.get(10, TimeUnit.SECONDS).status()).isEqualTo(JobStatus.SUCCEEDED);
  }
}
