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
package dev.kubejobs.gravitino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.gravitino.connector.job.JobExecutionInfo;
import org.apache.gravitino.connector.job.JobExecutor;
import org.apache.gravitino.job.JobHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job manager stand-in's pull thread behaves as Gravitino's: it survives an exception of the
 * executor, and an {@link Error} ends it for good and is recorded, so that the tests that pull on
 * threads ({@code GravitinoServerLoadingIT}, {@code GravitinoTwoNodesTest}) can fail on it.
 */
class GravitinoJobManagerStandInTest {
  @TempDir Path dir;

  @Test
  void anErrorEndsThePullThreadAndIsRecordedAnExceptionDoesNot() throws Exception {
    AtomicInteger linkageCalls = new AtomicInteger();
    AtomicInteger exceptionCalls = new AtomicInteger();
    try (JobExecutor linkage =
            executor(
                () -> {
                  linkageCalls.incrementAndGet();
                  throw new NoSuchMethodError("JobExecutionInfo.builder()");
                });
        JobExecutor failing =
            executor(
                () -> {
                  exceptionCalls.incrementAndGet();
                  throw new IllegalStateException("API server unreachable");
                });
        GravitinoJobManagerStandIn manager = new GravitinoJobManagerStandIn("lake", dir.toFile())) {
      manager.recordJob("t", "prod/x/ns/a");

      manager.startPulling(linkage, Duration.ofMillis(5));
      manager.startPulling(failing, Duration.ofMillis(5));

      await().untilAsserted(() -> assertThat(exceptionCalls).hasValueGreaterThan(5));
      assertThat(manager.endedPulls()).singleElement().isInstanceOf(NoSuchMethodError.class);
      assertThat(linkageCalls).as("the pull that got an Error never ran again").hasValue(1);
      assertThat(manager.pullErrors()).isNotEmpty().allMatch(e -> e.contains("unreachable"));
    }
  }

  private static JobExecutor executor(Runnable onPull) {
    return new JobExecutor() {
      @Override
      public void initialize(Map<String, String> configs) {}

      @Override
      public JobExecutionInfo getJobExecutionInfo(String jobId) {
        onPull.run();
        return JobExecutionInfo.of(JobHandle.Status.QUEUED);
      }

      @Override
      public void cancelJob(String jobId) {}

      @Override
      public void close() {}
    };
  }
}
