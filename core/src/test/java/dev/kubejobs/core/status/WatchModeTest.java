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
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.Http2Clients;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceEvent;
import dev.kubejobs.testkit.ResourceListener;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The status reader in watch mode ({@code StatusSource.watch()}) answers as polling does, costs no
 * request per read while its watch is in sync, falls back to polling while it is not, and pushes
 * changes to the listener without reads. The fake API server's watch follows kube-apiserver's (see
 * the testkit's WatchTest for the sources it mirrors).
 */
@Tag("slow")
class WatchModeTest {
  private static final String ALL = ".*";
  private static final String WATCHES = "/apis/kubejobs.dev/v1/namespaces/[^/]+/testjobs";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().deployment("gravitino").build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private final List<KubeJobs<TestJobSpec>> opened = new ArrayList<>();

  @BeforeEach
  void setUp() {
    server = KUBE.server();
  }

  @AfterEach
  void tearDown() {
    opened.forEach(KubeJobs::close);
    await().atMost(Duration.ofSeconds(30)).until(() -> watchThreads() == 0);
    await().atMost(Duration.ofSeconds(30)).until(() -> server.openWatches() == 0);
  }

  private KubeJobs<TestJobSpec> node(StatusSource source, KubeJobs.Builder<TestJobSpec> b) {
    KubeJobs<TestJobSpec> jobs = b.statusSource(source).build();
    opened.add(jobs);
    return jobs;
  }

  private KubeJobs<TestJobSpec> watching() {
    return node(StatusSource.watch(), KUBE.builder("gravitino"));
  }

  private List<ExecutionId> create(int n, String state) {
    List<ExecutionId> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String ns = "ns-" + (i % 2);
      String name = "kj-job-" + i;
      server
          .store()
          .create(TestJobKind.TYPE, ns, Fixture.testJob(name, "gravitino", "job-" + i, state));
      ids.add(ExecutionId.of("test", TestJobKind.KIND, ns, name));
    }
    return ids;
  }

  /** Requests other than watches whose path matches. */
  private long nonWatch(String pathRegex) {
    return server.journal().requests("*", pathRegex).stream()
        .filter(r -> !"true".equals(r.queryParameter("watch")))
        .count();
  }

  private static long watchThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("kubejobs-watch-"))
        .count();
  }

  @Test
  void whileTheWatchIsInSyncAReadCostsNoRequestAndSeesChangesAsTheyArrive() {
    List<ExecutionId> ids = create(10, "RUNNING");
    KubeJobs<TestJobSpec> jobs = watching();
    assertThat(jobs.statusReader().getAllInfos(ids).values())
        .allMatch(i -> i.status() == JobStatus.STARTED);
    server.journal().clear();

    for (int poll = 0; poll < 5; poll++) {
      CLOCK.advance(Duration.ofSeconds(10)); // past the cache period every poll
      assertThat(jobs.statusReader().getAllInfos(ids)).hasSize(10);
    }
    assertThat(nonWatch(ALL)).isZero();

    Fixture.setStatus(server, "ns-0", "kj-job-0", "{\"state\":\"SUCCEEDED\"}");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> jobs.statusReader().get(ids.get(0)).status() == JobStatus.SUCCEEDED);
    assertThat(nonWatch(ALL)).isZero();
  }

  /**
   * Watch mode over a hundred namespaces on the fake's default 24 worker threads: the first read
   * lists every namespace and opens its watch, all hundred watches stay open at once, and a change
   * in each namespace reaches the reader. (While each open watch held one of the server's threads,
   * the watches beyond them waited for a thread and this read never came back.)
   */
  @Test
  void overAHundredNamespacesEveryNamespaceIsWatchedAtOnceAndSeesItsChanges() {
    List<ExecutionId> ids = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String ns = "ns-" + (i % 100);
      String name = "kj-job-" + i;
      server
          .store()
          .create(TestJobKind.TYPE, ns, Fixture.testJob(name, "gravitino", "job-" + i, "RUNNING"));
      ids.add(ExecutionId.of("test", TestJobKind.KIND, ns, name));
    }
    KubeJobs<TestJobSpec> jobs = watching();

    assertThat(jobs.statusReader().getAllInfos(ids).values())
        .hasSize(300)
        .allMatch(i -> i.status() == JobStatus.STARTED);
    await().atMost(Duration.ofSeconds(60)).until(() -> server.openWatches() >= 100);
    for (int n = 0; n < 100; n++) {
      Fixture.setStatus(server, "ns-" + n, "kj-job-" + n, "{\"state\":\"SUCCEEDED\"}");
    }

    List<ExecutionId> changed = ids.subList(0, 100);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                jobs.statusReader().getAllInfos(changed).values().stream()
                    .allMatch(i -> i.status() == JobStatus.SUCCEEDED));
    assertThat(server.openWatches()).isGreaterThanOrEqualTo(100);
  }

  /**
   * Over HTTP/2, as client-java's {@code ApiClient} speaks to a TLS API server (h2c here), every
   * namespace's watch is a stream of the one connection that also carries the reads: the changes
   * arrive through both watches and no namespace falls back to polling.
   */
  @Test
  void overHttp2TheWatchesShareOneConnectionAndSeeChangesWithoutARequest() {
    List<ExecutionId> ids = create(4, "RUNNING");
    ApiClient client = Http2Clients.overHttp2(server.newClient());
    KubeJobs<TestJobSpec> jobs = node(StatusSource.watch(), KUBE.builder(client, "gravitino"));
    assertThat(jobs.statusReader().getAllInfos(ids).values())
        .allMatch(i -> i.status() == JobStatus.STARTED);
    server.journal().clear();

    Fixture.setStatus(server, "ns-0", "kj-job-0", "{\"state\":\"SUCCEEDED\"}");
    Fixture.setStatus(server, "ns-1", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                jobs.statusReader().get(ids.get(0)).status() == JobStatus.SUCCEEDED
                    && jobs.statusReader().get(ids.get(1)).status() == JobStatus.SUCCEEDED);

    assertThat(nonWatch(ALL)).isZero();
    assertThat(client.getHttpClient().connectionPool().connectionCount()).isEqualTo(1);
  }

  @Test
  void watchAndPollingGiveTheSameInfoForTheSameObjects() {
    List<ExecutionId> ids = create(6, "RUNNING");
    Fixture.setStatus(server, "ns-0", "kj-job-0", "{\"state\":\"SUCCEEDED\"}");
    Fixture.setStatus(server, "ns-1", "kj-job-1", "{\"state\":\"QUEUED\"}");
    server
        .store()
        .create(TestJobKind.TYPE, "ns-0", Fixture.testJob("kj-job-x", "gravitino", "x", null));
    ids.add(ExecutionId.of("test", TestJobKind.KIND, "ns-0", "kj-job-x"));
    KubeJobs<TestJobSpec> polling = node(StatusSource.polling(), KUBE.builder("gravitino"));
    KubeJobs<TestJobSpec> watching = watching();

    Map<ExecutionId, JobExecutionInfo> polled = polling.statusReader().getAllInfos(ids);
    Map<ExecutionId, JobExecutionInfo> watched = watching.statusReader().getAllInfos(ids);

    assertThat(watched).isEqualTo(polled);
  }

  @Test
  void aJobDeletedWhileWatchedIsNoSuchJob() {
    List<ExecutionId> ids = create(2, "RUNNING");
    KubeJobs<TestJobSpec> jobs = watching();
    jobs.statusReader().getAllInfos(ids);

    server.store().delete(TestJobKind.TYPE, "ns-0", "kj-job-0");

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThatThrownBy(() -> jobs.statusReader().get(ids.get(0)))
                    .isInstanceOf(NoSuchJobException.class));
  }

  /**
   * A watch may tell of a change after a read already showed a later state: the watch cache and the
   * connection lag behind the store, while a GET answers from it. Here node B cancels a running job
   * (mark, then delete) while its watch is held back, reads it gone, and only then does its watch
   * bring the mark. Before the reader remembered which resource it had reported gone, that late
   * copy made B answer CANCELLING after NoSuchJob (now B, which cancelled the job, answers
   * CANCELLED, and the late copy never turns it back): the race simulation's invariant (b) in a
   * watching scenario (seed 62183, about 1 in 20,000 scenarios).
   */
  @Test
  void aWatchEventOlderThanTheReadThatFoundTheJobGoneNeverBringsItBack() {
    ExecutionId id = create(1, "RUNNING").get(0);
    KubeJobs<TestJobSpec> jobs = watching();
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
    List<String> marks = new CopyOnWriteArrayList<>();
    ResourceListener modified =
        e -> {
          if (e.kind() == ResourceEvent.Kind.MODIFIED) {
            marks.add(e.object().getAsJsonObject("metadata").get("resourceVersion").getAsString());
          }
        };
    server.store().addListener(modified);
    server.pauseWatches();
    try {
      assertThat(jobs.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
      assertThat(server.store().get(TestJobKind.TYPE, "ns-0", "kj-job-0")).isEmpty();
      // The reader that cancelled it knows how it ended: CANCELLED, not gone (issue 41).
      assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(marks).hasSize(1);

      // Only the mark reaches B's view: its copy of the job is now older than B's read.
      server.releaseWatchesUpTo(marks.get(0));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                server.journal().clear();
                boolean gone = jobs.statusReader().get(id).status() == JobStatus.CANCELLED;
                // no request: answered from the view, which holds the late copy now
                return gone && nonWatch(ALL) == 0;
              });
    } finally {
      server.resumeWatches();
      server.store().removeListener(modified);
    }
    assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  /**
   * The same lag for a job this reader never reported before it found it gone, so it knows no uid
   * to tell the late copy by: the copy is confirmed with a GET instead of being taken for a new
   * resource. Before that, a node that cancelled a job without reading it first, then read it gone
   * (NoSuchJob, which Gravitino records as CANCELLED after its own cancel), answered CANCELLING
   * from the copy its watch brought late: the race simulation's invariant (b) in a concurrent
   * watching scenario (seed 20260941 of {@code RaceSimulationTest}; it failed once, on real
   * threads).
   */
  @Test
  void aLateWatchCopyOfAJobNeverReportedButFoundGoneIsConfirmedAndStaysGone() {
    ExecutionId watched = create(1, "RUNNING").get(0);
    KubeJobs<TestJobSpec> jobs = watching();
    assertThat(jobs.statusReader().get(watched).status()).isEqualTo(JobStatus.STARTED);
    server.pauseWatches();
    try {
      // Created and deleted while the watch lags; a second job created in between shows, once it
      // reaches the view, that the view holds the late copy (one stream keeps the store's order).
      server
          .store()
          .create(
              TestJobKind.TYPE, "ns-0", Fixture.testJob("kj-late", "gravitino", "late", "RUNNING"));
      JsonObject signal =
          server
              .store()
              .create(
                  TestJobKind.TYPE,
                  "ns-0",
                  Fixture.testJob("kj-signal", "gravitino", "signal", "RUNNING"));
      server.store().delete(TestJobKind.TYPE, "ns-0", "kj-late");
      ExecutionId late = ExecutionId.of("test", TestJobKind.KIND, "ns-0", "kj-late");
      ExecutionId signalId = ExecutionId.of("test", TestJobKind.KIND, "ns-0", "kj-signal");
      assertThatThrownBy(() -> jobs.statusReader().get(late))
          .isInstanceOf(NoSuchJobException.class);

      server.releaseWatchesUpTo(
          signal.getAsJsonObject("metadata").get("resourceVersion").getAsString());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                server.journal().clear();
                boolean started = jobs.statusReader().get(signalId).status() == JobStatus.STARTED;
                return started && nonWatch(ALL) == 0; // answered from the view: it is up to date
              });

      server.journal().clear();
      assertThat(readsGone(jobs, late)).isTrue();
      assertThat(nonWatch("/apis/kubejobs.dev/v1/namespaces/ns-0/testjobs/kj-late")).isEqualTo(1);
    } finally {
      server.resumeWatches();
    }
  }

  private static boolean readsGone(KubeJobs<TestJobSpec> jobs, ExecutionId id) {
    try {
      JobStatus status = jobs.statusReader().get(id).status();
      throw new AssertionError("a job read gone came back as " + status);
    } catch (NoSuchJobException expected) {
      return true;
    }
  }

  /**
   * A job deleted while its namespace's watch was away, in a gap the server compacted (the watch
   * cannot resume and lists again): the list no longer has it, and the view drops it by the name
   * the view kept of it. Read from the view once it is in sync again, the job is gone, never the
   * copy from before the gap.
   */
  @Test
  void aJobDeletedWhileItsWatchWasAwayIsGoneOnceTheWatchHasListedAgain() {
    List<ExecutionId> ids = create(3, "RUNNING"); // kj-job-0 and kj-job-2 in ns-0
    String ns0 = "/apis/kubejobs.dev/v1/namespaces/ns-0/testjobs";
    server.faults().add(Fault.on("WATCH", ns0).times(1).dropWatchAfter(1));
    server.faults().add(Fault.on("WATCH", ns0).times(1).status(410, "Expired", "too old"));
    KubeJobs<TestJobSpec> jobs = watching();
    assertThat(jobs.statusReader().getAllInfos(ids)).hasSize(3);
    Hold relist = server.hold(Hold.on("GET", ns0));

    Fixture.touch(server, "ns-0", "kj-job-2"); // the one event, then the watch is dropped
    // It could not resume (410), so it lists again: held here.
    assertThat(relist.awaitArrived(Duration.ofSeconds(30)).queryParameter("watch")).isNull();
    server.store().delete(TestJobKind.TYPE, "ns-0", "kj-job-0");
    relist.release();

    // In sync again (a read of the other job of ns-0 costs no request).
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              server.journal().clear();
              jobs.statusReader().get(ids.get(2));
              return nonWatch(ALL) == 0;
            });
    assertThatThrownBy(() -> jobs.statusReader().get(ids.get(0)))
        .isInstanceOf(NoSuchJobException.class);
  }

  @Test
  void whileAWatchIsBrokenItsNamespaceIsPolled() {
    List<ExecutionId> ids = create(2, "RUNNING");
    String ns0 = "/apis/kubejobs.dev/v1/namespaces/ns-0/testjobs";
    // ns-0's first watch breaks after one event; every later watch there is refused.
    server.faults().add(Fault.on("WATCH", ns0).times(1).dropWatchAfter(1));
    server.faults().add(Fault.on("WATCH", ns0).forever().status(503, "ServiceUnavailable", "down"));
    KubeJobs<TestJobSpec> jobs = watching();
    jobs.statusReader().getAllInfos(ids);
    assertThat(server.journal().count("GET", ns0)).isEqualTo(2); // the watch's LIST, the WATCH

    Fixture.touch(server, "ns-0", "kj-job-0"); // the one event, then the watch breaks
    Fixture.setStatus(server, "ns-0", "kj-job-0", "{\"state\":\"SUCCEEDED\"}");

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> jobs.statusReader().get(ids.get(0)).status() == JobStatus.SUCCEEDED);
    // Read by the polling LIST (the watch never came back), never from the broken view alone.
    assertThat(nonWatch("/apis/kubejobs.dev/v1/namespaces/ns-0/testjobs")).isPositive();
  }

  @Test
  void theListenerHearsOfAChangeWithoutAnyoneReading() {
    List<ExecutionId> ids = create(1, "RUNNING");
    List<String> told = new CopyOnWriteArrayList<>();
    KubeJobs<TestJobSpec> jobs =
        node(
            StatusSource.watch(),
            KUBE.builder("gravitino").statusListener((id, info) -> told.add(info.status().name())));
    jobs.statusReader().get(ids.get(0));

    Fixture.setStatus(server, "ns-0", "kj-job-0", "{\"state\":\"SUCCEEDED\"}");

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(told).containsExactly("STARTED", "SUCCEEDED"));
  }

  @Test
  void aForbiddenWatchFallsBackToPolling() {
    List<ExecutionId> ids = create(2, "RUNNING");
    server.rbac().deny("watch", "kubejobs.dev", "testjobs");
    KubeJobs<TestJobSpec> jobs = watching();

    assertThat(jobs.statusReader().getAllInfos(ids).values())
        .allMatch(i -> i.status() == JobStatus.STARTED);
    assertThat(server.journal().count("GET", "/apis/kubejobs.dev/v1/namespaces/[^/]+/testjobs"))
        .isPositive();
  }
}
