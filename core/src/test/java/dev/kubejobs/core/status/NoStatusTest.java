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
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A job without a status past the no-status timeout is failed only once its resource's delete is
 * confirmed, how that delete gives up and what the job reports while it waits; a status this
 * version cannot parse keeps the job unfinished and its resource in place.
 */
class NoStatusTest {
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

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

  @Test
  void aConfirmedNoStatusDeleteReportsFailedWithoutReadingTheJobAgain() {
    CLOCK.advance(Duration.ofSeconds(601));
    server.journal().clear();

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).contains("no status");
    assertThat(info.diagnosis().orElseThrow().cause()).isEqualTo(Cause.OPERATOR_NOT_RUNNING);
    assertThat(info.diagnosis().orElseThrow().summary())
        .contains("so it was failed", "watches namespace etl");
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    // The end mark, then the delete, and no read of the job after it: its answer confirmed the
    // outcome.
    assertThat(server.journal().requests("*", "/apis/kubejobs\\.dev/.*"))
        .extracting(RecordedRequest::verb)
        .endsWith("PATCH", "DELETE");
    assertThat(server.journal().count("DELETE", OBJECT)).isEqualTo(1);
    assertThat(server.journal().count("GET", OBJECT)).isZero();
  }

  @Test
  void aNoStatusDeleteThatFindsTheResourceGoneReportsWhatTheEndMarkDecidedAndSaysSo() {
    CLOCK.advance(Duration.ofSeconds(601));
    // Another reader's delete (or this one's, whose answer was lost) came first.
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "DELETE", OBJECT, () -> server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1"));
    KubeJobs<TestJobSpec> reader =
        KUBE.track(Fixture.scripted(server, hooks, CLOCK, "gravitino").build());

    try (LogCapture logs = LogCapture.start()) {
      JobExecutionInfo info = reader.statusReader().get(id);

      assertThat(info.status()).isEqualTo(JobStatus.FAILED);
      assertThat(info.message()).contains("no status");
      assertThat(logs.lines())
          .anySatisfy(l -> assertThat(l).contains("was gone after its end mark; FAILED holds"));
    }
    assertThat(server.journal().count("GET", OBJECT)).isZero();
  }

  @Test
  void aConfirmedNoStatusDeleteDoesNotSayTheResourceWasGone() {
    CLOCK.advance(Duration.ofSeconds(601));

    try (LogCapture logs = LogCapture.start()) {
      assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
      assertThat(logs.lines()).noneMatch(l -> l.contains("was gone after its end mark"));
    }
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
  void aForbiddenNoStatusDeleteSaysWhatItWaitsFor() {
    CLOCK.advance(Duration.ofSeconds(601));
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");

    JobExecutionInfo info = jobs.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.message())
        .startsWith(
            "waiting to delete the job's resource before reporting FAILED (missing permission:"
                + " delete testjobs.kubejobs.dev in namespace etl");
    // The end mark's patch went through: it is the delete that was refused.
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_ENDED);
    assertThat(server.journal().count("DELETE", OBJECT)).isEqualTo(1);
  }

  @Test
  void aForbiddenEndMarkPatchNamesThePatchPermissionNotTheDelete() {
    CLOCK.advance(Duration.ofSeconds(601));
    server.rbac().deny("patch", "kubejobs.dev", "testjobs");

    JobExecutionInfo info = jobs.statusReader().get(id);

    // The end mark (a merge patch) comes before the delete: refused, the delete is never sent, and
    // the message names the permission the patch lacks.
    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(info.message())
        .startsWith(
            "waiting to delete the job's resource before reporting FAILED (missing permission:"
                + " patch testjobs.kubejobs.dev in namespace etl")
        .doesNotContain("delete testjobs");
    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(1);
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_ENDED);
  }
}
