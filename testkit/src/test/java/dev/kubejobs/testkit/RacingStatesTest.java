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
package dev.kubejobs.testkit;

import static dev.kubejobs.testkit.Kube.NS;
import static dev.kubejobs.testkit.Kube.SPARK_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Racing states: faults scoped to one client and hold-and-release of one request, so two scheduler
 * nodes on one server can be interleaved deterministically. Every test runs the clients on real
 * threads.
 */
class RacingStatesTest {

  static final String APPS = "/apis/spark.apache.org/v1/namespaces/[^/]+/sparkapplications";

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  private ExecutorService threads;
  private ApiClient nodeA;
  private ApiClient nodeB;

  @BeforeEach
  void clients() {
    threads = Executors.newFixedThreadPool(4);
    nodeA = kube.server().newClient("node-a");
    nodeB = kube.server().newClient("node-b");
  }

  @AfterEach
  void stopThreads() throws InterruptedException {
    kube.server().reset();
    threads.shutdownNow();
    assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aFaultForOneClientFailsOnlyThatClientsRequests() {
    Fault fault =
        Fault.on("GET", APPS + "/pi")
            .forClient("node-a")
            .times(1)
            .status(503, "ServiceUnavailable", "down");
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    kube.server().faults().add(fault);

    assertThat(Kube.apps(nodeB).get(NS, "pi").getHttpStatusCode()).isEqualTo(200);
    assertThat(Kube.apps(kube.client()).get(NS, "pi").getHttpStatusCode()).isEqualTo(200);
    assertThat(kube.server().faults().remaining(fault)).isEqualTo(1);
    assertThat(Kube.apps(nodeA).get(NS, "pi").getHttpStatusCode()).isEqualTo(503);
    assertThat(Kube.apps(nodeA).get(NS, "pi").getHttpStatusCode()).isEqualTo(200);
  }

  @Test
  void theJournalNamesTheClientOfEachRequest() {
    Kube.apps(nodeA).get(NS, "x");
    Kube.apps(nodeB).get(NS, "y");
    Kube.apps(kube.client()).get(NS, "z");

    assertThat(kube.server().journal().requests())
        .extracting(RecordedRequest::clientId)
        .containsExactly("node-a", "node-b", "");
    assertThat(kube.server().journal().requests().get(0).toString()).endsWith(" from node-a");
  }

  @Test
  void aClientDerivedFromAnIdentifiedClientKeepsItsId() {
    ApiClient derived = kube.server().newClient("node-a");
    derived.setHttpClient(
        derived.getHttpClient().newBuilder().retryOnConnectionFailure(false).build());
    kube.server().faults().add(Fault.on("GET", APPS + "/pi").forClient("node-a").connectionReset());

    assertThatThrownBy(() -> Kube.apps(derived).get(NS, "pi"))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aClientIdMustBeAHeaderSafeToken() {
    assertThatThrownBy(() -> kube.server().newClient("node a\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clientId");
    assertThatThrownBy(() -> kube.server().newClient(""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCreateHeldBeforeApplyingLosesToTheOtherNodesCreate() throws Exception {
    Hold held = kube.server().hold(Hold.on("POST", APPS).forClient("node-a").beforeApplying());
    Future<KubernetesApiResponse<DynamicKubernetesObject>> createA =
        threads.submit(() -> Kube.apps(nodeA).create(Kube.app("pi")));

    assertThat(held.awaitArrived().clientId()).isEqualTo("node-a");
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
    assertThat(Kube.apps(nodeB).create(Kube.app("pi")).isSuccess()).isTrue();
    assertThat(createA.isDone()).isFalse();
    held.release();

    assertThat(createA.get(10, TimeUnit.SECONDS).getHttpStatusCode()).isEqualTo(409);
    assertThat(held.awaitAnswered()).isEqualTo(409);
    assertThat(held.timedOut()).isFalse();
  }

  @Test
  void aDeleteHeldAfterApplyingHasChangedTheStoreButNotAnswered() throws Exception {
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    Hold held = kube.server().hold(Hold.on("DELETE", APPS + "/pi").afterApplying());
    Future<KubernetesApiResponse<DynamicKubernetesObject>> delete =
        threads.submit(() -> Kube.apps(nodeA).delete(NS, "pi"));

    held.awaitArrived();
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
    assertThat(Kube.apps(nodeB).get(NS, "pi").getHttpStatusCode()).isEqualTo(404);
    assertThat(delete.isDone()).isFalse();
    held.release();

    assertThat(delete.get(10, TimeUnit.SECONDS).isSuccess()).isTrue();
  }

  @Test
  void aHoldCatchesOneRequestAfterTheSkippedOnesAndLetsLaterOnesPass() throws Exception {
    Hold held = kube.server().hold(Hold.on("GET", APPS + "/pi").skip(1));

    assertThat(Kube.apps(nodeA).get(NS, "pi").getHttpStatusCode()).isEqualTo(404);
    assertThat(held.hasArrived()).isFalse();
    Future<?> second = threads.submit(() -> Kube.apps(nodeA).get(NS, "pi"));
    held.awaitArrived();
    assertThat(Kube.apps(nodeB).get(NS, "pi").getHttpStatusCode()).isEqualTo(404);
    held.release();
    second.get(10, TimeUnit.SECONDS);
    assertThat(held.awaitAnswered()).isEqualTo(404);
  }

  @Test
  void aHoldForOneClientLetsTheOtherClientPass() throws Exception {
    Hold held = kube.server().hold(Hold.on("GET", APPS + "/pi").forClient("node-b"));

    assertThat(Kube.apps(nodeA).get(NS, "pi").getHttpStatusCode()).isEqualTo(404);
    assertThat(held.hasArrived()).isFalse();
    Future<?> fromB = threads.submit(() -> Kube.apps(nodeB).get(NS, "pi"));
    held.awaitArrived();
    held.release();
    fromB.get(10, TimeUnit.SECONDS);
  }

  @Test
  void aHeldRequestMeetsItsFaultOnlyWhenReleased() throws Exception {
    ApiClient noRetry = kube.server().newClient("node-a");
    noRetry.setHttpClient(
        noRetry.getHttpClient().newBuilder().retryOnConnectionFailure(false).build());
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    Hold held = kube.server().hold(Hold.on("DELETE", APPS + "/pi"));
    Future<?> delete = threads.submit(() -> Kube.apps(noRetry).delete(NS, "pi"));
    held.awaitArrived();
    Fault lost = Fault.on("DELETE", APPS + "/pi").appliedThenLost();
    kube.server().faults().add(lost);

    held.release();

    assertThat(held.awaitAnswered()).isZero();
    assertThat(kube.server().faults().remaining(lost)).isZero();
    assertThat(kube.server().store().get(SPARK_APP, NS, "pi")).isEmpty();
    assertThatThrownBy(() -> delete.get(10, TimeUnit.SECONDS))
        .hasRootCauseInstanceOf(java.io.IOException.class);
  }

  @Test
  void anUnreleasedHoldLetsTheRequestGoAfterItsMaximum() throws Exception {
    Hold held = kube.server().hold(Hold.on("GET", APPS + "/pi").maxHold(Duration.ofMillis(200)));

    assertThat(Kube.apps(nodeA).get(NS, "pi").getHttpStatusCode()).isEqualTo(404);

    assertThat(held.timedOut()).isTrue();
    assertThat(held.awaitAnswered()).isEqualTo(404);
  }

  @Test
  void resetReleasesAWaitingRequest() throws Exception {
    Hold held = kube.server().hold(Hold.on("GET", APPS + "/pi"));
    Future<KubernetesApiResponse<DynamicKubernetesObject>> get =
        threads.submit(() -> Kube.apps(nodeA).get(NS, "pi"));
    held.awaitArrived();

    kube.server().reset();

    assertThat(get.get(10, TimeUnit.SECONDS).getHttpStatusCode()).isEqualTo(404);
    assertThat(held.timedOut()).isFalse();
  }

  @Test
  void releasingBeforeArrivalLetsTheRequestPass() {
    Hold held = kube.server().hold(Hold.on("GET", APPS + "/pi"));
    held.release();

    assertThat(Kube.apps(nodeA).get(NS, "pi").getHttpStatusCode()).isEqualTo(404);
    assertThat(held.hasArrived()).isFalse();
  }

  @Test
  void awaitingARequestThatNeverComesFailsNamingTheHold() {
    Hold held = kube.server().hold(Hold.on("PATCH", APPS + "/pi").forClient("node-a"));

    assertThatThrownBy(() -> held.awaitArrived(Duration.ofMillis(50)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("PATCH")
        .hasMessageContaining("node-a");
  }

  /**
   * Two nodes racing on one update, interleaved by holds in a seeded random order: whichever PUT
   * the test releases first wins, the other gets 409 Conflict, whatever the thread timing.
   */
  @ParameterizedTest
  @ValueSource(longs = {1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L})
  void heldUpdatesApplyInTheOrderTheTestReleasesThem(long seed) throws Exception {
    Random random = new Random(seed);
    kube.server().store().create(SPARK_APP, NS, Kube.appJson("pi"));
    DynamicKubernetesObject read = Kube.apps(kube.client()).get(NS, "pi").getObject();
    Hold holdA = kube.server().hold(Hold.on("PUT", APPS + "/pi").forClient("node-a"));
    Hold holdB = kube.server().hold(Hold.on("PUT", APPS + "/pi").forClient("node-b"));
    List<Future<KubernetesApiResponse<DynamicKubernetesObject>>> puts = new ArrayList<>();
    puts.add(threads.submit(() -> Kube.apps(nodeA).update(labelled(read, "a"))));
    puts.add(threads.submit(() -> Kube.apps(nodeB).update(labelled(read, "b"))));
    holdA.awaitArrived();
    holdB.awaitArrived();
    boolean aFirst = random.nextBoolean();
    Hold first = aFirst ? holdA : holdB;
    Hold second = aFirst ? holdB : holdA;

    first.release();
    assertThat(first.awaitAnswered()).isEqualTo(200);
    second.release();
    assertThat(second.awaitAnswered()).isEqualTo(409);

    assertThat(puts.get(aFirst ? 0 : 1).get(10, TimeUnit.SECONDS).getHttpStatusCode())
        .isEqualTo(200);
    assertThat(puts.get(aFirst ? 1 : 0).get(10, TimeUnit.SECONDS).getHttpStatusCode())
        .isEqualTo(409);
    await()
        .untilAsserted(
            () ->
                assertThat(
                        kube.server()
                            .store()
                            .get(SPARK_APP, NS, "pi")
                            .orElseThrow()
                            .getAsJsonObject("metadata")
                            .getAsJsonObject("labels")
                            .get("winner")
                            .getAsString())
                    .isEqualTo(aFirst ? "a" : "b"));
  }

  private static DynamicKubernetesObject labelled(DynamicKubernetesObject read, String winner) {
    DynamicKubernetesObject copy = new DynamicKubernetesObject(read.getRaw().deepCopy());
    copy.getRaw()
        .getAsJsonObject("metadata")
        .getAsJsonObject("labels")
        .addProperty("winner", winner);
    return copy;
  }
}
