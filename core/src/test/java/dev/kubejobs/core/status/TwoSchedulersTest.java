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

import dev.kubejobs.core.ClusterMismatchException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two scheduler nodes on one cluster; ids of another cluster. */
class TwoSchedulersTest {

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().deployment("gravitino").build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private KubeJobs<TestJobSpec> nodeA;
  private KubeJobs<TestJobSpec> nodeB;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
    nodeA = KUBE.jobs();
    nodeB = KUBE.track(KUBE.builder("gravitino").statusCacheTtl(Duration.ofSeconds(30)).build());
  }

  @Test
  void nodeBCancelsWhatNodeASubmitted() {
    ExecutionId id = nodeA.submitter().submit("job-1", TestJobSpec.in("etl"));
    Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");

    assertThat(nodeB.canceller().cancel(id.toString())).isEqualTo(CancelResult.REQUESTED);

    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    // The resource is gone; B's record of its cancel tells A how the job ended.
    assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void staleCachedNoStatusCopyOfAJobCancelledElsewhereIsCancelledNeverFailed() {
    ExecutionId id = nodeA.submitter().submit("job-1", TestJobSpec.in("etl"));
    CLOCK.advance(Duration.ofSeconds(590));
    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.QUEUED);

    // A cancels; B's cached list (30 s) still holds the copy without status, which is now past
    // the 600 s no-status timeout.
    nodeA.canceller().cancel(id);
    CLOCK.advance(Duration.ofSeconds(11));
    server.journal().clear();

    assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(nodeB.statusReader().getAll(List.of(id)).get(id).orElseThrow().status())
        .isEqualTo(JobStatus.CANCELLED);
    // One GET confirms it gone, one events LIST reads A's record; the outcome is then kept.
    assertThat(server.journal().count("GET", ".*/testjobs/kj-job-1")).isEqualTo(1);
    assertThat(server.journal().count("GET", ".*/events")).isEqualTo(1);
    assertThat(server.journal().count("DELETE", ".*")).isZero();
  }

  @Test
  void jobCancelledElsewhereBetweenTheFreshReadAndTheNoStatusEndMarkIsCancelledNeverFailed() {
    ExecutionId id = nodeA.submitter().submit("job-1", TestJobSpec.in("etl"));
    CLOCK.advance(Duration.ofSeconds(601));
    // B's fresh read still finds the job without status past the timeout; node A's cancel runs
    // just before B's no-status end mark (the PATCH before its DELETE) reaches the server, so that
    // PATCH finds the job gone.
    AtomicBoolean raced = new AtomicBoolean();
    ApiClient racing = server.newClient();
    racing.setHttpClient(
        racing
            .getHttpClient()
            .newBuilder()
            .addInterceptor(
                chain -> {
                  if (chain.request().method().equals("PATCH")
                      && raced.compareAndSet(false, true)) {
                    assertThat(nodeA.canceller().cancel(id)).isEqualTo(CancelResult.REQUESTED);
                  }
                  return chain.proceed(chain.request());
                })
            .build());
    KubeJobs<TestJobSpec> racingB = KUBE.track(KUBE.builder(racing, "gravitino").build());

    assertThat(racingB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);

    assertThat(raced).isTrue();
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    assertThat(racingB.statusReader().get(id).status()).isEqualTo(JobStatus.CANCELLED);
  }

  @Test
  void anIdOfAnotherClusterIsAMismatchFromGetAndCancelNeverNoSuchJob() {
    ExecutionId id = nodeA.submitter().submit("job-1", TestJobSpec.in("etl"));
    ExecutionId other = ExecutionId.of("other", TestJobKind.KIND, "etl", id.name());
    server.journal().clear();

    assertThatThrownBy(() -> nodeB.statusReader().get(other))
        .isInstanceOf(ClusterMismatchException.class)
        .hasMessageContaining("cluster 'other'")
        .hasMessageContaining("cluster 'test'");
    assertThatThrownBy(() -> nodeB.canceller().cancel(other))
        .isInstanceOf(ClusterMismatchException.class);
    assertThatThrownBy(() -> nodeB.statusReader().getAll(List.of(id, other)))
        .isInstanceOf(ClusterMismatchException.class);

    assertThat(server.journal().requests()).isEmpty();
    assertThat(server.store().get(TestJobKind.TYPE, "etl", id.name())).isPresent();
  }
}
