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
package dev.kubejobs.core.cancel;

import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import dev.kubejobs.testkit.ResourceType;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The durable record of how kubejobs ended a job (docs/outcome-record.md): a core/v1 Event written
 * before the locked delete, withdrawn when that delete did not land, and read back by a node that
 * finds the job gone. Two nodes on one fake API server; the operator here keeps no finalizer (as
 * Kubeflow's), so a cancel's delete removes the resource at once and takes the cancel mark with it.
 *
 * <p>The fake serves Events as kube-apiserver does: created in the namespace of their {@code
 * involvedObject}, listed with field selectors on {@code involvedObject.kind}, {@code .name},
 * {@code .uid} and {@code .apiVersion} (kubernetes/kubernetes {@code
 * pkg/registry/core/event/strategy.go}, {@code ToSelectableFields}).
 */
class OutcomeRecordTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";
  private static final String EVENTS = "/api/v1/namespaces/etl/events";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).clock(CLOCK).build();

  private FakeKubernetesApiServer server;
  private KubeJobs<TestJobSpec> nodeA;
  private KubeJobs<TestJobSpec> nodeB;
  private ExecutionId id;

  @BeforeEach
  void setUp() {
    CLOCK.set(T0);
    server = KUBE.server();
    nodeA = node(server.newClient("node-a"));
    nodeB = node(server.newClient("node-b"));
    id = nodeA.submitter().submit("job-1", TestJobSpec.in("etl"));
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");
    CLOCK.advance(Duration.ofSeconds(5));
  }

  private static KubeJobs<TestJobSpec> node(ApiClient client) {
    return Fixture.builder(client, CLOCK, "gravitino")
        .circuitBreaker(Fixture.lenientBreaker(CLOCK))
        .build();
  }

  private List<JsonObject> records() {
    return server.store().list(ResourceType.EVENT, "etl").stream()
        .filter(e -> e.getAsJsonObject("source").get("component").getAsString().equals("kubejobs"))
        .toList();
  }

  @Test
  void aCancelIsRecordedAndTheOtherNodeReadsCancelledOnceTheResourceIsGone() {
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
    String uid =
        server
            .store()
            .get(TestJobKind.TYPE, "etl", "kj-job-1")
            .orElseThrow()
            .getAsJsonObject("metadata")
            .get("uid")
            .getAsString();
    server.journal().clear();
    String now = CLOCK.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();

    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    // One record, one POST: the cancel costs one request more than without it.
    assertThat(server.journal().count("POST", EVENTS)).isEqualTo(1);
    List<JsonObject> records = records();
    assertThat(records).hasSize(1);
    JsonObject event = records.get(0);
    assertThat(event.get("reason").getAsString()).isEqualTo("KubejobsCancelled");
    JsonObject involved = event.getAsJsonObject("involvedObject");
    assertThat(involved.get("kind").getAsString()).isEqualTo("TestJob");
    assertThat(involved.get("namespace").getAsString()).isEqualTo("etl");
    assertThat(involved.get("name").getAsString()).isEqualTo("kj-job-1");
    assertThat(involved.get("uid").getAsString()).isEqualTo(uid);
    // What `kubectl describe` and `kubectl get events` show, and what a reader checks the record
    // against: the copy the delete was locked to, the mark that decided, when, and the outcome.
    assertThat(involved.get("apiVersion").getAsString()).isEqualTo("kubejobs.dev/v1");
    JsonObject annotations = event.getAsJsonObject("metadata").getAsJsonObject("annotations");
    assertThat(involved.get("resourceVersion").getAsString())
        .isNotEmpty()
        .isEqualTo(annotations.get("kubejobs.dev/record-resource-version").getAsString());
    assertThat(annotations.get("kubejobs.dev/record-mark").getAsString()).isNotEmpty();
    assertThat(annotations.get("kubejobs.dev/record-outcome").getAsString()).isEqualTo("CANCELLED");
    assertThat(annotations.get("kubejobs.dev/record-at").getAsString()).isEqualTo(now);
    assertThat(event.get("type").getAsString()).isEqualTo("Normal");
    assertThat(event.get("message").getAsString()).startsWith("cancelled by kubejobs");
    assertThat(event.get("firstTimestamp").getAsString()).isEqualTo(now);
    assertThat(event.get("lastTimestamp").getAsString()).isEqualTo(now);
    assertThat(event.get("count").getAsInt()).isEqualTo(1);

    // Past B's cache period: B reads the job afresh and finds it gone.
    CLOCK.advance(Duration.ofMinutes(1));
    server.journal().clear();
    JobExecutionInfo byB = nodeB.statusReader().get(id);

    assertThat(byB.status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(byB.message()).contains("cancelled by kubejobs");
    // The job's GET, then one events LIST selected by the uid B read before.
    List<RecordedRequest> lists = server.journal().requests("GET", EVENTS);
    assertThat(lists).hasSize(1);
    assertThat(lists.get(0).queryParameter("fieldSelector")).isEqualTo("involvedObject.uid=" + uid);
    // Kept: no request for the next read.
    server.journal().clear();
    assertThat(nodeB.statusReader().get(id)).isEqualTo(byB);
    assertThat(server.journal().requests()).isEmpty();
  }

  @Test
  void aNodeThatNeverReadTheJobFindsTheRecordByName() {
    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
    server.journal().clear();

    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(server.journal().requests("GET", EVENTS).get(0).queryParameter("fieldSelector"))
        .isEqualTo("involvedObject.kind=TestJob,involvedObject.name=kj-job-1");
  }

  @Test
  void aCancelWhoseAnswersWereAllLostIsCancelledOnEveryNode() {
    // The delete lands, its answer and every read after it are lost: node A cannot tell.
    server.faults().add(Fault.on("DELETE", OBJECT).forClient("node-a").forever().appliedThenLost());
    server
        .faults()
        .add(Fault.on("GET", OBJECT).forClient("node-a").skip(1).forever().connectionReset());

    assertThatThrownBy(() -> nodeA.canceller().cancel(id))
        .isInstanceOf(ApiUnavailableException.class);
    server.faults().clear();
    CLOCK.advance(Duration.ofMinutes(1));

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void aRecordWhoseAnswerWasLostIsSentAgainAsTheSameEvent() {
    server.faults().add(Fault.on("POST", EVENTS).forClient("node-a").appliedThenLost());

    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

    // Sent twice, stored once: the second POST met the first (409 AlreadyExists).
    assertThat(server.journal().count("POST", EVENTS)).isEqualTo(2);
    assertThat(records()).hasSize(1);
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void aDeleteThatMetTheOperatorsOutcomeIsWithdrawnSoTheOutcomeStaysOnEveryNode() {
    // The operator writes its outcome between the cancel's mark and its delete: the delete, locked
    // to the marked copy, meets 409 and the cancel answers ALREADY_FINISHED.
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "DELETE",
                OBJECT,
                () -> Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}"));
    nodeA =
        Fixture.scripted(server, hooks, CLOCK, "gravitino")
            .circuitBreaker(Fixture.lenientBreaker(CLOCK))
            .build();

    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);
    assertThat(records())
        .extracting(e -> e.get("reason").getAsString())
        .containsExactlyInAnyOrder("KubejobsCancelled", "KubejobsWithdrawn");
    // The operator removes the finished application (its TTL) before node B ever read it.
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");

    // No record of a cancel that ended it: gone, as the operator's outcome cannot be read any more.
    assertThatThrownBy(() -> nodeB.statusReader().get(id)).isInstanceOf(NoSuchJobException.class);
  }

  @Test
  void aRetriedDeleteThatMeets409WhileAFinalizerHoldsTheResourceKeepsTheRecord() {
    // The first delete lands with its answer lost; its retry meets 409, since the copy being
    // deleted (held by the operator's finalizer, as Apache's) is no longer the marked one. That
    // delete did land: the record stays (race simulation seed 2547).
    Fixture.holdWithFinalizer(server, "etl", "kj-job-1");
    server.faults().add(Fault.on("DELETE", OBJECT).forClient("node-a").appliedThenLost());

    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_DELETING);
    assertThat(records())
        .extracting(e -> e.get("reason").getAsString())
        .containsExactly("KubejobsCancelled");
    // The operator releases the application.
    server
        .store()
        .update(
            TestJobKind.TYPE,
            "etl",
            "kj-job-1",
            o -> {
              o.getAsJsonObject("metadata").add("finalizers", new com.google.gson.JsonArray());
              return o;
            });

    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void withoutCreateEventsTheCancelStillWorksWarnsOnceAndTheOtherNodeReadsTheJobGone() {
    server.rbac().deny("create", "", "events");
    try (LogCapture logs = LogCapture.start()) {
      assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);

      assertThat(logs.warnings())
          .filteredOn(w -> w.contains("missing permission: create events in namespace etl"))
          .hasSize(1);
    }
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
    assertThatThrownBy(() -> nodeB.statusReader().get(id)).isInstanceOf(NoSuchJobException.class);
  }

  @Test
  void withoutListEventsAGoneJobReadsGoneAndOneWarningNamesThePermission() {
    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
    server.rbac().deny("list", "", "events");
    try (LogCapture logs = LogCapture.start()) {
      assertThatThrownBy(() -> nodeB.statusReader().get(id)).isInstanceOf(NoSuchJobException.class);

      assertThat(logs.warnings())
          .filteredOn(w -> w.contains("missing permission: list events in namespace etl"))
          .hasSize(1);
    }
  }

  @Test
  void aRecordThatCannotBeReadLeavesTheJobUnreadNotGone() {
    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
    server.faults().add(Fault.on("GET", EVENTS).forClient("node-b").forever().connectionReset());

    assertThatThrownBy(() -> nodeB.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("record of how it ended could not be read");
    server.faults().clear();

    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void aGetAllOfSeveralGoneJobsListsTheNamespacesEventsOnce() {
    ExecutionId second = nodeA.submitter().submit("job-2", TestJobSpec.in("etl"));
    Fixture.setStatus(server, "etl", "kj-job-2", "{\"state\":\"RUNNING\"}");
    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
    assertThat(nodeA.canceller().cancel(second)).isEqualTo(CancelResult.REQUESTED);
    server.journal().clear();

    Map<ExecutionId, JobStatusResult> all = nodeB.statusReader().getAll(List.of(id, second));

    assertThat(all.get(id).orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(all.get(second).orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(server.journal().requests("GET", EVENTS)).hasSize(1);
  }

  @Test
  void anEndMarksDeleteIsRecordedAndTheOtherNodeReadsFailed() {
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    id = nodeA.submitter().submit("job-1", TestJobSpec.in("etl"));
    CLOCK.advance(TestJobKind.NO_STATUS_TIMEOUT.plusSeconds(1));

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.FAILED);

    assertThat(records())
        .extracting(e -> e.get("reason").getAsString())
        .containsExactly("KubejobsEnded");
    JobExecutionInfo byB = nodeB.statusReader().get(id);
    assertThat(byB.status()).isEqualTo(JobStatus.FAILED);
    assertThat(byB.message()).contains("no status from the operator");
  }
}
