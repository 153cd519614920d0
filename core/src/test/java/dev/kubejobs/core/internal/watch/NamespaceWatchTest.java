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
package dev.kubejobs.core.internal.watch;

import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.resilience.Resilience4jPolicy;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import dev.kubejobs.testkit.ResourceEvent;
import dev.kubejobs.testkit.ResourceListener;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The per-namespace view fed by LIST + WATCH, against the fake API server's watch (testkit's {@code
 * WatchFilter}, which follows kube-apiserver's {@code endpoints/handlers/watch.go} and {@code
 * storage/cacher}).
 */
@Tag("slow")
class NamespaceWatchTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String NS = "etl";
  private static final String SELECTOR = "app.kubernetes.io/managed-by=kubejobs";
  private static final String JOBS = "/apis/kubejobs.dev/v1/namespaces/" + NS + "/testjobs";
  private static final ResourceKind APACHE =
      new ResourceKind("spark.apache.org", "v1", "sparkapplications", "SparkApplication");
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** Short waits so that back-offs cost tests little; everything else as by default. */
  private static final WatchSettings FAST =
      WatchSettings.ofDefaults().withBackoff(Duration.ofMillis(20), Duration.ofMillis(200));

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder()
          .resource(TestJobKind.TYPE)
          .operator(Flavor.APACHE)
          .clock(CLOCK)
          .build();

  private final List<NamespaceWatch> views = new ArrayList<>();
  private final List<String> heard = new CopyOnWriteArrayList<>();
  private FakeKubernetesApiServer server;

  @BeforeEach
  void setUp() {
    CLOCK.set(T0);
    server = KUBE.server();
  }

  @AfterEach
  void noThreadOrWatchOutlivesItsTest() {
    views.forEach(NamespaceWatch::close);
    assertThat(watchThreads()).isEmpty();
    await().atMost(WAIT).until(() -> server.openWatches() == 0);
  }

  // ---------------------------------------------------------------- first list and changes

  /**
   * One LIST, then a WATCH from the list's resourceVersion with bookmarks and the server's timeout,
   * as client-go's reflector does ({@code ListAndWatch}: {@code list}, then {@code watch} with
   * {@code ResourceVersion: r.LastSyncResourceVersion()}, {@code AllowWatchBookmarks: true} and
   * {@code TimeoutSeconds}, tools/cache/reflector.go).
   */
  @Test
  void theFirstListFillsTheViewAndItsOpenWatchMakesItInSync() {
    create("kj-a");
    create("kj-b");
    JsonObject other = Fixture.testJob("kj-x", "d", "job-x", null);
    other.getAsJsonObject("metadata").getAsJsonObject("labels").remove(managedBy());
    server.store().create(TestJobKind.TYPE, NS, other);

    NamespaceWatch view = start(testJobs(FAST));

    assertThat(view.awaitSync(WAIT)).isTrue();
    NamespaceWatch.View v = view.view();
    assertThat(v.inSync()).isTrue();
    assertThat(v.forbidden()).isFalse();
    assertThat(v.byName()).containsOnlyKeys("kj-a", "kj-b");
    assertThat(v.lastHeard()).isEqualTo(T0);
    assertThat(heard).containsExactlyInAnyOrder("add kj-a", "add kj-b");
    assertThat(lists()).hasSize(1);
    RecordedRequest watch = watches().get(0);
    assertThat(watch.queryParameter("resourceVersion")).isEqualTo(v.resourceVersion());
    assertThat(watch.queryParameter("allowWatchBookmarks")).isEqualTo("true");
    assertThat(watch.queryParameter("timeoutSeconds")).isEqualTo("300");
    assertThat(watch.queryParameter("labelSelector")).isEqualTo(SELECTOR);
    assertThat(server.openWatches()).isEqualTo(1);
  }

  @Test
  void theViewIsCheapAndReadOnly() {
    NamespaceWatch view = start(testJobs(FAST));
    assertThat(view.awaitSync(WAIT)).isTrue();
    NamespaceWatch.View before = view.view();

    create("kj-a");

    await().atMost(WAIT).until(() -> view.view().byName().containsKey("kj-a"));
    // no copy per call: the map is the same live, read-only view
    assertThat(view.view().byName()).isSameAs(before.byName());
    assertThat(view.view().generation()).isGreaterThan(before.generation());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> before.byName().remove("kj-a"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  /**
   * The fake operator's writes reach the view and the listener one by one, in the order it made
   * them: the watch cache sends every change of a watched object in resourceVersion order ({@code
   * cacheWatcher}, staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go).
   */
  @Test
  void theOperatorsChangesReachTheViewAndTheListenerInOrder() {
    FakeSparkOperator operator = KUBE.operator(Flavor.APACHE);
    ResourceType app = ResourceType.APACHE_SPARK_APPLICATION;
    List<String> made = new CopyOnWriteArrayList<>();
    ResourceListener recorder =
        e -> {
          if (e.type().equals(app) && e.namespace().equals(NS)) {
            made.add(kind(e) + " " + e.object().get("status"));
          }
        };
    List<String> seen = new CopyOnWriteArrayList<>();
    NamespaceWatch view =
        start(
            NamespaceWatch.builder(gateway(ResiliencePolicy.none()), APACHE, NS)
                .labelSelector(SELECTOR)
                .settings(FAST)
                .clock(CLOCK)
                .listener(
                    (previous, current) ->
                        seen.add(
                            (previous == null ? "ADDED" : current == null ? "DELETED" : "MODIFIED")
                                + " "
                                + (current == null ? previous : current)
                                    .status()
                                    .map(String::valueOf)
                                    .orElse("null"))));
    assertThat(view.awaitSync(WAIT)).isTrue();
    server.store().addListener(recorder);
    try {
      server
          .store()
          .create(
              app,
              NS,
              ApacheFixtures.noStatus().name("kj-a").namespace(NS).kubejobs("job-a", "d").build());
      operator.runToEnd(NS, "kj-a");
      String last = server.store().get(app, NS, "kj-a").orElseThrow().toString();

      await().atMost(WAIT).until(() -> seen.size() >= made.size());
      assertThat(made).hasSizeGreaterThan(3);
      assertThat(seen).containsExactlyElementsOf(made);
      assertThat(view.view().byName().get("kj-a").json().toString()).isEqualTo(last);
    } finally {
      server.store().removeListener(recorder);
    }
  }

  // ---------------------------------------------------------------- resuming

  /**
   * A watch that breaks off is resumed from the last resourceVersion seen, without a new list:
   * client-go's reflector loops in {@code watch} with {@code ResourceVersion:
   * r.LastSyncResourceVersion()} after {@code handleWatch} returns (tools/cache/reflector.go).
   */
  @Test
  void aDroppedWatchIsOutOfSyncUntilResumedFromTheLastResourceVersionWithoutARelist() {
    server.faults().add(Fault.on("WATCH", JOBS).times(1).dropWatchAfter(2));
    NamespaceWatch view = start(testJobs(FAST));
    assertThat(view.awaitSync(WAIT)).isTrue();
    // the watches that follow the drop fail until the test lets them through
    server.faults().add(Fault.on("WATCH", JOBS).forever().status(503, "ServiceUnavailable", "x"));
    create("kj-a");
    String second = create("kj-b");

    movingTheClock(() -> watches().size() >= 3);
    assertThat(view.view().inSync()).isFalse();
    assertThat(view.view().resourceVersion()).isEqualTo(second);
    create("kj-c");
    server.faults().clear();

    movingTheClock(() -> view.view().byName().containsKey("kj-c"));
    assertThat(view.awaitSync(WAIT)).isTrue();
    assertThat(heard).containsExactly("add kj-a", "add kj-b", "add kj-c");
    assertThat(lists()).hasSize(1);
    assertThat(watches().subList(1, watches().size()))
        .extracting(r -> r.queryParameter("resourceVersion"))
        .containsOnly(second);
  }

  /**
   * A watch from a resourceVersion the server no longer has gets one ERROR event with a 410 {@code
   * Expired} Status ({@code newErrWatcher} in staging/src/k8s.io/apiserver/pkg/storage/cacher);
   * client-go then lists again ({@code isExpiredError} ends {@code watch}, {@code ListAndWatch}
   * runs {@code list}) and its store's {@code Replace} reports what vanished as deletes ({@code
   * DeltaFIFO.Replace}, tools/cache/delta_fifo.go).
   */
  @Test
  void anExpiredResourceVersionRelistsOnceAndReportsWhatVanishedMeanwhileAsDeletes() {
    create("kj-a");
    create("kj-b");
    server.faults().add(Fault.on("WATCH", JOBS).times(1).dropWatchAfter(1));
    NamespaceWatch view = start(testJobs(FAST));
    assertThat(view.awaitSync(WAIT)).isTrue();
    server.faults().add(Fault.on("WATCH", JOBS).forever().status(503, "ServiceUnavailable", "x"));
    create("kj-x");
    movingTheClock(() -> watches().size() >= 3);

    // while no watch is open: one job goes, one comes, and the history is compacted
    server.store().delete(TestJobKind.TYPE, NS, "kj-b");
    create("kj-c");
    server.compact();
    server.faults().clear();

    movingTheClock(() -> view.view().byName().containsKey("kj-c"));
    assertThat(view.awaitSync(WAIT)).isTrue();
    assertThat(view.view().byName()).containsOnlyKeys("kj-a", "kj-x", "kj-c");
    assertThat(heard)
        .containsExactly("add kj-a", "add kj-b", "add kj-x", "delete kj-b", "add kj-c");
    assertThat(lists()).hasSize(2);
  }

  /**
   * Bookmarks move the resume point past changes the watch does not select, so a resumed watch does
   * not expire after a compaction: client-go's {@code handleAnyWatch} calls {@code
   * setLastSyncResourceVersion} for {@code watch.Bookmark} too (tools/cache/reflector.go), and the
   * watch cache sends bookmarks to watches that allow them ({@code
   * staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go}).
   */
  @Test
  void bookmarksAdvanceTheResumePointSoACompactionDoesNotForceARelist() {
    // the server ends each watch after a second, so the view resumes often
    NamespaceWatch view = start(testJobs(FAST.withServerTimeout(Duration.ofSeconds(1))));
    assertThat(view.awaitSync(WAIT)).isTrue();
    String listed = view.view().resourceVersion();
    String elsewhere =
        server
            .store()
            .create(TestJobKind.TYPE, "other", Fixture.testJob("kj-o", "d", "job-o", null))
            .getAsJsonObject("metadata")
            .get("resourceVersion")
            .getAsString();

    movingTheClock(
        () -> {
          server.sendWatchBookmarks();
          return view.view().resourceVersion().equals(elsewhere);
        });
    assertThat(elsewhere).isNotEqualTo(listed);
    int before = server.journal().requests().size();
    server.compact();

    movingTheClock(
        () ->
            server.journal().requests().subList(before, server.journal().requests().size()).stream()
                    .filter(r -> r.path().equals(JOBS) && "true".equals(r.queryParameter("watch")))
                    .count()
                >= 2);
    assertThat(view.awaitSync(WAIT)).isTrue();
    assertThat(lists()).hasSize(1);
    assertThat(heard).isEmpty();
  }

  /**
   * A watch that brings nothing, not even a bookmark, for the idle limit is closed by the client
   * and resumed from the same resourceVersion: client-go bounds a silent watch with {@code
   * TimeoutSeconds} ("stop any watchers that do not receive any events within the timeout window",
   * tools/cache/reflector.go); the view adds a client-side limit because watches have no read
   * timeout.
   */
  @Test
  void theIdleLimitClosesASilentWatchAndResumesFromTheSameResourceVersion() {
    // the default idle limit (2 minutes), passed on the view's clock: no real time
    NamespaceWatch view =
        start(testJobs(FAST.withIdleLimit(WatchSettings.ofDefaults().idleLimit())));
    assertThat(view.awaitSync(WAIT)).isTrue();
    String listed = view.view().resourceVersion();
    assertThat(watches()).hasSize(1);

    movingTheClock(Duration.ofMinutes(1), () -> watches().size() >= 3);
    create("kj-a");

    await().atMost(WAIT).until(() -> view.view().byName().containsKey("kj-a"));
    assertThat(lists()).hasSize(1);
    assertThat(watches().subList(0, 3))
        .extracting(r -> r.queryParameter("resourceVersion"))
        .containsOnly(listed);
    // the server notices the closed connections and ends their streams
    await().atMost(WAIT).until(() -> server.openWatches() <= 1);
    assertThat(heard).containsExactly("add kj-a");
  }

  // ---------------------------------------------------------------- failures

  /** A 403 on the watch verb: RBAC's answer ({@code Rbac} in the testkit, kube's authorizer). */
  @Test
  void aForbiddenWatchMarksTheViewForbiddenWarnsOnceAndRecoversWhenAllowed() {
    server.rbac().deny("watch", "kubejobs.dev", "testjobs");
    try (LogCapture log = LogCapture.start()) {
      NamespaceWatch view = start(testJobs(FAST));

      assertThat(view.awaitSync(WAIT)).isFalse();
      assertThat(view.view().forbidden()).isTrue();
      movingTheClock(() -> watches().size() >= 3);
      assertThat(log.warnings())
          .filteredOn(l -> l.contains("NamespaceWatch"))
          .singleElement()
          .asString()
          .contains("'watch' verb", "testjobs.kubejobs.dev", "namespace '" + NS + "'");

      server.rbac().reset();
      movingTheClock(() -> view.view().inSync());
      assertThat(view.view().forbidden()).isFalse();
      assertThat(lists()).hasSize(1);
    }
  }

  /**
   * An unreachable server opens the circuit; the view's attempts are then refused without a
   * request, it backs off, and it recovers once the breaker lets a probe through: client-go backs
   * off its watch retries the same way ({@code isWatchErrorRetriable} and {@code backoffManager},
   * tools/cache/reflector.go).
   */
  @Test
  void anUnreachableServerOpensTheCircuitTheViewBacksOffAndRecovers() {
    Resilience4jPolicy policy =
        Resilience4jPolicy.of("watch-test", Fixture.fastRetry(), breakerConfig());
    AtomicInteger refused = new AtomicInteger();
    policy.circuitBreaker().getEventPublisher().onCallNotPermitted(e -> refused.incrementAndGet());
    create("kj-a");
    server.faults().add(Fault.on("GET", JOBS).forever().connectionReset());
    server.faults().add(Fault.on("WATCH", JOBS).forever().connectionReset());

    NamespaceWatch view =
        start(
            NamespaceWatch.builder(gateway(policy), TestJobKind.KIND, NS)
                .labelSelector(SELECTOR)
                .settings(FAST)
                .clock(CLOCK)
                .listener(this::record));

    movingTheClock(() -> policy.circuitBreaker().getState() == CircuitBreaker.State.OPEN);
    int sent = server.journal().count("GET", JOBS);
    // the back-offs pass on the clock, far less than the breaker's 10 s open state
    movingTheClock(() -> refused.get() >= 2);
    assertThat(server.journal().count("GET", JOBS)).isEqualTo(sent);
    assertThat(view.view().inSync()).isFalse();

    server.faults().clear();
    CLOCK.advance(Duration.ofSeconds(11));

    movingTheClock(() -> view.view().inSync());
    assertThat(view.view().byName()).containsOnlyKeys("kj-a");
    assertThat(policy.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  // ---------------------------------------------------------------- invalidate and close

  @Test
  void invalidateDropsAnEntryUntilTheNextEventAboutIt() {
    create("kj-a");
    NamespaceWatch view = start(testJobs(FAST));
    assertThat(view.awaitSync(WAIT)).isTrue();
    long generation = view.view().generation();

    view.invalidate("kj-a");

    assertThat(view.view().byName()).doesNotContainKey("kj-a");
    assertThat(view.view().generation()).isGreaterThan(generation);
    Fixture.touch(server, NS, "kj-a");
    await().atMost(WAIT).until(() -> view.view().byName().containsKey("kj-a"));
    assertThat(heard).containsExactly("add kj-a", "add kj-a");
  }

  @Test
  void closeEndsTheThreadsAndTheServersOpenWatchPromptly() {
    NamespaceWatch view = start(testJobs(FAST));
    assertThat(view.awaitSync(WAIT)).isTrue();
    assertThat(watchThreads())
        .containsExactlyInAnyOrder("kubejobs-watch-etl", "kubejobs-watch-etl-idle");
    assertThat(server.openWatches()).isEqualTo(1);

    view.close();

    assertThat(watchThreads()).isEmpty();
    assertThat(view.view().inSync()).isFalse();
    await().atMost(WAIT).until(() -> server.openWatches() == 0);
    view.close();
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Waits for {@code condition}, moving the view's clock by the back-off's longest wait at each
   * poll: the view's back-off and idle limit run on that clock, so they pass without real time.
   */
  private static void movingTheClock(Callable<Boolean> condition) {
    movingTheClock(FAST.backoffMax(), condition);
  }

  private static void movingTheClock(Duration step, Callable<Boolean> condition) {
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              CLOCK.advance(step);
              return condition.call();
            });
  }

  private NamespaceWatch.Builder testJobs(WatchSettings settings) {
    return NamespaceWatch.builder(gateway(ResiliencePolicy.none()), TestJobKind.KIND, NS)
        .labelSelector(SELECTOR)
        .settings(settings)
        .clock(CLOCK)
        .listener(this::record);
  }

  private NamespaceWatch start(NamespaceWatch.Builder builder) {
    NamespaceWatch view = builder.build();
    views.add(view);
    view.start();
    return view;
  }

  private KubeGateway gateway(ResiliencePolicy policy) {
    return KubeGateway.create(KUBE.client(), Duration.ofSeconds(5), policy, CLOCK);
  }

  private void record(ResourceSnapshot previous, ResourceSnapshot current) {
    heard.add(
        previous == null
            ? "add " + current.name()
            : current == null ? "delete " + previous.name() : "modify " + current.name());
  }

  /** Creates a managed test job in the namespace; returns its resourceVersion. */
  private String create(String name) {
    return server
        .store()
        .create(TestJobKind.TYPE, NS, Fixture.testJob(name, "d", "job-" + name, null))
        .getAsJsonObject("metadata")
        .get("resourceVersion")
        .getAsString();
  }

  private List<RecordedRequest> lists() {
    return server.journal().requests("GET", JOBS).stream()
        .filter(r -> r.queryParameter("watch") == null)
        .toList();
  }

  private List<RecordedRequest> watches() {
    return server.journal().requests("GET", JOBS).stream()
        .filter(r -> "true".equals(r.queryParameter("watch")))
        .toList();
  }

  private static String managedBy() {
    return SELECTOR.substring(0, SELECTOR.indexOf('='));
  }

  private static String kind(ResourceEvent e) {
    return e.kind().name();
  }

  private static List<String> watchThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(n -> n.startsWith("kubejobs-watch-"))
        .toList();
  }

  private static io.github.resilience4j.circuitbreaker.CircuitBreakerConfig breakerConfig() {
    return Resilience4jPolicy.defaultCircuitBreakerConfig(CLOCK);
  }
}
