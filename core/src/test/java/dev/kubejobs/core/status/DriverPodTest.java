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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import dev.kubejobs.testkit.ResourceType;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Issue 4, behaviour 9: a failed job's live driver, and pods that cannot be looked up. */
class DriverPodTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String PODS = "/api/v1/namespaces/etl/pods.*";

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
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"FAILED\"}");
    server
        .store()
        .create(
            ResourceType.POD, "etl", Fixture.driverPod("kj-job-1-driver", "kj-job-1", "Running"));
    server.journal().clear();
  }

  @Test
  void aFailedJobWhoseDriverStillRunsGetsThePodDeletedBeforeFailedIsReported() {
    server.faults().add(Fault.on("DELETE", PODS).forever().status(503, "ServiceUnavailable", "x"));

    // The pod cannot be deleted yet: the job is not reported FAILED.
    assertThatThrownBy(() -> jobs.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class);
    assertThat(server.store().get(ResourceType.POD, "etl", "kj-job-1-driver")).isPresent();

    server.faults().clear();
    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.store().get(ResourceType.POD, "etl", "kj-job-1-driver")).isEmpty();
    List<RecordedRequest> deletes = server.journal().requests("DELETE", PODS);
    assertThat(deletes.get(deletes.size() - 1).body()).contains("\"uid\"");
  }

  @Test
  void aPermanentlyForbiddenPodDeleteStillFailsTheJobAndWarnsOnce() {
    server.rbac().deny("delete", "", "pods");

    try (LogCapture logs = LogCapture.start()) {
      for (int i = 0; i < 3; i++) {
        JobExecutionInfo info = jobs.statusReader().get(id);
        assertThat(info.status()).isEqualTo(JobStatus.FAILED);
        assertThat(info.message()).contains("missing permission: delete pods in namespace etl");
      }
      assertThat(logs.warnings())
          .filteredOn(l -> l.contains("missing permission: delete pods in namespace etl"))
          .hasSize(1);
      assertThat(logs.warnings()).hasSize(1);
    }
    assertThat(server.store().get(ResourceType.POD, "etl", "kj-job-1-driver")).isPresent();
  }

  @Test
  void aForbiddenPodLookupDoesNotKeepAFinishedJobUnfinishedAndWarnsOnce() {
    server.rbac().deny("list", "", "pods");

    try (LogCapture logs = LogCapture.start()) {
      for (int i = 0; i < 3; i++) {
        assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
      }
      assertThat(logs.warnings())
          .filteredOn(l -> l.contains("missing permission: list pods in namespace etl"))
          .hasSize(1);
    }
    assertThat(server.store().get(ResourceType.POD, "etl", "kj-job-1-driver")).isPresent();
  }
}
