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
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.spi.CancelMark;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Cancel decides on one locked copy, with two nodes (two {@code ApiClient}s) on one fake API server
 * and {@link ClientHooks} interleaving their steps.
 *
 * <p>The fake server answers a DELETE whose {@code preconditions.resourceVersion} no longer matches
 * with 409 Conflict, as kube-apiserver does ({@code Preconditions.Check} in
 * staging/src/k8s.io/apiserver/pkg/storage/interfaces.go, called from {@code GuaranteedUpdate} /
 * {@code Delete} of staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go).
 */
class CancelRacesTest {
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .deployment("gravitino")
          .submit("job-1", TestJobSpec.in("etl"))
          .running()
          .build();

  private static final MutableClock CLOCK = KUBE.clock();

  private final FakeKubernetesApiServer server = KUBE.server();

  /** Node B: the harness's instance, which submitted the job. */
  private static KubeJobs<TestJobSpec> nodeB() {
    return KUBE.jobs();
  }

  private KubeJobs<TestJobSpec> node(ClientHooks hooks) {
    return Fixture.scripted(server, hooks, CLOCK, "gravitino").build();
  }

  @Test
  void cancelOfAJobWhoseEndOnlyTheDriverPodShowsAnswersAlreadyFinishedAndDeletesNothing() {
    // Item 1: a status this version cannot parse; the driver exited 0 (pod Succeeded).
    Fixture.driverDecides(server, "etl", "kj-job-1", "Succeeded");
    KubeJobs<TestJobSpec> nodeA = node(new ClientHooks());

    assertThat(nodeA.canceller().cancel(KUBE.id())).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
    assertThat(server.journal().count("DELETE", ".*")).isZero();
    assertThat(nodeB().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aDriverExitingWhileTheDeleteIsOnItsWayEndsTheJobOnEveryNodeAndTheDeleteMeets409() {
    // A status this version cannot parse: the driver pod decides. It exits 0 after the cancel's
    // mark and its second look at the pod, while the delete is on its way; the exit changes the
    // pod, not the job's resource, so only the withdrawal of the mark by B's read (which reports
    // SUCCEEDED) makes A's delete, locked to the marked copy, meet 409.
    Fixture.driverDecides(server, "etl", "kj-job-1", "Running");
    AtomicReference<JobStatus> seenByB = new AtomicReference<>();
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "DELETE",
                OBJECT,
                () -> {
                  Fixture.setPodPhase(server, "etl", "kj-job-1-driver", "Succeeded");
                  seenByB.set(nodeB().statusReader().get(KUBE.id()).status());
                });
    KubeJobs<TestJobSpec> nodeA = node(hooks);

    CancelResult result = nodeA.canceller().cancel(KUBE.id());

    assertThat(seenByB.get()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(result).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(nodeA.statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(nodeB().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  /**
   * Marks the job for cancel, lets its driver pod succeed, and returns a reader without a cache
   * that runs {@code beforeWithdrawal} just before its first PATCH of the job (the mark's
   * withdrawal); the journal is emptied.
   */
  private KubeJobs<TestJobSpec> readerOfAMarkedJobWhoseDriverSucceeded(Runnable beforeWithdrawal) {
    Fixture.driverDecides(server, "etl", "kj-job-1", "Succeeded");
    Fixture.annotate(
        server,
        "etl",
        "kj-job-1",
        JobIdentity.ANNOTATION_CANCEL_REQUESTED,
        new CancelMark(T0, "0123456789abcdef-1", "1", "").toString());
    KubeJobs<TestJobSpec> reader =
        Fixture.scripted(
                server,
                new ClientHooks().before("PATCH", OBJECT, beforeWithdrawal),
                CLOCK,
                "gravitino")
            .statusCacheTtl(Duration.ZERO)
            .build();
    server.journal().clear();
    return reader;
  }

  @Test
  void aMarkWithdrawalThatFindsTheJobDeletedLeavesItGoneNotEnded() {
    // The driver ended while the job carried a cancel mark; before the read withdraws the mark, the
    // cancel's delete removes the resource. The withdrawal meets 404: the cancel won, the job is
    // gone (the scheduler that cancelled it records it cancelled), never reported SUCCEEDED.
    KubeJobs<TestJobSpec> reader =
        readerOfAMarkedJobWhoseDriverSucceeded(
            () -> server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1"));

    assertThatThrownBy(() -> reader.statusReader().get(KUBE.id()))
        .isInstanceOf(NoSuchJobException.class);
    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(1);
  }

  @Test
  void aMarkWithdrawalThatMeetsAChangeIsDecidedAgainOnAFreshCopy() {
    // A read that ends a marked job by its driver pod withdraws the mark first, locked to its
    // copy. Here the job changed since that copy (a label; in the race, the cancel's delete), so
    // the withdrawal meets 409 and the read decides again on a fresh copy: one more GET, one more
    // withdrawal, and the job is reported as the driver ended it.
    KubeJobs<TestJobSpec> reader =
        readerOfAMarkedJobWhoseDriverSucceeded(() -> Fixture.touch(server, "etl", "kj-job-1"));

    assertThat(reader.statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);

    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(2);
    assertThat(server.journal().count("GET", OBJECT)).isEqualTo(2);
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
  }

  @Test
  void outcomeWrittenBetweenTheMarkAndTheDeleteStandsAndCancelAnswersAlreadyFinished() {
    // Item 2: the operator records SUCCEEDED after the mark, right before the DELETE arrives.
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "DELETE",
                OBJECT,
                () -> Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}"));
    KubeJobs<TestJobSpec> nodeA = node(hooks);

    assertThat(nodeA.canceller().cancel(KUBE.id())).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
    assertThat(nodeA.statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(nodeB().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void outcomeInsideTheMarksSecondIsOrderedByTheLockedCopyNotByTimestamps() {
    // Item 3: mark at .400, SUCCEEDED at .700 (node B reports it), DELETE at .800 — all inside
    // one second, which is all a deletionTimestamp can resolve.
    CLOCK.set(T0.plusMillis(400));
    AtomicReference<JobStatus> seenByB = new AtomicReference<>();
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "DELETE",
                OBJECT,
                () -> {
                  CLOCK.advance(Duration.ofMillis(300));
                  Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
                  seenByB.set(nodeB().statusReader().get(KUBE.id()).status());
                  CLOCK.advance(Duration.ofMillis(100));
                });
    KubeJobs<TestJobSpec> nodeA = node(hooks);

    CancelResult result = nodeA.canceller().cancel(KUBE.id());

    assertThat(seenByB.get()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(result).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(nodeA.statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(nodeB().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    // The mark records what the copy it was put on showed, and who put it.
    CancelMark mark =
        CancelMark.parse(
                Fixture.annotations(server, "etl", "kj-job-1")
                    .get(JobIdentity.ANNOTATION_CANCEL_REQUESTED))
            .orElseThrow();
    assertThat(mark.operatorState()).isEqualTo("RUNNING");
    assertThat(mark.requestedAt()).isEqualTo(T0.plusMillis(400));
    assertThat(mark.writer()).matches("[0-9a-f]{16}-[0-9]+");
    assertThat(mark.resourceVersion()).isNotEmpty();
  }

  @Test
  void theCancelDeleteCarriesTheMarkedCopysResourceVersion() {
    KubeJobs<TestJobSpec> nodeA = node(new ClientHooks());

    assertThat(nodeA.canceller().cancel(KUBE.id())).isEqualTo(CancelResult.REQUESTED);

    String body = server.journal().requests("DELETE", OBJECT).get(0).body();
    String patched = server.journal().requests("PATCH", OBJECT).get(0).body();
    assertThat(body).contains("\"uid\"").contains("\"resourceVersion\"");
    assertThat(patched).contains("resourceVersion");
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
  }

  @Test
  void cancelOfAResourceNotManagedByKubejobsIsATypedErrorAndTouchesNothing() {
    // Item 7: a hand-built id of someone else's resource.
    var foreign = Fixture.testJob("theirs", "gravitino", "x", "RUNNING");
    foreign
        .getAsJsonObject("metadata")
        .getAsJsonObject("labels")
        .remove(JobIdentity.LABEL_MANAGED_BY);
    server.store().create(TestJobKind.TYPE, "etl", foreign);
    ExecutionId theirs = ExecutionId.of(Fixture.CLUSTER, TestJobKind.KIND, "etl", "theirs");
    server.journal().clear();

    assertThatThrownBy(() -> nodeB().canceller().cancel(theirs))
        .isInstanceOfSatisfying(
            JobConflictException.class,
            e -> assertThat(e.reason()).isEqualTo(JobConflictException.Reason.NOT_MANAGED))
        .hasMessageContaining("not managed by kubejobs");
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "theirs")).isPresent();
    assertThat(server.journal().count("PATCH", ".*")).isZero();
    assertThat(server.journal().count("DELETE", ".*")).isZero();
  }

  @Test
  void aNodeWithAnEqualClockNeverTakesAnotherNodesMarkForItsOwn() {
    // Item 12: A marks; before A's DELETE, B cancels at the same instant and B's DELETE fails.
    // B must not remove A's mark as if it were its own.
    ClientHooks failingB = new ClientHooks().notSent("DELETE", OBJECT, 10);
    KubeJobs<TestJobSpec> b = node(failingB);
    AtomicReference<Map<String, String>> afterB = new AtomicReference<>();
    AtomicReference<Throwable> bFailure = new AtomicReference<>();
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "DELETE",
                OBJECT,
                () -> {
                  try {
                    b.canceller().cancel(KUBE.id());
                  } catch (ApiUnavailableException e) {
                    bFailure.set(e);
                  }
                  afterB.set(Fixture.annotations(server, "etl", "kj-job-1"));
                });
    KubeJobs<TestJobSpec> nodeA = node(hooks);
    Map<String, String> beforeAny = Fixture.annotations(server, "etl", "kj-job-1");
    assertThat(beforeAny).doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);

    CancelResult result = nodeA.canceller().cancel(KUBE.id());

    assertThat(bFailure.get()).isInstanceOf(ApiUnavailableException.class);
    assertThat(afterB.get()).containsKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(result).isEqualTo(CancelResult.REQUESTED);
  }
}
