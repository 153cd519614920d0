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
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.MutableClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Issue 8, test strength: what the status cache serves, and what a cancel drops from it. */
class CacheStrengthTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String OBJECT = ".*/namespaces/etl/testjobs/kj-job-1";
  private static final String LIST = ".*/namespaces/etl/testjobs";

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
    jobs =
        Fixture.builder(server, CLOCK, "gravitino").statusCacheTtl(Duration.ofSeconds(30)).build();
    id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");
    server.journal().clear();
  }

  @Test
  void aSingleGetIsServedFromTheListWithNoGet() {
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    assertThat(server.journal().count("GET", LIST)).isEqualTo(1);
    assertThat(server.journal().count("GET", OBJECT)).isZero();
  }

  @Test
  void aCancelDropsTheCachedCopySoTheNextReadSeesTheJobGone() {
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

    // Within the cache period: the cached RUNNING copy is not served again.
    assertThatThrownBy(() -> jobs.statusReader().get(id)).isInstanceOf(NoSuchJobException.class);
    assertThat(server.journal().count("GET", LIST)).isEqualTo(1);
  }

  @Test
  void anExpiredListIsListedAgain() {
    jobs.statusReader().get(id);
    CLOCK.advance(Duration.ofSeconds(30));
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");

    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(server.journal().count("GET", LIST)).isEqualTo(2);
  }

  @Test
  void aCallerWaitingForAnotherCallersListGetsThatListsOwnError() throws Exception {
    Hold list = server.hold(Hold.on("GET", LIST).beforeApplying());
    CompletableFuture<Throwable> first =
        CompletableFuture.supplyAsync(() -> catchThrowable(() -> jobs.statusReader().get(id)));
    list.awaitArrived();
    AtomicReference<Throwable> waited = new AtomicReference<>();
    Thread second = new Thread(() -> waited.set(catchThrowable(() -> jobs.statusReader().get(id))));
    second.start();
    await().until(() -> second.getState() == Thread.State.WAITING);

    server.faults().add(Fault.on("GET", LIST).status(400, "BadRequest", "unknown field selector"));
    list.release();
    second.join(10_000);

    assertThat(first.get(10, TimeUnit.SECONDS)).isInstanceOf(JobRejectedException.class);
    assertThat(waited.get()).isInstanceOf(JobRejectedException.class);
    assertThat(server.journal().count("GET", LIST)).isEqualTo(1);
  }

  @Test
  void aCallerInterruptedWhileWaitingForTheListIsUnavailableAndStaysInterrupted() throws Exception {
    Hold list = server.hold(Hold.on("GET", LIST).beforeApplying());
    CompletableFuture<JobExecutionInfo> first =
        CompletableFuture.supplyAsync(() -> jobs.statusReader().get(id));
    list.awaitArrived();
    AtomicReference<Throwable> waited = new AtomicReference<>();
    AtomicBoolean interrupted = new AtomicBoolean();
    Thread second =
        new Thread(
            () -> {
              waited.set(catchThrowable(() -> jobs.statusReader().get(id)));
              interrupted.set(Thread.currentThread().isInterrupted());
            });
    second.start();
    await().until(() -> second.getState() == Thread.State.WAITING);

    second.interrupt();
    second.join(10_000);
    list.release();

    assertThat(waited.get())
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("interrupted while waiting for the list of namespace etl");
    assertThat(interrupted).isTrue();
    assertThat(first.get(10, TimeUnit.SECONDS).status()).isEqualTo(JobStatus.STARTED);
  }

  @Test
  void aJobReportedFinishedWhileACancelReadsItIsAlreadyFinished() throws Exception {
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
    Hold cancelRead = server.hold(Hold.on("GET", OBJECT).beforeApplying());
    CompletableFuture<CancelResult> cancel =
        CompletableFuture.supplyAsync(() -> jobs.canceller().cancel(id));
    cancelRead.awaitArrived();

    // Meanwhile the same instance reports the outcome (list, then the fresh re-read).
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    cancelRead.release();

    assertThat(cancel.get(10, TimeUnit.SECONDS)).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(server.journal().count("PATCH", OBJECT)).isZero();
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
  }
}
