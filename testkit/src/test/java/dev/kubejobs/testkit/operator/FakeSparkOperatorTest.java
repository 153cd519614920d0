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
package dev.kubejobs.testkit.operator;

import static dev.kubejobs.testkit.operator.OperatorTestSupport.NS;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.container;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.finalizers;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.historyInOrder;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.obj;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.DriverLogs;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import dev.kubejobs.testkit.fixtures.Fixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fake Spark operators drive applications on the fake API server: what both operators do is
 * tested for each ({@link Operator}), each operator's own status shape, pods, restarts and deletion
 * in its nested class.
 */
@Tag("slow")
class FakeSparkOperatorTest {

  private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

  /** One operator flavor and where its paths' shared moments show in its status. */
  enum Operator {
    APACHE(
        FakeSparkOperator::apache,
        "-0-driver",
        "RunningHealthy",
        "ResourceReleased",
        "TerminatedWithoutReleaseResources",
        "RunningWithQuantumExecutors") {
      @Override
      JsonObject noStatus(String name, String path) {
        var b = ApacheFixtures.noStatus().name(name).namespace(NS);
        if (path != null) {
          b.label(FakeSparkOperator.PATH_LABEL, path);
        }
        return b.build();
      }

      @Override
      JsonObject inState(String state) {
        return ApacheFixtures.inState(state).namespace(NS).build();
      }

      @Override
      String state(JsonObject app) {
        return str(app, "status", "currentState", "currentStateSummary");
      }
    },
    KUBEFLOW(
        FakeSparkOperator::kubeflow,
        "-driver",
        "RUNNING",
        "COMPLETED",
        "FAILED",
        "RUNNING_WITH_QUANTUM_EXECUTORS") {
      @Override
      JsonObject noStatus(String name, String path) {
        var b = KubeflowFixtures.noStatus().name(name).namespace(NS);
        if (path != null) {
          b.label(FakeSparkOperator.PATH_LABEL, path);
        }
        return b.build();
      }

      @Override
      JsonObject inState(String state) {
        return KubeflowFixtures.inState(state).namespace(NS).build();
      }

      @Override
      String state(JsonObject app) {
        return str(app, "status", "applicationState", "state");
      }
    };

    private final Function<FakeKubernetesApiServer, FakeSparkOperator> start;
    private final String driverPodSuffix;
    final String running;
    final String succeeded;
    final String retainedOnFailure;
    final String newer;

    Operator(
        Function<FakeKubernetesApiServer, FakeSparkOperator> start,
        String driverPodSuffix,
        String running,
        String succeeded,
        String retainedOnFailure,
        String newer) {
      this.start = start;
      this.driverPodSuffix = driverPodSuffix;
      this.running = running;
      this.succeeded = succeeded;
      this.retainedOnFailure = retainedOnFailure;
      this.newer = newer;
    }

    /** An application without a status, on the given path (the happy one if null). */
    abstract JsonObject noStatus(String name, String path);

    /** An application the operator has already written the given state on. */
    abstract JsonObject inState(String state);

    /** The application's state as the operator writes it. */
    abstract String state(JsonObject app);

    String driverPod(String name) {
      return name + driverPodSuffix;
    }
  }

  private MutableClock clock;
  private FakeKubernetesApiServer server;
  private FakeSparkOperator operator;

  @BeforeEach
  void setUp() {
    clock = MutableClock.at(START);
    server = FakeKubernetesApiServer.builder().clock(clock).build();
  }

  @AfterEach
  void tearDown() {
    if (operator != null) {
      operator.close();
    }
    server.close();
  }

  private FakeSparkOperator start(Operator op) {
    operator = op.start.apply(server);
    return operator;
  }

  private JsonObject submit(Operator op, String name, String path) {
    return server.store().create(operator.resourceType(), NS, op.noStatus(name, path));
  }

  private JsonObject app(String name) {
    return OperatorTestSupport.app(server, operator, name);
  }

  private String log(String pod, String container) throws ApiException {
    return new CoreV1Api(server.newClient())
        .readNamespacedPodLog(pod, NS)
        .container(container)
        .execute();
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void retainedOnFailureEndsFailedAndKeepsTheDriverPodThatExitedOne(Operator op) {
    start(op);
    submit(op, "kj-keep", "RETAINED_ON_FAILURE");

    operator.runToEnd(NS, "kj-keep");

    assertThat(op.state(app("kj-keep"))).isEqualTo(op.retainedOnFailure);
    JsonObject pod = OperatorTestSupport.pod(server, op.driverPod("kj-keep")).orElseThrow();
    assertThat(
            obj(container(pod, DriverPodBuilder.DRIVER_CONTAINER), "state", "terminated")
                .get("exitCode")
                .getAsInt())
        .isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void operatorDownNeverWritesAStatusNorAFinalizer(Operator op) {
    start(op);
    submit(op, "kj-down", "OPERATOR_DOWN");

    assertThat(operator.stepUntilSettled()).isZero();

    JsonObject app = app("kj-down");
    assertThat(app.has("status")).isFalse();
    assertThat(finalizers(app)).isEmpty();
    assertThat(server.store().list(ResourceType.POD, NS)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void unparseableStatusIsWrittenAsIsAndTheDriverStillFinishes(Operator op) {
    start(op);
    submit(op, "kj-odd", "UNPARSEABLE_STATUS");

    operator.moveTo(NS, "kj-odd", "unparseable-status");
    assertThat(app("kj-odd").getAsJsonObject("status").toString())
        .isEqualTo("{\"phase\":\"Running\"}");
    operator.runToEnd(NS, "kj-odd");

    JsonObject pod = OperatorTestSupport.pod(server, op.driverPod("kj-odd")).orElseThrow();
    assertThat(str(pod, "status", "phase")).isEqualTo("Succeeded");
    assertThat(
            obj(container(pod, DriverPodBuilder.DRIVER_CONTAINER), "state", "terminated")
                .get("exitCode")
                .getAsInt())
        .isZero();
    assertThat(app("kj-odd").getAsJsonObject("status").toString())
        .isEqualTo("{\"phase\":\"Running\"}");
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void newerStatePassesThroughAStateThisVersionDoesNotKnowThenSucceeds(Operator op) {
    start(op);
    submit(op, "kj-new", "NEWER_STATE");

    operator.moveTo(NS, "kj-new", op.newer);
    assertThat(op.state(app("kj-new"))).isEqualTo(op.newer);
    operator.runToEnd(NS, "kj-new");

    assertThat(op.state(app("kj-new"))).isEqualTo(op.succeeded);
  }

  @ParameterizedTest
  @EnumSource(Operator.class)
  void anApplicationThatAlreadyHasAStatusIsLeftAlone(Operator op) {
    start(op);
    server.store().create(operator.resourceType(), NS, op.inState(op.running));

    assertThat(operator.step()).isFalse();
    assertThat(op.state(app(Fixtures.DEFAULT_NAME))).isEqualTo(op.running);
    assertThat(operator.remainingTransitions(NS, Fixtures.DEFAULT_NAME)).isEmpty();
  }

  /**
   * The Apache operator's own behaviour: its state history and attempts, its finalizer, its driver
   * pod, sidecars, v1beta1, and how {@code moveTo} and {@code step} script a path.
   */
  @Nested
  class Apache {
    @BeforeEach
    void startTheOperator() {
      start(Operator.APACHE);
    }

    private void submit(String name, String path) {
      FakeSparkOperatorTest.this.submit(Operator.APACHE, name, path);
    }

    private String state(String name) {
      return Operator.APACHE.state(app(name));
    }

    /** Steps once per second of clock time and records the state after each step. */
    private List<String> stepAndRecord(String name) {
      List<String> seen = new ArrayList<>();
      while (operator.advance(NS, name)) {
        clock.advance(Duration.ofSeconds(1));
        seen.add(
            server
                .store()
                .get(operator.resourceType(), NS, name)
                .map(a -> String.valueOf(str(a, "status", "currentState", "currentStateSummary")))
                .orElse("gone"));
      }
      return seen;
    }

    @Test
    void newerStateIsRecordedInTheHistoryBetweenTheDriversStartAndItsSuccess() {
      submit("kj-new", "newer-state");

      operator.moveTo(NS, "kj-new", ApacheFixtures.NEWER_STATE);
      operator.runToEnd(NS, "kj-new");

      assertThat(historyInOrder(obj(app("kj-new"), "status", "stateTransitionHistory")))
          .containsSequence(
              "DriverStarted", "RunningWithQuantumExecutors", "Succeeded", "ResourceReleased");
    }

    @Test
    void happyPathWritesEveryStateInOrderWithTheServersClock() throws ApiException {
      submit("kj-happy", null);

      assertThat(operator.advance(NS, "kj-happy")).isTrue();
      JsonObject afterFirstSight = app("kj-happy");
      assertThat(finalizers(afterFirstSight)).containsExactly(ApacheStatuses.FINALIZER);
      assertThat(afterFirstSight.has("status")).isFalse();

      clock.advance(Duration.ofSeconds(1));
      List<String> seen = new ArrayList<>();
      seen.add("null");
      seen.addAll(stepAndRecord("kj-happy"));

      assertThat(seen)
          .containsExactly(
              "null",
              "Submitted",
              "DriverRequested",
              "DriverStarted",
              "DriverReady",
              "RunningHealthy",
              "RunningHealthy",
              "Succeeded",
              "ResourceReleased");
      JsonObject status = app("kj-happy").getAsJsonObject("status");
      assertThat(historyInOrder(status.getAsJsonObject("stateTransitionHistory")))
          .containsExactly(
              "Submitted",
              "DriverRequested",
              "DriverStarted",
              "DriverReady",
              "RunningHealthy",
              "Succeeded",
              "ResourceReleased");
      assertThat(str(status, "stateTransitionHistory", "0", "lastTransitionTime"))
          .isEqualTo(START.plusSeconds(1).toString());
      assertThat(str(status, "stateTransitionHistory", "5", "lastTransitionTime"))
          .isEqualTo(START.plusSeconds(7).toString());
      assertThat(str(status, "stateTransitionHistory", "0", "message"))
          .isEqualTo("Spark application has been created on Kubernetes Cluster.");
      assertThat(str(status, "currentAttemptSummary", "attemptInfo", "id")).isEqualTo("0");
      assertThat(str(status, "stateTransitionHistory", "5", "message"))
          .isEqualTo("Spark application completed successfully.");
      assertThat(obj(status, "stateTransitionHistory", "5").has("lastObservedDriverStatus"))
          .isFalse();
      assertThat(OperatorTestSupport.pod(server, "kj-happy-0-driver")).isEmpty();
      assertThat(finalizers(app("kj-happy"))).containsExactly(ApacheStatuses.FINALIZER);
    }

    @Test
    void driverPodCarriesTheOperatorsNameLabelsOwnerContainerAndLog() throws ApiException {
      JsonObject manifest =
          ApacheFixtures.noStatus().name("kj-pod").namespace(NS).kubejobs("job-7", "blue").build();
      JsonObject created = server.store().create(operator.resourceType(), NS, manifest);

      operator.moveTo(NS, "kj-pod", "DriverRequested");
      JsonObject pending = OperatorTestSupport.pod(server, "kj-pod-0-driver").orElseThrow();
      assertThat(str(pending, "status", "phase")).isEqualTo("Pending");

      operator.moveTo(NS, "kj-pod", "DriverStarted");
      JsonObject pod = OperatorTestSupport.pod(server, "kj-pod-0-driver").orElseThrow();

      assertThat(obj(pod, "metadata", "labels").asMap())
          .containsEntry("spark-role", new com.google.gson.JsonPrimitive("driver"))
          .containsEntry(ApacheStatuses.APP_NAME_LABEL, new com.google.gson.JsonPrimitive("kj-pod"))
          .containsEntry(Fixtures.JOB_ID_LABEL, new com.google.gson.JsonPrimitive("job-7"))
          .containsEntry(Fixtures.DEPLOYMENT_LABEL, new com.google.gson.JsonPrimitive("blue"))
          .containsEntry(Fixtures.MANAGED_BY_LABEL, new com.google.gson.JsonPrimitive("kubejobs"));
      JsonObject owner =
          pod.getAsJsonObject("metadata")
              .getAsJsonArray("ownerReferences")
              .get(0)
              .getAsJsonObject();
      assertThat(str(owner, "uid")).isEqualTo(str(created, "metadata", "uid"));
      assertThat(str(owner, "apiVersion")).isEqualTo("spark.apache.org/v1");
      assertThat(str(owner, "kind")).isEqualTo("SparkApplication");
      assertThat(
              str(
                  container(pod, DriverPodBuilder.DRIVER_CONTAINER),
                  "state",
                  "running",
                  "startedAt"))
          .isEqualTo(START.toString());
      assertThat(log("kj-pod-0-driver", DriverPodBuilder.DRIVER_CONTAINER)).contains("SparkPi");

      operator.moveTo(NS, "kj-pod", "driver-exited");
      JsonObject exited = OperatorTestSupport.pod(server, "kj-pod-0-driver").orElseThrow();
      JsonObject terminated =
          obj(container(exited, DriverPodBuilder.DRIVER_CONTAINER), "state", "terminated");
      assertThat(terminated.get("exitCode").getAsInt()).isZero();
      assertThat(str(terminated, "finishedAt")).isNotNull();
      assertThat(str(exited, "status", "phase")).isEqualTo("Succeeded");
      assertThat(state("kj-pod")).isEqualTo("RunningHealthy");
      assertThat(log("kj-pod-0-driver", DriverPodBuilder.DRIVER_CONTAINER))
          .contains(DriverLogs.PI_LINE);
    }

    @Test
    void deletingTheApplicationGarbageCollectsItsDriverPod() {
      submit("kj-gc", "OPERATOR_DOWN");
      JsonObject app = app("kj-gc");
      server
          .store()
          .create(
              ResourceType.POD,
              NS,
              DriverPodBuilder.apache("kj-gc", 0).namespace(NS).ownedBy(app).build());

      server.store().delete(operator.resourceType(), NS, "kj-gc");

      assertThat(OperatorTestSupport.pod(server, "kj-gc-0-driver")).isEmpty();
      assertThat(operator.step()).isFalse();
    }

    @Test
    void failedPathRecordsExitCodeOneAndReleases() throws ApiException {
      submit("kj-fail", "failed");

      operator.moveTo(NS, "kj-fail", "Failed");
      JsonObject status = app("kj-fail").getAsJsonObject("status");
      assertThat(str(status, "currentState", "message"))
          .isEqualTo(ApacheStatuses.defaultMessage("Failed"));
      JsonObject observed = obj(status, "currentState", "lastObservedDriverStatus");
      assertThat(str(observed, "phase")).isEqualTo("Failed");
      assertThat(log("kj-fail-0-driver", DriverPodBuilder.DRIVER_CONTAINER))
          .contains(DriverLogs.FAILURE_LINE);

      operator.runToEnd(NS, "kj-fail");
      assertThat(state("kj-fail")).isEqualTo("ResourceReleased");
      assertThat(OperatorTestSupport.pod(server, "kj-fail-0-driver")).isEmpty();
    }

    @Test
    void driverStartTimeoutLeavesThePodPendingThenTimesOut() {
      submit("kj-slow", "DRIVER_START_TIMEOUT");

      operator.moveTo(NS, "kj-slow", "DriverRequested");
      assertThat(
              str(
                  OperatorTestSupport.pod(server, "kj-slow-0-driver").orElseThrow(),
                  "status",
                  "phase"))
          .isEqualTo("Pending");
      operator.advance(NS, "kj-slow");
      assertThat(state("kj-slow")).isEqualTo("DriverStartTimedOut");
      operator.runToEnd(NS, "kj-slow");

      assertThat(historyInOrder(obj(app("kj-slow"), "status", "stateTransitionHistory")))
          .containsExactly(
              "Submitted", "DriverRequested", "DriverStartTimedOut", "ResourceReleased");
      assertThat(OperatorTestSupport.pod(server, "kj-slow-0-driver")).isEmpty();
    }

    @Test
    void restartMovesToAttemptOneWithTrimmedHistoryAndANewDriverPod() {
      submit("kj-retry", "RESTARTED_THEN_SUCCEEDED");

      operator.moveTo(NS, "kj-retry", "ScheduledToRestart");
      JsonObject status = app("kj-retry").getAsJsonObject("status");
      assertThat(str(status, "currentAttemptSummary", "attemptInfo", "id")).isEqualTo("1");
      assertThat(str(status, "currentAttemptSummary", "attemptInfo", "failureRestartCounter"))
          .isEqualTo("1");
      assertThat(historyInOrder(obj(status, "previousAttemptSummary", "stateTransitionHistory")))
          .containsExactly("Submitted", "DriverRequested", "DriverStarted", "Failed");
      assertThat(status.getAsJsonObject("stateTransitionHistory").keySet()).containsExactly("4");
      assertThat(OperatorTestSupport.pod(server, "kj-retry-0-driver")).isEmpty();

      operator.moveTo(NS, "kj-retry", "DriverRequested");
      assertThat(OperatorTestSupport.pod(server, "kj-retry-1-driver")).isPresent();
      operator.runToEnd(NS, "kj-retry");

      JsonObject end = app("kj-retry").getAsJsonObject("status");
      assertThat(historyInOrder(end.getAsJsonObject("stateTransitionHistory")))
          .containsExactly(
              "ScheduledToRestart",
              "DriverRequested",
              "DriverStarted",
              "DriverReady",
              "RunningHealthy",
              "Succeeded",
              "ResourceReleased");
    }

    @Test
    void untrimmedRestartKeepsOneHistoryWithKeysBeyondNine() {
      FakeSparkOperator untrimmed =
          FakeSparkOperator.builder(FakeSparkOperator.Flavor.APACHE, server)
              .trimHistoryOnRestart(false)
              .build();
      submit("kj-long", "RESTARTED_THEN_SUCCEEDED");

      untrimmed.runToEnd(NS, "kj-long");

      JsonObject history = obj(app("kj-long"), "status", "stateTransitionHistory");
      assertThat(history.keySet()).hasSize(11).contains("10");
      assertThat(historyInOrder(history).get(historyInOrder(history).size() - 1))
          .isEqualTo("ResourceReleased");
      assertThat(str(history, "9", "currentStateSummary")).isEqualTo("Succeeded");
      assertThat(str(history, "10", "currentStateSummary")).isEqualTo("ResourceReleased");
      assertThat(obj(app("kj-long"), "status", "previousAttemptSummary", "attemptInfo"))
          .isNotNull();
    }

    @Test
    void deletionWhileRunningWritesShutdownAsRequestedThenRemovesTheFinalizer() {
      submit("kj-cancel", null);
      operator.moveTo(NS, "kj-cancel", "RunningHealthy");

      server.store().delete(operator.resourceType(), NS, "kj-cancel");
      assertThat(str(app("kj-cancel"), "metadata", "deletionTimestamp")).isNotNull();

      assertThat(operator.step()).isTrue();
      JsonObject released = app("kj-cancel");
      assertThat(str(released, "status", "currentState", "currentStateSummary"))
          .isEqualTo("ResourceReleased");
      assertThat(str(released, "status", "currentState", "message"))
          .isEqualTo(ApacheStatuses.SHUTDOWN_AS_REQUESTED_MESSAGE);
      assertThat(OperatorTestSupport.pod(server, "kj-cancel-0-driver")).isEmpty();
      assertThat(finalizers(released)).containsExactly(ApacheStatuses.FINALIZER);

      assertThat(operator.step()).isTrue();
      assertThat(server.store().get(operator.resourceType(), NS, "kj-cancel")).isEmpty();
      assertThat(operator.step()).isFalse();
    }

    @Test
    void deletionAfterReleaseOnlyRemovesTheFinalizer() {
      submit("kj-done", null);
      operator.runToEnd(NS, "kj-done");
      String rv = str(app("kj-done"), "metadata", "resourceVersion");

      server.store().delete(operator.resourceType(), NS, "kj-done");
      assertThat(str(app("kj-done"), "status", "currentState", "currentStateSummary"))
          .isEqualTo("ResourceReleased");
      assertThat(str(app("kj-done"), "metadata", "resourceVersion")).isNotEqualTo(rv);
      operator.step();

      assertThat(server.store().get(operator.resourceType(), NS, "kj-done")).isEmpty();
    }

    @Test
    void moveToStopsExactlyAtTheNamedStateSoTestsCanScriptRaces() {
      submit("kj-race", null);
      operator.moveTo(NS, "kj-race", "RunningHealthy");
      JsonObject readByCancel = app("kj-race");

      operator.moveTo(NS, "kj-race", "Succeeded");

      assertThat(str(readByCancel, "status", "currentState", "currentStateSummary"))
          .isEqualTo("RunningHealthy");
      assertThat(state("kj-race")).isEqualTo("Succeeded");
      assertThat(operator.remainingTransitions(NS, "kj-race")).containsExactly("ResourceReleased");
      assertThat(Long.parseLong(str(app("kj-race"), "metadata", "resourceVersion")))
          .isGreaterThan(Long.parseLong(str(readByCancel, "metadata", "resourceVersion")));
    }

    @Test
    void moveToAStateOffThePathSaysWhatIsLeft() {
      submit("kj-off", "FAILED");
      operator.moveTo(NS, "kj-off", "RunningHealthy");

      assertThatThrownBy(() -> operator.moveTo(NS, "kj-off", "Succeeded"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("FAILED")
          .hasMessageContaining("[driver-exited, Failed, ResourceReleased]");
    }

    @Test
    void stepMovesEveryApplicationByOneTransition() {
      submit("kj-a", null);
      submit("kj-b", "OPERATOR_DOWN");
      submit("kj-c", "FAILED");

      operator.step();
      operator.step();

      assertThat(state("kj-a")).isEqualTo("Submitted");
      assertThat(app("kj-b").has("status")).isFalse();
      assertThat(state("kj-c")).isEqualTo("Submitted");
      assertThat(operator.stepUntilSettled()).isEqualTo(7);
    }

    @Test
    void anUnknownPathLabelIsRefusedLoudly() {
      submit("kj-typo", "HAPPPY");

      assertThatThrownBy(() -> operator.step())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(FakeSparkOperator.PATH_LABEL)
          .hasMessageContaining("HAPPPY");
    }

    @Test
    void sidecarLabelAddsASecondContainerWithItsOwnLog() throws ApiException {
      JsonObject manifest =
          ApacheFixtures.noStatus()
              .name("kj-side")
              .namespace(NS)
              .label(FakeSparkOperator.SIDECAR_LABEL, "true")
              .build();
      server.store().create(operator.resourceType(), NS, manifest);

      operator.moveTo(NS, "kj-side", "driver-exited");

      JsonObject pod = OperatorTestSupport.pod(server, "kj-side-0-driver").orElseThrow();
      assertThat(pod.getAsJsonObject("spec").getAsJsonArray("containers")).hasSize(2);
      assertThat(str(pod, "status", "phase")).isEqualTo("Running");
      assertThat(log("kj-side-0-driver", DriverPodBuilder.SIDECAR_CONTAINER))
          .contains(DriverLogs.SIDECAR_LINE);
      assertThat(log("kj-side-0-driver", DriverPodBuilder.DRIVER_CONTAINER))
          .contains(DriverLogs.PI_LINE);
      operator.advance(NS, "kj-side");
      assertThat(str(app("kj-side"), "status", "currentState", "message"))
          .isEqualTo(ApacheStatuses.DRIVER_EXITED_ZERO_MESSAGE);
      assertThat(str(app("kj-side"), "status", "currentState", "lastObservedDriverStatus", "phase"))
          .isEqualTo("Running");
    }

    @Test
    void v1beta1OperatorWritesOnlyTheAttemptId() {
      FakeSparkOperator beta =
          FakeSparkOperator.builder(FakeSparkOperator.Flavor.APACHE, server)
              .version("v1beta1")
              .build();
      JsonObject manifest =
          ApacheFixtures.noStatus().version("v1beta1").name("kj-beta").namespace(NS).build();
      server.store().create(beta.resourceType(), NS, manifest);

      beta.moveTo(NS, "kj-beta", "Submitted");

      JsonObject app = server.store().get(beta.resourceType(), NS, "kj-beta").orElseThrow();
      assertThat(beta.resourceType().version()).isEqualTo("v1beta1");
      assertThat(obj(app, "status", "currentAttemptSummary", "attemptInfo").keySet())
          .containsExactly("id");
    }

    @Test
    void applicationsSubmittedOverHttpAreDrivenAndReadableOverHttp() throws ApiException {
      CustomObjectsApi api = new CustomObjectsApi(server.newClient());
      JsonObject manifest = ApacheFixtures.noStatus().name("kj-http").namespace(NS).build();
      manifest.getAsJsonObject("metadata").remove("uid");
      manifest.getAsJsonObject("metadata").remove("resourceVersion");
      manifest.getAsJsonObject("metadata").remove("creationTimestamp");
      Gson gson = new Gson();
      api.createNamespacedCustomObject(
              "spark.apache.org", "v1", NS, "sparkapplications", gson.fromJson(manifest, Map.class))
          .execute();

      operator.runToEnd(NS, "kj-http");

      Object read =
          api.getNamespacedCustomObject(
                  "spark.apache.org", "v1", NS, "sparkapplications", "kj-http")
              .execute();
      JsonObject json = gson.toJsonTree(read).getAsJsonObject();
      assertThat(str(json, "status", "currentState", "currentStateSummary"))
          .isEqualTo("ResourceReleased");
    }
  }

  /**
   * The Kubeflow operator's own behaviour: its status fields, its retry states, an application with
   * an empty state, and deletion without a finalizer.
   */
  @Nested
  class Kubeflow {
    @BeforeEach
    void startTheOperator() {
      start(Operator.KUBEFLOW);
    }

    private JsonObject submit(String name, String path) {
      return FakeSparkOperatorTest.this.submit(Operator.KUBEFLOW, name, path);
    }

    private String state(String name) {
      return Operator.KUBEFLOW.state(app(name));
    }

    private List<String> runRecordingStates(String name) {
      List<String> seen = new ArrayList<>();
      while (operator.advance(NS, name)) {
        clock.advance(Duration.ofSeconds(1));
        seen.add(state(name));
      }
      return seen;
    }

    @Test
    void newStateApplicationIsDrivenButOneWithAStatusIsLeftAlone() {
      JsonObject fresh = KubeflowFixtures.inState("").name("kj-empty").namespace(NS).build();
      server.store().create(operator.resourceType(), NS, fresh);
      server
          .store()
          .create(
              operator.resourceType(),
              NS,
              KubeflowFixtures.inState("RUNNING").namespace(NS).build());

      operator.step();

      assertThat(state("kj-empty")).isEqualTo("SUBMITTED");
      assertThat(state(Fixtures.DEFAULT_NAME)).isEqualTo("RUNNING");
      assertThat(operator.remainingTransitions(NS, Fixtures.DEFAULT_NAME)).isEmpty();
    }

    @Test
    void happyPathWritesTheOperatorsStatusFieldsStepByStep() throws ApiException {
      JsonObject created = submit("kj-happy", null);

      assertThat(operator.advance(NS, "kj-happy")).isTrue();
      JsonObject submitted = app("kj-happy").getAsJsonObject("status");
      assertThat(str(submitted, "applicationState", "state")).isEqualTo("SUBMITTED");
      assertThat(str(submitted, "driverInfo", "podName")).isEqualTo("kj-happy-driver");
      assertThat(str(submitted, "lastSubmissionAttemptTime")).isEqualTo("2026-03-01T10:00:00Z");
      assertThat(submitted.get("terminationTime").isJsonNull()).isTrue();
      assertThat(submitted.get("submissionAttempts").getAsInt()).isEqualTo(1);
      assertThat(
              str(
                  OperatorTestSupport.pod(server, "kj-happy-driver").orElseThrow(),
                  "status",
                  "phase"))
          .isEqualTo("Pending");

      clock.advance(Duration.ofSeconds(5));
      assertThat(runRecordingStates("kj-happy"))
          .containsExactly("RUNNING", "RUNNING", "SUCCEEDING", "COMPLETED");

      JsonObject status = app("kj-happy").getAsJsonObject("status");
      assertThat(str(status, "sparkApplicationId")).startsWith("spark-");
      assertThat(str(status, "driverInfo", "webUIAddress")).isEqualTo("10.96.0.42:4040");
      assertThat(str(status, "driverInfo", "webUIServiceName")).isEqualTo("kj-happy-ui-svc");
      assertThat(str(status, "terminationTime")).isEqualTo("2026-03-01T10:00:07Z");
      assertThat(obj(status, "executorState").entrySet()).hasSize(1);
      assertThat(finalizers(app("kj-happy"))).isEmpty();

      JsonObject pod = OperatorTestSupport.pod(server, "kj-happy-driver").orElseThrow();
      assertThat(str(pod, "metadata", "labels", KubeflowStatuses.APP_NAME_LABEL))
          .isEqualTo("kj-happy");
      assertThat(str(pod, "metadata", "labels", "spark-role")).isEqualTo("driver");
      assertThat(str(pod, "metadata", "labels", Fixtures.JOB_ID_LABEL))
          .isEqualTo(Fixtures.DEFAULT_JOB_ID);
      assertThat(str(pod, "metadata", "labels", KubeflowStatuses.SUBMISSION_ID_LABEL))
          .isEqualTo(str(status, "submissionID"));
      JsonObject owner =
          pod.getAsJsonObject("metadata")
              .getAsJsonArray("ownerReferences")
              .get(0)
              .getAsJsonObject();
      assertThat(str(owner, "uid")).isEqualTo(str(created, "metadata", "uid"));
      assertThat(owner.get("controller").getAsBoolean()).isTrue();
      assertThat(
              obj(container(pod, DriverPodBuilder.DRIVER_CONTAINER), "state", "terminated")
                  .get("exitCode")
                  .getAsInt())
          .isZero();
      assertThat(log("kj-happy-driver", DriverPodBuilder.DRIVER_CONTAINER))
          .contains(DriverLogs.PI_LINE);
    }

    @Test
    void failedPathEndsFailedWithTheDriversExitCodeInTheMessage() {
      submit("kj-fail", "FAILED");

      operator.moveTo(NS, "kj-fail", "FAILING");
      assertThat(str(app("kj-fail"), "status", "applicationState", "errorMessage"))
          .isEqualTo(KubeflowStatuses.DRIVER_FAILED_MESSAGE);
      operator.runToEnd(NS, "kj-fail");

      assertThat(state("kj-fail")).isEqualTo("FAILED");
      assertThat(
              str(
                  OperatorTestSupport.pod(server, "kj-fail-driver").orElseThrow(),
                  "status",
                  "phase"))
          .isEqualTo("Failed");
    }

    @Test
    void driverStartTimeoutFailsWithDriverPodNotFound() {
      submit("kj-slow", "DRIVER_START_TIMEOUT");

      operator.moveTo(NS, "kj-slow", "SUBMITTED");
      assertThat(OperatorTestSupport.pod(server, "kj-slow-driver")).isEmpty();
      operator.runToEnd(NS, "kj-slow");

      assertThat(state("kj-slow")).isEqualTo("FAILED");
      assertThat(str(app("kj-slow"), "status", "applicationState", "errorMessage"))
          .isEqualTo(KubeflowStatuses.DRIVER_NOT_FOUND_MESSAGE);
    }

    @Test
    void restartGoesThroughPendingRerunAndASecondSubmission() {
      submit("kj-retry", "RESTARTED_THEN_SUCCEEDED");

      operator.moveTo(NS, "kj-retry", "PENDING_RERUN");
      JsonObject rerun = app("kj-retry").getAsJsonObject("status");
      assertThat(obj(rerun, "driverInfo").size()).isZero();
      assertThat(rerun.has("sparkApplicationId")).isFalse();
      assertThat(rerun.get("terminationTime").isJsonNull()).isTrue();
      assertThat(OperatorTestSupport.pod(server, "kj-retry-driver")).isEmpty();

      operator.moveTo(NS, "kj-retry", "SUBMITTED");
      assertThat(app("kj-retry").getAsJsonObject("status").get("submissionAttempts").getAsInt())
          .isEqualTo(2);
      operator.runToEnd(NS, "kj-retry");

      assertThat(state("kj-retry")).isEqualTo("COMPLETED");
      assertThat(app("kj-retry").getAsJsonObject("status").get("executionAttempts").getAsInt())
          .isEqualTo(2);
    }

    @Test
    void deletionRemovesTheApplicationAtOnceAndGarbageCollectsTheDriverPod() {
      submit("kj-cancel", null);
      operator.moveTo(NS, "kj-cancel", "RUNNING");

      server.store().delete(operator.resourceType(), NS, "kj-cancel");

      assertThat(server.store().get(operator.resourceType(), NS, "kj-cancel")).isEmpty();
      assertThat(OperatorTestSupport.pod(server, "kj-cancel-driver")).isEmpty();
      assertThat(operator.step()).isFalse();
    }

    @Test
    void foregroundDeletionMakesTheOperatorDeleteTheDriverPod() {
      submit("kj-fg", null);
      operator.moveTo(NS, "kj-fg", "RUNNING");
      server
          .store()
          .update(
              operator.resourceType(),
              NS,
              "kj-fg",
              a -> {
                com.google.gson.JsonArray f = new com.google.gson.JsonArray();
                f.add(KubeflowFixtures.FOREGROUND_DELETION_FINALIZER);
                a.getAsJsonObject("metadata").add("finalizers", f);
                return a;
              });
      server.store().delete(operator.resourceType(), NS, "kj-fg");

      assertThat(operator.step()).isTrue();

      assertThat(OperatorTestSupport.pod(server, "kj-fg-driver")).isEmpty();
      assertThat(state("kj-fg")).isEqualTo("RUNNING");
      assertThat(operator.step()).isFalse();
    }
  }
}
