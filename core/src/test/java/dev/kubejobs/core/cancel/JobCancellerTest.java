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
package dev.kubejobs.core.cancel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import io.kubernetes.client.openapi.ApiClient;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Cancel: a finished job keeps its outcome, a running one gets the cancel mark with a locked patch
 * and is deleted with a uid precondition, and what the cancel answers when the job ends, is deleted
 * or is replaced meanwhile, or when its delete fails.
 */
class JobCancellerTest {
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().submit("job-1", TestJobSpec.in("etl")).running().build();

  private static final MutableClock CLOCK = KUBE.clock();

  private final FakeKubernetesApiServer server = KUBE.server();

  @Test
  void cancelAfterSuccessKeepsSucceeded() {
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");

    assertThat(KUBE.jobs().canceller().cancel(KUBE.id())).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(server.journal().count("PATCH", ".*")).isZero();
    assertThat(server.journal().count("DELETE", ".*")).isZero();
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void cancelOfAResourceAnEarlierCancelIsDeletingIsDone() {
    holdWithFinalizer();
    KubeJobs<TestJobSpec> other = KUBE.track(KUBE.builder("gravitino").build());
    assertThat(other.canceller().cancel(KUBE.id())).isEqualTo(CancelResult.REQUESTED);
    server.journal().clear();

    assertThat(KUBE.jobs().canceller().cancel(KUBE.id())).isEqualTo(CancelResult.ALREADY_DELETING);
    assertThat(server.journal().count("PATCH", ".*")).isZero();
    assertThat(server.journal().count("DELETE", ".*")).isZero();
  }

  @Test
  void cancelOfAResourceDeletedWithoutACancelAnswersAlreadyFinishedNotDeleting() {
    // Simulation seed 10197 (threads): the no-status timeout deletes a job that never got a
    // status; a cancel racing it must not read as the scheduler's own cancel (the job ends FAILED).
    holdWithFinalizer();
    server
        .store()
        .update(
            TestJobKind.TYPE,
            "etl",
            "kj-job-1",
            app -> {
              app.remove("status");
              return app;
            });
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");

    assertThat(KUBE.jobs().canceller().cancel(KUBE.id())).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(server.journal().count("PATCH", ".*")).isZero();
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.FAILED);
  }

  @Test
  void cancelPutsTheMarkWithALockedPatchThenDeletesWithAUidPrecondition() {
    String uid = uid();

    assertThat(KUBE.jobs().canceller().cancel(KUBE.id())).isEqualTo(CancelResult.REQUESTED);

    RecordedRequest patch = server.journal().requests("PATCH", OBJECT).get(0);
    assertThat(patch.contentType()).startsWith("application/merge-patch+json");
    assertThat(patch.body())
        .contains("\"resourceVersion\"")
        .contains(JobIdentity.ANNOTATION_CANCEL_REQUESTED)
        .contains("2026-01-01T00:00:00Z");
    RecordedRequest delete = server.journal().requests("DELETE", OBJECT).get(0);
    assertThat(delete.body()).contains("\"uid\":\"" + uid + "\"");
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    assertThatThrownBy(() -> KUBE.jobs().canceller().cancel(KUBE.id()))
        .isInstanceOf(NoSuchJobException.class);
  }

  @Test
  void jobSucceedingBetweenTheReadAndTheMarkEndsSucceededNotCancelled() {
    // The race, scripted: the job succeeds just before the cancel's first PATCH reaches the server.
    AtomicBoolean raced = new AtomicBoolean();
    ApiClient racing =
        new ClientHooks()
            .before(
                "PATCH",
                OBJECT,
                () -> {
                  raced.set(true);
                  Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
                })
            .client(server);
    KubeJobs<TestJobSpec> b = KUBE.track(KUBE.builder(racing, "gravitino-a").build());

    assertThat(b.canceller().cancel(KUBE.id())).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(raced).isTrue();
    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(1);
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(b.statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void deleteAppliedButAnswerLostReportsSuccessAndKeepsTheMark() {
    holdWithFinalizer();
    // The delete lands but its answer is lost, and every retry gets no answer either.
    server.faults().add(Fault.on("DELETE", OBJECT).appliedThenLost());
    server.faults().add(Fault.on("DELETE", OBJECT).times(2).connectionReset());

    assertThat(KUBE.jobs().canceller().cancel(KUBE.id())).isEqualTo(CancelResult.REQUESTED);

    JsonObject stored = server.store().get(TestJobKind.TYPE, "etl", "kj-job-1").orElseThrow();
    assertThat(stored.getAsJsonObject("metadata").has("deletionTimestamp")).isTrue();
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(server.journal().count("DELETE", OBJECT)).isEqualTo(3);
  }

  @Test
  void deleteFailingForRealRemovesTheMarkAndThrows() {
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");

    assertThatThrownBy(() -> KUBE.jobs().canceller().cancel(KUBE.id()))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.FORBIDDEN))
        .hasMessageContaining("missing permission: delete testjobs.kubejobs.dev");

    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(2);
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.STARTED);
  }

  @Test
  void aMarkWhoseAnswerWasLostIsStillRemovedWhenTheDeleteFails() {
    // The mark lands, its answer is lost; the retried patch answers 409 (stale resourceVersion).
    server.faults().add(Fault.on("PATCH", OBJECT).appliedThenLost());
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");

    assertThatThrownBy(() -> KUBE.jobs().canceller().cancel(KUBE.id()))
        .isInstanceOf(JobRejectedException.class);

    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
  }

  @Test
  void deleteUnreachableWhileTheResourceStaysRemovesTheMarkAndThrowsUnavailable() {
    server.faults().add(Fault.on("DELETE", OBJECT).forever().connectionReset());

    // Nothing this cancel sent stays applied: a scheduler must not record it as cancelled.
    assertThatThrownBy(() -> KUBE.jobs().canceller().cancel(KUBE.id()))
        .isInstanceOfSatisfying(
            ApiUnavailableException.class, e -> assertThat(e.mayHaveBeenApplied()).isFalse());

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
  }

  @Test
  void aResourceBeingDeletedBeforeTheUnmarkKeepsTheMarkAndEndsCancelledSide() {
    holdWithFinalizer();
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");
    // Someone else deletes the job (held by its finalizer) just before the un-mark PATCH.
    ApiClient racing =
        new ClientHooks()
            .before(
                "PATCH",
                OBJECT,
                2,
                () -> server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1"))
            .client(server);
    KubeJobs<TestJobSpec> b = KUBE.track(KUBE.builder(racing, "gravitino-a").build());

    assertThatThrownBy(() -> b.canceller().cancel(KUBE.id()))
        .isInstanceOf(JobRejectedException.class);

    JsonObject stored = server.store().get(TestJobKind.TYPE, "etl", "kj-job-1").orElseThrow();
    assertThat(stored.getAsJsonObject("metadata").has("deletionTimestamp")).isTrue();
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    assertThat(b.statusReader().get(KUBE.id()).status())
        .isIn(JobStatus.CANCELLING, JobStatus.CANCELLED);
    // Once the operator's status is gone too, the mark decides: CANCELLED, never FAILED.
    server
        .store()
        .update(
            TestJobKind.TYPE,
            "etl",
            "kj-job-1",
            o -> {
              o.remove("status");
              return o;
            });
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void aDeleteRefusedByTheUidPreconditionBecauseTheJobWasReplacedIsDone() {
    // Between the mark and the delete, the job's resource is deleted and one of the same name
    // created: the delete's uid precondition answers 409, the job's own resource is gone.
    AtomicBoolean replaced = new AtomicBoolean();
    ApiClient racing =
        new ClientHooks()
            .before(
                "DELETE",
                OBJECT,
                () -> {
                  replaced.set(true);
                  server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
                  server
                      .store()
                      .create(
                          TestJobKind.TYPE,
                          "etl",
                          Fixture.testJob("kj-job-1", "gravitino-a", "job-1", "RUNNING"));
                })
            .client(server);
    KubeJobs<TestJobSpec> b = KUBE.track(KUBE.builder(racing, "gravitino-a").build());
    String oldUid = uid();

    assertThat(b.canceller().cancel(KUBE.id())).isEqualTo(CancelResult.REQUESTED);

    assertThat(replaced).isTrue();
    assertThat(server.journal().requests("DELETE", OBJECT)).hasSize(1);
    assertThat(uid()).isNotEqualTo(oldUid);
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
  }

  private void holdWithFinalizer() {
    Fixture.holdWithFinalizer(server, "etl", "kj-job-1");
  }

  private String uid() {
    return server
        .store()
        .get(TestJobKind.TYPE, "etl", "kj-job-1")
        .orElseThrow()
        .getAsJsonObject("metadata")
        .get("uid")
        .getAsString();
  }
}
