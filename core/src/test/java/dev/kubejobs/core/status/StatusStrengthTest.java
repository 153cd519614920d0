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

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobKindVariant;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 8, test strength: the bounds of a status's rounds, how a driver pod is named and found
 * (empty, longest and invalid names), the messages of follow-ups that cannot be carried out, and
 * follow-ups a job kind asks for without a pod lookup or on a resource already being deleted.
 */
class StatusStrengthTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";
  private static final String PODS = "/api/v1/namespaces/etl/pods.*";
  private static final String DRIVER = "kj-job-1-driver";

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
    jobs = Fixture.builder(server, CLOCK, "gravitino-a").statusCacheTtl(Duration.ZERO).build();
    id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
    server.journal().clear();
  }

  private void status(String json) {
    Fixture.setStatus(server, "etl", "kj-job-1", json);
  }

  private void pod(String name, String app, String phase) {
    server.store().create(ResourceType.POD, "etl", Fixture.driverPod(name, app, phase));
  }

  @Test
  void getAllWithoutACacheReadsEachJob() {
    status("{\"state\":\"RUNNING\"}");

    JobStatusResult result = jobs.statusReader().getAll(List.of(id)).get(id);

    assertThat(result.orElseThrow().status()).isEqualTo(JobStatus.STARTED);
  }

  @Test
  void aNoStatusDeleteRefusedByAConflictInEveryRoundGivesUpAfterFiveRounds() {
    CLOCK.advance(Duration.ofSeconds(601));
    server
        .faults()
        .add(Fault.on("DELETE", OBJECT).forever().status(409, "Conflict", "object was modified"));

    assertThatThrownBy(() -> jobs.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("could not be decided")
        .hasMessageContaining("each of 5 attempts to delete the job's resource");

    assertThat(server.journal().count("DELETE", OBJECT)).isEqualTo(5);
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
  }

  @Test
  void theMappersWarningIsLoggedOnce() {
    status("{\"state\":\"PENDING_RERUN\"}");

    try (LogCapture logs = LogCapture.start()) {
      jobs.statusReader().get(id);
      jobs.statusReader().get(id);

      assertThat(logs.warnings())
          .filteredOn(l -> l.contains("unknown state PENDING_RERUN"))
          .hasSize(1);
    }
  }

  @Test
  void anEmptyDriverPodNameFindsTheDriverByItsLabelsAndLeavesOtherPodsAlone() {
    status("{\"state\":\"FAILED\",\"driverPod\":\"\"}");
    pod(DRIVER, "kj-job-1", "Running");
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

    KubeJobs<TestJobSpec> other = Fixture.builder(server, CLOCK, "gravitino-a").build();
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

    KubeJobs<TestJobSpec> other = Fixture.builder(server, CLOCK, "gravitino-a").build();
    status("{\"state\":\"FAILED\",\"driverPod\":\"" + hundred + "Y\"}");
    try (LogCapture logs = LogCapture.start()) {
      other.statusReader().get(id);

      assertThat(logs.warnings())
          .anySatisfy(w -> assertThat(w).contains("invalid driver pod '" + hundred + "…'"));
    }
  }

  @Test
  void aForbiddenNoStatusDeleteSaysWhatItWaitsFor() {
    CLOCK.advance(Duration.ofSeconds(601));
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.message())
        .startsWith(
            "waiting to delete the job's resource before reporting FAILED (missing permission:"
                + " delete testjobs.kubejobs.dev in namespace etl");
  }

  @Test
  void aForbiddenDriverPodDeleteSaysThePodMayStillRun() {
    status("{\"state\":\"FAILED\"}");
    pod(DRIVER, "kj-job-1", "Running");
    server.rbac().deny("delete", "", "pods");

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message())
        .startsWith(
            "its driver pod may still run and could not be deleted (missing permission: delete"
                + " pods in namespace etl");
  }

  @Test
  void aDriverPodThatChangedBeforeItsDeleteIsLookedUpAgainAndDeleted() {
    status("{\"state\":\"FAILED\"}");
    pod(DRIVER, "kj-job-1", "Running");
    server.faults().add(Fault.on("DELETE", PODS).status(409, "Conflict", "the pod was modified"));

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.journal().count("DELETE", PODS)).isEqualTo(2);
    assertThat(server.store().get(ResourceType.POD, "etl", DRIVER)).isEmpty();
  }

  @Test
  void aReaderThatFindsTheJobGoneAfterAnotherReportedItsOutcomeAnswersThatOutcome()
      throws Exception {
    status("{\"state\":\"SUCCEEDED\"}");
    Hold firstRead = server.hold(Hold.on("GET", OBJECT).beforeApplying());
    CompletableFuture<JobExecutionInfo> slow =
        CompletableFuture.supplyAsync(() -> jobs.statusReader().get(id));
    firstRead.awaitArrived();

    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    firstRead.release();

    assertThat(slow.get(10, TimeUnit.SECONDS).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void theLatestAttemptsDriverPodIsTheOneDecidedOn() {
    status("{\"state\":\"FAILED\"}");
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
    status("{\"state\":\"FAILED\"}");

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

  // ------------------------------------------------------- follow-ups of an eager job kind

  @Test
  void aPodDeleteAskedForWithoutALookupLooksThePodUpAndDeletesIt() {
    KubeJobs<TestJobSpec> eager = eager();
    status("{\"state\":\"FAILED\"}");
    pod(DRIVER, "kj-job-1", "Running");

    JobExecutionInfo info = eager.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).isEqualTo("driver stopped");
    assertThat(server.store().get(ResourceType.POD, "etl", DRIVER)).isEmpty();
  }

  @Test
  void aPodDeleteAskedForWithoutAPodReportsTheOutcome() {
    KubeJobs<TestJobSpec> eager = eager();
    status("{\"state\":\"FAILED\"}");

    JobExecutionInfo info = eager.statusReader().get(id);

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

    JobExecutionInfo info = eager.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).contains("may still run").contains("list pods in namespace etl");
    assertThat(server.store().get(ResourceType.POD, "etl", DRIVER)).isPresent();
  }

  @Test
  void aResourceDeleteAskedForOnAResourceAlreadyBeingDeletedSendsNoDelete() {
    KubeJobs<TestJobSpec> eager = eager();
    server
        .store()
        .update(
            TestJobKind.TYPE,
            "etl",
            "kj-job-1",
            o -> {
              JsonArray finalizers = new JsonArray();
              finalizers.add(new JsonPrimitive("kubejobs.dev/hold"));
              o.getAsJsonObject("metadata").add("finalizers", finalizers);
              return o;
            });
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    server.journal().clear();

    JobExecutionInfo info = eager.statusReader().get(id);

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
    return KubeJobs.builder(server.newClient(), kind)
        .cluster(Fixture.CLUSTER)
        .deployment("gravitino-a")
        .clock(CLOCK)
        .retry(Fixture.fastRetry())
        .statusCacheTtl(Duration.ZERO)
        .build();
  }
}
