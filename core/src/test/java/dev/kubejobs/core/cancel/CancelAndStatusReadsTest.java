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
import dev.kubejobs.testkit.Hold;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a cancel answers when the job was deleted, replaced or reported finished around it, and what
 * the same node's status reads see afterwards: a cancel drops the cached copy it made stale, and a
 * job reported finished keeps its outcome once its resource is gone.
 */
class CancelAndStatusReadsTest {
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final String LIST = ".*/namespaces/etl/testjobs";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .settings(b -> b.statusCacheTtl(TTL))
          .submit("job-1", TestJobSpec.in("etl"))
          .running()
          .build();

  private final FakeKubernetesApiServer server = KUBE.server();

  @Test
  void aJobDeletedJustBeforeItsMarkIsNoSuchJob() {
    KubeJobs<TestJobSpec> b =
        node("PATCH", 1, () -> server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1"));

    assertThatThrownBy(() -> b.canceller().cancel(KUBE.id()))
        .isInstanceOf(NoSuchJobException.class);

    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
  }

  @Test
  void aJobReplacedBeforeItsMarkIsDoneAndItsCachedCopyIsDropped() {
    KubeJobs<TestJobSpec> b =
        node(
            "PATCH",
            1,
            () -> {
              server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
              server
                  .store()
                  .create(
                      TestJobKind.TYPE,
                      "etl",
                      Fixture.testJob("kj-job-1", "gravitino-a", "job-1", "SUCCEEDED"));
            });
    assertThat(b.statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.STARTED);

    assertThat(b.canceller().cancel(KUBE.id())).isEqualTo(CancelResult.REQUESTED);

    // The new resource is left alone, and the next read goes to the server, not the stale list.
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
    server.journal().clear();
    assertThat(b.statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(server.journal().count("GET", OBJECT)).isEqualTo(1);
  }

  @Test
  void aDeleteThatLandedWithItsAnswerLostDropsTheCachedCopy() {
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.STARTED);
    server.faults().add(Fault.on("DELETE", OBJECT).appliedThenLost());
    server.faults().add(Fault.on("DELETE", OBJECT).times(2).connectionReset());

    assertThat(KUBE.jobs().canceller().cancel(KUBE.id())).isEqualTo(CancelResult.REQUESTED);

    // Not the cached STARTED copy: the instance that cancelled the job says so (issue 41).
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void aJobReportedFinishedIsAlreadyFinishedWithoutARequestEvenOnceItsResourceIsGone() {
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    server.journal().clear();

    assertThat(KUBE.jobs().canceller().cancel(KUBE.id())).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(server.journal().requests()).isEmpty();
  }

  @Test
  void aJobTheCancelFoundFinishedKeepsItsOutcomeOnceItsResourceIsGone() {
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");

    assertThat(KUBE.jobs().canceller().cancel(KUBE.id())).isEqualTo(CancelResult.ALREADY_FINISHED);

    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aCancelDropsTheCachedCopySoTheNextReadSeesTheJobEndedByIt() {
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.STARTED);

    assertThat(KUBE.jobs().canceller().cancel(KUBE.id())).isEqualTo(CancelResult.REQUESTED);

    // Within the cache period: the cached RUNNING copy is not served again; the job is gone, and
    // the instance that cancelled it reports its cancel (issue 41).
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(server.journal().count("GET", LIST)).isEqualTo(1);
  }

  @Test
  void aJobReportedFinishedWhileACancelReadsItIsAlreadyFinished() throws Exception {
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
    Hold cancelRead = server.hold(Hold.on("GET", OBJECT).beforeApplying());
    CompletableFuture<CancelResult> cancel =
        CompletableFuture.supplyAsync(() -> KUBE.jobs().canceller().cancel(KUBE.id()));
    cancelRead.awaitArrived();

    // Meanwhile the same instance reports the outcome (list, then the fresh re-read).
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    cancelRead.release();

    assertThat(cancel.get(10, TimeUnit.SECONDS)).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(server.journal().count("PATCH", OBJECT)).isZero();
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
  }

  /** Another node, whose {@code nth} request of {@code method} is preceded by {@code action}. */
  private KubeJobs<TestJobSpec> node(String method, int nth, Runnable action) {
    ApiClient client = new ClientHooks().before(method, OBJECT, nth, action).client(server);
    return KUBE.track(KUBE.builder(client, "gravitino-a").build());
  }
}
