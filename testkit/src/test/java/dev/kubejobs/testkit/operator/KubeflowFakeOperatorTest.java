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
import static dev.kubejobs.testkit.operator.OperatorTestSupport.obj;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.str;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.DriverLogs;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import dev.kubejobs.testkit.fixtures.Fixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KubeflowFakeOperatorTest {

  private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

  private MutableClock clock;
  private FakeKubernetesApiServer server;
  private FakeSparkOperator operator;

  @BeforeEach
  void setUp() {
    clock = MutableClock.at(START);
    server = FakeKubernetesApiServer.builder().clock(clock).build();
    operator = FakeSparkOperator.kubeflow(server);
  }

  @AfterEach
  void tearDown() {
    operator.close();
    server.close();
  }

  private JsonObject submit(String name, String path) {
    var b = KubeflowFixtures.noStatus().name(name).namespace(NS);
    if (path != null) {
      b.label(FakeSparkOperator.PATH_LABEL, path);
    }
    return server.store().create(operator.resourceType(), NS, b.build());
  }

  private JsonObject app(String name) {
    return OperatorTestSupport.app(server, operator, name);
  }

  private String state(String name) {
    return str(app(name), "status", "applicationState", "state");
  }

  private List<String> runRecordingStates(String name) {
    List<String> seen = new ArrayList<>();
    while (operator.advance(NS, name)) {
      clock.advance(Duration.ofSeconds(1));
      seen.add(state(name));
    }
    return seen;
  }

  private String log(String pod, String container) throws ApiException {
    return new CoreV1Api(server.newClient())
        .readNamespacedPodLog(pod, NS)
        .container(container)
        .execute();
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
        pod.getAsJsonObject("metadata").getAsJsonArray("ownerReferences").get(0).getAsJsonObject();
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
            str(OperatorTestSupport.pod(server, "kj-fail-driver").orElseThrow(), "status", "phase"))
        .isEqualTo("Failed");
  }

  @Test
  void retainedOnFailureIsTheFailedPathKeepingThePod() {
    submit("kj-keep", "RETAINED_ON_FAILURE");

    operator.runToEnd(NS, "kj-keep");

    assertThat(state("kj-keep")).isEqualTo("FAILED");
    assertThat(OperatorTestSupport.pod(server, "kj-keep-driver")).isPresent();
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
  void operatorDownNeverWritesAStatus() {
    submit("kj-down", "OPERATOR_DOWN");

    assertThat(operator.stepUntilSettled()).isZero();

    assertThat(app("kj-down").has("status")).isFalse();
    assertThat(server.store().list(ResourceType.POD, NS)).isEmpty();
  }

  @Test
  void unparseableStatusIsWrittenAsIs() {
    submit("kj-odd", "UNPARSEABLE_STATUS");

    operator.runToEnd(NS, "kj-odd");

    assertThat(app("kj-odd").getAsJsonObject("status").toString())
        .isEqualTo("{\"phase\":\"Running\"}");
    assertThat(
            str(OperatorTestSupport.pod(server, "kj-odd-driver").orElseThrow(), "status", "phase"))
        .isEqualTo("Succeeded");
  }

  @Test
  void newerStatePassesThroughAnUnknownStateThenCompletes() {
    submit("kj-new", "NEWER_STATE");

    operator.moveTo(NS, "kj-new", KubeflowFixtures.NEWER_STATE);
    assertThat(state("kj-new")).isEqualTo("RUNNING_WITH_QUANTUM_EXECUTORS");
    operator.runToEnd(NS, "kj-new");

    assertThat(state("kj-new")).isEqualTo("COMPLETED");
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

  @Test
  void newStateApplicationIsDrivenButOneWithAStatusIsLeftAlone() {
    JsonObject fresh = KubeflowFixtures.inState("").name("kj-empty").namespace(NS).build();
    server.store().create(operator.resourceType(), NS, fresh);
    server
        .store()
        .create(
            operator.resourceType(), NS, KubeflowFixtures.inState("RUNNING").namespace(NS).build());

    operator.step();

    assertThat(state("kj-empty")).isEqualTo("SUBMITTED");
    assertThat(state(Fixtures.DEFAULT_NAME)).isEqualTo("RUNNING");
    assertThat(operator.remainingTransitions(NS, Fixtures.DEFAULT_NAME)).isEmpty();
  }
}
