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

import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Issue 4, behaviour 3: no status vs unparseable status past the no-status timeout. */
class NoStatusTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).clock(CLOCK).build();

  private FakeKubernetesApiServer server;
  private KubeJobs<TestJobSpec> jobs;
  private ExecutionId id;

  @BeforeEach
  void setUp() {
    CLOCK.set(T0);
    server = KUBE.server();
    jobs = Fixture.builder(server, CLOCK, "gravitino-a").build();
    id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
  }

  @Test
  void unparseableStatusPastTheTimeoutStaysUnfinishedAndTheResourceStays() {
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"phase\":\"Running\"}");
    CLOCK.advance(Duration.ofSeconds(601));

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isIn(JobStatus.QUEUED, JobStatus.STARTED);
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
    assertThat(server.journal().count("DELETE", ".*")).isZero();
  }

  @Test
  void noStatusPastTheTimeoutIsFailedOnlyOnceTheDeleteIsConfirmed() {
    CLOCK.advance(Duration.ofSeconds(601));
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");

    // The delete is refused: the job is not failed yet, and its resource still exists; the
    // message names the permission that is missing.
    JobExecutionInfo refused = jobs.statusReader().get(id);
    assertThat(refused.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(refused.message())
        .contains("missing permission: delete testjobs.kubejobs.dev in namespace etl")
        .doesNotContain("server said");
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();

    server.rbac().reset();
    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).contains("no status");
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    assertThat(server.journal().requests("DELETE", OBJECT).get(1).body()).contains("\"uid\"");
  }
}
