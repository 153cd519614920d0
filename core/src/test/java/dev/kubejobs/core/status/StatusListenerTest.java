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
import static org.awaitility.Awaitility.await;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The status listener is told each change of a reported status, in order, off-thread. */
class StatusListenerTest {

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().deployment("gravitino").build();

  private static final MutableClock CLOCK = KUBE.clock();

  private FakeKubernetesApiServer server;
  private final List<String> told = new CopyOnWriteArrayList<>();
  private final List<String> threads = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() {
    server = KUBE.server();
  }

  @Test
  void eachChangeIsToldOnceInOrderOnAThreadOfItsOwnAndNeverBackwards() {
    try (KubeJobs<TestJobSpec> jobs =
        KUBE.builder("gravitino")
            .statusCacheTtl(Duration.ZERO)
            .statusListener(
                (id, info) -> {
                  threads.add(Thread.currentThread().getName());
                  told.add(id.name() + "=" + info.status());
                })
            .build()) {
      ExecutionId id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
      jobs.statusReader().get(id);
      jobs.statusReader().get(id); // no change: not told again
      Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");
      jobs.statusReader().get(id);
      // An operator that writes an earlier state again: the reported status stays STARTED.
      Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"QUEUED\"}");
      jobs.statusReader().get(id);
      Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"SUCCEEDED\"}");
      jobs.statusReader().get(id);
      jobs.statusReader().get(id);

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(told)
                      .containsExactly(
                          "kj-job-1=QUEUED", "kj-job-1=STARTED", "kj-job-1=SUCCEEDED"));
      assertThat(threads).allMatch(n -> n.startsWith("kubejobs-status-listener-"));
    }
  }

  @Test
  void aListenerThatThrowsIsToldTheNextChangeStill() {
    try (KubeJobs<TestJobSpec> jobs =
        KUBE.builder("gravitino")
            .statusCacheTtl(Duration.ZERO)
            .statusListener(
                (id, info) -> {
                  told.add(info.status().name());
                  if (info.status() == JobStatus.QUEUED) {
                    throw new IllegalStateException("listener bug");
                  }
                })
            .build()) {
      ExecutionId id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
      jobs.statusReader().get(id);
      Fixture.setStatus(server, "etl", "kj-job-1", "{\"state\":\"RUNNING\"}");
      jobs.statusReader().get(id);

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(told).containsExactly("QUEUED", "STARTED"));
    }
  }

  @Test
  void closeEndsTheListenersThread() {
    KubeJobs<TestJobSpec> jobs =
        KUBE.builder("gravitino")
            .statusListener((id, info) -> told.add(info.status().name()))
            .build();
    ExecutionId id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
    jobs.statusReader().get(id);
    await().atMost(Duration.ofSeconds(30)).until(() -> told.size() == 1);

    jobs.close();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(
                        t -> t.isAlive() && t.getName().startsWith("kubejobs-status-listener-")));
  }
}
