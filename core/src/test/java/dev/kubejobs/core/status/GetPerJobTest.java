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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A scheduler that polls the way Gravitino's job manager does, one {@code get(id)} per active job
 * per pull interval, pays what one {@code getAll} of those jobs pays: one LIST per namespace per
 * cache period (all its pages), and no GET for a job that listing returned, whatever order the
 * calls come in and from however many threads. A listing keeps every job it saw (as a compact
 * entry), not only the jobs asked for so far.
 *
 * <p>Gravitino's pull, read for this test: {@code JobManager.pullAndUpdateJobStatus}, run every
 * {@code JOB_STATUS_PULL_INTERVAL_IN_MS} on one thread of each server, lists the metalake's jobs,
 * keeps those QUEUED, STARTED or CANCELLING and calls {@code jobExecutor.getJobStatus(
 * job.jobExecutionId())} once for each, one after another (apache/gravitino, {@code
 * core/src/main/java/org/apache/gravitino/job/JobManager.java}, commit 3560646d3fbb7767).
 */
class GetPerJobTest {
  private static final String LISTS = "/apis/kubejobs.dev/v1/namespaces/[^/]+/testjobs";
  private static final String GETS = "/apis/kubejobs.dev/v1/namespaces/[^/]+/testjobs/[^/]+";

  /** More jobs per namespace than one list page holds (500), so each LIST has two pages. */
  private static final int JOBS = 1_300;

  private static final int NAMESPACES = 2;

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().deployment("gravitino").build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private KubeJobs<TestJobSpec> jobs;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
    jobs = node("node-a");
  }

  @AfterEach
  void tearDown() {
    jobs.close();
  }

  private KubeJobs<TestJobSpec> node(String clientId) {
    return KUBE.builder(server.newClient(clientId), "gravitino")
        .statusCacheTtl(Duration.ofSeconds(5))
        .build();
  }

  private List<ExecutionId> create(String state) {
    List<ExecutionId> ids = new ArrayList<>();
    for (int i = 0; i < JOBS; i++) {
      String ns = "ns-" + (i % NAMESPACES);
      String name = "kj-job-" + i;
      server
          .store()
          .create(TestJobKind.TYPE, ns, Fixture.testJob(name, "gravitino", "job-" + i, state));
      ids.add(ExecutionId.of(Fixture.CLUSTER, TestJobKind.KIND, ns, name));
    }
    return ids;
  }

  /** The LISTs sent (first pages: one per namespace listed), from one client or all. */
  private long lists(String clientId) {
    return server.journal().requests("GET", LISTS).stream()
        .filter(r -> clientId == null || r.clientId().equals(clientId))
        .filter(r -> r.queryParameter("continue") == null)
        .count();
  }

  private List<RecordedRequest> pages() {
    return server.journal().requests("GET", LISTS);
  }

  private static List<ExecutionId> ordered(List<ExecutionId> ids, String order) {
    List<ExecutionId> out = new ArrayList<>(ids);
    switch (order) {
      case "asCreated" -> {}
      case "reversed" -> Collections.reverse(out);
      case "shuffled" -> Collections.shuffle(out, new Random(26));
      case "namespaceByNamespace" -> out.sort((a, b) -> a.namespace().compareTo(b.namespace()));
      default -> throw new IllegalArgumentException(order);
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"asCreated", "reversed", "shuffled", "namespaceByNamespace"})
  void aGetForEveryJobCostsOneListPerNamespaceAndNoGetInAnyOrder(String order) {
    List<ExecutionId> ids = create("QUEUED");
    List<ExecutionId> loop = ordered(ids, order);
    server.journal().clear();

    for (ExecutionId id : loop) {
      assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);
    }

    assertThat(lists(null)).isEqualTo(NAMESPACES);
    // Each LIST read both its pages (500 + 150 jobs), and no job was read alone.
    assertThat(pages()).hasSize(2 * NAMESPACES);
    assertThat(server.journal().count("GET", GETS)).isZero();

    // The next pull, after the cache period, in which some jobs started.
    for (ExecutionId id : ids.subList(0, 10)) {
      Fixture.setStatus(server, id.namespace(), id.name(), "{\"state\":\"RUNNING\"}");
    }
    CLOCK.advance(Duration.ofSeconds(6));
    server.journal().clear();

    Map<ExecutionId, JobStatus> second = new ConcurrentHashMap<>();
    for (ExecutionId id : loop) {
      second.put(id, jobs.statusReader().get(id).status());
    }

    assertThat(lists(null)).isEqualTo(NAMESPACES);
    assertThat(server.journal().count("GET", GETS)).isZero();
    assertThat(ids.subList(0, 10)).allMatch(id -> second.get(id) == JobStatus.STARTED);
    assertThat(ids.subList(10, JOBS)).allMatch(id -> second.get(id) == JobStatus.QUEUED);
  }

  /**
   * The next pull, a cache period later, lists each namespace again; the jobs it returns unchanged
   * keep their entries and are not mapped again, although the pull reads the namespaces one job at
   * a time (a namespace's list is kept past its period until then).
   */
  @Test
  void aPullOneJobAtATimeMapsAgainOnlyTheJobsThatChanged() {
    java.util.concurrent.atomic.AtomicInteger maps =
        new java.util.concurrent.atomic.AtomicInteger();
    dev.kubejobs.core.testing.TestJobKindVariant counting =
        dev.kubejobs.core.testing.TestJobKindVariant.withMapper(
            (app, pod, now) -> {
              maps.incrementAndGet();
              return new TestJobKind().statusMapper().map(app, pod, now);
            });
    List<ExecutionId> ids = create("RUNNING");
    List<ExecutionId> loop = ordered(ids, "shuffled");
    try (KubeJobs<TestJobSpec> node =
        Fixture.builder(server, CLOCK, "gravitino", counting)
            .statusCacheTtl(Duration.ofSeconds(5))
            .build()) {
      loop.forEach(node.statusReader()::get);
      assertThat(maps.get()).isEqualTo(JOBS);
      for (ExecutionId id : ids.subList(0, 10)) {
        Fixture.touch(server, id.namespace(), id.name());
      }
      CLOCK.advance(Duration.ofSeconds(6));
      server.journal().clear();

      loop.forEach(node.statusReader()::get);

      assertThat(maps.get()).isEqualTo(JOBS + 10);
      assertThat(lists(null)).isEqualTo(NAMESPACES);
    }
  }

  @Test
  void getsFromSeveralThreadsShareOneListPerNamespace() throws Exception {
    List<ExecutionId> ids = ordered(create("RUNNING"), "shuffled");
    server.journal().clear();
    int threads = 8;
    ExecutorService callers = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Long>> started = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        List<ExecutionId> mine = new ArrayList<>();
        for (int i = t; i < ids.size(); i += threads) {
          mine.add(ids.get(i));
        }
        started.add(
            callers.submit(
                () -> {
                  start.await();
                  return mine.stream()
                      .map(jobs.statusReader()::get)
                      .filter(info -> info.status() == JobStatus.STARTED)
                      .count();
                }));
      }
      start.countDown();
      long total = 0;
      for (Future<Long> f : started) {
        total += f.get();
      }

      assertThat(total).isEqualTo(JOBS);
    } finally {
      callers.shutdownNow();
    }
    assertThat(lists(null)).isEqualTo(NAMESPACES);
    assertThat(server.journal().count("GET", GETS)).isZero();
  }

  @Test
  void aJobCreatedAfterItsNamespaceWasListedIsReadWithOneGet() {
    List<ExecutionId> ids = create("RUNNING");
    jobs.statusReader().get(ids.get(0));
    // Created after the namespace was listed: the listing cannot answer for it.
    server
        .store()
        .create(
            TestJobKind.TYPE, "ns-0", Fixture.testJob("kj-late", "gravitino", "late", "QUEUED"));
    server.journal().clear();

    JobExecutionInfo late =
        jobs.statusReader()
            .get(ExecutionId.of(Fixture.CLUSTER, TestJobKind.KIND, "ns-0", "kj-late"));

    assertThat(late.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(server.journal().count("GET", GETS)).isEqualTo(1);
    assertThat(lists(null)).isZero();
  }

  /**
   * A copy listed before the question is not believed when it would end the job (it is re-read
   * first); in a loop of gets, that re-read is the job's own GET, not the namespace's LIST again
   * for every job that ended.
   */
  @Test
  void inAPullJobsThatEndedAreEachConfirmedWithTheirOwnGetNotAnotherList() {
    List<ExecutionId> ids = create("RUNNING");
    List<ExecutionId> loop = ordered(ids, "shuffled");
    loop.forEach(jobs.statusReader()::get);
    List<ExecutionId> ended = loop.subList(100, 110);
    for (ExecutionId id : ended) {
      Fixture.setStatus(server, id.namespace(), id.name(), "{\"state\":\"SUCCEEDED\"}");
    }
    server.store().delete(TestJobKind.TYPE, ended.get(0).namespace(), ended.get(0).name());
    CLOCK.advance(Duration.ofSeconds(6));
    server.journal().clear();

    Map<ExecutionId, Object> second = new java.util.HashMap<>();
    for (ExecutionId id : loop) {
      try {
        second.put(id, jobs.statusReader().get(id).status());
      } catch (dev.kubejobs.core.NoSuchJobException e) {
        second.put(id, e);
      }
    }

    assertThat(second.get(ended.get(0))).isInstanceOf(dev.kubejobs.core.NoSuchJobException.class);
    assertThat(ended.subList(1, 10)).allMatch(id -> second.get(id) == JobStatus.SUCCEEDED);
    assertThat(second.values().stream().filter(s -> s == JobStatus.STARTED)).hasSize(JOBS - 10);
    assertThat(lists(null)).isEqualTo(NAMESPACES);
    // At most one GET per job that ended (a job whose LIST was sent after it was asked needs none).
    assertThat(server.journal().count("GET", GETS)).isBetween(8, 10);
  }

  /**
   * Two scheduler nodes (two instances, each its own client), each pulling every job with one
   * {@code get} per job per pull interval, as Gravitino's job manager does on every node: a pull
   * costs each node at most one LIST per namespace, and no GET.
   */
  @Test
  void twoNodesPullingEveryJobOnePerGetCostOneListPerNamespacePerNodePerPull() {
    List<ExecutionId> ids = create(null);
    try (KubeJobs<TestJobSpec> nodeB = node("node-b")) {
      List<ExecutionId> orderA = ordered(ids, "shuffled");
      List<ExecutionId> orderB = ordered(ids, "reversed");
      for (int pull = 0; pull < 3; pull++) {
        // Between pulls some jobs start running; none ends.
        for (ExecutionId id : ids.subList(pull * 100, pull * 100 + 100)) {
          Fixture.setStatus(server, id.namespace(), id.name(), "{\"state\":\"RUNNING\"}");
        }
        server.journal().clear();

        for (int i = 0; i < ids.size(); i++) {
          JobExecutionInfo a = jobs.statusReader().get(orderA.get(i));
          JobExecutionInfo b = nodeB.statusReader().get(orderB.get(i));
          assertThat(a.status()).isIn(JobStatus.QUEUED, JobStatus.STARTED);
          assertThat(b.status()).isIn(JobStatus.QUEUED, JobStatus.STARTED);
        }

        assertThat(lists("node-a")).as("pull %d", pull).isEqualTo(NAMESPACES);
        assertThat(lists("node-b")).as("pull %d", pull).isEqualTo(NAMESPACES);
        assertThat(server.journal().count("GET", GETS)).as("pull %d", pull).isZero();
        int started = (pull + 1) * 100;
        assertThat(ids.subList(0, started))
            .allMatch(id -> nodeB.statusReader().get(id).status() == JobStatus.STARTED);
        assertThat(ids.subList(started, JOBS))
            .allMatch(id -> jobs.statusReader().get(id).status() == JobStatus.QUEUED);
        CLOCK.advance(Duration.ofSeconds(6));
      }
    }
  }
}
