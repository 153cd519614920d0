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
package dev.kubejobs.core.internal.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.resilience.Resilience4jPolicy;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gateway's list with its resourceVersion and its streaming watch, against the fake API
 * server's watch (which follows kube-apiserver's {@code endpoints/handlers/watch.go}).
 */
class KubeGatewayWatchTest {
  private static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
  private static final String NS = "etl";
  private static final String JOBS = "/apis/kubejobs.dev/v1/namespaces/" + NS + "/testjobs";
  private static final Duration ONE_SECOND = Duration.ofSeconds(1);

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).clock(CLOCK).build();

  private KubeGateway gateway;

  @BeforeEach
  void setUp() {
    gateway =
        KubeGateway.create(KUBE.client(), Duration.ofSeconds(5), ResiliencePolicy.none(), CLOCK);
  }

  @AfterEach
  void noWatchOutlivesItsTest() {
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> KUBE.server().openWatches() == 0);
  }

  @Test
  void listWithVersionReturnsTheListsResourceVersionAcrossPagesAndListAgrees() {
    String last = "";
    for (int i = 0; i < 600; i++) {
      last = create("kj-" + i);
    }

    ListResult result = gateway.listWithVersion(null, TestJobKind.KIND, NS, null);

    assertThat(result.items()).hasSize(600);
    assertThat(result.resourceVersion()).isEqualTo(last);
    assertThat(KUBE.server().journal().count("GET", JOBS)).isEqualTo(2);
    assertThat(gateway.list(null, TestJobKind.KIND, NS, null))
        .extracting(ResourceSnapshot::name)
        .containsExactlyElementsOf(result.items().stream().map(ResourceSnapshot::name).toList());
  }

  /**
   * Events after the resourceVersion arrive in order; {@code timeoutSeconds} ends the stream
   * cleanly, so {@code watch} returns ({@code WatchServer.HandleHTTP}'s timeout, watch.go).
   */
  @Test
  void aWatchHandsOverEachEventAndReturnsWhenTheServerEndsTheStream() {
    String from = gateway.listWithVersion(null, TestJobKind.KIND, NS, null).resourceVersion();
    String a = create("kj-a");
    KUBE.server().store().delete(TestJobKind.TYPE, NS, "kj-a");
    List<WatchEvent> events = new ArrayList<>();
    AtomicReference<Boolean> opened = new AtomicReference<>(false);

    gateway.watch(
        TestJobKind.KIND,
        NS,
        "app.kubernetes.io/managed-by=kubejobs",
        from,
        ONE_SECOND,
        true,
        new WatchHandler() {
          @Override
          public void opened() {
            opened.set(true);
          }

          @Override
          public void onEvent(WatchEvent event) {
            events.add(event);
          }
        });

    assertThat(opened.get()).isTrue();
    assertThat(events)
        .extracting(WatchEvent::type)
        .containsExactly(WatchEvent.Type.ADDED, WatchEvent.Type.DELETED);
    assertThat(events.get(0).resourceVersion()).isEqualTo(a);
    assertThat(events.get(0).object().name()).isEqualTo("kj-a");
    assertThat(Long.parseLong(events.get(1).resourceVersion())).isGreaterThan(Long.parseLong(a));
    var watch = KUBE.server().journal().requests("GET", JOBS).get(1);
    assertThat(watch.queryParameter("watch")).isEqualTo("true");
    assertThat(watch.queryParameter("resourceVersion")).isEqualTo(from);
    assertThat(watch.queryParameter("allowWatchBookmarks")).isEqualTo("true");
    assertThat(watch.queryParameter("timeoutSeconds")).isEqualTo("1");
  }

  /**
   * A resourceVersion older than the history gets 200, one ERROR event with a 410 {@code Expired}
   * Status and the end ({@code newErrWatcher}, staging/src/k8s.io/apiserver/pkg/storage/cacher).
   */
  @Test
  void anExpiredResourceVersionArrivesAsAnErrorEventWithCode410() {
    String from = create("kj-a");
    create("kj-b");
    KUBE.server().compact();
    List<WatchEvent> events = new ArrayList<>();

    gateway.watch(TestJobKind.KIND, NS, null, from, ONE_SECOND, true, events::add);

    assertThat(events).hasSize(1);
    WatchEvent error = events.get(0);
    assertThat(error.type()).isEqualTo(WatchEvent.Type.ERROR);
    assertThat(error.error().code()).isEqualTo(410);
    assertThat(error.error().reason()).isEqualTo("Expired");
    assertThat(error.error().isExpired()).isTrue();
  }

  @Test
  void aForbiddenWatchIsRejectedNamingTheWatchPermission() {
    KUBE.server().rbac().deny("watch", "kubejobs.dev", "testjobs");

    assertThatThrownBy(
            () -> gateway.watch(TestJobKind.KIND, NS, null, "", ONE_SECOND, true, e -> {}))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.FORBIDDEN);
              assertThat(e.getMessage())
                  .contains("missing permission: watch testjobs.kubejobs.dev in namespace etl");
            });
  }

  @Test
  void aServerErrorBeforeTheStreamIsUnavailable() {
    KUBE.server()
        .faults()
        .add(Fault.on("WATCH", JOBS).times(1).status(503, "ServiceUnavailable", "busy"));

    assertThatThrownBy(
            () -> gateway.watch(TestJobKind.KIND, NS, null, "", ONE_SECOND, true, e -> {}))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("503");
  }

  @Test
  void aStreamThatBreaksOffIsUnavailableAfterItsEvents() {
    String from = gateway.listWithVersion(null, TestJobKind.KIND, NS, null).resourceVersion();
    create("kj-a");
    create("kj-b");
    KUBE.server().faults().add(Fault.on("WATCH", JOBS).times(1).dropWatchAfter(1));
    List<WatchEvent> events = new ArrayList<>();

    assertThatThrownBy(
            () ->
                gateway.watch(
                    TestJobKind.KIND, NS, null, from, Duration.ofMinutes(1), true, events::add))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("broke off");
    assertThat(events).extracting(e -> e.object().name()).containsExactly("kj-a");
  }

  @Test
  void anOpenCircuitRefusesAWatchWithoutSendingIt() {
    Resilience4jPolicy policy =
        Resilience4jPolicy.of("gateway-watch", Fixture.fastRetry(), Fixture.lenientBreaker(CLOCK));
    policy.circuitBreaker().transitionToOpenState();
    KubeGateway guarded = KubeGateway.create(KUBE.client(), Duration.ofSeconds(5), policy, CLOCK);

    assertThatThrownBy(
            () -> guarded.watch(TestJobKind.KIND, NS, null, "", ONE_SECOND, true, e -> {}))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("circuit breaker");
    assertThat(KUBE.server().journal().count("GET", JOBS)).isZero();
  }

  @Test
  void aCanceledWatchEndsPromptlyAndIsNotCountedAsUnreachable() {
    Resilience4jPolicy policy = Resilience4jPolicy.ofDefaults("gateway-watch-cancel", CLOCK);
    KubeGateway guarded = KubeGateway.create(KUBE.client(), Duration.ofSeconds(5), policy, CLOCK);
    for (int i = 0; i < 6; i++) {
      AtomicReference<WatchCall> handle = new AtomicReference<>();
      assertThatThrownBy(
              () ->
                  guarded.watch(
                      TestJobKind.KIND,
                      NS,
                      null,
                      "",
                      Duration.ofMinutes(5),
                      true,
                      new WatchHandler() {
                        @Override
                        public void starting(WatchCall call) {
                          handle.set(call);
                          call.cancel();
                        }

                        @Override
                        public void onEvent(WatchEvent event) {}
                      }))
          .isInstanceOf(ApiUnavailableException.class);
      assertThat(handle.get().isCanceled()).isTrue();
    }
    assertThat(policy.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void aServerTimeoutUnderOneSecondIsRefused() {
    assertThatThrownBy(
            () ->
                gateway.watch(
                    TestJobKind.KIND, NS, null, "", Duration.ofMillis(500), true, e -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("serverTimeout must be at least 1 second")
        .hasMessageContaining("PT0.5S");
  }

  private static String create(String name) {
    return KUBE.server()
        .store()
        .create(TestJobKind.TYPE, NS, Fixture.testJob(name, "d", "job-" + name, null))
        .getAsJsonObject("metadata")
        .get("resourceVersion")
        .getAsString();
  }
}
