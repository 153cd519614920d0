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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Races around the cancel mark found by the race simulation: a mark whose every answer is lost
 * (seed 1045 with threads: the mark landed, the cancel gave up before its delete and the job stayed
 * CANCELLING with nobody left to delete it), a mark that cannot be removed after a failed delete,
 * and a driver that exits between the cancel's look at its pod and the mark (seeds 10553, 10853,
 * 10885).
 */
class CancelMarkRacesTest {
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().deployment("gravitino").build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private KubeJobs<TestJobSpec> node;
  private ExecutionId id;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
    node = Fixture.scripted(server, new ClientHooks(), CLOCK, "gravitino").build();
    id = node.submitter().submit("job-1", TestJobSpec.in("etl"));
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");
  }

  @Test
  void aMarkWhoseAnswersAreAllLostIsFoundOnAReadAndTheJobIsDeleted() {
    // Every attempt of the mark's PATCH (the first applies, the retries meet 409) loses its answer.
    server.faults().add(Fault.on("PATCH", OBJECT).times(3).appliedThenLost());

    CancelResult result = node.canceller().cancel(id);

    assertThat(result).isEqualTo(CancelResult.REQUESTED);
    assertThat(server.journal().count("DELETE", OBJECT)).isEqualTo(1);
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
  }

  @Test
  void aMarkWithNoAnswerAndNoReadAfterItSaysItMayHaveBeenApplied() {
    // The mark's answers are lost and the server then stops answering reads: the mark may stay,
    // so the scheduler is told its cancel may have taken effect and to cancel again.
    server.faults().add(Fault.on("PATCH", OBJECT).times(3).appliedThenLost());
    server.faults().add(Fault.on("GET", OBJECT).skip(1).forever().connectionReset());

    ApiUnavailableException e =
        catchThrowableOfType(ApiUnavailableException.class, () -> node.canceller().cancel(id));

    assertThat(e.mayHaveBeenApplied()).isTrue();
    assertThat(e.getMessage()).contains("cancel again");
    // Every round's failed read is kept, so the cause of each can be told.
    assertThat(e.getSuppressed()).isNotEmpty().allMatch(ApiUnavailableException.class::isInstance);
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
  }

  @Test
  void aDeleteThatFailedWithAMarkThatCouldNotBeRemovedSaysItMayHaveBeenApplied() {
    // The DELETE never reaches the server and the mark's removal fails: the mark stays on, so the
    // scheduler must not be told that nothing of its cancel was applied.
    server.faults().add(Fault.on("DELETE", OBJECT).forever().connectionReset());
    server.faults().add(Fault.on("PATCH", OBJECT).skip(1).forever().status(500, "", "down"));

    ApiUnavailableException e =
        catchThrowableOfType(ApiUnavailableException.class, () -> node.canceller().cancel(id));

    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(e.mayHaveBeenApplied()).isTrue();
    assertThat(e.getMessage()).contains("cancel mark could not be removed");
  }

  @Test
  void aDriverThatExitsBetweenTheCancelsPodReadAndItsMarkEndsTheJobFirst() {
    // Simulation seeds 10553, 10853, 10885 (Kubeflow, with threads): a status this version cannot
    // read, so the driver pod decides; it exits 0 after the cancel looked at it but before the
    // mark.
    // The lock on the application's resourceVersion does not see pod changes.
    Fixture.driverDecides(server, "etl", "kj-job-1", "Running");
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "PATCH",
                OBJECT,
                () -> Fixture.setPodPhase(server, "etl", "kj-job-1-driver", "Succeeded"));
    KubeJobs<TestJobSpec> hooked = Fixture.scripted(server, hooks, CLOCK, "gravitino").build();

    assertThat(hooked.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(node.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aMarkWithNoAnswerIsReadAgainUntilAReadAnswers() {
    // Simulation seed 11316 (threads): the mark's answers are lost and so is the first read after
    // it (all its retries); the next read finds the mark and the cancel finishes, instead of
    // leaving the scheduler unsure whether its cancel was applied.
    server.faults().add(Fault.on("PATCH", OBJECT).times(3).appliedThenLost());
    server.faults().add(Fault.on("GET", OBJECT).skip(1).times(3).connectionReset());

    assertThat(node.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
  }

  @Test
  void aDeleteWithNoAnswerIsReadBackASecondTimeBeforeTheCancelCallsItselfUnconfirmed() {
    // Every attempt of the DELETE loses its answer (the first applies), and so does the first
    // read after it: the second read finds the job gone.
    server.faults().add(Fault.on("DELETE", OBJECT).times(3).appliedThenLost());
    server.faults().add(Fault.on("GET", OBJECT).skip(1).times(3).connectionReset());

    assertThat(node.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
  }

  @Test
  void aDeleteWithNoAnswerReadBackUnchangedTheSecondTimeFailsAndRemovesTheMark() {
    // The DELETE never reaches the server; the first read after it gets no answer, the second finds
    // the job unchanged: nothing of the cancel stays applied.
    server.faults().add(Fault.on("DELETE", OBJECT).times(3).connectionReset());
    server.faults().add(Fault.on("GET", OBJECT).skip(1).times(3).connectionReset());

    ApiUnavailableException e =
        catchThrowableOfType(ApiUnavailableException.class, () -> node.canceller().cancel(id));

    assertThat(e.mayHaveBeenApplied()).isFalse();
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
  }
}
