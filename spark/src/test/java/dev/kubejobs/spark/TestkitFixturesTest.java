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
package dev.kubejobs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.testkit.fixtures.Fixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The testkit's canned fixtures (written independently, from the operators' own code) mapped by
 * this module's mappers: every application fixture of both operators has an expected status, and
 * the driver-pod fixtures decide what the mapper leaves to the pod.
 */
class TestkitFixturesTest {
  private static final JobStatusMapper APACHE = SparkOperators.apache().statusMapper();
  private static final JobStatusMapper KUBEFLOW = SparkOperators.kubeflow().statusMapper();
  private static final Instant NOW = Fixtures.T0.plus(Duration.ofMinutes(2));

  private static JobStatusMapper mapperFor(String path) {
    return path.startsWith("apache/") ? APACHE : KUBEFLOW;
  }

  private static ResourceSnapshot load(String path) {
    return ResourceSnapshot.of(Fixtures.load(path));
  }

  /**
   * Columns: the fixture, the status with the driver pod not looked up, and the status once the
   * driver pod is known to be absent.
   */
  @ParameterizedTest(name = "{0} -> {1}, pod absent {2}")
  @CsvSource({
    "apache/no-status.json, QUEUED, QUEUED",
    "apache/submitted.json, QUEUED, QUEUED",
    "apache/driver-requested.json, QUEUED, QUEUED",
    "apache/scheduled-to-restart.json, STARTED, STARTED",
    "apache/scheduled-to-restart-untrimmed.json, STARTED, STARTED",
    "apache/driver-started.json, STARTED, STARTED",
    "apache/driver-ready.json, STARTED, STARTED",
    "apache/initialized-below-threshold-executors.json, STARTED, STARTED",
    "apache/running-healthy.json, STARTED, STARTED",
    "apache/running-with-partial-capacity.json, STARTED, STARTED",
    "apache/running-with-below-threshold-executors.json, STARTED, STARTED",
    "apache/v1beta1-running-healthy.json, STARTED, STARTED",
    "apache/succeeded.json, SUCCEEDED, SUCCEEDED",
    "apache/failed.json, STARTED, FAILED",
    "apache/scheduling-failure.json, QUEUED, FAILED",
    "apache/driver-evicted.json, STARTED, FAILED",
    "apache/driver-start-timed-out.json, QUEUED, FAILED",
    "apache/executors-start-timed-out.json, STARTED, FAILED",
    "apache/driver-ready-timed-out.json, STARTED, FAILED",
    "apache/resource-released.json, SUCCEEDED, SUCCEEDED",
    "apache/terminated-without-release-resources.json, STARTED, FAILED",
    "apache/history-keys-out-of-order.json, SUCCEEDED, SUCCEEDED",
    "apache/newer-state.json, STARTED, STARTED",
    "apache/unparseable-status.json, QUEUED, QUEUED",
    "apache/cancel-marked-running.json, CANCELLING, CANCELLING",
    "apache/cancelled-while-running.json, CANCELLED, CANCELLED",
    "apache/succeeded-then-cancelled.json, SUCCEEDED, SUCCEEDED",
    "apache/deleted-elsewhere.json, FAILED, FAILED",
    "apache/race-deleted-during-read.before.json, STARTED, STARTED",
    "apache/race-deleted-during-read.after.json, FAILED, FAILED",
    "apache/race-stale-running.before.json, STARTED, STARTED",
    "apache/race-stale-running.after.json, SUCCEEDED, SUCCEEDED",
    "apache/race-succeeded-after-cancel-mark.before.json, CANCELLING, CANCELLING",
    "apache/race-succeeded-after-cancel-mark.after.json, SUCCEEDED, SUCCEEDED",
    "apache/race-succeeded-during-cancel.before.json, STARTED, STARTED",
    "apache/race-succeeded-during-cancel.after.json, SUCCEEDED, SUCCEEDED",
    "kubeflow/no-status.json, QUEUED, QUEUED",
    "kubeflow/new.json, QUEUED, QUEUED",
    "kubeflow/submitted.json, QUEUED, QUEUED",
    "kubeflow/running.json, STARTED, STARTED",
    "kubeflow/succeeding.json, SUCCEEDED, SUCCEEDED",
    "kubeflow/failing.json, STARTED, FAILED",
    "kubeflow/completed.json, SUCCEEDED, SUCCEEDED",
    "kubeflow/failed.json, STARTED, FAILED",
    "kubeflow/submission-failed.json, QUEUED, QUEUED",
    "kubeflow/pending-rerun.json, STARTED, STARTED",
    "kubeflow/invalidating.json, STARTED, STARTED",
    "kubeflow/unknown.json, STARTED, STARTED",
    "kubeflow/suspending.json, STARTED, STARTED",
    "kubeflow/suspended.json, STARTED, STARTED",
    "kubeflow/resuming.json, STARTED, STARTED",
    "kubeflow/newer-state.json, STARTED, STARTED",
    "kubeflow/unparseable-status.json, QUEUED, QUEUED",
    "kubeflow/cancel-marked-running.json, CANCELLING, CANCELLING",
    "kubeflow/cancelled-while-running.json, CANCELLING, CANCELLED",
    "kubeflow/completed-then-cancelled.json, SUCCEEDED, SUCCEEDED",
    "kubeflow/race-failing-then-rerun.before.json, STARTED, STARTED",
    "kubeflow/race-failing-then-rerun.after.json, STARTED, STARTED",
    "kubeflow/race-stale-running.before.json, STARTED, STARTED",
    "kubeflow/race-stale-running.after.json, SUCCEEDED, SUCCEEDED",
    "kubeflow/race-succeeded-after-cancel-mark.before.json, CANCELLING, CANCELLING",
    "kubeflow/race-succeeded-after-cancel-mark.after.json, SUCCEEDED, SUCCEEDED",
    "kubeflow/race-succeeded-during-cancel.before.json, STARTED, STARTED",
    "kubeflow/race-succeeded-during-cancel.after.json, SUCCEEDED, SUCCEEDED",
  })
  void everyApplicationFixtureMapsAsExpected(String path, JobStatus withoutPod, JobStatus absent) {
    ResourceSnapshot app = load(path);
    JobStatusMapper mapper = mapperFor(path);

    MappingDecision info = mapper.map(app, DriverPod.notLookedUp(), NOW);

    assertThat(info.info().status()).isEqualTo(withoutPod);
    assertThat(info.pendingFollowUp()).isEmpty();
    assertThat(mapper.map(app, DriverPod.absent(), NOW).info().status()).isEqualTo(absent);
  }

  @Test
  void everyApplicationFixtureOfTheTestkitIsInTheTable() throws NoSuchMethodException {
    CsvSource table =
        TestkitFixturesTest.class
            .getDeclaredMethod(
                "everyApplicationFixtureMapsAsExpected",
                String.class,
                JobStatus.class,
                JobStatus.class)
            .getAnnotation(CsvSource.class);
    List<String> covered =
        java.util.Arrays.stream(table.value()).map(row -> row.split(",")[0].trim()).toList();

    List<String> apps = Fixtures.paths().stream().filter(p -> !p.contains("driver-pod")).toList();

    assertThat(apps).isNotEmpty();
    assertThat(covered).containsExactlyInAnyOrderElementsOf(apps);
  }

  @Test
  void noStatusFixturesPastTheTimeoutAreDeletedBeforeFailing() {
    for (String path :
        List.of("apache/no-status.json", "kubeflow/no-status.json", "kubeflow/new.json")) {
      MappingDecision info =
          mapperFor(path)
              .map(load(path), DriverPod.notLookedUp(), Fixtures.T0.plus(Duration.ofMinutes(11)));
      assertThat(info.pendingFollowUp().map(FollowUp::action))
          .as(path)
          .contains(FollowUp.Action.DELETE_APPLICATION);
    }
  }

  @ParameterizedTest(name = "{0} with {1} -> {2}")
  @CsvSource({
    "apache/unparseable-status.json, apache/driver-pod-running.json, STARTED",
    "apache/unparseable-status.json, apache/driver-pod-terminated-0.json, SUCCEEDED",
    "apache/unparseable-status.json, apache/driver-pod-terminated-1.json, FAILED",
    "apache/unparseable-status.json, apache/driver-pod-with-sidecar.json, SUCCEEDED",
    "apache/failed.json, apache/driver-pod-running.json, STARTED",
    "apache/failed.json, apache/driver-pod-terminated-1.json, FAILED",
    "apache/failed.json, apache/driver-pod-with-sidecar.json, STARTED",
    "kubeflow/unparseable-status.json, kubeflow/driver-pod-running.json, STARTED",
    "kubeflow/unparseable-status.json, kubeflow/driver-pod-terminated-0.json, SUCCEEDED",
    "kubeflow/unparseable-status.json, kubeflow/driver-pod-terminated-1.json, FAILED",
    "kubeflow/failed.json, kubeflow/driver-pod-running.json, STARTED",
    "kubeflow/failed.json, kubeflow/driver-pod-terminated-1.json, FAILED",
  })
  void driverPodFixturesDecideWhatTheMapperLeavesToThePod(
      String app, String pod, JobStatus expected) {
    MappingDecision info = mapperFor(app).map(load(app), DriverPod.found(load(pod)), NOW);

    assertThat(info.info().status()).isEqualTo(expected);
    assertThat(info.needsDriverPod()).isFalse();
    if (app.endsWith("failed.json") && expected == JobStatus.STARTED) {
      assertThat(info.pendingFollowUp().map(FollowUp::action))
          .contains(FollowUp.Action.DELETE_DRIVER_POD);
    }
  }
}
