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

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On real threads, two nodes cancel a running job while its operator records SUCCEEDED at the same
 * moment. Whatever the interleaving, an outcome the operator recorded stands (the resource is still
 * there, every cancel answers ALREADY_FINISHED, both nodes read SUCCEEDED), or the job was deleted
 * before the outcome could be recorded (the operator's write finds it gone, and no node reads
 * SUCCEEDED).
 */
class ConcurrentCancelTest {
  private static final int ROUNDS = 30;
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ConcurrentCancelTest.class);

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().deployment("gravitino").build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private ExecutorService pool;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
    pool = Executors.newFixedThreadPool(3);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void twoNodesCancellingWhileTheOperatorSucceedsNeverDeleteARecordedOutcome() throws Exception {
    KubeJobs<TestJobSpec> nodeA = KUBE.track(KUBE.builder("gravitino").build());
    KubeJobs<TestJobSpec> nodeB = KUBE.track(KUBE.builder("gravitino").build());
    int kept = 0;
    for (int round = 0; round < ROUNDS; round++) {
      String name = "kj-job-" + round;
      ExecutionId id = nodeA.submitter().submit("job-" + round, TestJobSpec.in("etl"));
      Fixture.setStatus(server, "etl", name, "{\"state\":\"RUNNING\"}");
      CountDownLatch start = new CountDownLatch(1);
      Future<Boolean> operator =
          pool.submit(
              () -> {
                start.await();
                try {
                  Fixture.setStatus(server, "etl", name, "{\"state\":\"SUCCEEDED\"}");
                  return true;
                } catch (RuntimeException gone) {
                  return false;
                }
              });
      List<Future<CancelResult>> cancels = new ArrayList<>();
      for (KubeJobs<TestJobSpec> node : List.of(nodeA, nodeB)) {
        cancels.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    return node.canceller().cancel(id);
                  } catch (NoSuchJobException e) {
                    return null; // the other node's delete came first
                  }
                }));
      }
      start.countDown();
      boolean recorded = operator.get(10, TimeUnit.SECONDS);
      List<CancelResult> results = new ArrayList<>();
      for (Future<CancelResult> c : cancels) {
        results.add(c.get(10, TimeUnit.SECONDS));
      }

      boolean present = server.store().get(TestJobKind.TYPE, "etl", name).isPresent();
      assertThat(present)
          .as("round %d: resource kept iff the outcome was recorded", round)
          .isEqualTo(recorded);
      if (recorded) {
        kept++;
        assertThat(results).as("round %d", round).containsOnly(CancelResult.ALREADY_FINISHED);
        assertThat(nodeA.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(nodeB.statusReader().get(id).status()).isEqualTo(JobStatus.SUCCEEDED);
      } else {
        assertThat(results).as("round %d", round).doesNotContain(CancelResult.ALREADY_FINISHED);
      }
    }
    LOG.info("{} of {} rounds kept the recorded outcome", kept, ROUNDS);
  }
}
