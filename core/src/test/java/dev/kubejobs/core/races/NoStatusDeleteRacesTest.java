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
package dev.kubejobs.core.races;

import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The no-status timeout's delete whose answer was lost, while another node cancels. The timeout
 * puts its end mark ({@code kubejobs.dev/ended}) with a merge patch locked to the copy's
 * resourceVersion before it deletes; the mark, not the delete, decides who ended the job, and a
 * cancel mark excludes it (the later patch meets 409, as kube-apiserver's {@code Store.Update}
 * answers a stale {@code metadata.resourceVersion}). Race simulation seed 717 showed why the
 * sender's memory alone is unsound: a DELETE reset before it was applied looks, to its sender, like
 * one applied whose answer was lost.
 */
class NoStatusDeleteRacesTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).clock(CLOCK).build();

  private FakeKubernetesApiServer server;
  private KubeJobs<TestJobSpec> nodeA;
  private KubeJobs<TestJobSpec> nodeB;
  private ExecutionId id;

  @BeforeEach
  void setUp() {
    CLOCK.set(T0);
    server = KUBE.server();
    nodeA = node(server.newClient("node-a"));
    nodeB = node(server.newClient("node-b"));
    id = nodeA.submitter().submit("job-1", TestJobSpec.in("etl"));
    CLOCK.advance(TestJobKind.NO_STATUS_TIMEOUT.plusSeconds(1));
  }

  private static KubeJobs<TestJobSpec> node(ApiClient client) {
    return Fixture.builder(client, CLOCK, "gravitino")
        .circuitBreaker(Fixture.lenientBreaker(CLOCK))
        .build();
  }

  @Test
  void anAppliedDeleteWhoseAnswersWereLostIsFailedOnBothNodesByItsRecord() {
    // Every attempt of A's DELETE is applied (the first) or answered 404 (the retries), and each
    // answer is lost. The delete was never confirmed, so A does not say FAILED from its mark alone
    // (the same history is what A sees when the operator acted after the mark and another node
    // withdrew it and cancelled the job); the record A wrote before the delete, never withdrawn,
    // tells every node that the end mark's delete ended the job.
    server.faults().add(Fault.on("DELETE", OBJECT).forClient("node-a").times(9).appliedThenLost());

    assertThatThrownBy(() -> nodeA.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class);
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    // B's cancel meanwhile finds nothing to cancel and claims nothing.
    assertThatThrownBy(() -> nodeB.canceller().cancel(id)).isInstanceOf(NoSuchJobException.class);
    assertThatThrownBy(() -> nodeA.canceller().cancel(id)).isInstanceOf(NoSuchJobException.class);

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.journal().count("DELETE", OBJECT)).isGreaterThanOrEqualTo(1);
  }

  @Test
  void aDeleteResetBeforeItWasAppliedLeavesTheEndMarkSoAnotherNodesCancelDoesNotClaimTheJob() {
    server.faults().add(Fault.on("DELETE", OBJECT).forClient("node-a").times(9).connectionReset());
    assertThatThrownBy(() -> nodeA.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class);
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_ENDED)
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);

    // Seed 717's race: B cancels while A believes its delete may have been applied.
    assertThat(nodeB.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    JobExecutionInfo byB = nodeB.statusReader().get(id);
    assertThat(byB.status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    // A, whose delete was never confirmed, finds the job gone; the record of the end mark's delete
    // (B's, bound to the same mark and copy as A's) says FAILED, as B does.
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
  }

  @Test
  void anEndMarkResetBeforeItWasAppliedLeavesTheJobToAnotherNodesCancel() {
    server.faults().add(Fault.on("PATCH", OBJECT).forClient("node-a").times(9).connectionReset());
    assertThatThrownBy(() -> nodeA.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class);
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();

    assertThat(nodeB.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

    // A never knew a mark of its own was written: it finds the job gone and reads B's record of
    // its cancel; B, which cancelled it, reports CANCELLED itself.
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void aCancelMarkLockedToACopyBeforeTheEndMarkLosesAndTheCancelReportsTheJobFinished() {
    // A's end mark lands (its delete is reset) between B's read and B's cancel mark.
    server.faults().add(Fault.on("DELETE", OBJECT).forClient("node-a").times(9).connectionReset());
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "PATCH",
                OBJECT,
                () ->
                    assertThatThrownBy(() -> nodeA.statusReader().get(id))
                        .isInstanceOf(ApiUnavailableException.class));
    KubeJobs<TestJobSpec> racingB = Fixture.scripted(server, hooks, CLOCK, "gravitino").build();

    assertThat(racingB.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_ENDED)
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(server.journal().count("DELETE", OBJECT)).isGreaterThanOrEqualTo(1);
    server.faults().clear();
    assertThat(racingB.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
    // A's own delete was never confirmed: B's ended the job, and A reads its record.
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
  }

  @Test
  void anEndMarkOutlivesAStatusTheOperatorWroteAfterItEvenWhileItsDeleteIsRefused() {
    // A's end mark lands, its delete does not; then the operator runs the job after all
    // (SUCCEEDED) while deletes are refused. What the operator did wins (issue 43): the mark,
    // whose delete was never confirmed, is withdrawn, the job is SUCCEEDED on both nodes, and
    // nothing deletes it once deletes are allowed again.
    server.faults().add(Fault.on("DELETE", OBJECT).forClient("node-a").times(9).connectionReset());
    assertThatThrownBy(() -> nodeA.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class);
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");
    int deletes = server.journal().count("DELETE", OBJECT);

    JobExecutionInfo byB = nodeB.statusReader().get(id);

    assertThat(byB.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(byB.message()).doesNotContain("no status from the operator");
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_ENDED);

    server.rbac().reset();
    server.faults().clear();

    assertThat(nodeA.statusReader().get(id).status())
        .as("the node that wrote the mark")
        .isEqualTo(JobStatus.SUCCEEDED);
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
    assertThat(server.journal().count("DELETE", OBJECT)).isEqualTo(deletes);
  }

  @Test
  void theOperatorsFirstStatusBetweenTheEndMarkAndItsDeleteMakesTheDeleteMeet409AndWins() {
    // The no-status delete is locked to the resourceVersion of the marked copy: the operator's
    // first status written between the mark and the delete makes kube-apiserver refuse it (409,
    // rest.BeforeDelete's precondition check in
    // staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go), and the reader decides again.
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "DELETE",
                OBJECT,
                () -> Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}"));
    KubeJobs<TestJobSpec> racing = Fixture.scripted(server, hooks, CLOCK, "gravitino").build();

    JobExecutionInfo info = racing.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.STARTED);
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_ENDED);
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
    assertThat(racing.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void anEndMarkWhosePatchAnswerWasLostGivesWayToTheOperatorOnEveryPath() {
    // A's end mark lands with its answer lost; the operator then writes its outcome. getAll on A,
    // get on B: each reports the operator's outcome, and the mark is withdrawn.
    server.faults().add(Fault.on("PATCH", OBJECT).forClient("node-a").times(1).appliedThenLost());
    server.faults().add(Fault.on("DELETE", OBJECT).forClient("node-a").forever().connectionReset());
    assertThatThrownBy(() -> nodeA.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class);
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_ENDED);
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"FAILED\"}");

    JobExecutionInfo byA = nodeA.statusReader().getAll(java.util.List.of(id)).get(id).orElseThrow();

    assertThat(byA.status()).isEqualTo(JobStatus.FAILED);
    assertThat(byA.message()).doesNotContain("no status from the operator");
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_ENDED);
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
  }

  @Test
  void aCancelOfAnEndMarkedJobTheOperatorRunsSinceWithdrawsTheMarkAndCancelsIt() {
    // Before issue 43 such a cancel answered ALREADY_FINISHED: the mark had decided FAILED. Now
    // the job is the operator's, and so is the cancel's to stop. A's delete was refused (403): not
    // applied, so A does not hold the mark for the job's end either.
    server
        .faults()
        .add(
            Fault.on("DELETE", OBJECT)
                .forClient("node-a")
                .forever()
                .status(403, "Forbidden", "node-a may not delete testjobs"));
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_ENDED);
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");

    assertThat(nodeB.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    // The mark's writer, whose delete was never applied, does not say FAILED: its record was
    // withdrawn with the mark, and B's cancel is recorded.
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void theMarksWriterWhoseDeleteMayHaveLandedReadsTheCancelOnceTheMarkWasWithdrawn() {
    // Race simulation, issue 43's scenarios (seed 11707, concurrent, and 44 more of 12,000): A's
    // delete after its end mark is reset, so A holds the mark for the job's end; the operator runs
    // the job, B withdraws the mark and later cancels the job. A read the job without the mark in
    // between: its delete, locked to the marked copy, never landed, so the job gone is not FAILED;
    // B's withdrawal of the mark withdrew A's record, and B's cancel is recorded.
    server.faults().add(Fault.on("DELETE", OBJECT).forClient("node-a").times(9).connectionReset());
    assertThatThrownBy(() -> nodeA.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class);
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    assertThat(nodeB.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void theMarksWriterWhoseDeleteWasResetAfterTheOperatorActedReadsTheCancelNotFailed() {
    // Race simulation seed 212: the operator writes its status between A's end mark and A's
    // delete, which is reset on its way; B withdraws the mark and cancels, the operator removes
    // the application, and A, reading next, finds it gone. A's delete was never confirmed, so A
    // does not say FAILED from its mark: it reads B's record of the cancel.
    server.faults().add(Fault.on("DELETE", OBJECT).times(9).connectionReset());
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "DELETE",
                OBJECT,
                () -> Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}"));
    KubeJobs<TestJobSpec> racingA = Fixture.scripted(server, hooks, CLOCK, "gravitino").build();
    assertThatThrownBy(() -> racingA.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class);
    server.faults().clear();

    assertThat(nodeB.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    assertThat(racingA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void anEndMarkedResourceAlreadyBeingDeletedIsReportedAsItsMarkDecidedWithoutAnotherDelete() {
    server.faults().add(Fault.on("DELETE", OBJECT).forClient("node-a").times(9).connectionReset());
    assertThatThrownBy(() -> nodeA.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class);
    Instant marked = CLOCK.instant();
    // Later, someone else's delete is held by a finalizer: the resource is being deleted.
    CLOCK.advance(Duration.ofMinutes(1));
    Fixture.holdWithFinalizer(server, "etl", "kj-job-1");
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    server.journal().clear();

    JobExecutionInfo info = nodeB.statusReader().get(id);

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(info.message()).contains("no status from the operator");
    assertThat(info.finishedAt()).as("the mark's time").contains(marked);
    assertThat(nodeA.statusReader().get(id)).as("the node that wrote the mark").isEqualTo(info);
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
  }

  /** The timeout has not come yet: nothing is marked or deleted. */
  @Test
  void beforeTheTimeoutNothingIsMarked() {
    CLOCK.set(T0.plus(Duration.ofSeconds(10)));

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);

    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_ENDED);
  }
}
