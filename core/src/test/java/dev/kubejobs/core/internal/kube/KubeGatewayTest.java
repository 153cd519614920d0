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
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.ResourceType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The gateway operations the sweeper, driver-log reader and preflight build on. */
class KubeGatewayTest {
  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).build();

  private KubeGateway gateway;

  @BeforeEach
  void setUp() {
    gateway = KubeGateway.create(KUBE.client(), Duration.ofSeconds(5), ResiliencePolicy.none());
  }

  @Test
  void listsByLabelSelectorAcrossPages() {
    for (int i = 0; i < 1200; i++) {
      KUBE.server()
          .store()
          .create(
              TestJobKind.TYPE,
              "etl",
              Fixture.testJob("kj-" + i, i % 2 == 0 ? "a" : "b", "job-" + i, null));
    }

    List<ResourceSnapshot> mine =
        gateway.list(null, TestJobKind.KIND, "etl", "kubejobs.dev/deployment=a");

    assertThat(mine)
        .hasSize(600)
        .allMatch(r -> r.labels().get("kubejobs.dev/deployment").equals("a"));
    assertThat(KUBE.server().journal().count("GET", ".*/testjobs")).isGreaterThan(1);
  }

  @Test
  void podsAreReadListedAndDeletedWithAUidPrecondition() {
    KUBE.server()
        .store()
        .create(ResourceType.POD, "etl", Fixture.driverPod("d-1", "kj-1", "Running"));

    ResourceSnapshot pod = gateway.getPod(null, "etl", "d-1").orElseThrow();
    assertThat(gateway.listPods(null, "etl", "test-app=kj-1"))
        .extracting(ResourceSnapshot::name)
        .containsExactly("d-1");
    assertThat(gateway.getPod(null, "etl", "nope")).isEmpty();
    assertThatThrownBy(() -> gateway.deletePod(null, "etl", "d-1", "not-its-uid"))
        .isInstanceOfSatisfying(ApiStatusException.class, e -> assertThat(e.isConflict()).isTrue());

    assertThat(gateway.deletePod(null, "etl", "d-1", pod.uid())).isEqualTo(DeleteResult.ACCEPTED);
    assertThat(gateway.deletePod(null, "etl", "d-1", pod.uid())).isEqualTo(DeleteResult.GONE);
  }

  @Test
  void podLogsAreStreamedFromTheNamedContainerWithTailAndByteCaps() {
    KUBE.server()
        .store()
        .create(ResourceType.POD, "etl", Fixture.driverPod("d-1", "kj-1", "Running"));
    KUBE.server().store().setPodLog("etl", "d-1", "driver", "one\ntwo\nthree\n");
    KUBE.server().store().setPodLog("etl", "d-1", "sidecar", "noise\n");

    String tail =
        gateway.readPodLog(
            null,
            "etl",
            "d-1",
            "driver",
            2,
            1000L,
            in -> {
              ByteArrayOutputStream out = new ByteArrayOutputStream();
              in.transferTo(out);
              return out.toString(StandardCharsets.UTF_8);
            });

    assertThat(tail).isEqualTo("two\nthree\n");
    assertThat(KUBE.server().journal().requests("GET", ".*/log").get(0).queryParameter("container"))
        .isEqualTo("driver");
  }

  @Test
  void accessReviewsAndDiscoveryAnswer() {
    KUBE.server().rbac().deny("delete", "", "pods");

    assertThat(gateway.selfSubjectAccessReview("delete", "", "pods", null, "etl").allowed())
        .isFalse();
    assertThat(gateway.selfSubjectAccessReview("get", "", "pods", "log", "etl").allowed()).isTrue();
    assertThat(gateway.servedResources("kubejobs.dev", "v1"))
        .hasValueSatisfying(r -> assertThat(r).contains("testjobs"));
    assertThat(gateway.servedResources("nope.kubejobs.dev", "v1")).isEmpty();
  }

  @Test
  void forbiddenListIsRejectedNamingThePermission() {
    KUBE.server().rbac().deny("list", "", "pods");

    assertThatThrownBy(() -> gateway.listPods(null, "etl", "a=b"))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.FORBIDDEN))
        .hasMessageContaining("missing permission: list pods in namespace etl");
  }

  /**
   * On a real cluster an uninstalled CRD answers Go's plain {@code 404 page not found} (its handler
   * delegates to the not-found handler), not a {@code Status}; kubejobs asks discovery and reports
   * the CRD as not installed instead of blaming a proxy.
   */
  @Test
  void aPlainTextPageNotFoundOfAnUninstalledCrdIsCrdNotInstalled() {
    ResourceKind uninstalled = new ResourceKind("kubejobs.dev", "v2", "testjobs", "TestJob");

    assertThatThrownBy(() -> gateway.list(null, uninstalled, "etl", null))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.CRD_NOT_INSTALLED))
        .hasMessageContaining("404 page not found");
    assertThat(KUBE.server().journal().count("GET", "/apis/kubejobs.dev/v2")).isEqualTo(1);
  }

  @Test
  void aPlainTextPageNotFoundOfAServedResourceIsAProxyAnswering() {
    KUBE.server().faults().add(Fault.on("GET", ".*/testjobs").plainText(404, "404 page not found"));

    assertThatThrownBy(() -> gateway.list(null, TestJobKind.KIND, "etl", null))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("although API discovery serves 'testjobs'");
  }

  /**
   * A continue token that outlives the server's compaction answers 410 {@code Expired} (etcd3's
   * {@code handleCompactedErrorForPaging}); the list starts again and returns one consistent
   * snapshot, each object once.
   */
  @Test
  void aListWhoseContinueTokenExpiredStartsAgainFromTheFirstPage() throws Exception {
    createJobs(700);
    Hold secondPage = KUBE.server().hold(Hold.on("GET", ".*/testjobs").skip(1));
    CompletableFuture<List<ResourceSnapshot>> listed =
        CompletableFuture.supplyAsync(() -> gateway.list(null, TestJobKind.KIND, "etl", null));
    secondPage.awaitArrived();
    KUBE.server().compact();
    secondPage.release();

    assertThat(secondPage.awaitAnswered()).isEqualTo(410);
    assertThat(listed.get(30, TimeUnit.SECONDS))
        .extracting(ResourceSnapshot::name)
        .hasSize(700)
        .doesNotHaveDuplicates();
    assertThat(KUBE.server().journal().count("GET", ".*/testjobs")).isEqualTo(4);
  }

  /**
   * {@code listPages} is a pull: a page is requested only when the caller asks for it, comes back
   * whole, and says when the list starts again (its continue token expired), so the caller drops
   * the objects of the expired snapshot.
   */
  @Test
  void listPagesReadsAPageOnlyWhenAskedAndSaysWhenTheListStartsAgain() {
    createJobs(700);
    ListPages pages =
        gateway.listPages(null, TestJobKind.KIND, "etl", null, FieldProjection.WHOLE, null);
    assertThat(KUBE.server().journal().count("GET", ".*/testjobs")).isZero();

    ListPage first = pages.next();
    assertThat(first.items()).hasSize(500);
    assertThat(first.startsOver()).isFalse();
    assertThat(first.isLast()).isFalse();
    assertThat(KUBE.server().journal().count("GET", ".*/testjobs")).isEqualTo(1);
    KUBE.server().compact(); // the first page's continue token expires

    ListPage again = pages.next();
    assertThat(again.startsOver()).isTrue();
    assertThat(again.items()).hasSize(500);
    ListPage last = pages.next();
    assertThat(last.isLast()).isTrue();
    assertThat(pages.hasNext()).isFalse();
    assertThat(java.util.stream.Stream.concat(again.items().stream(), last.items().stream()))
        .extracting(ResourceSnapshot::name)
        .hasSize(700)
        .doesNotHaveDuplicates();
    assertThat(last.resourceVersion()).isNotEmpty();
  }

  /**
   * A page whose first answer fails is sent again inside {@code next()} and handed once: the caller
   * sees each object once, whatever the retries (a retried page re-reads bytes; nothing of the
   * caller runs meanwhile).
   */
  @Test
  void aPageReadAgainAfterAFailedAnswerIsHandedOnce() {
    createJobs(700);
    KubeGateway retrying =
        KubeGateway.create(
            KUBE.client(),
            Duration.ofSeconds(5),
            dev.kubejobs.core.resilience.Resilience4jPolicy.of(
                "list-pages",
                Fixture.fastRetry(),
                Fixture.lenientBreaker(
                    dev.kubejobs.testkit.MutableClock.at(java.time.Instant.EPOCH))));
    KUBE.server().faults().add(Fault.on("GET", ".*/testjobs").skip(1).connectionReset());
    java.util.List<ListPage> pages = new java.util.ArrayList<>();

    retrying
        .listPages(null, TestJobKind.KIND, "etl", null, FieldProjection.WHOLE, null)
        .forEachRemaining(pages::add);

    assertThat(KUBE.server().journal().count("GET", ".*/testjobs")).isEqualTo(3);
    assertThat(pages).hasSize(2).noneMatch(ListPage::startsOver);
    assertThat(pages.stream().flatMap(p -> p.items().stream()))
        .extracting(ResourceSnapshot::name)
        .hasSize(700)
        .doesNotHaveDuplicates();
  }

  /**
   * A copy the caller holds (same name, uid and resourceVersion) comes back named, not built; one
   * whose resourceVersion changed comes back whole.
   */
  @Test
  void aCopyHeldIsNamedNotBuiltAndAChangedOneComesBackWhole() {
    createJobs(3);
    java.util.Map<String, HeldCopy> held = new java.util.HashMap<>();
    for (ResourceSnapshot copy : gateway.list(null, TestJobKind.KIND, "etl", null)) {
      held.put(copy.name(), new HeldSnapshot(copy));
    }
    KUBE.server()
        .store()
        .update(
            TestJobKind.TYPE,
            "etl",
            "kj-1",
            json -> {
              com.google.gson.JsonObject changed = new com.google.gson.JsonObject();
              changed.addProperty("kubejobs.dev/test", "changed");
              json.getAsJsonObject("metadata").add("annotations", changed);
              return json;
            });

    ListPage page =
        gateway.listPages(null, TestJobKind.KIND, "etl", null, FieldProjection.WHOLE, held).next();

    assertThat(page.items()).extracting(ResourceSnapshot::name).containsExactly("kj-1");
    assertThat(page.held()).containsExactlyInAnyOrder("kj-0", "kj-2");
  }

  /** A held copy as a caller keeps one: its uid and resourceVersion. */
  private record HeldSnapshot(ResourceSnapshot copy) implements HeldCopy {
    @Override
    public String uid() {
      return copy.uid();
    }

    @Override
    public String resourceVersion() {
      return copy.resourceVersion();
    }
  }

  /**
   * A projected list skips what the projection drops without building it, but still reads it: a
   * page malformed inside a skipped field is refused like any other malformed page.
   */
  @Test
  void aProjectedListKeepsOnlyWhatItNamesAndStillRefusesAPageMalformedWhereItSkips() {
    createJobs(3);
    FieldProjection statusOnly = FieldProjection.of(java.util.Set.of("status"));
    List<ResourceSnapshot> kept = new java.util.ArrayList<>();

    ListDrain.each(gateway, null, TestJobKind.KIND, "etl", null, statusOnly, kept::add);

    assertThat(kept).hasSize(3).allMatch(o -> o.spec().isEmpty() && !o.name().isEmpty());

    KUBE.server()
        .faults()
        .add(
            Fault.on("GET", ".*/testjobs")
                .plainText(
                    200,
                    "{\"kind\":\"TestJobList\",\"items\":[{\"metadata\":{\"name\":\"a\"},"
                        + "\"spec\":{\"x\":[1,}}]}"));

    assertThatThrownBy(
            () -> ListDrain.each(gateway, null, TestJobKind.KIND, "etl", null, statusOnly, o -> {}))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("JSON");
  }

  /** Creates {@code n} jobs in namespace etl: more than one list page of 500. */
  private static void createJobs(int n) {
    for (int i = 0; i < n; i++) {
      KUBE.server()
          .store()
          .create(TestJobKind.TYPE, "etl", Fixture.testJob("kj-" + i, "a", "job-" + i, null));
    }
  }

  @Test
  void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
    java.time.Clock clock =
        java.time.Clock.fixed(java.time.Instant.parse("2026-10-21T07:28:00Z"), ZoneOffset.UTC);

    assertThat(KubeFailures.retryAfter("3", null, clock)).isEqualTo(Duration.ofSeconds(3));
    assertThat(KubeFailures.retryAfter("Wed, 21 Oct 2026 07:28:05 GMT", null, clock))
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(KubeFailures.retryAfter("Wed, 21 Oct 2026 07:27:00 GMT", null, clock))
        .isEqualTo(Duration.ZERO);
    assertThat(KubeFailures.retryAfter("soon", null, clock)).isNull();
  }
}
