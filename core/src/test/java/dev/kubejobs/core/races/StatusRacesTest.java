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
package dev.kubejobs.core.races;

import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The status reader decides on one locked copy, never reports a status going backwards, and never
 * lets server data escape as an undocumented exception.
 *
 * <p>The no-status delete carries the resourceVersion of the copy it was decided on; the fake
 * server answers 409 when it changed, as kube-apiserver does ({@code Preconditions.Check} in
 * staging/src/k8s.io/apiserver/pkg/storage/interfaces.go).
 */
class StatusRacesTest {
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .deployment("gravitino")
          .submit("job-1", TestJobSpec.in("etl"))
          .build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private KubeJobs<TestJobSpec> nodeB;
  private ExecutionId id;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
    nodeB = KUBE.jobs();
    id = KUBE.id();
  }

  private KubeJobs<TestJobSpec> node(ClientHooks hooks, Duration ttl) {
    return KUBE.track(KUBE.builder(hooks.client(server), "gravitino").statusCacheTtl(ttl).build());
  }

  @Test
  void noStatusDeleteRacingTheOperatorsFirstStatusWriteKeepsTheJobRunning() {
    // Item 4: an operator back from an outage writes its first status between the reader's fresh
    // read (no status, past the timeout) and its end mark, which the delete follows (issue 24).
    CLOCK.advance(Duration.ofSeconds(601));
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "PATCH",
                OBJECT,
                () -> Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}"));
    KubeJobs<TestJobSpec> nodeA = node(hooks, Duration.ZERO);

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(1);
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
  }

  @Test
  void noStatusDeleteRacingAnotherNodesCancelMarkReportsCancelledNotFailed() {
    // Item 4: another node marks the job for cancel between the reader's read and its end mark.
    CLOCK.advance(Duration.ofSeconds(601));
    ClientHooks hooks =
        new ClientHooks()
            .before(
                "PATCH",
                OBJECT,
                () ->
                    server
                        .store()
                        .update(
                            TestJobKind.TYPE,
                            "etl",
                            "kj-job-1",
                            o -> {
                              o.getAsJsonObject("metadata")
                                  .getAsJsonObject("annotations")
                                  .addProperty(
                                      JobIdentity.ANNOTATION_CANCEL_REQUESTED,
                                      T0.plusSeconds(601).toString());
                              return o;
                            }));
    KubeJobs<TestJobSpec> nodeA = node(hooks, Duration.ZERO);

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    assertThat(server.journal().count("DELETE", OBJECT)).isEqualTo(1);
  }

  @Test
  void aStaleCachedCopyPlusAFreshPodLookupNeverTurnsSucceededBackToQueued() {
    // Item 6: a status this version cannot parse; the driver pod says it succeeded.
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"phase\":\"Done\"}");
    server
        .store()
        .create(
            ResourceType.POD, "etl", Fixture.driverPod("kj-job-1-driver", "kj-job-1", "Succeeded"));
    KubeJobs<TestJobSpec> nodeA = node(new ClientHooks(), Duration.ofSeconds(30));
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);

    // The operator cleans the driver pod up; the cached copy still cannot be parsed.
    server.store().delete(ResourceType.POD, "etl", "kj-job-1-driver");

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(nodeA.statusReader().getAll(List.of(id)).get(id).orElseThrow().status())
        .isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aRerunThatGoesBackToQueuedIsStillReportedStartedAndTheOutcomeNeverChanges() {
    // Item 6: a restart policy puts a started job back in the queue (Kubeflow PENDING_RERUN).
    KubeJobs<TestJobSpec> nodeA = node(new ClientHooks(), Duration.ZERO);
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);

    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"QUEUED\"}");
    JobExecutionInfo rerun = nodeA.statusReader().get(id);
    assertThat(rerun.status()).isEqualTo(JobStatus.STARTED);
    assertThat(rerun.operatorState()).isEqualTo("QUEUED");

    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    server.journal().clear();

    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(server.journal().requests()).isEmpty();
  }

  @Test
  void aDriverPodNameThatIsNoPodNameIsWarnedAboutAndNeverThrows() {
    // Item 8: server data such as Kubeflow's status.driverInfo.podName "x/../y".
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"FAILED\",\"driverPod\":\"x/../y\"}");
    KubeJobs<TestJobSpec> nodeA = node(new ClientHooks(), Duration.ofSeconds(5));

    JobExecutionInfo info;
    Map<ExecutionId, JobStatusResult> all;
    try (LogCapture logs = LogCapture.start()) {
      info = nodeA.statusReader().get(id);
      all = nodeA.statusReader().getAll(List.of(id));

      assertThat(logs.warnings()).anyMatch(w -> w.contains("invalid driver pod"));
    }

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(all.get(id).orElseThrow().status()).isEqualTo(JobStatus.FAILED);
    // No pod is looked up under that name; the one core/v1 request is the events LIST of the
    // failure's diagnosis, as the job is first reported FAILED.
    assertThat(server.journal().count("GET", "/api/v1/namespaces/etl/pods.*")).isZero();
    assertThat(server.journal().count("GET", "/api/v1/.*"))
        .isEqualTo(server.journal().count("GET", "/api/v1/namespaces/etl/events.*"))
        .isEqualTo(1);
  }

  @Test
  void getAllReportsEachJobOnItsOwnGoneOrRead() {
    // Item 9: one job gone, one read.
    ExecutionId other = nodeB.submitter().submit("job-2", TestJobSpec.in("etl"));
    server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
    KubeJobs<TestJobSpec> nodeA = node(new ClientHooks(), Duration.ofSeconds(5));

    Map<ExecutionId, JobStatusResult> all = nodeA.statusReader().getAll(List.of(id, other));

    assertThat(all).containsOnlyKeys(id, other);
    assertThat(all.get(id).isGone()).isTrue();
    assertThat(all.get(other).orElseThrow().status()).isEqualTo(JobStatus.QUEUED);
    assertThat(nodeA.statusReader().getAllInfos(List.of(id, other))).containsOnlyKeys(other);
  }
}
