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
import static dev.kubejobs.testkit.operator.OperatorTestSupport.historyInOrder;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.obj;
import static dev.kubejobs.testkit.operator.OperatorTestSupport.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A driver that cannot start, or is killed, under each fake operator: the pod, the Events and the
 * operator's status as the real components leave them.
 *
 * <p>Sources read:
 *
 * <ul>
 *   <li>apache/spark-kubernetes-operator at d5acafd24a0cd9cf225026bbdbcb0775d73ffe8f: {@code
 *       spark-operator/.../reconciler/observers/AppDriverTimeoutObserver.java} ({@code
 *       DriverRequested} goes to {@code DriverStartTimedOut} after {@code
 *       driverStartTimeoutMillis}, with {@code lastObservedDriverStatus} = the driver pod's
 *       status), {@code spark-operator-api/.../Constants.java} {@code
 *       DRIVER_LAUNCH_TIMEOUT_MESSAGE}, {@code .../reconcilesteps/AppCleanUpStep.java} (the driver
 *       pod deleted, then {@code ResourceReleased}); the operator records no Events.
 *   <li>kubeflow/spark-operator v2.5.2 (43afb8bbd32463037d8fb6e414e252c69081882b): {@code
 *       pkg/util/sparkapplication.go} {@code DriverStateToApplicationState} maps a {@code Pending}
 *       driver to {@code SUBMITTED}; {@code internal/controller/sparkapplication/controller.go}
 *       {@code updateDriverState} records a driver event only when that state changes (so none
 *       while it stays {@code SUBMITTED}), {@code submitSparkApplication} records {@code Normal
 *       SparkApplicationSubmitted "SparkApplication %s was submitted successfully"}, and the error
 *       message {@code "driver container failed with ExitCode: %d, Reason: %s"}; {@code
 *       cmd/operator/controller/start.go} names the recorder {@code spark-application-controller}.
 *   <li>kubernetes/kubernetes: {@code pkg/kubelet/images/image_manager.go} (commit
 *       00a3928bde544dbb4fd046bb78439178ec37fb5a: {@code "Pulling image %q"}, {@code "Failed to
 *       pull image %q: %v"}, {@code "Back-off pulling image %q"}), {@code
 *       pkg/kubelet/kuberuntime/kuberuntime_container.go} {@code startContainer} ({@code Warning
 *       Failed "Error: %v"}), {@code pkg/scheduler/schedule_one.go} ({@code Eventf(pod, nil,
 *       Warning, "FailedScheduling", "Scheduling", msg)} through {@code events.k8s.io}, and the
 *       {@code PodScheduled=False} condition with the same message).
 * </ul>
 */
class DriverTroubleTest {

  private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

  private final MutableClock clock = MutableClock.at(START);
  private final FakeKubernetesApiServer server =
      FakeKubernetesApiServer.builder().clock(clock).build();
  private FakeSparkOperator operator;

  @AfterEach
  void tearDown() {
    if (operator != null) {
      operator.close();
    }
    server.close();
  }

  // ---- Apache ----

  @Test
  void apacheImagePullStaysDriverRequestedThenTimesOutWithTheStuckPodObserved() {
    operator = FakeSparkOperator.apache(server);
    operator.driverTrouble(NS, "kj-img", DriverTrouble.imagePull());
    submitApache("kj-img", null);

    operator.moveTo(NS, "kj-img", "DriverRequested");

    JsonObject pod = pod("kj-img-0-driver").orElseThrow();
    assertThat(str(pod, "status", "phase")).isEqualTo("Pending");
    JsonObject driver = container(pod, DriverPodBuilder.DRIVER_CONTAINER);
    assertThat(str(driver, "image")).isEqualTo("apache/spark:4.0.1-typo");
    assertThat(str(driver, "state", "waiting", "reason")).isEqualTo("ImagePullBackOff");
    assertThat(str(driver, "state", "waiting", "message"))
        .isEqualTo("Back-off pulling image \"apache/spark:4.0.1-typo\"");
    List<CoreV1Event> events = eventsAbout("kj-img-0-driver");
    assertThat(events)
        .extracting(e -> e.getType() + " " + e.getReason() + " " + e.getMessage())
        .contains(
            "Normal Pulling Pulling image \"apache/spark:4.0.1-typo\"",
            "Warning Failed Error: ErrImagePull",
            "Normal BackOff Back-off pulling image \"apache/spark:4.0.1-typo\"",
            "Warning Failed Error: ImagePullBackOff")
        .anySatisfy(
            e ->
                assertThat(e)
                    .startsWith("Warning Failed Failed to pull image \"apache/spark:4.0.1-typo\": ")
                    .endsWith(": not found"));
    assertThat(events)
        .filteredOn(e -> "BackOff".equals(e.getReason()))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getCount()).isEqualTo(1);
              assertThat(e.getSource().getComponent()).isEqualTo("kubelet");
              assertThat(e.getInvolvedObject().getUid()).isEqualTo(str(pod, "metadata", "uid"));
            });
    assertThat(state("kj-img")).isEqualTo("DriverRequested");

    clock.advance(Duration.ofSeconds(30));
    operator.advance(NS, "kj-img"); // the kubelet tries again
    assertThat(state("kj-img")).isEqualTo("DriverRequested");
    assertThat(eventsAbout("kj-img-0-driver"))
        .filteredOn(e -> "BackOff".equals(e.getReason()))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getCount()).isEqualTo(2);
              assertThat(e.getFirstTimestamp().toInstant()).isEqualTo(START);
              assertThat(e.getLastTimestamp().toInstant()).isEqualTo(START.plusSeconds(30));
            });

    operator.advance(NS, "kj-img");
    JsonObject current = obj(app("kj-img"), "status", "currentState");
    assertThat(str(current, "currentStateSummary")).isEqualTo("DriverStartTimedOut");
    assertThat(str(current, "message"))
        .isEqualTo(
            "The driver has not responded to the initial health check request within the"
                + " allotted start-up time. This can be configured by setting"
                + " .spec.applicationTolerations.applicationTimeoutConfig.");
    JsonObject observed = obj(current, "lastObservedDriverStatus");
    assertThat(observed).isNotNull();
    assertThat(
            observed.getAsJsonArray("containerStatuses").asList().stream()
                .map(JsonElement::getAsJsonObject)
                .map(c -> str(c, "state", "waiting", "reason")))
        .containsExactly("ImagePullBackOff");

    operator.runToEnd(NS, "kj-img");
    assertThat(historyInOrder(obj(app("kj-img"), "status", "stateTransitionHistory")))
        .containsExactly("Submitted", "DriverRequested", "DriverStartTimedOut", "ResourceReleased");
    assertThat(pod("kj-img-0-driver")).isEmpty();
  }

  @Test
  void apacheUnschedulableDriverHasTheSchedulersConditionAndEventInTheEventsApiShape() {
    operator = FakeSparkOperator.apache(server);
    submitApache("kj-big", "unschedulable");

    operator.moveTo(NS, "kj-big", "DriverRequested");
    clock.advance(Duration.ofSeconds(45));
    operator.advance(NS, "kj-big"); // the scheduler tries again

    JsonObject pod = pod("kj-big-0-driver").orElseThrow();
    JsonObject scheduled =
        pod.getAsJsonObject("status").getAsJsonArray("conditions").get(0).getAsJsonObject();
    assertThat(str(scheduled, "type")).isEqualTo("PodScheduled");
    assertThat(str(scheduled, "status")).isEqualTo("False");
    assertThat(str(scheduled, "reason")).isEqualTo("Unschedulable");
    assertThat(str(scheduled, "message")).isEqualTo(DriverTrouble.DEFAULT_SCHEDULER_MESSAGE);
    CoreV1Event failed = eventsAbout("kj-big-0-driver").get(0);
    assertThat(failed.getType()).isEqualTo("Warning");
    assertThat(failed.getReason()).isEqualTo("FailedScheduling");
    assertThat(failed.getMessage()).isEqualTo(DriverTrouble.DEFAULT_SCHEDULER_MESSAGE);
    assertThat(failed.getFirstTimestamp()).isNull();
    assertThat(failed.getEventTime().toInstant()).isEqualTo(START);
    assertThat(failed.getSeries().getCount()).isEqualTo(2);
    assertThat(failed.getSeries().getLastObservedTime().toInstant())
        .isEqualTo(START.plusSeconds(45));
    assertThat(failed.getReportingComponent()).isEqualTo("default-scheduler");
    assertThat(eventsAbout("kj-big-0-driver")).hasSize(1); // never scheduled, no kubelet events

    operator.runToEnd(NS, "kj-big");
    assertThat(historyInOrder(obj(app("kj-big"), "status", "stateTransitionHistory")))
        .containsExactly("Submitted", "DriverRequested", "DriverStartTimedOut", "ResourceReleased");
  }

  @Test
  void apacheConfigErrorWaitsInCreateContainerConfigErrorWithTheKubeletsEvent() {
    operator = FakeSparkOperator.apache(server);
    operator.driverTrouble(
        NS, "kj-cfg", DriverTrouble.configError("couldn't find key password in Secret jobs/db"));
    submitApache("kj-cfg", null);

    operator.moveTo(NS, "kj-cfg", "DriverRequested");

    JsonObject driver =
        container(pod("kj-cfg-0-driver").orElseThrow(), DriverPodBuilder.DRIVER_CONTAINER);
    assertThat(str(driver, "state", "waiting", "reason")).isEqualTo("CreateContainerConfigError");
    assertThat(str(driver, "state", "waiting", "message"))
        .isEqualTo("couldn't find key password in Secret jobs/db");
    assertThat(eventsAbout("kj-cfg-0-driver"))
        .extracting(e -> e.getReason() + " " + e.getMessage())
        .containsExactlyInAnyOrder(
            "Scheduled Successfully assigned jobs/kj-cfg-0-driver to node-1",
            "Failed Error: couldn't find key password in Secret jobs/db");
  }

  @Test
  void apacheOomKilledFailsWithTheKilledDriverObserved() {
    operator = FakeSparkOperator.apache(server);
    operator.driverTrouble(NS, "kj-oom", DriverTrouble.oomKilled());
    submitApache("kj-oom", null);

    operator.moveTo(NS, "kj-oom", "Failed");

    JsonObject failed = obj(app("kj-oom"), "status", "currentState");
    JsonObject observed = obj(failed, "lastObservedDriverStatus");
    JsonObject terminated =
        observed.getAsJsonArray("containerStatuses").asList().stream()
            .map(JsonElement::getAsJsonObject)
            .filter(c -> DriverPodBuilder.DRIVER_CONTAINER.equals(str(c, "name")))
            .findFirst()
            .map(c -> obj(c, "state", "terminated"))
            .orElseThrow();
    assertThat(str(terminated, "reason")).isEqualTo("OOMKilled");
    assertThat(terminated.get("exitCode").getAsInt()).isEqualTo(137);
    assertThat(eventsAbout("kj-oom-0-driver")).isEmpty(); // the kubelet records none for it
  }

  @Test
  void apacheQuotaRefusalIsASchedulingFailureWithTheStackTraceAndNoPod() {
    operator = FakeSparkOperator.apache(server);
    submitApache("kj-q", "quota-exceeded");

    operator.runToEnd(NS, "kj-q");

    JsonObject app = app("kj-q");
    assertThat(pod("kj-q-0-driver")).isEmpty();
    String failure =
        app.getAsJsonObject("status").getAsJsonObject("stateTransitionHistory").entrySet().stream()
            .map(e -> e.getValue().getAsJsonObject())
            .filter(st -> "SchedulingFailure".equals(str(st, "currentStateSummary")))
            .map(st -> str(st, "message"))
            .findFirst()
            .orElseThrow();
    assertThat(failure)
        .startsWith("Failed to request driver from scheduler backend. StackTrace: ")
        .contains(
            "pods \"kj-q-0-driver\" is forbidden: exceeded quota: "
                + DriverTrouble.DEFAULT_QUOTA
                + ", requested: ");
  }

  @Test
  void kubeflowWebhookDenialIsAFailedSubmissionWithItsEventAndNoPod() {
    operator = FakeSparkOperator.kubeflow(server);
    submitKubeflow("den", "admission-denied");

    operator.stepUntilSettled();

    JsonObject app = app("den");
    assertThat(str(app, "status", "applicationState", "state")).isEqualTo("FAILED");
    assertThat(str(app, "status", "applicationState", "errorMessage"))
        .startsWith("failed to run spark-submit: failed to run spark-submit: Exception in thread")
        .contains(
            "admission webhook \""
                + DriverTrouble.DEFAULT_WEBHOOK
                + "\" denied the request: "
                + DriverTrouble.DEFAULT_DENIAL);
    assertThat(pod("den-driver")).isEmpty();
    assertThat(eventsAbout("den"))
        .extracting(CoreV1Event::getReason)
        .contains("SparkApplicationSubmissionFailed");
  }

  // ---- Kubeflow ----

  @Test
  void kubeflowImagePullStaysSubmittedForEverAndRecordsOnlyTheSubmission() {
    operator = FakeSparkOperator.kubeflow(server);
    submitKubeflow("img", "image-pull");

    operator.stepUntilSettled();

    JsonObject app = app("img");
    assertThat(str(app, "status", "applicationState", "state")).isEqualTo("SUBMITTED");
    assertThat(operator.remainingTransitions(NS, "img")).isEmpty();
    JsonObject driver =
        container(pod("img-driver").orElseThrow(), DriverPodBuilder.DRIVER_CONTAINER);
    assertThat(str(driver, "state", "waiting", "reason")).isEqualTo("ImagePullBackOff");
    List<CoreV1Event> aboutApp = eventsAbout("img");
    assertThat(aboutApp)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getInvolvedObject().getKind()).isEqualTo("SparkApplication");
              assertThat(e.getType()).isEqualTo("Normal");
              assertThat(e.getReason()).isEqualTo("SparkApplicationSubmitted");
              assertThat(e.getMessage())
                  .isEqualTo("SparkApplication img was submitted successfully");
              assertThat(e.getSource().getComponent()).isEqualTo("spark-application-controller");
            });
    assertThat(eventsAbout("img-driver"))
        .extracting(CoreV1Event::getReason)
        .contains("Pulling", "Failed", "BackOff");
  }

  @Test
  void kubeflowOomKilledFailsWithTheOperatorsErrorMessageAndEvents() {
    operator = FakeSparkOperator.kubeflow(server);
    operator.driverTrouble(NS, "oom", DriverTrouble.oomKilled());
    submitKubeflow("oom", null);

    operator.runToEnd(NS, "oom");

    JsonObject state = obj(app("oom"), "status", "applicationState");
    assertThat(str(state, "state")).isEqualTo("FAILED");
    assertThat(str(state, "errorMessage"))
        .isEqualTo("driver container failed with ExitCode: 137, Reason: OOMKilled");
    assertThat(eventsAbout("oom"))
        .extracting(e -> e.getType() + " " + e.getReason() + " " + e.getMessage())
        .containsExactlyInAnyOrder(
            "Normal SparkApplicationSubmitted SparkApplication oom was submitted successfully",
            "Normal SparkDriverRunning Driver oom-driver is running",
            "Warning SparkDriverFailed Driver oom-driver failed",
            "Warning SparkApplicationFailed SparkApplication oom failed: driver container failed"
                + " with ExitCode: 137, Reason: OOMKilled");
  }

  // ---- choosing ----

  @Test
  void aTroubleChosenAfterTheFirstStepIsRefused() {
    operator = FakeSparkOperator.apache(server);
    submitApache("kj-late", null);
    operator.advance(NS, "kj-late");

    assertThatThrownBy(() -> operator.driverTrouble(NS, "kj-late", DriverTrouble.imagePull()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("before stepping");
  }

  @Test
  void aTroubleLabelMustNameAKind() {
    assertThat(DriverTrouble.parse("Config_Error")).isEqualTo(DriverTrouble.configError());
    assertThat(DriverTrouble.parse("quota-exceeded")).isEqualTo(DriverTrouble.quotaExceeded());
    assertThat(DriverTrouble.parse("admission-denied")).isEqualTo(DriverTrouble.admissionDenied());
    assertThatThrownBy(() -> DriverTrouble.parse("slow"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "testkit.kubejobs.dev/driver-trouble must be one of [image-pull, unschedulable,"
                + " config-error, oom-killed, quota-exceeded, admission-denied,"
                + " webhook-unreachable, forbidden-by-rbac, executor-oom-killed,"
                + " executors-unschedulable, node-lost], but was 'slow'");
    assertThat(DriverTrouble.parse("node-lost")).isEqualTo(DriverTrouble.nodeLost());
    assertThat(DriverTrouble.parse("forbidden-by-rbac")).isEqualTo(DriverTrouble.forbiddenByRbac());
    assertThatThrownBy(() -> DriverTrouble.imagePull(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("image");
  }

  // ---- troubles after the driver runs, and the other refusals ----

  /**
   * The RBAC and unreachable-webhook refusals in the API server's words: {@code forbiddenMessage}
   * (kubernetes {@code staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/
   * errors.go}) and {@code ErrCallingWebhook} wrapped by {@code NewInternalError}.
   */
  @Test
  void rbacAndUnreachableWebhookRefusalsAreFailedSubmissionsInTheApiServersWords() {
    operator = FakeSparkOperator.kubeflow(server);
    submitKubeflow("rbac", "forbidden-by-rbac");
    submitKubeflow("hook", "webhook-unreachable");

    operator.stepUntilSettled();

    assertThat(str(app("rbac"), "status", "applicationState", "errorMessage"))
        .contains(
            "pods \"rbac-driver\" is forbidden: User \""
                + DriverTrouble.DEFAULT_USER
                + "\" cannot create resource \"pods\" in API group \"\" in the namespace \""
                + NS
                + "\"")
        .contains("code=403");
    assertThat(str(app("hook"), "status", "applicationState", "errorMessage"))
        .contains(
            "Internal error occurred: failed calling webhook \""
                + DriverTrouble.DEFAULT_UNREACHABLE_WEBHOOK
                + "\": failed to call webhook: Post ")
        .contains("connect: connection refused")
        .contains("code=500");
    assertThat(pod("rbac-driver")).isEmpty();
  }

  @Test
  void kubeflowExecutorOomKilledRecordsTheExecutorFailedThenTheDriverFails() {
    operator = FakeSparkOperator.kubeflow(server);
    submitKubeflow("eoom", "executor-oom-killed");

    operator.moveTo(NS, "eoom", "executor-oom-killed");

    JsonObject app = app("eoom");
    assertThat(str(app, "status", "applicationState", "state")).isEqualTo("RUNNING");
    assertThat(str(app, "status", "executorState", "eoom-exec-1")).isEqualTo("FAILED");
    JsonObject executor = pod("eoom-exec-1").orElseThrow();
    assertThat(str(executor, "metadata", "labels", "spark-role")).isEqualTo("executor");
    assertThat(
            executor
                .getAsJsonObject("metadata")
                .getAsJsonArray("ownerReferences")
                .get(0)
                .getAsJsonObject()
                .get("name")
                .getAsString())
        .as("owned by the driver pod")
        .isEqualTo("eoom-driver");
    JsonObject terminated =
        obj(container(executor, DriverPodBuilder.DRIVER_CONTAINER), "state", "terminated");
    assertThat(str(terminated, "reason")).isEqualTo("OOMKilled");
    assertThat(terminated.get("exitCode").getAsInt()).isEqualTo(137);
    assertThat(eventsAbout("eoom"))
        .extracting(CoreV1Event::getMessage)
        .contains(
            "Executor eoom-exec-1 failed with ExitCode: 137, Reason: OOMKilled, Pod Message: ");

    operator.runToEnd(NS, "eoom");

    assertThat(str(app("eoom"), "status", "applicationState", "state")).isEqualTo("FAILED");
  }

  @Test
  void apacheExecutorsThatCannotBeScheduledTimeOutAndLeaveOnlyTheirEvents() {
    operator = FakeSparkOperator.apache(server);
    submitApache("kj-ex", "executors-unschedulable");

    operator.moveTo(NS, "kj-ex", "executors-unschedulable");

    assertThat(state("kj-ex")).isEqualTo("InitializedBelowThresholdExecutors");
    assertThat(pod("kj-ex-0-exec-1")).isPresent();
    assertThat(pod("kj-ex-0-exec-2")).isPresent();

    operator.runToEnd(NS, "kj-ex");

    assertThat(historyInOrder(obj(app("kj-ex"), "status", "stateTransitionHistory")))
        .containsSubsequence("ExecutorsStartTimedOut", "ResourceReleased");
    assertThat(pod("kj-ex-0-exec-1")).isEmpty();
    assertThat(pod("kj-ex-0-driver")).isEmpty();
    assertThat(eventsAbout("kj-ex-0-exec-1"))
        .extracting(CoreV1Event::getReason, CoreV1Event::getMessage)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "FailedScheduling", DriverTrouble.DEFAULT_EXECUTOR_SCHEDULER_MESSAGE));
  }

  @Test
  void aLostNodeDeletesTheDriverPodAndEachOperatorFailsAsItDoes() {
    operator = FakeSparkOperator.apache(server);
    submitApache("kj-lost", "node-lost");
    operator.runToEnd(NS, "kj-lost");

    assertThat(pod("kj-lost-0-driver")).isEmpty();
    assertThat(historyInOrder(obj(app("kj-lost"), "status", "stateTransitionHistory")))
        .containsSubsequence("RunningHealthy", "Failed");
    assertThat(eventsAbout("kj-lost-0-driver"))
        .extracting(CoreV1Event::getReason)
        .containsExactlyInAnyOrder("Scheduled", "NodeNotReady", "TaintManagerEviction");
    String failed =
        app("kj-lost")
            .getAsJsonObject("status")
            .getAsJsonObject("stateTransitionHistory")
            .entrySet()
            .stream()
            .map(e -> e.getValue().getAsJsonObject())
            .filter(st -> "Failed".equals(str(st, "currentStateSummary")))
            .map(st -> str(st, "message"))
            .findFirst()
            .orElseThrow();
    assertThat(failed).isEqualTo(ApacheStatuses.DRIVER_REMOVED_MESSAGE);
    operator.close();

    operator = FakeSparkOperator.kubeflow(server);
    submitKubeflow("lost", "node-lost");
    operator.runToEnd(NS, "lost");

    assertThat(pod("lost-driver")).isEmpty();
    assertThat(str(app("lost"), "status", "applicationState", "errorMessage"))
        .isEqualTo("driver pod not found");
    assertThat(eventsAbout("lost"))
        .extracting(CoreV1Event::getReason)
        .contains("SparkDriverNotFound");
  }

  @Test
  void withoutATroubleTheTimedOutDriverIsStillObservedButNoEventIsRecorded() {
    operator = FakeSparkOperator.apache(server);
    submitApache("kj-slow", null);
    operator.path(NS, "kj-slow", SparkAppPath.DRIVER_START_TIMEOUT);

    operator.moveTo(NS, "kj-slow", "DriverStartTimedOut");

    JsonObject observed = obj(app("kj-slow"), "status", "currentState", "lastObservedDriverStatus");
    assertThat(str(observed, "phase")).isEqualTo("Pending");
    assertThat(server.store().list(ResourceType.EVENT, NS)).isEmpty();
    assertThat(ApacheStatuses.currentState(obj(app("kj-slow"), "status")))
        .contains("DriverStartTimedOut");
  }

  private void submitApache(String name, String trouble) {
    var b = ApacheFixtures.noStatus().name(name).namespace(NS);
    if (trouble != null) {
      b.label(FakeSparkOperator.TROUBLE_LABEL, trouble);
    }
    server.store().create(operator.resourceType(), NS, b.build());
  }

  private void submitKubeflow(String name, String trouble) {
    var b = KubeflowFixtures.noStatus().name(name).namespace(NS);
    if (trouble != null) {
      b.label(FakeSparkOperator.TROUBLE_LABEL, trouble);
    }
    server.store().create(operator.resourceType(), NS, b.build());
  }

  private JsonObject app(String name) {
    return OperatorTestSupport.app(server, operator, name);
  }

  private String state(String name) {
    return str(app(name), "status", "currentState", "currentStateSummary");
  }

  private Optional<JsonObject> pod(String name) {
    return OperatorTestSupport.pod(server, name);
  }

  /** The events about an object, read as a client reads them: {@code core/v1} by field selector. */
  private List<CoreV1Event> eventsAbout(String name) {
    try {
      return new CoreV1Api(server.newClient())
          .listNamespacedEvent(NS)
          .fieldSelector("involvedObject.name=" + name)
          .execute()
          .getItems();
    } catch (io.kubernetes.client.openapi.ApiException e) {
      throw new AssertionError(e.getCode() + " " + e.getResponseBody(), e);
    }
  }
}
