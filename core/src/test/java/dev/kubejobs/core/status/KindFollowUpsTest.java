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

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobKindVariant;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Follow-ups a job kind asks for itself: a driver pod's delete asked for without a pod lookup (the
 * pod is looked up, or the outcome reported when there is none or pods cannot be listed), and a
 * resource's delete asked for on a resource already being deleted (none is sent).
 */
class KindFollowUpsTest {
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";
  private static final String PODS = "/api/v1/namespaces/etl/pods.*";
  private static final String DRIVER = "kj-job-1-driver";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .settings(b -> b.statusCacheTtl(Duration.ZERO))
          .submit("job-1", TestJobSpec.in("etl"))
          .clearJournal()
          .build();

  private static final MutableClock CLOCK = KUBE.clock();

  private final FakeKubernetesApiServer server = KUBE.server();

  private void status(String json) {
    Fixture.setStatus(server, "etl", "kj-job-1", json);
  }

  private void pod(String name, String app, String phase) {
    server.store().create(ResourceType.POD, "etl", Fixture.driverPod(name, app, phase));
  }

  @Test
  void aPodDeleteAskedForWithoutALookupLooksThePodUpAndDeletesIt() {
    KubeJobs<TestJobSpec> eager = eager();
    status("{\"state\":\"FAILED\"}");
    pod(DRIVER, "kj-job-1", "Running");

    JobExecutionInfo info = eager.statusReader().get(KUBE.id());

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).isEqualTo("driver stopped");
    assertThat(server.store().get(ResourceType.POD, "etl", DRIVER)).isEmpty();
  }

  @Test
  void aPodDeleteAskedForWithoutAPodReportsTheOutcome() {
    KubeJobs<TestJobSpec> eager = eager();
    status("{\"state\":\"FAILED\"}");

    JobExecutionInfo info = eager.statusReader().get(KUBE.id());

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).isEqualTo("driver stopped");
    assertThat(server.journal().count("DELETE", PODS)).isZero();
  }

  @Test
  void aPodDeleteAskedForWhenPodsCannotBeListedReportsTheOutcomeSayingThePodMayStillRun() {
    KubeJobs<TestJobSpec> eager = eager();
    status("{\"state\":\"FAILED\"}");
    pod(DRIVER, "kj-job-1", "Running");
    server.rbac().deny("list", "", "pods");

    JobExecutionInfo info = eager.statusReader().get(KUBE.id());

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).contains("may still run").contains("list pods in namespace etl");
    assertThat(server.store().get(ResourceType.POD, "etl", DRIVER)).isPresent();
  }

  @Test
  void aResourceDeleteAskedForOnAResourceAlreadyBeingDeletedSendsNoDelete() {
    KubeJobs<TestJobSpec> eager = eager();
    Fixture.holdWithFinalizer(server, "etl", "kj-job-1");
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    server.journal().clear();

    JobExecutionInfo info = eager.statusReader().get(KUBE.id());

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).isEqualTo("no status, already being deleted");
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
  }

  /**
   * A kind whose mapper asks for the driver pod's delete on a failed job without looking the pod up
   * first, and for the resource's delete whenever there is no status, being deleted or not.
   */
  private KubeJobs<TestJobSpec> eager() {
    TestJobKind delegate = new TestJobKind();
    JobStatusMapper mapper =
        (app, pod, now) -> {
          Optional<JsonObject> s = app.status();
          if (s.isEmpty()) {
            return new MappingDecision.ReportAfter(
                new FollowUp(
                    FollowUp.Action.DELETE_APPLICATION,
                    JobStatus.FAILED,
                    "no status, already being deleted"),
                JobExecutionInfo.builder(JobStatus.QUEUED).build(),
                List.of());
          }
          if (s.get().get("state").getAsString().equals("FAILED")) {
            return new MappingDecision.ReportAfter(
                new FollowUp(FollowUp.Action.DELETE_DRIVER_POD, JobStatus.FAILED, "driver stopped"),
                JobExecutionInfo.builder(JobStatus.STARTED).build(),
                List.of());
          }
          return delegate.statusMapper().map(app, pod, now);
        };
    return jobs(TestJobKindVariant.withMapper(mapper));
  }

  private KubeJobs<TestJobSpec> jobs(JobKind<TestJobSpec> kind) {
    return KUBE.track(
        KubeJobs.builder(server.newClient(), kind)
            .cluster(Fixture.CLUSTER)
            .deployment("gravitino-a")
            .clock(CLOCK)
            .retry(Fixture.fastRetry())
            .statusCacheTtl(Duration.ZERO)
            .build());
  }
}
