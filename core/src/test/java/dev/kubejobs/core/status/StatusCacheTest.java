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
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobKindVariant;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the status cache serves: many jobs cost one LIST per namespace per cache period, a job
 * missing from the list costs one GET, and callers waiting for a list share its answer or error.
 */
class StatusCacheTest {
  private static final Duration TTL = Duration.ofSeconds(5);
  private static final String LISTS = "/apis/kubejobs.dev/v1/namespaces/[^/]+/testjobs";
  private static final String GETS = "/apis/kubejobs.dev/v1/namespaces/[^/]+/testjobs/[^/]+";
  private static final String ETL_LIST = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs";
  private static final String EVENTS = "/api/v1/namespaces/etl/events";
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().settings(b -> b.statusCacheTtl(TTL)).build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private KubeJobs<TestJobSpec> jobs;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
    jobs = KUBE.jobs();
  }

  @Test
  void getAllOfAThousandJobsInFourNamespacesMakesAtMostFourListsAndNoGet() {
    List<ExecutionId> ids = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      String ns = "ns-" + (i % 4);
      String name = "kj-job-" + i;
      server
          .store()
          .create(
              TestJobKind.TYPE, ns, Fixture.testJob(name, "gravitino-a", "job-" + i, "RUNNING"));
      ids.add(ExecutionId.of("test", TestJobKind.KIND, ns, name));
    }

    Map<ExecutionId, JobExecutionInfo> all = jobs.statusReader().getAllInfos(ids);

    assertThat(all).hasSize(1000);
    assertThat(all.values()).allMatch(i -> i.status() == JobStatus.STARTED);
    assertThat(server.journal().count("GET", LISTS)).isLessThanOrEqualTo(4);
    assertThat(server.journal().count("GET", GETS)).isZero();
    assertThat(server.journal().requests("GET", LISTS).get(0).queryParameter("labelSelector"))
        .isEqualTo("app.kubernetes.io/managed-by=kubejobs");
  }

  @Test
  void aJobMissingFromTheListIsConfirmedWithOneGet() {
    ExecutionId listed = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
    jobs.statusReader().get(listed);
    ExecutionId later = jobs.submitter().submit("job-2", TestJobSpec.in("etl"));
    ExecutionId never = ExecutionId.of("test", TestJobKind.KIND, "etl", "kj-never");
    server.journal().clear();

    assertThat(jobs.statusReader().get(later).status()).isEqualTo(JobStatus.QUEUED);
    assertThatThrownBy(() -> jobs.statusReader().get(never)).isInstanceOf(NoSuchJobException.class);
    assertThat(jobs.statusReader().getAllInfos(List.of(listed, never))).containsOnlyKeys(listed);

    assertThat(server.journal().count("GET", LISTS)).isZero();
    assertThat(server.journal().count("GET", GETS)).isEqualTo(3);
  }

  /**
   * A list paged across the server's compaction starts again (410 {@code Expired} on its second
   * page); the jobs of the expired first page are dropped with it, so a job deleted meanwhile is
   * not served from that page: it is confirmed gone with one GET.
   */
  @Test
  void aListThatStartsAgainDropsWhatItsExpiredPagesHeld() throws Exception {
    List<ExecutionId> ids = new ArrayList<>();
    for (int i = 0; i < 700; i++) {
      String name = String.format("kj-job-%03d", i);
      server
          .store()
          .create(TestJobKind.TYPE, "etl", Fixture.testJob(name, "gravitino-a", name, "RUNNING"));
      ids.add(ExecutionId.of("test", TestJobKind.KIND, "etl", name));
    }
    ExecutionId deleted = ids.get(0); // on the first page (names are listed in order)
    Hold secondPage = server.hold(Hold.on("GET", ETL_LIST).skip(1));
    CompletableFuture<Map<ExecutionId, JobStatusResult>> read =
        CompletableFuture.supplyAsync(() -> jobs.statusReader().getAll(ids));
    secondPage.awaitArrived();
    server.store().delete(TestJobKind.TYPE, "etl", deleted.name());
    server.compact();
    secondPage.release();

    Map<ExecutionId, JobStatusResult> all = read.get(30, TimeUnit.SECONDS);

    assertThat(secondPage.awaitAnswered()).isEqualTo(410);
    assertThat(all.get(deleted).error()).get().isInstanceOf(NoSuchJobException.class);
    assertThat(ids.subList(1, 700))
        .allSatisfy(
            id -> assertThat(all.get(id).orElseThrow().status()).isEqualTo(JobStatus.STARTED));
    assertThat(server.journal().count("GET", GETS)).isEqualTo(1);
  }

  @Test
  void aForbiddenListFallsBackToGets() {
    ExecutionId id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
    server.rbac().deny("list", "kubejobs.dev", "testjobs");
    server.journal().clear();

    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);
    assertThat(jobs.statusReader().getAll(List.of(id))).containsKey(id);

    // The forbidden LIST is remembered for the cache period: one LIST, then GETs.
    assertThat(server.journal().count("GET", LISTS)).isEqualTo(1);
    assertThat(server.journal().count("GET", GETS)).isEqualTo(2);
  }

  @Test
  void theListIsRepeatedOnlyAfterTheCachePeriod() {
    ExecutionId id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
    server.journal().clear();

    jobs.statusReader().get(id);
    CLOCK.advance(Duration.ofSeconds(4));
    jobs.statusReader().get(id);
    assertThat(server.journal().count("GET", LISTS)).isEqualTo(1);

    CLOCK.advance(Duration.ofSeconds(1));
    jobs.statusReader().get(id);
    assertThat(server.journal().count("GET", LISTS)).isEqualTo(2);
  }

  @Test
  void concurrentCallersShareOneListPerNamespace() throws Exception {
    List<ExecutionId> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add(jobs.submitter().submit("job-" + i, TestJobSpec.in(i % 2 == 0 ? "a" : "b")));
    }
    server.journal().clear();
    // Hold each namespace's LIST back so that all callers overlap with it.
    server.faults().add(Fault.on("GET", LISTS).times(2).delay(Duration.ofMillis(300)));
    int callers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Map<ExecutionId, JobStatusResult>>> results = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return jobs.statusReader().getAll(ids);
                }));
      }
      start.countDown();
      for (Future<Map<ExecutionId, JobStatusResult>> f : results) {
        assertThat(f.get()).hasSize(20);
        assertThat(f.get().values()).allMatch(r -> r.info().isPresent());
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(server.journal().requests("GET", LISTS))
        .extracting(r -> r.path())
        .containsExactlyInAnyOrder(
            "/apis/kubejobs.dev/v1/namespaces/a/testjobs",
            "/apis/kubejobs.dev/v1/namespaces/b/testjobs");
    assertThat(server.journal().count("GET", GETS)).isZero();
  }

  @Test
  void oneJobsFailingStepIsThatJobsResultAndNeverHidesTheOthers() {
    server
        .store()
        .create(
            TestJobKind.TYPE,
            "etl",
            Fixture.testJob("kj-job-1", "gravitino-a", "job-1", "RUNNING"));
    server
        .store()
        .create(
            TestJobKind.TYPE, "etl", Fixture.testJob("kj-job-2", "gravitino-a", "job-2", "FAILED"));
    server
        .store()
        .create(
            ResourceType.POD, "etl", Fixture.driverPod("kj-job-2-driver", "kj-job-2", "Running"));
    // Job 2 failed but its driver still runs, and the pod's delete keeps failing with 503.
    server
        .faults()
        .add(
            Fault.on("DELETE", "/api/v1/namespaces/etl/pods/.*")
                .forever()
                .status(503, "ServiceUnavailable", "webhook down"));
    ExecutionId one = ExecutionId.of("test", TestJobKind.KIND, "etl", "kj-job-1");
    ExecutionId two = ExecutionId.of("test", TestJobKind.KIND, "etl", "kj-job-2");

    Map<ExecutionId, JobStatusResult> all = jobs.statusReader().getAll(List.of(one, two));

    assertThat(all.get(one).orElseThrow().status()).isEqualTo(JobStatus.STARTED);
    assertThat(all.get(two).error())
        .get()
        .isInstanceOfSatisfying(
            ApiUnavailableException.class, e -> assertThat(e.executionId()).contains(two));

    // Isolating the failing job: get(id) per job. Job 1 is served from the cached LIST; job 2's
    // cached copy would end it and was listed before that question, so it is read again: with its
    // own GET, the only job to read again (not the whole namespace's LIST).
    assertThat(jobs.statusReader().get(one).status()).isEqualTo(JobStatus.STARTED);
    assertThat(server.journal().count("GET", LISTS)).isEqualTo(1);
    assertThatThrownBy(() -> jobs.statusReader().get(two))
        .isInstanceOf(ApiUnavailableException.class);
    assertThat(server.journal().count("GET", LISTS)).isEqualTo(1);
    assertThat(server.journal().count("GET", GETS)).isEqualTo(1);
  }

  @Test
  void aSingleGetIsServedFromTheListWithNoGet() {
    ExecutionId id = runningJob();
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    assertThat(server.journal().count("GET", ETL_LIST)).isEqualTo(1);
    assertThat(server.journal().count("GET", OBJECT)).isZero();
  }

  @Test
  void anExpiredListIsListedAgain() {
    ExecutionId id = runningJob();
    jobs.statusReader().get(id);
    CLOCK.advance(TTL);
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");

    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(server.journal().count("GET", ETL_LIST)).isEqualTo(2);
  }

  @Test
  void aCallerWaitingForAnotherCallersListGetsThatListsOwnError() throws Exception {
    ExecutionId id = runningJob();
    Hold list = server.hold(Hold.on("GET", ETL_LIST).beforeApplying());
    CompletableFuture<Throwable> first =
        CompletableFuture.supplyAsync(() -> catchThrowable(() -> jobs.statusReader().get(id)));
    list.awaitArrived();
    AtomicReference<Throwable> waited = new AtomicReference<>();
    Thread second = new Thread(() -> waited.set(catchThrowable(() -> jobs.statusReader().get(id))));
    second.start();
    await().until(() -> second.getState() == Thread.State.WAITING);

    server
        .faults()
        .add(Fault.on("GET", ETL_LIST).status(400, "BadRequest", "unknown field selector"));
    list.release();
    second.join(10_000);

    assertThat(first.get(10, TimeUnit.SECONDS)).isInstanceOf(JobRejectedException.class);
    assertThat(waited.get()).isInstanceOf(JobRejectedException.class);
    assertThat(server.journal().count("GET", ETL_LIST)).isEqualTo(1);
  }

  @Test
  void aCallerInterruptedWhileWaitingForTheListIsUnavailableAndStaysInterrupted() throws Exception {
    ExecutionId id = runningJob();
    Hold list = server.hold(Hold.on("GET", ETL_LIST).beforeApplying());
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

  /** Submits job-1 in namespace etl, running, and starts the journal empty. */
  @Test
  void aListThatFailedIsSentAgainByTheNextRead() {
    ExecutionId id = runningJob();
    server
        .faults()
        .add(Fault.on("GET", ETL_LIST).status(400, "BadRequest", "unknown field selector"));

    assertThatThrownBy(() -> jobs.statusReader().get(id)).isInstanceOf(JobRejectedException.class);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    assertThat(server.journal().count("GET", ETL_LIST)).isEqualTo(2);
  }

  @Test
  void copiesThatWouldEndJobsAreListedAgainWithoutWaitingForAListSentBeforeTheQuestion()
      throws Exception {
    for (String name : List.of("kj-a-1", "kj-a-2", "kj-b-1", "kj-b-2")) {
      job(name, "SUCCEEDED");
    }
    ExecutionId running = job("kj-run", "RUNNING");
    // The cached list holds the four ended copies, listed before the questions below.
    assertThat(jobs.statusReader().get(running).status()).isEqualTo(JobStatus.STARTED);
    List<ExecutionId> first = List.of(id("kj-a-1"), id("kj-a-2"));
    List<ExecutionId> second = List.of(id("kj-b-1"), id("kj-b-2"));
    Hold list = server.hold(Hold.on("GET", ETL_LIST).beforeApplying());
    try {
      CompletableFuture<Map<ExecutionId, JobExecutionInfo>> before =
          CompletableFuture.supplyAsync(() -> jobs.statusReader().getAllInfos(first));
      list.awaitArrived();

      // Asked after that LIST was sent: its answer may be older than the question, so another
      // LIST is sent, and answers while the first one is still under way.
      CompletableFuture<Map<ExecutionId, JobExecutionInfo>> after =
          CompletableFuture.supplyAsync(() -> jobs.statusReader().getAllInfos(second));
      await().until(after::isDone);
      assertThat(list.hasArrived()).isTrue();
      assertThat(before).isNotDone();
      assertThat(after.get().values()).allMatch(i -> i.status() == JobStatus.SUCCEEDED);

      list.release();
      assertThat(before.get(10, TimeUnit.SECONDS).values())
          .allMatch(i -> i.status() == JobStatus.SUCCEEDED);
    } finally {
      list.release();
    }
    assertThat(server.journal().count("GET", ETL_LIST)).isEqualTo(3);
    assertThat(server.journal().count("GET", GETS)).isZero();
  }

  @Test
  void aStartedJobWhoseExecutorsWaitKeepsItsCachedCopyAndIsDiagnosed() {
    KubeJobs<TestJobSpec> waiting = instance(true);
    KubeJobs<TestJobSpec> notWaiting = instance(false);
    ExecutionId id = job("kj-run", "RUNNING");
    CLOCK.advance(Duration.ofHours(1));
    server.journal().clear();

    assertThat(notWaiting.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
    assertThat(server.journal().count("GET", EVENTS)).isZero();

    // The copy the list brought is kept past its mapping, so the job is diagnosed from it: the
    // namespace's events and executor pods are read.
    assertThat(waiting.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
    assertThat(server.journal().count("GET", ETL_LIST)).isEqualTo(2);
    assertThat(server.journal().count("GET", EVENTS)).isEqualTo(1);
    assertThat(server.journal().requests("GET", "/api/v1/namespaces/etl/pods"))
        .extracting(r -> r.queryParameter("labelSelector"))
        .contains("spark-role=executor");
  }

  /** An instance whose kind's mapper says executors wait, or that none do. */
  private KubeJobs<TestJobSpec> instance(boolean executorsWait) {
    return KUBE.track(
        Fixture.builder(
                server,
                CLOCK,
                "gravitino-a",
                TestJobKindVariant.withExecutorsWaiting(executorsWait))
            .statusCacheTtl(TTL)
            .diagnoseAfter(Duration.ofMinutes(5))
            .build());
  }

  private ExecutionId job(String name, String state) {
    server
        .store()
        .create(TestJobKind.TYPE, "etl", Fixture.testJob(name, "gravitino-a", name, state));
    return id(name);
  }

  private static ExecutionId id(String name) {
    return ExecutionId.of("test", TestJobKind.KIND, "etl", name);
  }

  private ExecutionId runningJob() {
    ExecutionId id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");
    server.journal().clear();
    return id;
  }
}
