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
package dev.kubejobs.spark.e2e;

import static dev.kubejobs.spark.e2e.Cluster.NS;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.spark.KubeflowOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Manifests from the Kubeflow job kind go into the fake API server, the fake Kubeflow Spark
 * operator moves them along each path one transition at a time, and the mapper reports the expected
 * status after every transition.
 */
class KubeflowEndToEndTest {
  private static final SparkJobSpec SPEC =
      SparkJobSpec.builder()
          .type(SparkJobSpec.Type.PYTHON)
          .mainApplicationFile("local:///opt/spark/examples/src/main/python/pi.py")
          .sparkVersion("4.0.1")
          .namespace(NS)
          .build();

  private Cluster c;

  @BeforeEach
  void start() {
    c =
        new Cluster(
            FakeSparkOperator.Flavor.KUBEFLOW,
            null,
            SparkOperators.kubeflow(
                KubeflowOptions.builder()
                    .restartPolicy(KubeflowOptions.RestartPolicy.ON_FAILURE)
                    .build()),
            false);
  }

  @AfterEach
  void close() {
    c.close();
  }

  @Test
  void happyPathIsQueuedStartedThenSucceeded() {
    String name = c.submit(SPEC, "happy-1", SparkAppPath.HAPPY);

    assertThat(c.drive(name))
        .containsExactly(
            "created=QUEUED",
            "SUBMITTED=QUEUED",
            "RUNNING=STARTED",
            "driver-exited=STARTED",
            // OnFailure never reruns a success (util.ShouldRetry): COMPLETED is next.
            "SUCCEEDING=SUCCEEDED",
            "COMPLETED=SUCCEEDED");
    MappingDecision info = c.observe(name);
    assertThat(info.info().driverPod()).contains(name + "-driver");
    assertThat(info.info().startedAt()).isPresent();
    assertThat(info.info().finishedAt()).isPresent();
  }

  @Test
  void failedPathFails() {
    String name = c.submit(SPEC, "failed-1", SparkAppPath.FAILED);

    assertThat(c.drive(name))
        .containsExactly(
            "created=QUEUED",
            "SUBMITTED=QUEUED",
            "RUNNING=STARTED",
            "driver-exited=STARTED",
            "FAILING=STARTED",
            "FAILED=FAILED");
    assertThat(c.observe(name).info().message()).contains("failed");
  }

  @Test
  void retainedOnFailureFails() {
    String name = c.submit(SPEC, "retained-1", SparkAppPath.RETAINED_ON_FAILURE);

    assertThat(c.drive(name)).endsWith("FAILING=STARTED", "FAILED=FAILED");
  }

  @Test
  void driverStartTimeoutFails() {
    String name = c.submit(SPEC, "timeout-1", SparkAppPath.DRIVER_START_TIMEOUT);

    List<String> seen = c.drive(name);

    assertThat(seen).startsWith("created=QUEUED", "SUBMITTED=QUEUED").endsWith("FAILED=FAILED");
    assertThat(seen).hasSize(4);
  }

  @Test
  void restartedThenSucceededNeverEndsOnTheRetryStates() {
    String name = c.submit(SPEC, "restart-1", SparkAppPath.RESTARTED_THEN_SUCCEEDED);

    List<String> seen = c.drive(name);

    assertThat(seen)
        .startsWith(
            "created=QUEUED",
            "SUBMITTED=QUEUED",
            "RUNNING=STARTED",
            "driver-exited=STARTED",
            "FAILING=STARTED")
        .endsWith(
            // executionAttempts tells that an earlier attempt ran: never back to QUEUED.
            "SUBMITTED=STARTED",
            "RUNNING=STARTED",
            "driver-exited=STARTED",
            // OnFailure never reruns a success (util.ShouldRetry): COMPLETED is next.
            "SUCCEEDING=SUCCEEDED",
            "COMPLETED=SUCCEEDED");
    assertThat(seen.get(5)).isEqualTo("PENDING_RERUN=STARTED");
    assertThat(seen.subList(seen.indexOf("RUNNING=STARTED"), seen.size()))
        .noneMatch(s -> s.endsWith("QUEUED"));
    assertThat(seen.subList(0, seen.size() - 1)).noneMatch(s -> s.endsWith("FAILED"));
  }

  @Test
  void operatorDownIsDeletedAfterTheNoStatusTimeoutBeforeFailing() {
    String name = c.submit(SPEC, "down-1", SparkAppPath.OPERATOR_DOWN);

    assertThat(c.drive(name)).containsExactly("created=QUEUED");
    c.clock.advance(Duration.ofMinutes(10));
    MappingDecision info = c.observe(name);

    FollowUp f = info.pendingFollowUp().orElseThrow();
    assertThat(f.action()).isEqualTo(FollowUp.Action.DELETE_APPLICATION);
    assertThat(f.outcome()).isEqualTo(JobStatus.FAILED);
    assertThat(f.message()).contains("Kubeflow Spark operator");
    c.carryOut(name, f);
    assertThat(c.app(name)).isEmpty();
  }

  @Test
  void unparseableStatusFollowsTheDriverAndIsNeverDeleted() {
    String name = c.submit(SPEC, "odd-1", SparkAppPath.UNPARSEABLE_STATUS);

    assertThat(c.drive(name))
        .containsExactly("created=QUEUED", "unparseable-status=STARTED", "driver-exited=SUCCEEDED");
    c.clock.advance(Duration.ofHours(2));
    assertThat(c.observe(name).pendingFollowUp()).isEmpty();
  }

  @Test
  void newerStateKeepsTheJobUnfinishedWithAWarning() {
    String name = c.submit(SPEC, "newer-1", SparkAppPath.NEWER_STATE);

    assertThat(c.drive(name))
        .containsExactly(
            "created=QUEUED",
            "SUBMITTED=QUEUED",
            "RUNNING=STARTED",
            "HIBERNATING=STARTED",
            // OnFailure cannot rerun a success: the driver's exit code 0 decides (issue 14).
            "driver-exited=SUCCEEDED",
            "SUCCEEDING=SUCCEEDED",
            "COMPLETED=SUCCEEDED");
  }

  @Test
  void cancelWhileRunningIsCancellingThenTheApplicationAndDriverAreGone() {
    String name = c.submit(SPEC, "cancel-1", SparkAppPath.HAPPY);
    c.operator.moveTo(NS, name, "RUNNING");

    mark(name);
    assertThat(c.observe(name).info().status()).isEqualTo(JobStatus.CANCELLING);
    c.server.store().delete(c.operator.resourceType(), NS, name);
    c.operator.step();

    assertThat(c.app(name)).isEmpty();
    assertThat(c.server.store().get(ResourceType.POD, NS, name + "-driver")).isEmpty();
  }

  @Test
  void cancelAfterCompletionKeepsSucceeded() {
    String name = c.submit(SPEC, "cancel-2", SparkAppPath.HAPPY);
    c.operator.moveTo(NS, name, "COMPLETED");

    mark(name);

    assertThat(c.observe(name).info().status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  private void mark(String name) {
    c.server
        .store()
        .update(
            c.operator.resourceType(),
            NS,
            name,
            o -> {
              JsonObject annotations = o.getAsJsonObject("metadata").getAsJsonObject("annotations");
              annotations.addProperty(
                  JobIdentity.ANNOTATION_CANCEL_REQUESTED, c.clock.instant().toString());
              return o;
            });
  }
}
