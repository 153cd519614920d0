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
package dev.kubejobs.spark.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.Diagnoser;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.DiagnosisInput;
import dev.kubejobs.core.diagnosis.Evidence;
import dev.kubejobs.core.diagnosis.Messages;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import dev.kubejobs.testkit.fixtures.EventBuilder;
import dev.kubejobs.testkit.fixtures.Fixtures;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The operators' own diagnosis rules, from the statuses as the operators write them.
 *
 * <ul>
 *   <li>kubeflow/spark-operator at 38082f3318e9d33f3e4a940c7cf165df6e40b422: {@code
 *       internal/controller/sparkapplication/submission.go} wraps spark-submit's stderr as {@code
 *       "failed to run spark-submit: %s"} in {@code runSparkSubmit} and again as {@code "failed to
 *       run spark-submit: %v"} in {@code Submit}; {@code controller.go} stores {@code
 *       submitErr.Error()} as {@code errorMessage} with state {@code SUBMISSION_FAILED}, and once
 *       the driver ends writes {@code "driver container failed with ExitCode: %d, Reason: %s"}.
 *   <li>apache/spark-kubernetes-operator at d5acafd24a0cd9cf225026bbdbcb0775d73ffe8f: {@code
 *       AppInitStep} appends {@code SchedulingFailure} with {@code
 *       Constants.SCHEDULE_FAILURE_MESSAGE + " StackTrace: " + buildGeneralErrorMessage(e)} (the
 *       exception's stack trace); {@code BaseAppDriverObserver} appends {@code Failed} or {@code
 *       DriverEvicted} with {@code DRIVER_FAILED_MESSAGE} and the pod's status in {@code
 *       lastObservedDriverStatus}; {@code SparkAppStatusUtils} writes {@code DriverStartTimedOut}
 *       with {@code DRIVER_LAUNCH_TIMEOUT_MESSAGE}.
 *   <li>spark-submit's failure as fabric8's {@code KubernetesClientException} prints it
 *       (fabric8io/kubernetes-client {@code OperationSupport.requestFailure}): {@code "Failure
 *       executing: POST at: <url>. Message: <status message>. Received status: Status(...)."}; the
 *       status messages from kubernetes {@code plugin/pkg/admission/resourcequota/controller.go}
 *       ({@code "exceeded quota: %s, requested: %s, used: %s, limited: %s"}), {@code
 *       staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go} ({@code
 *       "admission webhook %q denied the request: %s"}) and {@code
 *       staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go} ({@code "%s
 *       is forbidden: User %q cannot %s"}).
 * </ul>
 */
class SparkDiagnosisRulesTest {

  private static final Instant NOW = Fixtures.T0.plusSeconds(600);
  private static final Diagnoser DIAGNOSER =
      Diagnoser.builder()
          .rule(SparkDiagnosisRules.kubeflow())
          .rule(SparkDiagnosisRules.apache())
          .build();

  private static final String QUOTA_STATUS_MESSAGE =
      "pods \"app-driver\" is forbidden: exceeded quota: team-a-compute, requested:"
          + " limits.memory=1408Mi, used: limits.memory=4Gi, limited: limits.memory=5Gi";

  private static String fabric8(String statusMessage, int code) {
    return "Exception in thread \"main\" io.fabric8.kubernetes.client.KubernetesClientException:"
        + " Failure executing: POST at: https://10.96.0.1:443/api/v1/namespaces/jobs/pods."
        + " Message: "
        + statusMessage
        + ". Received status: Status(apiVersion=v1, code="
        + code
        + ", details=StatusDetails(causes=[], group=null, kind=pods, name=app-driver,"
        + " retryAfterSeconds=null, uid=null, additionalProperties={}), kind=Status, message="
        + statusMessage
        + ", metadata=ListMeta(_continue=null, remainingItemCount=null, resourceVersion=null,"
        + " selfLink=null, additionalProperties={}), reason="
        + (code == 500 ? "InternalError" : code == 400 ? "BadRequest" : "Forbidden")
        + ", status=Failure,"
        + " additionalProperties={}).\n"
        + "\tat io.fabric8.kubernetes.client.dsl.internal.OperationSupport.requestFailure("
        + "OperationSupport.java:671)\n"
        + "\tat org.apache.spark.deploy.k8s.submit.Client.run(KubernetesClientApplication.scala:153)\n";
  }

  private static String kubeflowError(String stderr) {
    return "failed to run spark-submit: failed to run spark-submit: " + stderr;
  }

  private static Optional<Diagnosis> kubeflow(String state, String errorMessage, JobStatus status) {
    JsonObject s =
        KubeflowStatuses.submissionFailed(
            KubeflowStatuses.empty(), "app-driver", "sub-1", Fixtures.T0, errorMessage);
    s.getAsJsonObject("applicationState").addProperty("state", state);
    DiagnosisInput input =
        DiagnosisInput.builder("jobs", "SparkApplication", "app", status, NOW)
            .waited(Duration.ofMinutes(5))
            .operatorStatus(s)
            .build();
    return DIAGNOSER.diagnose(input);
  }

  @Nested
  class Kubeflow {
    @Test
    void quotaExceededIsTheLineTakenFromSparkSubmitsStderr() {
      String error = kubeflowError(fabric8(QUOTA_STATUS_MESSAGE, 403));

      Diagnosis d = kubeflow("SUBMISSION_FAILED", error, JobStatus.QUEUED).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.QUOTA_EXCEEDED);
      assertThat(d.summary())
          .isEqualTo(
              "spark-submit failed for SparkApplication jobs/app: "
                  + QUOTA_STATUS_MESSAGE
                  + ". ResourceQuota team-a-compute in namespace jobs is used up: submit again once"
                  + " other pods there have ended, or raise the quota, or lower the job's"
                  + " requests.");
      Evidence e = d.evidence().get(0);
      assertThat(e.source()).isEqualTo(Evidence.Source.OPERATOR_STATUS);
      assertThat(e.reason()).isEqualTo("SUBMISSION_FAILED");
      assertThat(e.message()).isEqualTo(error);
    }

    @Test
    void admissionWebhookDenialNamesTheWebhook() {
      String webhook =
          "admission webhook \"validate.kyverno.svc-fail\" denied the request: policy"
              + " Pod/jobs/app-driver for resource violation: require-requests-limits:"
              + " validate-resources: CPU and memory resource requests and limits are required";

      Diagnosis d =
          kubeflow("SUBMISSION_FAILED", kubeflowError(fabric8(webhook, 400)), JobStatus.QUEUED)
              .orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.ADMISSION_DENIED);
      assertThat(d.summary())
          .contains(webhook)
          .endsWith(
              " Admission webhook validate.kyverno.svc-fail refuses the job by policy and will"
                  + " refuse it again: change the job so that the policy admits it, or ask the"
                  + " webhook's owners.");
    }

    @Test
    void rbacRefusalNamesTheUserAndVerb() {
      String rbac =
          "pods is forbidden: User \"system:serviceaccount:jobs:spark-operator\" cannot create"
              + " resource \"pods\" in API group \"\" in the namespace \"jobs\"";

      Diagnosis d =
          kubeflow("FAILED", kubeflowError(fabric8(rbac, 403)), JobStatus.FAILED).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.FORBIDDEN_BY_RBAC);
      assertThat(d.summary())
          .contains(rbac)
          .endsWith(
              " Grant system:serviceaccount:jobs:spark-operator the permission to create pods in"
                  + " namespace jobs (a Role and RoleBinding).");
    }

    /**
     * A webhook with failure policy Fail that cannot be reached: the API server answers 500 with
     * {@code NewInternalError(ErrCallingWebhook)} (kubernetes {@code
     * staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go}, {@code
     * staging/src/k8s.io/apiserver/pkg/util/webhook/error.go}), not the job's fault.
     */
    @Test
    void unreachableWebhookIsTheClustersFaultAndNamesTheWebhook() {
      String unreachable =
          "Internal error occurred: failed calling webhook \"validation.gatekeeper.sh\": failed to"
              + " call webhook: Post"
              + " \"https://gatekeeper-webhook-service.gatekeeper-system.svc:443/v1/admit?timeout=3s\":"
              + " dial tcp 10.96.14.2:443: connect: connection refused";

      Diagnosis d =
          kubeflow("SUBMISSION_FAILED", kubeflowError(fabric8(unreachable, 500)), JobStatus.QUEUED)
              .orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.ADMISSION_WEBHOOK_UNREACHABLE);
      assertThat(d.summary())
          .contains("connect: connection refused")
          .endsWith(
              " Admission webhook validation.gatekeeper.sh could not be called: the cluster's"
                  + " fault, not the job's; submit again later and tell the team that runs the"
                  + " webhook.");
    }

    /**
     * The operator records each failed submission as a Warning event on the application, {@code
     * SparkApplicationSubmissionFailed} with {@code "failed to submit SparkApplication %s: %s"} and
     * the error message (kubeflow/spark-operator {@code
     * internal/controller/sparkapplication/controller.go}, {@code recordSparkApplicationEvent}):
     * the refusal is read from it when the status does not carry it (here: a retry cleared it).
     */
    @Test
    void aRefusalIsReadFromTheOperatorsSubmissionFailedEvent() {
      JsonObject event =
          EventBuilder.about("SparkApplication", "jobs", "app")
              .warning(
                  "SparkApplicationSubmissionFailed",
                  "failed to submit SparkApplication app: "
                      + kubeflowError(fabric8(QUOTA_STATUS_MESSAGE, 403)))
              .reportedBy("spark-operator")
              .build();
      JsonObject submitted = KubeflowStatuses.empty();
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.QUEUED, NOW)
              .waited(Duration.ofMinutes(5))
              .operatorStatus(submitted)
              .events(List.of(event))
              .build();

      Diagnosis d = DIAGNOSER.diagnose(input).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.QUOTA_EXCEEDED);
      assertThat(d.summary())
          .startsWith(
              "A pod of SparkApplication jobs/app was refused (SparkApplicationSubmissionFailed"
                  + " event on SparkApplication app): pods \"app-driver\" is forbidden: exceeded"
                  + " quota: team-a-compute")
          .contains("ResourceQuota team-a-compute in namespace jobs is used up");
      assertThat(d.evidence().get(0).source()).isEqualTo(Evidence.Source.EVENT);
    }

    @Test
    void anEventThatRefusesNothingIsNoCause() {
      JsonObject event =
          EventBuilder.about("SparkApplication", "jobs", "app")
              .warning(
                  "SparkApplicationSubmissionFailed",
                  "failed to submit SparkApplication app: failed to run spark-submit: exit 1")
              .build();
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.QUEUED, NOW)
              .waited(Duration.ofMinutes(5))
              .operatorStatus(KubeflowStatuses.empty())
              .events(List.of(event))
              .build();

      assertThat(DIAGNOSER.diagnose(input)).isEmpty();
    }

    @Test
    void anyOtherStderrGivesItsException() {
      String stderr =
          "25/01/01 00:00:01 WARN NativeCodeLoader: Unable to load native-hadoop library\n"
              + "Exception in thread \"main\" org.apache.spark.SparkException: Could not find"
              + " main class com.example.Etl\n"
              + "\tat org.apache.spark.deploy.SparkSubmit.prepareSubmitEnvironment\n";

      Diagnosis d =
          kubeflow("SUBMISSION_FAILED", kubeflowError(stderr), JobStatus.QUEUED).orElseThrow();

      assertThat(d.summary())
          .contains(
              "Exception in thread \"main\" org.apache.spark.SparkException: Could not find main"
                  + " class com.example.Etl.");
    }

    @Test
    void multiMegabyteErrorMessageIsCappedInTheEvidence() {
      String noise = "\tat some.Frame(Frame.java:1)\n".repeat(100_000);
      String error = kubeflowError(noise + fabric8(QUOTA_STATUS_MESSAGE, 403));

      Diagnosis d = kubeflow("SUBMISSION_FAILED", error, JobStatus.QUEUED).orElseThrow();

      assertThat(d.summary()).contains("exceeded quota: team-a-compute");
      assertThat(d.evidence().get(0).message())
          .hasSizeLessThanOrEqualTo(Messages.MAX_MESSAGE_CHARS);
      assertThat(d.evidence().get(0).message()).startsWith("failed to run spark-submit");
    }

    /**
     * The operator records each executor pod's state by name in {@code status.executorState}
     * ({@code ExecutorStateFailed}, {@code "FAILED"}, kubeflow/spark-operator {@code
     * api/v1beta2/sparkapplication_types.go}; set from the pod by {@code util.GetExecutorState} in
     * {@code internal/controller/sparkapplication/controller.go}) and keeps the record once Spark
     * has deleted the pod.
     */
    @Test
    void failedExecutorsWhosePodsAreGoneAreNamedFromTheOperatorsRecord() {
      JsonObject s = KubeflowStatuses.empty();
      s.getAsJsonObject("applicationState").addProperty("state", "RUNNING");
      JsonObject executors = new JsonObject();
      executors.addProperty("app-exec-1", "RUNNING");
      executors.addProperty("app-exec-2", "FAILED");
      executors.addProperty("app-exec-3", "FAILED");
      s.add("executorState", executors);
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.STARTED, NOW)
              .operatorStatus(s)
              .driverPod(DriverPodBuilder.kubeflow("app").running(Fixtures.T0).build())
              .build();

      Diagnosis d = DIAGNOSER.diagnose(input).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.EXECUTORS_DIED);
      assertThat(d.summary())
          .startsWith(
              "The driver of SparkApplication jobs/app runs, but the Kubeflow Spark operator lists"
                  + " 2 executors as FAILED and their pods are gone: app-exec-2, app-exec-3.")
          .contains("spark.executor.memoryOverhead", "deleteOnTermination=false");
      assertThat(d.evidence().get(0).message()).isEqualTo("app-exec-2: FAILED, app-exec-3: FAILED");

      // The operator's SparkExecutorFailed event keeps how each died (recordExecutorEvent:
      // "Executor %s failed with ExitCode: %d, Reason: %s, Pod Message: %s", a Warning on the
      // application).
      java.util.List<JsonObject> events = new java.util.ArrayList<>();
      for (String exec : java.util.List.of("app-exec-2", "app-exec-3")) {
        events.add(
            EventBuilder.about("SparkApplication", "jobs", "app")
                .warning(
                    "SparkExecutorFailed",
                    "Executor "
                        + exec
                        + " failed with ExitCode: 137, Reason: OOMKilled, Pod Message: ")
                .reportedBy("spark-operator")
                .build());
      }
      DiagnosisInput withEvents =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.STARTED, NOW)
              .operatorStatus(s)
              .events(events)
              .build();

      Diagnosis oom = DIAGNOSER.diagnose(withEvents).orElseThrow();

      assertThat(oom.cause()).isEqualTo(Cause.OOM_KILLED);
      assertThat(oom.summary())
          .isEqualTo(
              "The driver of SparkApplication jobs/app runs, but the Kubeflow Spark operator lists"
                  + " 2 executors as FAILED and their pods are gone: app-exec-2 OOMKilled (exit"
                  + " code 137), app-exec-3 OOMKilled (exit code 137). An OOMKilled executor used"
                  + " more memory than its pod's limit: raise spark.executor.memoryOverhead (or"
                  + " spark.executor.memory).");
      assertThat(oom.evidence()).hasSize(3);
    }

    @Test
    void failedExecutorsWhosePodsRemainAreDiagnosedFromThePods() {
      JsonObject s = KubeflowStatuses.empty();
      JsonObject executors = new JsonObject();
      executors.addProperty("app-exec-2", "FAILED");
      s.add("executorState", executors);
      JsonObject pod =
          DriverPodBuilder.kubeflow("app")
              .name("app-exec-2")
              .terminated(137, Fixtures.T0, Fixtures.T0.plusSeconds(60))
              .terminationReason("OOMKilled", null)
              .build();
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.STARTED, NOW)
              .operatorStatus(s)
              .executorPods(java.util.List.of(pod))
              .build();

      Diagnosis d = DIAGNOSER.diagnose(input).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.OOM_KILLED);
      assertThat(d.summary()).contains("jobs/app-exec-2 OOMKilled (exit code 137)");
    }

    @Test
    void driverExitRecordedByTheOperatorOnceThePodIsGone() {
      Diagnosis oom =
          kubeflow(
                  "FAILED",
                  "driver container failed with ExitCode: 137, Reason: OOMKilled",
                  JobStatus.FAILED)
              .orElseThrow();
      Diagnosis error =
          kubeflow("FAILED", KubeflowStatuses.DRIVER_FAILED_MESSAGE, JobStatus.FAILED)
              .orElseThrow();

      assertThat(oom.cause()).isEqualTo(Cause.OOM_KILLED);
      assertThat(oom.summary()).contains("raise spark.driver.memory");
      assertThat(error.cause()).isEqualTo(Cause.DRIVER_EXITED_WITH_ERROR);
      assertThat(error.summary())
          .isEqualTo(
              "The driver of SparkApplication jobs/app exited with code 1 (Error); read the driver"
                  + " log for the error.");
    }

    @Test
    void suspendedApplicationWaitsForAdmission() {
      JsonObject s = KubeflowStatuses.suspended(KubeflowStatuses.empty());
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.QUEUED, NOW)
              .waited(Duration.ofMinutes(5))
              .operatorStatus(s)
              .build();

      assertThat(DIAGNOSER.diagnose(input).orElseThrow().cause())
          .isEqualTo(Cause.WAITING_FOR_ADMISSION);
    }

    @Test
    void driverPodEvidenceWinsOverTheOperatorsStaleSubmittedState() {
      // Kubeflow stays SUBMITTED while the driver cannot pull its image (issues #2667, #1737).
      JsonObject s =
          KubeflowStatuses.submitted(KubeflowStatuses.empty(), "app-driver", "sub-1", Fixtures.T0);
      JsonObject pod =
          DriverPodBuilder.kubeflow("app")
              .image("apache/spark:nope")
              .waiting("ImagePullBackOff", "Back-off pulling image \"apache/spark:nope\"")
              .build();
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.QUEUED, NOW)
              .waited(Duration.ofMinutes(5))
              .operatorStatus(s)
              .driverPod(pod)
              .build();

      assertThat(DIAGNOSER.diagnose(input).orElseThrow().cause())
          .isEqualTo(Cause.IMAGE_PULL_FAILED);
    }

    @Test
    void healthySubmittedJobGetsNone() {
      JsonObject s =
          KubeflowStatuses.submitted(KubeflowStatuses.empty(), "app-driver", "sub-1", Fixtures.T0);
      DiagnosisInput input =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.QUEUED, NOW)
              .waited(Duration.ofMinutes(5))
              .operatorStatus(s)
              .driverPod(DriverPodBuilder.kubeflow("app").pending().build())
              .build();

      assertThat(DIAGNOSER.diagnose(input)).isEmpty();
    }
  }

  @Nested
  class Apache {
    private JsonObject status() {
      JsonObject s = ApacheStatuses.newStatus(Fixtures.T0, "4.0.1");
      ApacheStatuses.append(
          s,
          "DriverRequested",
          ApacheStatuses.defaultMessage("DriverRequested"),
          Fixtures.T0.plusSeconds(1),
          null);
      return s;
    }

    private DiagnosisInput.Builder input(JsonObject status, JobStatus jobStatus) {
      return DiagnosisInput.builder("jobs", "SparkApplication", "app", jobStatus, NOW)
          .waited(Duration.ofMinutes(5))
          .operatorStatus(status);
    }

    @Test
    void lastObservedDriverStatusIsDiagnosedAsThePod() {
      JsonObject observed =
          DriverPodBuilder.apache("app", 0)
              .terminated(137, Fixtures.T0.plusSeconds(20), Fixtures.T0.plusSeconds(90))
              .terminationReason("OOMKilled", null)
              .buildStatus();
      JsonObject s = status();
      ApacheStatuses.append(
          s,
          "Failed",
          ApacheStatuses.defaultMessage("Failed"),
          Fixtures.T0.plusSeconds(91),
          observed);
      ApacheStatuses.append(
          s,
          "ResourceReleased",
          ApacheStatuses.defaultMessage("ResourceReleased"),
          Fixtures.T0.plusSeconds(92),
          null);

      Diagnosis d = DIAGNOSER.diagnose(input(s, JobStatus.FAILED).build()).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.OOM_KILLED);
      assertThat(d.summary())
          .contains("driver pod jobs/app-0-driver was OOMKilled (exit code 137)");
      assertThat(d.evidence()).extracting(Evidence::reason).containsExactly("OOMKilled", "Failed");
    }

    @Test
    void evictedDriverIsEvictedNotOomKilled() {
      JsonObject observed =
          DriverPodBuilder.apache("app", 0)
              .evicted(
                  "The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi,"
                      + " available: 2Gi. ",
                  Fixtures.T0.plusSeconds(20),
                  Fixtures.T0.plusSeconds(90))
              .buildStatus();
      JsonObject s = status();
      ApacheStatuses.append(
          s,
          "DriverEvicted",
          ApacheStatuses.defaultMessage("DriverEvicted"),
          Fixtures.T0.plusSeconds(91),
          observed);

      Diagnosis d = DIAGNOSER.diagnose(input(s, JobStatus.FAILED).build()).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.EVICTED);
      assertThat(d.summary()).contains("The node was low on resource: ephemeral-storage.");
    }

    @Test
    void schedulingFailureTakesTheRefusalFromTheStackTrace() {
      JsonObject s = status();
      String trace = fabric8(QUOTA_STATUS_MESSAGE.replace("app-driver", "app-0-driver"), 403);
      ApacheStatuses.append(
          s,
          "SchedulingFailure",
          "Failed to request driver from scheduler backend. StackTrace: " + trace,
          Fixtures.T0.plusSeconds(2),
          null);

      Diagnosis d = DIAGNOSER.diagnose(input(s, JobStatus.FAILED).build()).orElseThrow();

      assertThat(d.cause()).isEqualTo(Cause.QUOTA_EXCEEDED);
      assertThat(d.summary())
          .startsWith(
              "The Apache Spark operator could not create the driver of SparkApplication jobs/app:"
                  + " pods \"app-0-driver\" is forbidden: exceeded quota: team-a-compute");
      assertThat(d.evidence().get(0).firstSeen()).contains(Fixtures.T0.plusSeconds(2));
    }

    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = {
          "ADMISSION_DENIED|400|admission webhook \"validation.gatekeeper.sh\" denied the request:"
              + " [require-team-label] you must provide labels: {\"team\"}|webhook"
              + " validation.gatekeeper.sh refuses",
          "ADMISSION_WEBHOOK_UNREACHABLE|500|Internal error occurred: failed calling webhook"
              + " \"validation.gatekeeper.sh\": failed to call webhook: Post"
              + " \"https://gatekeeper-webhook-service.gatekeeper-system.svc:443/v1/admit?timeout=3s\":"
              + " context deadline exceeded|webhook validation.gatekeeper.sh could not be called",
          "FORBIDDEN_BY_RBAC|403|pods \"app-0-driver\" is forbidden: User"
              + " \"system:serviceaccount:spark-operator:spark-operator\" cannot create resource"
              + " \"pods\" in API group \"\" in the namespace \"jobs\"|Grant"
              + " system:serviceaccount:spark-operator:spark-operator the permission to create pods"
        })
    void schedulingFailureTellsEachRefusalApart(
        Cause cause, int code, String refusal, String says) {
      JsonObject s = status();
      ApacheStatuses.append(
          s,
          "SchedulingFailure",
          "Failed to request driver from scheduler backend. StackTrace: " + fabric8(refusal, code),
          Fixtures.T0.plusSeconds(2),
          null);

      Diagnosis d = DIAGNOSER.diagnose(input(s, JobStatus.FAILED).build()).orElseThrow();

      assertThat(d.cause()).isEqualTo(cause);
      assertThat(d.summary())
          .startsWith("The Apache Spark operator could not create the driver of")
          .contains(refusal, says);
    }

    @Test
    void driverStartTimedOutWithThePodStillPullingIsTheImage() {
      // The operator's message blames a health check; the pod says why.
      JsonObject s = status();
      ApacheStatuses.append(
          s,
          "DriverStartTimedOut",
          ApacheStatuses.defaultMessage("DriverStartTimedOut"),
          Fixtures.T0.plusSeconds(300),
          null);
      JsonObject pod =
          DriverPodBuilder.apache("app", 0)
              .image("apache/spark:nope")
              .waiting(
                  "ErrImagePull",
                  "rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/apache/spark:nope\": not found")
              .build();

      Diagnosis withPod =
          DIAGNOSER.diagnose(input(s, JobStatus.FAILED).driverPod(pod).build()).orElseThrow();
      Diagnosis withoutPod = DIAGNOSER.diagnose(input(s, JobStatus.FAILED).build()).orElseThrow();

      assertThat(withPod.cause()).isEqualTo(Cause.IMAGE_PULL_FAILED);
      assertThat(withPod.summary()).contains("does not exist");
      assertThat(withoutPod.cause()).isEqualTo(Cause.OPERATOR_REPORTED_FAILURE);
      assertThat(withoutPod.summary())
          .startsWith("The Apache Spark operator reports DriverStartTimedOut");
    }

    @Test
    void waitingForTheDriverUnderTheThresholdGetsNone() {
      DiagnosisInput in =
          DiagnosisInput.builder("jobs", "SparkApplication", "app", JobStatus.QUEUED, NOW)
              .waited(Duration.ofSeconds(30))
              .operatorStatus(status())
              .build();

      assertThat(DIAGNOSER.diagnose(in)).isEmpty();
    }

    @Test
    void stuckInDriverRequestedWithAPendingPodAndNoCauseGetsNone() {
      DiagnosisInput in =
          input(status(), JobStatus.QUEUED)
              .driverPod(DriverPodBuilder.apache("app", 0).pending().build())
              .build();

      assertThat(DIAGNOSER.diagnose(in)).isEmpty();
    }
  }
}
