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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobKindVariant;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import dev.kubejobs.testkit.ResourceType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a failed job's driver pod is named, found and deleted before FAILED is reported: by name or
 * by its labels, the latest attempt's, with names too long or invalid left alone, and what the job
 * reports when the pod cannot be looked up or deleted. Each test starts with the job FAILED and its
 * driver pod {@value #DRIVER} running.
 */
class DriverPodTest {
  private static final String PODS = "/api/v1/namespaces/etl/pods.*";
  private static final String DRIVER = "kj-job-1-driver";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().submit("job-1", TestJobSpec.in("etl")).build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private KubeJobs<TestJobSpec> jobs;
  private ExecutionId id;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
    jobs = KUBE.jobs();
    id = KUBE.id();
    status("{\"state\":\"FAILED\"}");
    pod(DRIVER, "kj-job-1", "Running");
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

  @Test
  void anEmptyDriverPodNameFindsTheDriverByItsLabelsAndLeavesOtherPodsAlone() {
    status("{\"state\":\"FAILED\",\"driverPod\":\"\"}");
    // Listed without the selector, this pod (last by name) would be taken for the driver.
    pod("zz-other", "another-app", "Running");

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).isEqualTo("failed; its driver pod still ran and was deleted");
    assertThat(server.store().get(ResourceType.POD, "etl", DRIVER)).isEmpty();
    assertThat(server.store().get(ResourceType.POD, "etl", "zz-other")).isPresent();
    assertThat(server.journal().count("DELETE", PODS)).isEqualTo(1);
  }

  @Test
  void aDriverPodNameOf253CharactersIsLookedUpAnd254IsNot() {
    String name253 = ("a".repeat(63) + ".").repeat(3) + "a".repeat(61);
    status("{\"state\":\"FAILED\",\"driverPod\":\"" + name253 + "\"}");

    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.journal().count("GET", "/api/v1/namespaces/etl/pods/" + name253))
        .isEqualTo(1);

    KubeJobs<TestJobSpec> other = KUBE.newJobs();
    status("{\"state\":\"FAILED\",\"driverPod\":\"" + name253 + "b\"}");
    server.journal().clear();

    try (LogCapture logs = LogCapture.start()) {
      JobExecutionInfo info = other.statusReader().get(id);
      assertThat(info.status()).isEqualTo(JobStatus.FAILED);
      assertThat(logs.warnings()).anySatisfy(w -> assertThat(w).contains("invalid driver pod"));
    }
    assertThat(server.journal().count("GET", PODS)).isZero();
  }

  @Test
  void anInvalidDriverPodNameIsQuotedWholeUpTo100Characters() {
    String hundred = "X".repeat(100);
    status("{\"state\":\"FAILED\",\"driverPod\":\"" + hundred + "\"}");

    try (LogCapture logs = LogCapture.start()) {
      jobs.statusReader().get(id);

      assertThat(logs.warnings())
          .anySatisfy(w -> assertThat(w).contains("invalid driver pod '" + hundred + "'"));
    }

    KubeJobs<TestJobSpec> other = KUBE.newJobs();
    status("{\"state\":\"FAILED\",\"driverPod\":\"" + hundred + "Y\"}");
    try (LogCapture logs = LogCapture.start()) {
      other.statusReader().get(id);

      assertThat(logs.warnings())
          .anySatisfy(w -> assertThat(w).contains("invalid driver pod '" + hundred + "…'"));
    }
  }

  @Test
  void aForbiddenDriverPodDeleteSaysThePodMayStillRun() {
    server.rbac().deny("delete", "", "pods");

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message())
        .startsWith(
            "its driver pod may still run and could not be deleted (missing permission: delete"
                + " pods in namespace etl");
  }

  @Test
  void credentialsRefusedForThePodDeleteKeepTheJobUnfinishedAndSaySo() {
    // 401 is not a missing permission that may stay (403): the credentials may be renewed, so the
    // job waits for its driver pod's delete, and its message names the refusal, not a permission.
    server
        .faults()
        .add(Fault.on("DELETE", PODS).forever().status(401, "Unauthorized", "token expired"));

    try (LogCapture logs = LogCapture.start()) {
      JobExecutionInfo info = jobs.statusReader().get(id);

      assertThat(info.status()).isEqualTo(JobStatus.STARTED);
      assertThat(info.message())
          .contains(
              "waiting to delete the driver pod that still runs before reporting FAILED (the API"
                  + " server refused the ApiClient's credentials (401) to delete pods in namespace etl)");
      assertThat(logs.warnings()).anyMatch(w -> w.contains("stays STARTED until"));
    }
    assertThat(server.store().get(ResourceType.POD, "etl", DRIVER)).isPresent();
  }

  @Test
  void aDriverPodThatChangedBeforeItsDeleteIsLookedUpAgainAndDeleted() {
    server.faults().add(Fault.on("DELETE", PODS).status(409, "Conflict", "the pod was modified"));

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.journal().count("DELETE", PODS)).isEqualTo(2);
    assertThat(server.store().get(ResourceType.POD, "etl", DRIVER)).isEmpty();
  }

  @Test
  void theLatestAttemptsDriverPodIsTheOneDecidedOn() {
    // Only the two attempts' pods.
    server.store().delete(ResourceType.POD, "etl", DRIVER);
    pod("kj-job-1-driver-b", "kj-job-1", "Failed");
    CLOCK.advance(Duration.ofSeconds(60));
    // The retry's pod: created later, though first by name.
    pod("kj-job-1-driver-a", "kj-job-1", "Running");

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).isEqualTo("failed; its driver pod still ran and was deleted");
    assertThat(server.store().get(ResourceType.POD, "etl", "kj-job-1-driver-a")).isEmpty();
    assertThat(server.store().get(ResourceType.POD, "etl", "kj-job-1-driver-b")).isPresent();
  }

  @Test
  void aJobKindThatFailsToNameTheDriverPodGetsTheJobDecidedWithoutIt() {
    KubeJobs<TestJobSpec> failing =
        jobs(
            TestJobKindVariant.withDriverPodName(
                app -> {
                  throw new IllegalStateException("no driver info");
                }));

    try (LogCapture logs = LogCapture.start()) {
      JobExecutionInfo info = failing.statusReader().get(id);

      assertThat(info.status()).isEqualTo(JobStatus.FAILED);
      assertThat(logs.warnings())
          .anySatisfy(
              w ->
                  assertThat(w)
                      .contains("the job kind could not name its driver pod")
                      .contains("no driver info"));
    }
    assertThat(server.journal().count("GET", PODS)).isZero();
  }

  private void status(String json) {
    Fixture.setStatus(server, "etl", "kj-job-1", json);
  }

  private void pod(String name, String app, String phase) {
    server.store().create(ResourceType.POD, "etl", Fixture.driverPod(name, app, phase));
  }

  private KubeJobs<TestJobSpec> jobs(JobKind<TestJobSpec> kind) {
    return KUBE.track(Fixture.builder(server, CLOCK, "gravitino-a", kind).build());
  }
}
