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
import dev.kubejobs.spark.KubeflowOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Manifests from the Spark job kinds go into the fake API server, the fake Spark operator moves
 * them along each path one transition at a time, and the mapper reports the expected status after
 * every transition: the paths both operators take are tested for each (Apache with API versions v1
 * and v1beta1), each operator's own paths in its nested class.
 */
class SparkOperatorPathsTest {
  private static final SparkJobSpec APACHE_SPEC =
      SparkJobSpec.builder()
          .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
          .mainClass("org.apache.spark.examples.SparkPi")
          .sparkVersion("4.0.1")
          .namespace(NS)
          .build();
  private static final SparkJobSpec KUBEFLOW_SPEC =
      SparkJobSpec.builder()
          .type(SparkJobSpec.Type.PYTHON)
          .mainApplicationFile("local:///opt/spark/examples/src/main/python/pi.py")
          .sparkVersion("4.0.1")
          .namespace(NS)
          .build();

  /**
   * An operator (with its API version) and the transitions, each with the status read after it,
   * that it goes through on the paths both operators have.
   */
  enum Operator {
    APACHE_V1(t -> t.apache("v1", ApacheOptions.RestartPolicy.NEVER, false)),
    APACHE_V1BETA1(t -> t.apache("v1beta1", ApacheOptions.RestartPolicy.NEVER, false)),
    KUBEFLOW(SparkOperatorPathsTest::kubeflow);

    private final Function<SparkOperatorPathsTest, Cluster> cluster;

    Operator(Function<SparkOperatorPathsTest, Cluster> cluster) {
      this.cluster = cluster;
    }

    boolean apache() {
      return this != KUBEFLOW;
    }

    SparkJobSpec spec() {
      return apache() ? APACHE_SPEC : KUBEFLOW_SPEC;
    }

    String displayName() {
      return apache() ? "Apache Spark operator" : "Kubeflow Spark operator";
    }

    String driverPod(String name) {
      return name + (apache() ? "-0-driver" : "-driver");
    }

    /**
     * The transitions of both API versions up to the driver's request, the start of every path on
     * which the operator submits the application.
     */
    List<String> submitted() {
      return apache()
          ? List.of(
              "created=QUEUED", "finalizer=QUEUED", "Submitted=QUEUED", "DriverRequested=QUEUED")
          : List.of("created=QUEUED", "SUBMITTED=QUEUED");
    }

    /** The transitions up to a running driver, the start of every path on which it runs. */
    List<String> running() {
      return apache()
          ? then(
              submitted(), "DriverStarted=STARTED", "DriverReady=STARTED", "RunningHealthy=STARTED")
          : then(submitted(), "RUNNING=STARTED");
    }

    List<String> happy() {
      return apache()
          ? then(
              running(),
              "driver-exited=STARTED",
              "Succeeded=SUCCEEDED",
              "ResourceReleased=SUCCEEDED")
          : then(
              running(),
              "driver-exited=STARTED",
              // OnFailure never reruns a success (util.ShouldRetry): COMPLETED is next.
              "SUCCEEDING=SUCCEEDED",
              "COMPLETED=SUCCEEDED");
    }

    List<String> failed() {
      return apache()
          ? then(running(), "driver-exited=STARTED", "Failed=FAILED", "ResourceReleased=FAILED")
          : then(running(), "driver-exited=STARTED", "FAILING=STARTED", "FAILED=FAILED");
    }

    /** The last transitions of a run that fails and keeps its resources. */
    List<String> retainedOnFailureEnd() {
      return apache()
          ? List.of(
              "driver-exited=STARTED", "Failed=FAILED", "TerminatedWithoutReleaseResources=FAILED")
          : List.of("driver-exited=STARTED", "FAILING=STARTED", "FAILED=FAILED");
    }

    List<String> driverStartTimeout() {
      return apache()
          ? then(
              submitted(),
              "DriverStartTimedOut=QUEUED>deleted driver>FAILED",
              "ResourceReleased=FAILED")
          : then(submitted(), "FAILING=STARTED", "FAILED=FAILED");
    }

    List<String> unparseableStatus() {
      return apache()
          ? List.of(
              "created=QUEUED",
              "finalizer=QUEUED",
              "unparseable-status=STARTED",
              "driver-exited=SUCCEEDED")
          : List.of("created=QUEUED", "unparseable-status=STARTED", "driver-exited=SUCCEEDED");
    }

    /** A state this version does not know, then the driver's exit code 0 decides. */
    List<String> newerState() {
      return apache()
          ? then(
              submitted(),
              "DriverStarted=STARTED",
              "DriverWarmingUp=STARTED",
              // Restart policy Never: the driver's exit code 0 decides.
              "driver-exited=SUCCEEDED",
              "Succeeded=SUCCEEDED",
              "ResourceReleased=SUCCEEDED")
          : then(
              running(),
              "HIBERNATING=STARTED",
              // OnFailure cannot rerun a success: the driver's exit code 0 decides.
              "driver-exited=SUCCEEDED",
              "SUCCEEDING=SUCCEEDED",
              "COMPLETED=SUCCEEDED");
    }
  }

  /** The transitions of {@code start} followed by {@code ending}. */
  private static List<String> then(List<String> start, String... ending) {
    List<String> all = new ArrayList<>(start);
    all.addAll(List.of(ending));
    return List.copyOf(all);
  }

  private Cluster cluster;

  private Cluster apache(String version, ApacheOptions.RestartPolicy restart, boolean trim) {
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

  private Cluster kubeflow() {
    cluster =
        new Cluster(
            FakeSparkOperator.Flavor.KUBEFLOW,
            null,
            SparkOperators.kubeflow(
                KubeflowOptions.builder()
                    .restartPolicy(KubeflowOptions.RestartPolicy.ON_FAILURE)
                    .build()),
            false);
    return cluster;
  }

  @AfterEach
  void close() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void happyPathIsQueuedStartedThenSucceeded(Operator op) {
    Cluster c = op.cluster.apply(this);
    String name = c.submit(op.spec(), "happy-1", SparkAppPath.HAPPY);

    assertThat(c.drive(name)).containsExactlyElementsOf(op.happy());
    MappingDecision info = c.observe(name);
    assertThat(info.info().startedAt()).isPresent();
    assertThat(info.info().finishedAt()).isPresent();
    assertThat(info.info().startedAt().get()).isBefore(info.info().finishedAt().get());
    assertThat(info.info().driverPod()).contains(op.driverPod(name));
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void failedPathFailsOnceTheDriverIsKnownToHaveStopped(Operator op) {
    Cluster c = op.cluster.apply(this);
    String name = c.submit(op.spec(), "failed-1", SparkAppPath.FAILED);

    assertThat(c.drive(name)).containsExactlyElementsOf(op.failed());
    assertThat(c.observe(name).info().message()).containsIgnoringCase("failed");
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void retainedOnFailureFails(Operator op) {
    Cluster c = op.cluster.apply(this);
    String name = c.submit(op.spec(), "retained-1", SparkAppPath.RETAINED_ON_FAILURE);

    assertThat(c.drive(name)).endsWith(op.retainedOnFailureEnd().toArray(String[]::new));
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void driverStartTimeoutDeletesThePendingDriverThenFails(Operator op) {
    Cluster c = op.cluster.apply(this);
    String name = c.submit(op.spec(), "timeout-1", SparkAppPath.DRIVER_START_TIMEOUT);

    assertThat(c.drive(name)).containsExactlyElementsOf(op.driverStartTimeout());
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void operatorDownIsDeletedAfterTheNoStatusTimeoutBeforeFailing(Operator op) {
    Cluster c = op.cluster.apply(this);
    String name = c.submit(op.spec(), "down-1", SparkAppPath.OPERATOR_DOWN);

    assertThat(c.drive(name)).containsExactly("created=QUEUED");
    c.clock.advance(Duration.ofMinutes(9));
    assertThat(c.observe(name).pendingFollowUp()).isEmpty();
    c.clock.advance(Duration.ofMinutes(1));
    MappingDecision info = c.observe(name);

    assertThat(info.info().status()).isEqualTo(JobStatus.QUEUED);
    FollowUp f = info.pendingFollowUp().orElseThrow();
    assertThat(f.action()).isEqualTo(FollowUp.Action.DELETE_APPLICATION);
    assertThat(f.outcome()).isEqualTo(JobStatus.FAILED);
    assertThat(f.message()).contains(op.displayName());
    c.carryOut(name, f);
    assertThat(c.app(name)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void unparseableStatusFollowsTheDriverAndIsNeverDeleted(Operator op) {
    Cluster c = op.cluster.apply(this);
    String name = c.submit(op.spec(), "odd-1", SparkAppPath.UNPARSEABLE_STATUS);

    assertThat(c.drive(name)).containsExactlyElementsOf(op.unparseableStatus());
    c.clock.advance(Duration.ofHours(2));
    MappingDecision info = c.observe(name);
    assertThat(info.pendingFollowUp()).isEmpty();
    assertThat(info.warnings()).isNotEmpty();
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void newerStateKeepsTheJobUnfinishedUntilTheDriverExits(Operator op) {
    Cluster c = op.cluster.apply(this);
    String name = c.submit(op.spec(), "newer-1", SparkAppPath.NEWER_STATE);

    assertThat(c.drive(name)).containsExactlyElementsOf(op.newerState());
  }

  /** Paths only the Apache operator has: sidecars, restarts with history, the finalizer. */
  @Nested
  class Apache {
    @ParameterizedTest
    @ValueSource(strings = {"v1", "v1beta1"})
    void driverWithASidecarIsJudgedByItsDriverContainer(String version) {
      Cluster c = apache(version, ApacheOptions.RestartPolicy.NEVER, false);
      String happy = c.submit(APACHE_SPEC, "sidecar-1", SparkAppPath.HAPPY, true);
      String failed = c.submit(APACHE_SPEC, "sidecar-2", SparkAppPath.FAILED, true);

      assertThat(c.drive(happy)).endsWith("Succeeded=SUCCEEDED", "ResourceReleased=SUCCEEDED");
      // The sidecar keeps the failed driver's pod Running: it is deletedbefore FAILED.
      assertThat(c.drive(failed))
          .endsWith("Failed=STARTED>deleted driver>FAILED", "ResourceReleased=FAILED");
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1", "v1beta1"})
    void unparseableStatusWithASidecarTakesTheDriverContainersExitCode(String version) {
      Cluster c = apache(version, ApacheOptions.RestartPolicy.NEVER, false);
      String name = c.submit(APACHE_SPEC, "sidecar-3", SparkAppPath.UNPARSEABLE_STATUS, true);

      assertThat(c.drive(name)).endsWith("unparseable-status=STARTED", "driver-exited=SUCCEEDED");
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1", "v1beta1"})
    void restartedThenSucceededStaysStartedThroughTheRestart(String version) {
      for (boolean trim : List.of(false, true)) {
        Cluster c = apache(version, ApacheOptions.RestartPolicy.ON_FAILURE, trim);
        String name = c.submit(APACHE_SPEC, "restart-1", SparkAppPath.RESTARTED_THEN_SUCCEEDED);

        assertThat(c.drive(name))
            .as("trim history " + trim)
            .containsExactlyElementsOf(
                then(
                    Operator.APACHE_V1.submitted(),
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
                    "ResourceReleased=SUCCEEDED"));
        assertThat(c.observe(name).info().driverPod()).contains(name + "-1-driver");
        c.close();
        cluster = null;
      }
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1", "v1beta1"})
    void cancelWhileRunningIsCancellingThenCancelled(String version) {
      Cluster c = apache(version, ApacheOptions.RestartPolicy.NEVER, false);
      String name = c.submit(APACHE_SPEC, "cancel-1", SparkAppPath.HAPPY);
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
      Cluster c = apache(version, ApacheOptions.RestartPolicy.NEVER, false);
      String name = c.submit(APACHE_SPEC, "cancel-2", SparkAppPath.HAPPY);
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
      Cluster c = apache(version, ApacheOptions.RestartPolicy.NEVER, false);
      String name = c.submit(APACHE_SPEC, "other-1", SparkAppPath.HAPPY);
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
  }

  /** Paths only the Kubeflow operator has: its retry states, a delete without finalizer. */
  @Nested
  class Kubeflow {
    @Test
    void restartedThenSucceededNeverEndsOnTheRetryStates() {
      Cluster c = kubeflow();
      String name = c.submit(KUBEFLOW_SPEC, "restart-1", SparkAppPath.RESTARTED_THEN_SUCCEEDED);

      List<String> seen = c.drive(name);

      assertThat(seen)
          .startsWith(
              then(Operator.KUBEFLOW.running(), "driver-exited=STARTED", "FAILING=STARTED")
                  .toArray(String[]::new))
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
    void cancelWhileRunningIsCancellingThenTheApplicationAndDriverAreGone() {
      Cluster c = kubeflow();
      String name = c.submit(KUBEFLOW_SPEC, "cancel-1", SparkAppPath.HAPPY);
      c.operator.moveTo(NS, name, "RUNNING");

      mark(c, name);
      assertThat(c.observe(name).info().status()).isEqualTo(JobStatus.CANCELLING);
      c.server.store().delete(c.operator.resourceType(), NS, name);
      c.operator.step();

      assertThat(c.app(name)).isEmpty();
      assertThat(c.server.store().get(ResourceType.POD, NS, name + "-driver")).isEmpty();
    }

    @Test
    void cancelAfterCompletionKeepsSucceeded() {
      Cluster c = kubeflow();
      String name = c.submit(KUBEFLOW_SPEC, "cancel-2", SparkAppPath.HAPPY);
      c.operator.moveTo(NS, name, "COMPLETED");

      mark(c, name);

      assertThat(c.observe(name).info().status()).isEqualTo(JobStatus.SUCCEEDED);
    }
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
