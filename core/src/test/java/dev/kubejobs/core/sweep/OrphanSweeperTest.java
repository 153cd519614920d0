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
package dev.kubejobs.core.sweep;

import static dev.kubejobs.core.testing.FakeApps.managedApp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.FakeAppKind;
import dev.kubejobs.core.testing.FakeApps;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.Rbac;
import dev.kubejobs.testkit.RecordedRequest;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OrphanSweeperTest {
  @RegisterExtension static final KubeJobsHarness<String> KUBE = KubeJobsHarness.fakeApps().build();

  private static final MutableClock CLOCK = KUBE.clock();

  private static final String APPS = "/apis/apps.kubejobs.dev/v1/namespaces/";

  private String create(String ns, JsonObject app) {
    return KUBE.store()
        .create(FakeAppKind.TYPE, ns, app)
        .getAsJsonObject("metadata")
        .get("uid")
        .getAsString();
  }

  private boolean exists(String ns, String name) {
    return KUBE.store().get(FakeAppKind.TYPE, ns, name).isPresent();
  }

  private static SweepRequest.Builder request() {
    return SweepRequest.builder()
        .namespaces("etl", "ml")
        .knownJobIds(Set.of("known-1"))
        .gracePeriod(Duration.ofHours(1));
  }

  @Test
  void deletesOldOrphansOfThisDeploymentWithUidPreconditionAndLeavesTheRestAlone() {
    // given: at T0, orphans of this deployment, a known job, another deployment's orphan, a
    // resource not managed by kubejobs, and an orphan in a namespace that is not swept
    String uidA = create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    String uidB = create("ml", managedApp("kj-lost-2", "lost-2", "prod"));
    create("etl", managedApp("kj-known-1", "known-1", "prod"));
    create("etl", managedApp("kj-lost-3", "lost-3", "staging"));
    create("etl", FakeApps.app("hand-made", Map.of(), Map.of()));
    create("other", managedApp("kj-lost-5", "lost-5", "prod"));
    // two hours later, a young orphan
    CLOCK.advance(Duration.ofHours(2));
    create("etl", managedApp("kj-lost-4", "lost-4", "prod"));

    // when
    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    // then: exactly the two old orphans of this deployment are gone
    assertThat(report.deleted())
        .extracting(SweepEntry::name, SweepEntry::jobId, SweepEntry::uid)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("kj-lost-1", "lost-1", uidA),
            org.assertj.core.groups.Tuple.tuple("kj-lost-2", "lost-2", uidB));
    assertThat(report.failed()).isEmpty();
    assertThat(report.scanned()).isEqualTo(4);
    assertThat(report.keptKnown()).isEqualTo(1);
    assertThat(report.keptYoung()).isEqualTo(1);
    assertThat(exists("etl", "kj-lost-1")).isFalse();
    assertThat(exists("ml", "kj-lost-2")).isFalse();
    assertThat(exists("etl", "kj-known-1")).isTrue();
    assertThat(exists("etl", "kj-lost-3")).as("another deployment's orphan").isTrue();
    assertThat(exists("etl", "kj-lost-4")).as("a young orphan").isTrue();
    assertThat(exists("etl", "hand-made")).isTrue();
    assertThat(exists("other", "kj-lost-5")).as("a namespace not swept").isTrue();

    // and: each DELETE carried the uid it was listed with; only those two were sent
    List<RecordedRequest> deletes = KUBE.server().journal().requests("DELETE", APPS + ".*");
    assertThat(deletes)
        .extracting(RecordedRequest::path)
        .containsExactly(APPS + "etl/fakeapps/kj-lost-1", APPS + "ml/fakeapps/kj-lost-2");
    assertThat(deletes).extracting(d -> uidPrecondition(d.body())).containsExactly(uidA, uidB);
    // and: the LISTs asked only for this deployment's resources
    assertThat(KUBE.server().journal().requests("GET", APPS + "[^/]+/fakeapps"))
        .extracting(r -> r.queryParameter("labelSelector"))
        .containsOnly("app.kubernetes.io/managed-by=kubejobs,kubejobs.dev/deployment=prod");
  }

  @Test
  void anOrphanExactlyTheGracePeriodOldIsKeptAndOneASecondOlderIsDeleted() {
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    CLOCK.advance(Duration.ofSeconds(1));
    create("etl", managedApp("kj-lost-2", "lost-2", "prod"));
    CLOCK.advance(Duration.ofHours(1));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    assertThat(report.deleted()).extracting(SweepEntry::name).containsExactly("kj-lost-1");
    assertThat(report.keptYoung()).isEqualTo(1);
    assertThat(exists("etl", "kj-lost-2")).as("exactly gracePeriod old").isTrue();
  }

  @Test
  void aSweepThatDeletedLogsWhatAndItsSummaryAtInfoAndAnIdleOneOnlyAtDebug() {
    SweepReport idle;
    SweepReport busy;
    try (LogCapture logs = LogCapture.start()) {
      idle = KUBE.jobs().sweeper().sweep(request().build());
      assertThat(logs.lines())
          .filteredOn(l -> l.contains(idle.summary()))
          .hasSize(1)
          .allMatch(l -> l.contains("DEBUG"));
    }
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    CLOCK.advance(Duration.ofHours(2));
    try (LogCapture logs = LogCapture.start()) {
      busy = KUBE.jobs().sweeper().sweep(request().build());
      assertThat(logs.lines())
          .filteredOn(l -> l.contains(busy.summary()))
          .hasSize(1)
          .allMatch(l -> l.contains("INFO"));
      assertThat(logs.lines())
          .filteredOn(l -> l.contains("INFO") && l.contains("etl/kj-lost-1"))
          .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
          .contains("Deleted orphan ")
          .contains("of job 'lost-1'");
    }
    assertThat(busy.deleted()).extracting(SweepEntry::name).containsExactly("kj-lost-1");
  }

  @Test
  void aSweepThatCouldNotListANamespaceLogsItsSummaryAtInfo() {
    KUBE.server().rbac().deny("list", "apps.kubejobs.dev", "fakeapps");
    try (LogCapture logs = LogCapture.start()) {
      SweepReport report = KUBE.jobs().sweeper().sweep(request().build());
      assertThat(report.entries()).isEmpty();
      assertThat(report.failedNamespaces()).isNotEmpty();
      assertThat(logs.lines())
          .filteredOn(l -> l.contains(report.summary()))
          .hasSize(1)
          .allMatch(l -> l.contains("INFO"));
    }
  }

  @Test
  void aServerThatIgnoresTheLabelSelectorStillGetsOnlyThisDeploymentsOrphansDeleted() {
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    create("etl", managedApp("kj-lost-3", "lost-3", "staging"));
    create("etl", FakeApps.app("hand-made", Map.of(), Map.of()));
    CLOCK.advance(Duration.ofHours(2));
    // A proxy on the way drops the LIST's labelSelector: every resource of the namespace comes.
    ApiClient client = KUBE.server().newClient();
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .addInterceptor(
                chain ->
                    chain.proceed(
                        chain
                            .request()
                            .newBuilder()
                            .url(
                                chain
                                    .request()
                                    .url()
                                    .newBuilder()
                                    .removeAllQueryParameters("labelSelector")
                                    .build())
                            .build()))
            .build());
    KubeJobs<String> jobs = KUBE.track(KUBE.builder(client, "prod").build());

    SweepReport report = jobs.sweeper().sweep(request().build());

    assertThat(report.deleted()).extracting(SweepEntry::name).containsExactly("kj-lost-1");
    assertThat(report.entries()).hasSize(1);
    assertThat(report.scanned()).isEqualTo(1);
    assertThat(exists("etl", "kj-lost-3")).as("another deployment's orphan").isTrue();
    assertThat(exists("etl", "hand-made")).isTrue();
  }

  @Test
  void dryRunListsOrphansWithoutDeleting() {
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    CLOCK.advance(Duration.ofHours(2));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().dryRun(true).build());

    assertThat(report.dryRun()).isTrue();
    assertThat(report.wouldDelete()).extracting(SweepEntry::name).containsExactly("kj-lost-1");
    assertThat(report.deleted()).isEmpty();
    assertThat(report.summary()).contains("1 would be deleted");
    assertThat(exists("etl", "kj-lost-1")).isTrue();
    assertThat(KUBE.server().journal().count("DELETE", ".*")).isZero();
  }

  @Test
  void resourceReplacedAfterTheListIsReportedAndNotDeleted() {
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    CLOCK.advance(Duration.ofHours(2));
    // the predicate runs between the LIST and the DELETE: replace the resource there, as a new
    // submit of the same name would
    SweepRequest request =
        request()
            .knownJobs(
                jobId -> {
                  KUBE.store().delete(FakeAppKind.TYPE, "etl", "kj-lost-1");
                  create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
                  return false;
                })
            .build();

    SweepReport report = KUBE.jobs().sweeper().sweep(request);

    assertThat(report.entries(SweepEntry.Outcome.REPLACED))
        .extracting(SweepEntry::name)
        .containsExactly("kj-lost-1");
    assertThat(report.failed()).extracting(SweepEntry::detail).allMatch(d -> d.contains("409"));
    assertThat(report.deleted()).isEmpty();
    assertThat(exists("etl", "kj-lost-1")).as("the replacement").isTrue();
  }

  @Test
  void resourceGoneBeforeTheDeleteIsReportedAsAlreadyGone() {
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    CLOCK.advance(Duration.ofHours(2));
    SweepRequest request =
        request()
            .knownJobs(jobId -> !KUBE.store().delete(FakeAppKind.TYPE, "etl", "kj-lost-1"))
            .build();

    SweepReport report = KUBE.jobs().sweeper().sweep(request);

    assertThat(report.entries(SweepEntry.Outcome.ALREADY_GONE))
        .extracting(SweepEntry::name)
        .containsExactly("kj-lost-1");
    assertThat(report.failed()).isEmpty();
    assertThat(report.isComplete()).isTrue();
  }

  @Test
  void oneFailedDeleteIsReportedWhileTheOthersAreDeleted() {
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    create("etl", managedApp("kj-lost-2", "lost-2", "prod"));
    create("ml", managedApp("kj-lost-3", "lost-3", "prod"));
    CLOCK.advance(Duration.ofHours(2));
    KUBE.server()
        .faults()
        .add(
            Fault.on("DELETE", APPS + "etl/fakeapps/kj-lost-1")
                .forever()
                .status(500, "InternalError", "etcd is sad"))
        .add(
            Fault.on("DELETE", APPS + "etl/fakeapps/kj-lost-2")
                .forever()
                .status(403, "Forbidden", "fakeapps is forbidden: User cannot delete"));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    assertThat(report.failed())
        .extracting(SweepEntry::name, SweepEntry::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("kj-lost-1", SweepEntry.Outcome.FAILED),
            org.assertj.core.groups.Tuple.tuple("kj-lost-2", SweepEntry.Outcome.FAILED));
    assertThat(report.failed().get(0).detail()).contains("500").contains("etcd is sad");
    assertThat(report.failed().get(1).detail()).contains("missing permission: delete");
    assertThat(report.deleted()).extracting(SweepEntry::name).containsExactly("kj-lost-3");
    assertThat(report.isComplete()).isFalse();
    assertThat(report.summary()).contains("2 failed").contains("kj-lost-1").contains("kj-lost-2");
  }

  @Test
  void forbiddenListInOneNamespaceIsReportedAndTheOthersAreSwept() {
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    create("ml", managedApp("kj-lost-2", "lost-2", "prod"));
    CLOCK.advance(Duration.ofHours(2));
    KUBE.server()
        .rbac()
        .deny(Rbac.Rule.of("list", "apps.kubejobs.dev", "fakeapps").inNamespace("etl"));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    assertThat(report.failedNamespaces()).containsOnlyKeys("etl");
    assertThat(report.failedNamespaces().get("etl")).contains("list").contains("forbidden");
    assertThat(report.deleted()).extracting(SweepEntry::name).containsExactly("kj-lost-2");
  }

  @Test
  void serverErrorListingOneNamespaceIsReportedAndTheOthersAreSwept() {
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    create("ml", managedApp("kj-lost-2", "lost-2", "prod"));
    CLOCK.advance(Duration.ofHours(2));
    KUBE.server()
        .faults()
        .add(
            Fault.on("GET", APPS + "etl/fakeapps")
                .forever()
                .status(503, "ServiceUnavailable", "etcd leader changed"));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    assertThat(report.failedNamespaces()).containsOnlyKeys("etl");
    assertThat(report.failedNamespaces().get("etl")).contains("503");
    assertThat(report.deleted()).extracting(SweepEntry::name).containsExactly("kj-lost-2");
  }

  @Test
  void unreachableApiServerThrowsApiUnavailableWithWhatWasDoneBefore() {
    create("etl", managedApp("kj-lost-1", "lost-1", "prod"));
    create("ml", managedApp("kj-lost-2", "lost-2", "prod"));
    CLOCK.advance(Duration.ofHours(2));
    KUBE.server().faults().add(Fault.on("*", APPS + "ml/.*").forever().connectionReset());

    assertThatThrownBy(() -> KUBE.jobs().sweeper().sweep(request().build()))
        .isInstanceOf(ApiUnavailableException.class)
        .isInstanceOfSatisfying(
            SweepUnavailableException.class,
            e ->
                assertThat(e.partialReport().deleted())
                    .extracting(SweepEntry::name)
                    .containsExactly("kj-lost-1"))
        .hasMessageContaining("retry later");
    assertThat(exists("ml", "kj-lost-2")).isTrue();
  }

  @Test
  void requestValidatesItsSettings() {
    assertThatThrownBy(() -> SweepRequest.builder().namespaces("Not_A_Namespace"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namespaces")
        .hasMessageContaining("'Not_A_Namespace'");
    assertThatThrownBy(() -> SweepRequest.builder().namespaces("etl", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but one was null");
    assertThatThrownBy(() -> SweepRequest.builder().knownJobIds(java.util.Arrays.asList("a", null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("knownJobIds");
    assertThatThrownBy(() -> SweepRequest.builder().gracePeriod(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gracePeriod must be zero or more, but was PT-1S");
    assertThatThrownBy(() -> SweepRequest.builder().namespaces("etl").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("knownJobs");
    assertThatThrownBy(() -> KUBE.jobs().sweeper().sweep(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static String uidPrecondition(String body) {
    JsonObject options = JsonParser.parseString(body).getAsJsonObject();
    return options.getAsJsonObject("preconditions").get("uid").getAsString();
  }
}
