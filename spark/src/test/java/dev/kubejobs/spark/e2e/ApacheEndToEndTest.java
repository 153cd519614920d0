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
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Manifests from the Apache job kind go into the fake API server, the fake Apache Spark operator
 * moves them along each path one transition at a time, and the mapper reports the expected status
 * after every transition, for API versions v1 and v1beta1.
 */
class ApacheEndToEndTest {
  private static final SparkJobSpec SPEC =
      SparkJobSpec.builder()
          .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
          .mainClass("org.apache.spark.examples.SparkPi")
          .sparkVersion("4.0.1")
          .namespace(NS)
          .build();

  private Cluster cluster;

  private Cluster cluster(String version, ApacheOptions.RestartPolicy restart, boolean trim) {
    ApacheOptions options =
        ApacheOptions.builder()
            .apiVersion(
                version.equals("v1")
                    ? ApacheOptions.ApiVersion.V1
                    : ApacheOptions.ApiVersion.V1BETA1)
            .restartPolicy(restart)
            .build();
    cluster =
        new Cluster(FakeSparkOperator.Flavor.APACHE, version, SparkOperators.apache(options), trim);
    return cluster;
  }

  private Cluster cluster(String version) {
    return cluster(version, ApacheOptions.RestartPolicy.NEVER, false);
  }

  @AfterEach
  void close() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void happyPathIsQueuedStartedThenSucceeded(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "happy-1", SparkAppPath.HAPPY);

    assertThat(c.drive(name))
        .containsExactly(
            "created=QUEUED",
            "finalizer=QUEUED",
            "Submitted=QUEUED",
            "DriverRequested=QUEUED",
            "DriverStarted=STARTED",
            "DriverReady=STARTED",
            "RunningHealthy=STARTED",
            "driver-exited=STARTED",
            "Succeeded=SUCCEEDED",
            "ResourceReleased=SUCCEEDED");
    MappingDecision info = c.observe(name);
    assertThat(info.info().startedAt()).isPresent();
    assertThat(info.info().finishedAt()).isPresent();
    assertThat(info.info().startedAt().get()).isBefore(info.info().finishedAt().get());
    assertThat(info.info().driverPod()).contains(name + "-0-driver");
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void failedPathFailsOnceTheDriverIsKnownToHaveStopped(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "failed-1", SparkAppPath.FAILED);

    assertThat(c.drive(name))
        .containsExactly(
            "created=QUEUED",
            "finalizer=QUEUED",
            "Submitted=QUEUED",
            "DriverRequested=QUEUED",
            "DriverStarted=STARTED",
            "DriverReady=STARTED",
            "RunningHealthy=STARTED",
            "driver-exited=STARTED",
            "Failed=FAILED",
            "ResourceReleased=FAILED");
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void driverWithASidecarIsJudgedByItsDriverContainer(String version) {
    Cluster c = cluster(version);
    String happy = c.submit(SPEC, "sidecar-1", SparkAppPath.HAPPY, true);
    String failed = c.submit(SPEC, "sidecar-2", SparkAppPath.FAILED, true);

    assertThat(c.drive(happy)).endsWith("Succeeded=SUCCEEDED", "ResourceReleased=SUCCEEDED");
    // The sidecar keeps the failed driver's pod Running: it is deleted before FAILED (issue 14).
    assertThat(c.drive(failed))
        .endsWith("Failed=STARTED>deleted driver>FAILED", "ResourceReleased=FAILED");
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void unparseableStatusWithASidecarTakesTheDriverContainersExitCode(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "sidecar-3", SparkAppPath.UNPARSEABLE_STATUS, true);

    assertThat(c.drive(name)).endsWith("unparseable-status=STARTED", "driver-exited=SUCCEEDED");
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void driverStartTimeoutDeletesThePendingDriverThenFails(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "timeout-1", SparkAppPath.DRIVER_START_TIMEOUT);

    assertThat(c.drive(name))
        .containsExactly(
            "created=QUEUED",
            "finalizer=QUEUED",
            "Submitted=QUEUED",
            "DriverRequested=QUEUED",
            "DriverStartTimedOut=QUEUED>deleted driver>FAILED",
            "ResourceReleased=FAILED");
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void retainedOnFailureFails(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "retained-1", SparkAppPath.RETAINED_ON_FAILURE);

    assertThat(c.drive(name))
        .endsWith(
            "driver-exited=STARTED", "Failed=FAILED", "TerminatedWithoutReleaseResources=FAILED");
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void restartedThenSucceededStaysStartedThroughTheRestart(String version) {
    for (boolean trim : List.of(false, true)) {
      Cluster c = cluster(version, ApacheOptions.RestartPolicy.ON_FAILURE, trim);
      String name = c.submit(SPEC, "restart-1", SparkAppPath.RESTARTED_THEN_SUCCEEDED);

      assertThat(c.drive(name))
          .as("trim history " + trim)
          .containsExactly(
              "created=QUEUED",
              "finalizer=QUEUED",
              "Submitted=QUEUED",
              "DriverRequested=QUEUED",
              "DriverStarted=STARTED",
              "driver-exited=STARTED",
              "Failed=STARTED",
              "ScheduledToRestart=STARTED",
              "DriverRequested=STARTED",
              "DriverStarted=STARTED",
              "DriverReady=STARTED",
              "RunningHealthy=STARTED",
              "driver-exited=STARTED",
              // OnFailure cannot restart a success (RestartPolicy.attemptRestartOnState).
              "Succeeded=SUCCEEDED",
              "ResourceReleased=SUCCEEDED");
      assertThat(c.observe(name).info().driverPod()).contains(name + "-1-driver");
      c.close();
      cluster = null;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void operatorDownIsDeletedAfterTheNoStatusTimeoutBeforeFailing(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "down-1", SparkAppPath.OPERATOR_DOWN);

    assertThat(c.drive(name)).containsExactly("created=QUEUED");
    c.clock.advance(Duration.ofMinutes(9));
    assertThat(c.observe(name).pendingFollowUp()).isEmpty();
    c.clock.advance(Duration.ofMinutes(1));
    MappingDecision info = c.observe(name);

    assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
    FollowUp f = info.pendingFollowUp().orElseThrow();
    assertThat(f.action()).isEqualTo(FollowUp.Action.DELETE_APPLICATION);
    assertThat(f.outcome()).isEqualTo(JobStatus.FAILED);
    c.carryOut(name, f);
    assertThat(c.app(name)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void unparseableStatusFollowsTheDriverAndIsNeverDeleted(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "odd-1", SparkAppPath.UNPARSEABLE_STATUS);

    assertThat(c.drive(name))
        .containsExactly(
            "created=QUEUED",
            "finalizer=QUEUED",
            "unparseable-status=STARTED",
            "driver-exited=SUCCEEDED");
    c.clock.advance(Duration.ofHours(2));
    MappingDecision info = c.observe(name);
    assertThat(info.pendingFollowUp()).isEmpty();
    assertThat(info.warnings()).isNotEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void newerStateKeepsTheJobStartedWithAWarning(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "newer-1", SparkAppPath.NEWER_STATE);

    List<String> seen = c.drive(name);

    assertThat(seen)
        .containsExactly(
            "created=QUEUED",
            "finalizer=QUEUED",
            "Submitted=QUEUED",
            "DriverRequested=QUEUED",
            "DriverStarted=STARTED",
            "DriverWarmingUp=STARTED",
            // Restart policy Never: the driver's exit code 0 decides (issue 14).
            "driver-exited=SUCCEEDED",
            "Succeeded=SUCCEEDED",
            "ResourceReleased=SUCCEEDED");
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void cancelWhileRunningIsCancellingThenCancelled(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "cancel-1", SparkAppPath.HAPPY);
    c.operator.moveTo(NS, name, "RunningHealthy");
    assertThat(c.observe(name).info().status()).isEqualTo(JobStatus.STARTED);

    mark(c, name);
    assertThat(c.observe(name).info().status()).isEqualTo(JobStatus.CANCELLING);
    c.server.store().delete(c.operator.resourceType(), NS, name);
    // Being deleted, but the operator has not released it and the driver still runs.
    assertThat(c.observe(name).info().status()).isEqualTo(JobStatus.CANCELLING);
    c.operator.advance(NS, name);
    JobExecutionInfo released = c.observe(name).info();
    assertThat(released.operatorState()).isEqualTo("ResourceReleased");
    assertThat(released.status()).isEqualTo(JobStatus.CANCELLED);
    c.operator.advance(NS, name);
    assertThat(c.app(name)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void cancelAfterSuccessKeepsSucceeded(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "cancel-2", SparkAppPath.HAPPY);
    c.operator.moveTo(NS, name, "Succeeded");
    c.clock.advance(Duration.ofSeconds(5));

    mark(c, name);
    c.server.store().delete(c.operator.resourceType(), NS, name);

    assertThat(c.observe(name).info().status()).isEqualTo(JobStatus.SUCCEEDED);
    c.operator.advance(NS, name);
    assertThat(c.observe(name).info().status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "v1beta1"})
  void deletedBySomeoneElseFails(String version) {
    Cluster c = cluster(version);
    String name = c.submit(SPEC, "other-1", SparkAppPath.HAPPY);
    c.operator.moveTo(NS, name, "RunningHealthy");

    c.server.store().delete(c.operator.resourceType(), NS, name);
    JobExecutionInfo deleting = c.observe(name).info();
    c.operator.advance(NS, name);
    JobExecutionInfo released = c.observe(name).info();

    assertThat(deleting.status()).isEqualTo(JobStatus.FAILED);
    assertThat(deleting.message()).contains("deleted outside kubejobs");
    assertThat(released.status()).isEqualTo(JobStatus.FAILED);
    assertThat(released.message()).contains("shutdown as requested");
  }

  private static void mark(Cluster c, String name) {
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
