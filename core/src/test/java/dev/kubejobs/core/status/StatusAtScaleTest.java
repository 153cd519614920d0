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

import com.google.gson.JsonArray;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A poll of many jobs costs LISTs, not a GET per job, whatever ended; the driver pods of a
 * namespace's failing jobs are found with one pod LIST; a job is mapped once per resourceVersion;
 * namespaces can be read in parallel. The stale-cache guarantees (a stale copy never ends a job,
 * gone is NoSuchJobException) are kept: see also StatusCacheTest and TwoSchedulersTest.
 */
class StatusAtScaleTest {
  private static final String LISTS = "/apis/kubejobs.dev/v1/namespaces/[^/]+/testjobs";
  private static final String GETS = "/apis/kubejobs.dev/v1/namespaces/[^/]+/testjobs/[^/]+";
  private static final String POD_LISTS = "/api/v1/namespaces/[^/]+/pods";
  private static final String POD_GETS = "/api/v1/namespaces/[^/]+/pods/[^/]+";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE = KubeJobsHarness.testJobs().build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private final AtomicInteger maps = new AtomicInteger();
  private final TestJobKindVariant kind =
      TestJobKindVariant.withMapper(
          (app, pod, now) -> {
            maps.incrementAndGet();
            return new TestJobKind().statusMapper().map(app, pod, now);
          });
  private KubeJobs<TestJobSpec> jobs;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
    jobs = builder().build();
  }

  @AfterEach
  void tearDown() {
    jobs.close();
  }

  private KubeJobs.Builder<TestJobSpec> builder() {
    return builder(kind);
  }

  private KubeJobs.Builder<TestJobSpec> builder(TestJobKindVariant jobKind) {
    return Fixture.builder(server, CLOCK, "gravitino-a", jobKind)
        .statusCacheTtl(Duration.ofSeconds(5));
  }

  /** An instance whose kind reads only {@code status}, keeping each copy its mapper is given. */
  private KubeJobs<TestJobSpec> statusOnly(List<ResourceSnapshot> seen) {
    return builder(TestJobKindVariant.withStatusFields(Set.of("status"), recording(seen))).build();
  }

  /** The test kind's mapper, keeping each copy it is given. */
  private static JobStatusMapper recording(List<ResourceSnapshot> seen) {
    return (app, pod, now) -> {
      seen.add(app);
      return new TestJobKind().statusMapper().map(app, pod, now);
    };
  }

  private List<ExecutionId> create(int n, int namespaces, String state) {
    List<ExecutionId> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String ns = "ns-" + (i % namespaces);
      String name = "kj-job-" + i;
      server
          .store()
          .create(TestJobKind.TYPE, ns, Fixture.testJob(name, "gravitino-a", "job-" + i, state));
      ids.add(ExecutionId.of("test", TestJobKind.KIND, ns, name));
    }
    return ids;
  }

  private void setAll(List<ExecutionId> ids, String state) {
    for (ExecutionId id : ids) {
      Fixture.setStatus(server, id.namespace(), id.name(), "{\"state\":\"" + state + "\"}");
    }
  }

  @Test
  void aPollInWhichJobsJustSucceededListsEachNamespaceOnceAndSendsNoGet() {
    List<ExecutionId> ids = create(100, 4, "RUNNING");
    assertThat(jobs.statusReader().getAllInfos(ids).values())
        .allMatch(i -> i.status() == JobStatus.STARTED);
    setAll(ids.subList(0, 40), "SUCCEEDED");
    CLOCK.advance(Duration.ofSeconds(6));
    server.journal().clear();

    // The lists are sent after the question was asked: their copies are fresh and end jobs.
    Map<ExecutionId, JobExecutionInfo> all = jobs.statusReader().getAllInfos(ids);

    assertThat(all.values().stream().filter(i -> i.status() == JobStatus.SUCCEEDED)).hasSize(40);
    assertThat(server.journal().count("GET", LISTS)).isEqualTo(4);
    assertThat(server.journal().count("GET", GETS)).isZero();
  }

  /**
   * Leaves the cache holding copies of {@code changed} listed before the next question: all jobs
   * are asked for (so the lists keep them), {@code change} runs, the cache period passes and only
   * the other jobs are asked for (a new list, holding the changed copies nobody asked about yet).
   */
  private void cacheChangedCopies(
      List<ExecutionId> all, List<ExecutionId> changed, Runnable change) {
    jobs.statusReader().getAllInfos(all);
    change.run();
    CLOCK.advance(Duration.ofSeconds(6));
    List<ExecutionId> others = new ArrayList<>(all);
    others.removeAll(changed);
    jobs.statusReader().getAllInfos(others);
  }

  @Test
  void cachedCopiesThatWouldEndJobsAreReadAgainWithOneListPerNamespaceNotOneGetPerJob() {
    List<ExecutionId> ids = create(60, 3, "RUNNING");
    List<ExecutionId> ending = ids.subList(0, 30);
    cacheChangedCopies(ids, ending, () -> setAll(ending, "SUCCEEDED"));
    // The cached copies of jobs 0-29 say SUCCEEDED, but they were listed before this question was
    // asked; one of them is deleted meanwhile.
    server.store().delete(TestJobKind.TYPE, ids.get(0).namespace(), ids.get(0).name());
    server.journal().clear();

    Map<ExecutionId, JobStatusResult> all = jobs.statusReader().getAll(ending);

    assertThat(all.get(ids.get(0)).isGone()).isTrue();
    assertThat(all.values().stream().filter(r -> r.info().isPresent()))
        .hasSize(29)
        .allMatch(r -> r.info().get().status() == JobStatus.SUCCEEDED);
    assertThat(server.journal().count("GET", LISTS)).isEqualTo(3);
    // Only the job missing from its fresh list is confirmed gone with a GET.
    assertThat(server.journal().count("GET", GETS)).isEqualTo(1);
  }

  @Test
  void aStaleCopyNeverEndsAJobEvenWhenTheListAgainFails() {
    List<ExecutionId> ids = create(3, 1, "RUNNING");
    List<ExecutionId> ending = ids.subList(0, 2);
    cacheChangedCopies(ids, ending, () -> setAll(ending, "SUCCEEDED"));
    server
        .faults()
        .add(
            dev.kubejobs.testkit.Fault.on("GET", LISTS)
                .forever()
                .status(503, "ServiceUnavailable", "down"));

    Map<ExecutionId, JobStatusResult> results = jobs.statusReader().getAll(ending);

    assertThat(results.values()).allMatch(r -> r.info().isEmpty() && r.error().isPresent());
  }

  @Test
  void aStaleCopyOfOneJobNeverEndsItEvenWhenItsGetFails() {
    List<ExecutionId> ids = create(2, 1, "RUNNING");
    List<ExecutionId> ending = ids.subList(0, 1);
    cacheChangedCopies(ids, ending, () -> setAll(ending, "SUCCEEDED"));
    server
        .faults()
        .add(
            dev.kubejobs.testkit.Fault.on("GET", GETS)
                .forever()
                .status(503, "ServiceUnavailable", "down"));

    JobStatusResult result = jobs.statusReader().getAll(ending).get(ids.get(0));

    assertThat(result.info()).isEmpty();
    assertThat(result.error()).isPresent();
    assertThat(server.journal().count("GET", GETS)).isPositive();
  }

  @Test
  void theDriverPodsOfANamespacesFailedJobsAreFoundWithOnePodList() {
    List<ExecutionId> ids = create(30, 2, "RUNNING");
    jobs.statusReader().getAllInfos(ids);
    for (ExecutionId id : ids.subList(0, 20)) {
      server
          .store()
          .create(
              ResourceType.POD,
              id.namespace(),
              Fixture.driverPod(id.name() + "-driver", id.name(), "Failed"));
    }
    // Two of the failed jobs' drivers still run: they are deleted before FAILED is reported.
    server
        .store()
        .update(
            ResourceType.POD,
            ids.get(0).namespace(),
            ids.get(0).name() + "-driver",
            p -> {
              p.getAsJsonObject("status").addProperty("phase", "Running");
              return p;
            });
    setAll(ids.subList(0, 20), "FAILED");
    server.journal().clear();

    // Within the cache period: the cached copies are RUNNING, nothing ends.
    assertThat(jobs.statusReader().getAllInfos(ids).values())
        .allMatch(i -> i.status() == JobStatus.STARTED);
    assertThat(server.journal().count("GET", POD_LISTS)).isZero();

    CLOCK.advance(Duration.ofSeconds(6));
    server.journal().clear();
    Map<ExecutionId, JobExecutionInfo> all = jobs.statusReader().getAllInfos(ids);

    assertThat(ids.subList(0, 20)).allMatch(id -> all.get(id).status() == JobStatus.FAILED);
    assertThat(server.journal().count("GET", LISTS)).isEqualTo(2);
    assertThat(server.journal().count("GET", POD_LISTS)).isEqualTo(2);
    assertThat(server.journal().count("GET", POD_GETS)).isZero();
    assertThat(server.journal().count("GET", GETS)).isZero();
    assertThat(server.journal().count("DELETE", POD_GETS)).isEqualTo(1);
    assertThat(server.journal().requests("GET", POD_LISTS).get(0).queryParameter("labelSelector"))
        .startsWith("test-role=driver,test-app in (");
  }

  @Test
  void theDriverPodsOfTwoFailedJobsOfANamespaceAreFoundWithOnePodList() {
    List<ExecutionId> ids = create(2, 1, "FAILED");

    Map<ExecutionId, JobExecutionInfo> all = jobs.statusReader().getAllInfos(ids);

    assertThat(all.values()).hasSize(2).allMatch(i -> i.status() == JobStatus.FAILED);
    assertThat(server.journal().count("GET", POD_LISTS)).isEqualTo(1);
    assertThat(server.journal().count("GET", POD_GETS)).isZero();
  }

  @Test
  void twoHundredFailedJobsOfANamespaceNeedOnePodListAndNoEmptyOne() {
    List<ExecutionId> ids = create(200, 1, "FAILED");

    Map<ExecutionId, JobStatusResult> all = jobs.statusReader().getAll(ids);

    assertThat(all.values())
        .hasSize(200)
        .allSatisfy(r -> assertThat(r.orElseThrow().status()).isEqualTo(JobStatus.FAILED));
    assertThat(server.journal().count("GET", POD_LISTS)).isEqualTo(1);
    assertThat(server.journal().count("GET", POD_GETS)).isZero();
  }

  @Test
  void driverPodsTheResourcesNameAreMatchedByNameInTheOnePodListNotByTheirLabels() {
    List<ExecutionId> ids = create(3, 1, null);
    // Job 0 names a pod that failed; a newer pod with its labels runs (the label rule's choice).
    driverPod("kj-job-0-named", "kj-job-0", "Failed");
    CLOCK.advance(Duration.ofSeconds(1));
    driverPod("kj-job-0-newer", "kj-job-0", "Running");
    driverPod("kj-job-1-named", "kj-job-1", "Failed");
    // Job 2 names a pod that is gone; a pod with its labels runs.
    driverPod("kj-job-2-other", "kj-job-2", "Running");
    for (ExecutionId id : ids) {
      Fixture.setStatus(
          server,
          id.namespace(),
          id.name(),
          "{\"state\":\"FAILED\",\"driverPod\":\"" + id.name() + "-named\"}");
    }
    server.journal().clear();

    Map<ExecutionId, JobExecutionInfo> all = jobs.statusReader().getAllInfos(ids);

    assertThat(all.values()).hasSize(3).allMatch(i -> i.status() == JobStatus.FAILED);
    assertThat(server.journal().count("GET", POD_LISTS)).isEqualTo(1);
    assertThat(server.journal().count("GET", POD_GETS)).isZero();
    // A running pod taken for a driver would have been deleted as a failed job's live driver.
    assertThat(server.journal().count("DELETE", POD_GETS)).isZero();
  }

  @Test
  void aPodListThatMayNotBeSentLeavesEachJobDecidedWithoutItsPodAndWarnsOnce() {
    List<ExecutionId> ids = create(3, 1, "FAILED");
    for (ExecutionId id : ids) {
      driverPod(id.name() + "-driver", id.name(), "Running");
    }
    server.rbac().deny("list", "", "pods");
    server.journal().clear();

    try (LogCapture logs = LogCapture.start()) {
      Map<ExecutionId, JobExecutionInfo> all = jobs.statusReader().getAllInfos(ids);

      assertThat(all.values()).hasSize(3).allMatch(i -> i.status() == JobStatus.FAILED);
      assertThat(logs.warnings())
          .filteredOn(w -> w.contains("missing permission: list pods in namespace ns-0"))
          .hasSize(1);
    }
    assertThat(server.journal().count("GET", POD_LISTS)).isEqualTo(1);
    assertThat(server.journal().count("GET", POD_GETS)).isZero();
    assertThat(server.journal().count("DELETE", POD_GETS)).isZero();
  }

  @Test
  void aPodListThatFailsFailsTheReadsOfTheJobsThatNeededItWithoutAGetPerJob() {
    List<ExecutionId> ids = create(2, 1, "FAILED");
    ExecutionId running = ExecutionId.of("test", TestJobKind.KIND, "ns-0", "kj-running");
    server
        .store()
        .create(
            TestJobKind.TYPE,
            "ns-0",
            Fixture.testJob(running.name(), "gravitino-a", "job-running", "RUNNING"));
    server
        .faults()
        .add(
            Fault.on("GET", "/api/v1/namespaces/ns-0/pods")
                .forever()
                .status(500, "InternalError", "etcd"));
    server.journal().clear();

    List<ExecutionId> asked = new ArrayList<>(ids);
    asked.add(running);
    Map<ExecutionId, JobStatusResult> all = jobs.statusReader().getAll(asked);

    assertThat(ids)
        .allSatisfy(
            id ->
                assertThat(all.get(id).error()).get().isInstanceOf(ApiUnavailableException.class));
    assertThat(all.get(running).orElseThrow().status())
        .as("a job that needed no pod")
        .isEqualTo(JobStatus.STARTED);
    assertThat(server.journal().count("GET", POD_GETS)).isZero();
  }

  static Stream<Arguments> kindsThatCannotSelectSeveralDriverPods() {
    Function<Collection<ResourceSnapshot>, Optional<String>> none = apps -> Optional.empty();
    Function<Collection<ResourceSnapshot>, Optional<String>> failing =
        apps -> {
          throw new IllegalStateException("a bug of the job kind");
        };
    return Stream.of(Arguments.of("none", none), Arguments.of("failing", failing));
  }

  @ParameterizedTest(name = "selector of several: {0}")
  @MethodSource("kindsThatCannotSelectSeveralDriverPods")
  void aKindThatCannotSelectSeveralDriverPodsHasEachLookedUpAlone(
      String what, Function<Collection<ResourceSnapshot>, Optional<String>> selector) {
    List<ExecutionId> ids = create(3, 1, "FAILED");
    for (ExecutionId id : ids) {
      driverPod(id.name() + "-driver", id.name(), "Failed");
    }
    KubeJobs<TestJobSpec> alone =
        KUBE.track(builder(TestJobKindVariant.withDriverPodsSelector(selector)).build());
    server.journal().clear();

    Map<ExecutionId, JobExecutionInfo> all = alone.statusReader().getAllInfos(ids);

    assertThat(all.values()).hasSize(3).allMatch(i -> i.status() == JobStatus.FAILED);
    assertThat(server.journal().requests("GET", POD_LISTS))
        .extracting(r -> r.queryParameter("labelSelector"))
        .containsExactlyInAnyOrder(
            "test-role=driver,test-app=kj-job-0",
            "test-role=driver,test-app=kj-job-1",
            "test-role=driver,test-app=kj-job-2");
  }

  private void driverPod(String name, String app, String phase) {
    server.store().create(ResourceType.POD, "ns-0", Fixture.driverPod(name, app, phase));
  }

  @Test
  void stalePodWantingCopiesAreListedAgainOnceAndTheirPodsListedOnce() {
    List<ExecutionId> ids = create(10, 1, "RUNNING");
    jobs.statusReader().getAllInfos(ids.subList(5, 10));
    for (ExecutionId id : ids.subList(0, 5)) {
      server
          .store()
          .create(
              ResourceType.POD,
              "ns-0",
              Fixture.driverPod(id.name() + "-driver", id.name(), "Failed"));
    }
    setAll(ids.subList(0, 5), "FAILED");
    jobs.statusReader().getAllInfos(ids.subList(5, 10)); // cached, keeps asking for jobs 5-9
    CLOCK.advance(Duration.ofSeconds(6));
    jobs.statusReader().getAllInfos(ids.subList(5, 10)); // a new list with FAILED copies in it
    server.journal().clear();

    Map<ExecutionId, JobExecutionInfo> all = jobs.statusReader().getAllInfos(ids.subList(0, 5));

    assertThat(all.values()).allMatch(i -> i.status() == JobStatus.FAILED);
    assertThat(server.journal().count("GET", POD_LISTS)).isEqualTo(1);
    assertThat(server.journal().count("GET", POD_GETS)).isZero();
    assertThat(server.journal().count("GET", LISTS)).isLessThanOrEqualTo(1);
  }

  @Test
  void aJobIsMappedOncePerResourceVersionAndCacheHitsShareThatMapping() throws Exception {
    List<ExecutionId> ids = create(200, 2, "RUNNING");
    jobs.statusReader().getAllInfos(ids);
    assertThat(maps.get()).isEqualTo(200);

    ExecutorService callers = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Map<ExecutionId, JobExecutionInfo>>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        results.add(
            callers.submit(
                () -> {
                  start.await();
                  return jobs.statusReader().getAllInfos(ids);
                }));
      }
      start.countDown();
      for (Future<Map<ExecutionId, JobExecutionInfo>> f : results) {
        assertThat(f.get().values()).allMatch(i -> i.status() == JobStatus.STARTED);
      }
    } finally {
      callers.shutdownNow();
    }
    assertThat(maps.get()).isEqualTo(200);

    // Listed again after the cache period: a changed job is mapped again; the others are not.
    Fixture.touch(server, ids.get(0).namespace(), ids.get(0).name());
    CLOCK.advance(Duration.ofSeconds(6));
    server.journal().clear();
    jobs.statusReader().getAllInfos(ids);
    assertThat(server.journal().count("GET", LISTS)).isEqualTo(2);
    assertThat(maps.get()).isEqualTo(201);
  }

  /**
   * The next list after the cache period brings the same uid and resourceVersion for an unchanged
   * job: the reader keeps the copy and mapping it has and skips the rest of that object unparsed
   * (the server writes {@code metadata} before {@code spec} and {@code status}). A job changed
   * meanwhile, and a new resource under an old job's name (its uid differs), are read and mapped
   * anew.
   */
  @Test
  void aJobListedAgainUnchangedIsNotMappedAgainButAChangedOrRecreatedOneIs() {
    List<ResourceSnapshot> seen = new CopyOnWriteArrayList<>();
    try (KubeJobs<TestJobSpec> reader = statusOnly(seen)) {
      List<ExecutionId> ids = create(3, 1, "RUNNING");
      assertThat(reader.statusReader().getAllInfos(ids).values())
          .allMatch(i -> i.status() == JobStatus.STARTED);
      assertThat(seen).hasSize(3);
      Fixture.touch(server, "ns-0", ids.get(0).name());
      server.store().delete(TestJobKind.TYPE, "ns-0", ids.get(2).name());
      server
          .store()
          .create(
              TestJobKind.TYPE,
              "ns-0",
              Fixture.testJob(ids.get(2).name(), "gravitino-a", "job-2", "SUCCEEDED"));
      CLOCK.advance(Duration.ofSeconds(6));
      server.journal().clear();

      Map<ExecutionId, JobExecutionInfo> again = reader.statusReader().getAllInfos(ids);

      assertThat(server.journal().count("GET", LISTS)).isEqualTo(1);
      assertThat(server.journal().count("GET", GETS)).isZero();
      assertThat(seen.subList(3, seen.size()))
          .extracting(ResourceSnapshot::name)
          .containsExactlyInAnyOrder(ids.get(0).name(), ids.get(2).name());
      assertThat(again.get(ids.get(1)).status()).isEqualTo(JobStatus.STARTED);
      assertThat(again.get(ids.get(2)).status()).isEqualTo(JobStatus.SUCCEEDED);
    }
  }

  /**
   * A QUEUED answer may change with time alone: a job listed again unchanged is mapped again with
   * the time that passed, from the copy the reader kept (here its no-status timeout ends it).
   */
  @Test
  void aQueuedJobListedAgainUnchangedIsMappedAgainAtTheNewTime() {
    List<ExecutionId> ids = create(2, 1, null);
    assertThat(jobs.statusReader().getAllInfos(ids).values())
        .allMatch(i -> i.status() == JobStatus.QUEUED);
    int before = maps.get();
    CLOCK.advance(TestJobKind.NO_STATUS_TIMEOUT.plusSeconds(1));
    server.journal().clear();

    Map<ExecutionId, JobExecutionInfo> late = jobs.statusReader().getAllInfos(ids);

    assertThat(maps.get()).isGreaterThanOrEqualTo(before + 2);
    assertThat(server.journal().count("DELETE", GETS)).isEqualTo(2);
    assertThat(late.values()).allMatch(i -> i.status() == JobStatus.FAILED);
  }

  @Test
  void queuedJobsAreMappedAgainOnEveryReadBecauseTimeAloneMayEndThem() {
    List<ExecutionId> ids = create(1, 1, null);
    assertThat(jobs.statusReader().get(ids.get(0)).status()).isEqualTo(JobStatus.QUEUED);
    int before = maps.get();

    jobs.statusReader().get(ids.get(0));

    assertThat(maps.get()).isEqualTo(before + 1);
  }

  @Test
  void namespacesAreReadInParallelOnTheExecutorGiven() throws Exception {
    List<ExecutionId> ids = create(40, 4, "RUNNING");
    ExecutorService executor = Executors.newFixedThreadPool(4);
    try (KubeJobs<TestJobSpec> parallel = builder().statusExecutor(executor).build()) {
      List<Hold> holds = holdLists(4);
      Future<Map<ExecutionId, JobExecutionInfo>> read =
          Executors.newSingleThreadExecutor()
              .submit(() -> parallel.statusReader().getAllInfos(ids));

      // All four LISTs reach the server while none has been answered.
      for (Hold hold : holds) {
        hold.awaitArrived(Duration.ofSeconds(30));
      }
      holds.forEach(Hold::release);

      assertThat(read.get().values()).hasSize(40).allMatch(i -> i.status() == JobStatus.STARTED);
    } finally {
      executor.shutdownNow();
    }
  }

  /** Holds the first page of each namespace's LIST, so none is answered until released. */
  private List<Hold> holdLists(int namespaces) {
    List<Hold> holds = new ArrayList<>();
    for (int i = 0; i < namespaces; i++) {
      holds.add(
          server.hold(Hold.on("GET", "/apis/kubejobs.dev/v1/namespaces/ns-" + i + "/testjobs")));
    }
    return holds;
  }

  @Test
  void namespacesAreReadInParallelByDefaultUpToFourAtOnce() throws Exception {
    List<ExecutionId> ids = create(50, 5, "RUNNING");
    List<Hold> holds = holdLists(5);
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<Map<ExecutionId, JobExecutionInfo>> read =
          caller.submit(() -> jobs.statusReader().getAllInfos(ids));

      // Four LISTs (the calling thread's and three of the instance's threads) reach the server
      // while none has been answered; the fifth namespace waits for a thread to be free.
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> holds.stream().filter(Hold::hasArrived).count() == 4);
      assertThat(holds.stream().filter(Hold::hasArrived).count()).isEqualTo(4);
      holds.forEach(Hold::release);

      assertThat(read.get().values()).hasSize(50).allMatch(i -> i.status() == JobStatus.STARTED);
    } finally {
      caller.shutdownNow();
    }
  }

  @Test
  void aStatusParallelismOfOneReadsNamespacesOneAfterAnotherOnTheCallingThread() throws Exception {
    List<ExecutionId> ids = create(20, 2, "RUNNING");
    List<Hold> holds = holdLists(2);
    Set<Thread> before = kubejobsThreads();
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (KubeJobs<TestJobSpec> serial = builder().statusParallelism(1).build()) {
      Future<Map<ExecutionId, JobExecutionInfo>> read =
          caller.submit(() -> serial.statusReader().getAllInfos(ids));

      holds.get(0).awaitArrived(Duration.ofSeconds(30));
      assertThat(holds.get(1).hasArrived()).isFalse();
      holds.get(0).release();
      holds.get(1).awaitArrived(Duration.ofSeconds(30));
      holds.get(1).release();

      assertThat(read.get().values()).hasSize(20).allMatch(i -> i.status() == JobStatus.STARTED);
      assertThat(kubejobsThreads()).isSubsetOf(before);
    } finally {
      caller.shutdownNow();
    }
  }

  /**
   * A read called on the status executor's only thread cannot hand namespaces to that thread and
   * wait for them: the calling thread reads those the executor has not started.
   */
  @Test
  void aReadCalledOnTheStatusExecutorsOwnThreadDoesNotWaitForItself() throws Exception {
    List<ExecutionId> ids = create(30, 3, "RUNNING");
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try (KubeJobs<TestJobSpec> onIt = builder().statusExecutor(executor).build()) {
      Future<Map<ExecutionId, JobExecutionInfo>> read =
          executor.submit(() -> onIt.statusReader().getAllInfos(ids));

      assertThat(read.get(30, java.util.concurrent.TimeUnit.SECONDS).values())
          .hasSize(30)
          .allMatch(i -> i.status() == JobStatus.STARTED);
    } finally {
      executor.shutdownNow();
    }
  }

  /**
   * {@code close()} returns once every thread the instance started has ended: the status threads,
   * the watches' threads, the thread reading jobs after watch events and the listener's thread,
   * which is still telling the listener of a change when {@code close()} is called (it is let go
   * only once {@code close()} waits for threads to end).
   */
  @Test
  void closeReturnsOnlyOnceEveryThreadTheInstanceStartedHasEnded() throws Exception {
    List<ExecutionId> ids = create(12, 3, "RUNNING");
    Set<Thread> before = kubejobsThreads();
    CountDownLatch telling = new CountDownLatch(1);
    CountDownLatch letGo = new CountDownLatch(1);
    KubeJobs<TestJobSpec> busy =
        builder()
            .statusSource(StatusSource.watch())
            .statusListener(
                (id, info) -> {
                  if (info.status() == JobStatus.SUCCEEDED) {
                    telling.countDown();
                    try {
                      letGo.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }
                })
            .build();
    busy.statusReader().getAllInfos(ids);
    Fixture.setStatus(server, "ns-0", "kj-job-0", "{\"state\":\"SUCCEEDED\"}");
    assertThat(telling.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    Set<Thread> started = kubejobsThreads();
    started.removeAll(before);
    assertThat(started)
        .extracting(Thread::getName)
        .anyMatch(n -> n.startsWith("kubejobs-watch-ns-"))
        .anyMatch(n -> n.startsWith("kubejobs-status-listener-"))
        .anyMatch(n -> n.startsWith("kubejobs-status-refresh-"))
        .anyMatch(n -> n.matches("kubejobs-status-test-\\d+"));
    Thread closing = Thread.currentThread();
    Thread releaser =
        new Thread(
            () -> {
              org.awaitility.Awaitility.await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> isAwaitingTermination(closing));
              letGo.countDown();
            });
    releaser.start();

    try {
      busy.close();

      assertThat(started).noneMatch(Thread::isAlive);
    } finally {
      letGo.countDown();
      releaser.join();
    }
  }

  private static boolean isAwaitingTermination(Thread t) {
    for (StackTraceElement frame : t.getStackTrace()) {
      if (frame.getMethodName().equals("awaitTermination")) {
        return true;
      }
    }
    return false;
  }

  private static Set<Thread> kubejobsThreads() {
    Set<Thread> out = new java.util.HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith("kubejobs-")) {
        out.add(t);
      }
    }
    return out;
  }

  @Test
  void statusParallelismStartsNoThreadUntilAskedAndCloseEndsThem() throws Exception {
    List<ExecutionId> ids = create(8, 2, "RUNNING");
    KubeJobs<TestJobSpec> parallel = builder().statusParallelism(2).build();
    assertThat(statusThreads()).isZero();

    parallel.statusReader().getAllInfos(ids);
    assertThat(statusThreads()).isPositive();

    parallel.close();
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> statusThreads() == 0);
  }

  @Test
  void aGoneJobIsStillNoSuchJobWhenItsNamespaceIsListedAgain() {
    List<ExecutionId> ids = create(3, 1, "RUNNING");
    List<ExecutionId> ending = ids.subList(1, 2);
    cacheChangedCopies(ids, ending, () -> setAll(ending, "SUCCEEDED"));
    server.store().delete(TestJobKind.TYPE, "ns-0", ids.get(1).name());

    assertThatThrownBy(() -> jobs.statusReader().get(ids.get(1)))
        .isInstanceOf(NoSuchJobException.class);
  }

  /**
   * The reader tells resources apart by uid: after it reported a job gone, a resource created again
   * under its name (a resubmit of the same job id) is read as the new job, not as the gone one.
   */
  @Test
  void aResourceCreatedAgainUnderTheNameOfAGoneJobIsReadAsANewResource() {
    ExecutionId id = create(1, 1, "RUNNING").get(0);
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
    server.store().delete(TestJobKind.TYPE, "ns-0", id.name());
    CLOCK.advance(Duration.ofSeconds(6));
    assertThatThrownBy(() -> jobs.statusReader().get(id)).isInstanceOf(NoSuchJobException.class);

    server
        .store()
        .create(TestJobKind.TYPE, "ns-0", Fixture.testJob(id.name(), "gravitino-a", "job-0", null));
    CLOCK.advance(Duration.ofSeconds(6));

    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);
    assertThat(jobs.statusReader().getAllInfos(List.of(id)).get(id).status())
        .isEqualTo(JobStatus.QUEUED);
  }

  private static long statusThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("kubejobs-status-") && t.isAlive())
        .count();
  }

  /**
   * A kind that declares {@code statusFields()} gets listed copies holding only those and metadata
   * (without {@code managedFields}, which a real server writes into every object): the rest is
   * skipped as the list is parsed, so it costs neither parsing nor memory.
   */
  @Test
  void aListedCopyHoldsOnlyMetadataAndTheFieldsTheKindReads() {
    List<ResourceSnapshot> seen = new CopyOnWriteArrayList<>();
    try (KubeJobs<TestJobSpec> narrow = statusOnly(seen)) {
      List<ExecutionId> ids = create(3, 1, "RUNNING");
      server
          .store()
          .update(
              TestJobKind.TYPE,
              "ns-0",
              "kj-job-0",
              o -> {
                o.getAsJsonObject("metadata").add("managedFields", new JsonArray());
                return o;
              });
      server.journal().clear();

      assertThat(narrow.statusReader().getAllInfos(ids).values())
          .allMatch(i -> i.status() == JobStatus.STARTED);

      assertThat(server.journal().count("GET", GETS)).isZero();
      assertThat(seen).hasSize(3);
      for (ResourceSnapshot app : seen) {
        assertThat(app.json().keySet())
            .containsExactlyInAnyOrder("apiVersion", "kind", "metadata", "status");
        assertThat(app.json().getAsJsonObject("metadata").has("managedFields")).isFalse();
        assertThat(app.labels()).containsEntry("kubejobs.dev/deployment", "gravitino-a");
        assertThat(app.uid()).isNotEmpty();
      }
    }
  }

  @Test
  void aKindThatDeclaresNoStatusFieldsGetsWholeListedCopies() {
    List<ResourceSnapshot> seen = new CopyOnWriteArrayList<>();
    KubeJobs<TestJobSpec> whole = builder(TestJobKindVariant.withMapper(recording(seen))).build();
    try {
      List<ExecutionId> ids = create(2, 1, "RUNNING");

      whole.statusReader().getAllInfos(ids);

      assertThat(seen).hasSize(2).allMatch(app -> app.spec().isPresent());
    } finally {
      whole.close();
    }
  }

  @Test
  void malformedStatusFieldsAreRefusedWhenTheInstanceIsBuilt() {
    for (String bad : List.of("", " ", "spec..image", ".status", "status.")) {
      KubeJobs.Builder<TestJobSpec> b =
          builder(
              TestJobKindVariant.withStatusFields(Set.of(bad), new TestJobKind().statusMapper()));

      assertThatThrownBy(b::build)
          .as("'%s'", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("JobKind.statusFields()");
    }
  }
}
