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

import com.google.gson.JsonArray;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The instance that cancelled a job remembers it (issue 41): once its cancel mark landed and its
 * delete was confirmed, it reports CANCELLED for the job whatever it reads later, the resource gone
 * included. A real operator removes a cancelled application soon after it writes its terminal state
 * (the Apache Spark Kubernetes Operator 0.25–3 s after {@code ResourceReleased}), so a scheduler
 * polling every few seconds finds it gone. Another instance has no such memory and still reads the
 * job gone ({@code NoSuchJobException}) until a durable record exists.
 */
class CancellingInstanceRemembersTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

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
    // The operator runs the job and holds it with its finalizer, as the Apache operator does.
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");
    Fixture.holdWithFinalizer(server, "etl", "kj-job-1");
    CLOCK.advance(Duration.ofSeconds(5));
  }

  private static KubeJobs<TestJobSpec> node(ApiClient client) {
    return Fixture.builder(client, CLOCK, "gravitino")
        .circuitBreaker(Fixture.lenientBreaker(CLOCK))
        .build();
  }

  /** The operator releases the application: its finalizer goes, and with it the resource. */
  private void operatorRemovesTheApplication() {
    server
        .store()
        .update(
            TestJobKind.TYPE,
            "etl",
            "kj-job-1",
            o -> {
              o.getAsJsonObject("metadata").add("finalizers", new JsonArray());
              return o;
            });
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
  }

  @Test
  void aPollingReaderOnTheCancellingInstanceGetsCancelledAfterTheOperatorRemovedTheApplication() {
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
    // Between two polls the operator writes its terminal state and removes the application.
    operatorRemovesTheApplication();
    CLOCK.advance(Duration.ofSeconds(5));

    JobExecutionInfo byA = nodeA.statusReader().get(id);

    assertThat(byA.status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(byA.message()).contains("cancelled by this kubejobs instance");
    assertThat(byA.finishedAt()).isPresent();
    assertThat(nodeA.statusReader().get(id)).isEqualTo(byA);
    assertThat(nodeA.statusReader().getAll(List.of(id)).get(id).orElseThrow()).isEqualTo(byA);
    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);
    // Another instance reads the record of that cancel (OutcomeRecordTest; without the permission
    // to write it, the job is gone for it).
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void aCancelWhoseDeleteWasRefusedLeavesNoMemory() {
    server
        .faults()
        .add(
            Fault.on("DELETE", OBJECT)
                .forClient("node-a")
                .forever()
                .status(403, "Forbidden", "node-a may not delete testjobs"));

    assertThatThrownBy(() -> nodeA.canceller().cancel(id)).isInstanceOf(JobRejectedException.class);
    // Someone else deletes it (kubectl): nothing of A's cancel took effect, so A does not say
    // CANCELLED: its record was withdrawn with its mark.
    server.faults().clear();
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    operatorRemovesTheApplication();

    assertThatThrownBy(() -> nodeA.statusReader().get(id)).isInstanceOf(NoSuchJobException.class);
  }

  @Test
  void aLaterCopyOfTheCancelledResourceNeverEndsItOtherwiseOnTheCancellingInstance() {
    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
    // The copy being deleted shows an outcome written after the delete (the operator's shutdown
    // as requested), which the mapper alone could read as another end.
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"FAILED\"}");

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }
}
