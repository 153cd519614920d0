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

import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Why the driver of one SparkApplication does not get to run, as the cluster shows it: the driver
 * pod the {@link FakeSparkOperator} creates is stuck (or, for {@link #oomKilled()}, killed) the way
 * the kubelet and the scheduler leave it, and the fake server gets the Events they record. Chosen
 * per application with {@link FakeSparkOperator#driverTrouble(String, String, DriverTrouble)} or
 * the label {@value FakeSparkOperator#TROUBLE_LABEL} ({@code image-pull}, {@code unschedulable},
 * {@code config-error}, {@code oom-killed}, {@code quota-exceeded}, {@code admission-denied},
 * {@code webhook-unreachable}, {@code forbidden-by-rbac}, {@code executor-oom-killed}, {@code
 * executors-unschedulable}, {@code node-lost}, each with the default message below).
 *
 * <p>A trouble replaces the application's {@link SparkAppPath}:
 *
 * <ul>
 *   <li>A driver that cannot start ({@link #imagePull}, {@link #unschedulable}, {@link
 *       #configError}). Apache: {@code finalizer, Submitted, DriverRequested} (the stuck pod and
 *       its events){@code , kubelet-retry} (the repeating events counted once more){@code ,
 *       DriverStartTimedOut} (with {@code lastObservedDriverStatus}, the stuck pod's status){@code
 *       , ResourceReleased} (pod deleted), as the Apache operator's {@code
 *       AppDriverTimeoutObserver} does after {@code driverStartTimeoutMillis}. Kubeflow: {@code
 *       SUBMITTED} (the stuck pod, its events, and the operator's {@code SparkApplicationSubmitted}
 *       event){@code , kubelet-retry}, then nothing: the Kubeflow operator maps a {@code Pending}
 *       driver pod to {@code SUBMITTED} and waits for ever.
 *   <li>A driver killed for its memory ({@link #oomKilled()}): the {@link SparkAppPath#FAILED} path
 *       with the driver container terminated {@code OOMKilled}, exit code 137.
 *   <li>A driver pod the API server refuses ({@link #quotaExceeded}, {@link #admissionDenied},
 *       {@link #webhookUnreachable}, {@link #forbiddenByRbac}): no pod. Kubeflow: {@code
 *       SUBMISSION_FAILED} (spark-submit's stderr in {@code errorMessage}, the {@code
 *       SparkApplicationSubmissionFailed} event){@code , FAILED}. Apache: {@code finalizer,
 *       Submitted, SchedulingFailure} (the stack trace){@code , ResourceReleased}.
 *   <li>Trouble after the driver runs ({@link #executorOomKilled}, {@link #executorsUnschedulable},
 *       {@link #nodeLost}): the driver starts, then the executors or the node fail it as each
 *       method describes, with the steps {@code executor-oom-killed}, {@code
 *       executors-unschedulable} and {@code node-lost} to {@link FakeSparkOperator#moveTo} to.
 * </ul>
 *
 * <p>Immutable and thread safe.
 */
public final class DriverTrouble {

  /** The kinds of trouble. */
  public enum Kind {
    /** The driver image cannot be pulled: {@code ErrImagePull}, then {@code ImagePullBackOff}. */
    IMAGE_PULL,
    /**
     * The scheduler cannot place the driver pod: {@code PodScheduled=False}, {@code Unschedulable}.
     */
    UNSCHEDULABLE,
    /** The driver container cannot be created from its configuration. */
    CONFIG_ERROR,
    /** The driver container is killed for exceeding its memory limit. */
    OOM_KILLED,
    /** The API server refuses the driver pod: a {@code ResourceQuota} is used up. */
    QUOTA_EXCEEDED,
    /** The API server refuses the driver pod: an admission webhook denies it. */
    ADMISSION_DENIED,
    /** The API server refuses the driver pod: an admission webhook cannot be called. */
    WEBHOOK_UNREACHABLE,
    /** The API server refuses the driver pod: RBAC forbids the creating service account. */
    FORBIDDEN_BY_RBAC,
    /** An executor is killed for exceeding its memory limit while the driver runs. */
    EXECUTOR_OOM_KILLED,
    /** The executor pods cannot be scheduled; the driver waits for them. */
    EXECUTORS_UNSCHEDULABLE,
    /** The driver's node is lost while the driver runs; the driver pod is deleted. */
    NODE_LOST
  }

  /** The quota of {@link #quotaExceeded()}. */
  public static final String DEFAULT_QUOTA = "compute-quota";

  /** The webhook of {@link #admissionDenied()}. */
  public static final String DEFAULT_WEBHOOK = "validation.gatekeeper.sh";

  /** The denial of {@link #admissionDenied()}, as Gatekeeper words a missing label. */
  public static final String DEFAULT_DENIAL =
      "[require-team-label] you must provide labels: {\"team\"}";

  /** The webhook of {@link #webhookUnreachable()}. */
  public static final String DEFAULT_UNREACHABLE_WEBHOOK = "validate.kyverno.svc-fail";

  /**
   * The service account of {@link #forbiddenByRbac()}: the Kubeflow operator's spark-submit runs as
   * the operator's controller account.
   */
  public static final String DEFAULT_USER =
      "system:serviceaccount:spark-operator:spark-operator-controller";

  /** The node of {@link #nodeLost()}. */
  public static final String DEFAULT_NODE = "node-1";

  /** The scheduler's message of {@link #executorsUnschedulable()}. */
  public static final String DEFAULT_EXECUTOR_SCHEDULER_MESSAGE =
      "0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are available: 4 No"
          + " preemption victims found for incoming pod.";

  /** The image of {@link #imagePull()}: a tag that does not exist. */
  public static final String DEFAULT_BAD_IMAGE = "apache/spark:4.0.1-typo";

  /**
   * The scheduler's message of {@link #unschedulable()}, as kube-scheduler's {@code FitError}
   * writes it (kubernetes/kubernetes {@code pkg/scheduler/framework/types.go}) with the default
   * preemption plugin's post-filter message.
   */
  public static final String DEFAULT_SCHEDULER_MESSAGE =
      "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No"
          + " preemption victims found for incoming pod.";

  /**
   * The kubelet's message of {@link #configError()}: a Secret the driver's environment refers to is
   * missing (kubernetes/kubernetes {@code pkg/kubelet/kubelet_pods.go} {@code
   * makeEnvironmentVariables}).
   */
  public static final String DEFAULT_CONFIG_MESSAGE = "secret \"spark-secrets\" not found";

  private final Kind kind;
  private final String image;
  private final String message;

  private DriverTrouble(Kind kind, String image, String message) {
    this.kind = kind;
    this.image = image;
    this.message = message;
  }

  /**
   * A driver image that does not exist in its registry: containerd's answer {@code "...: not
   * found"}.
   *
   * @param image the image reference the driver pod names
   * @return the trouble
   */
  public static DriverTrouble imagePull(String image) {
    Objects.requireNonNull(image, "image");
    return imagePull(
        image,
        "rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/"
            + image
            + "\": failed to resolve reference \"docker.io/"
            + image
            + "\": docker.io/"
            + image
            + ": not found");
  }

  /**
   * A driver image that cannot be pulled, with the container runtime's answer, e.g. {@code "...
   * pull access denied, repository does not exist or may require authorization ..."}.
   *
   * @param image the image reference the driver pod names
   * @param runtimeAnswer what the container runtime answered, after {@code "Failed to pull image
   *     \"<image>\": "} in the kubelet's event
   * @return the trouble
   */
  public static DriverTrouble imagePull(String image, String runtimeAnswer) {
    return new DriverTrouble(
        Kind.IMAGE_PULL, requireText(image, "image"), requireText(runtimeAnswer, "runtimeAnswer"));
  }

  /**
   * A driver image that does not exist: {@value #DEFAULT_BAD_IMAGE}.
   *
   * @return the trouble
   */
  public static DriverTrouble imagePull() {
    return imagePull(DEFAULT_BAD_IMAGE);
  }

  /**
   * A driver pod the scheduler cannot place, with its message.
   *
   * @param schedulerMessage the scheduler's message, e.g. {@value #DEFAULT_SCHEDULER_MESSAGE}
   * @return the trouble
   */
  public static DriverTrouble unschedulable(String schedulerMessage) {
    return new DriverTrouble(
        Kind.UNSCHEDULABLE, null, requireText(schedulerMessage, "schedulerMessage"));
  }

  /**
   * A driver pod the scheduler cannot place: {@value #DEFAULT_SCHEDULER_MESSAGE}.
   *
   * @return the trouble
   */
  public static DriverTrouble unschedulable() {
    return unschedulable(DEFAULT_SCHEDULER_MESSAGE);
  }

  /**
   * A driver container that cannot be created: {@code CreateContainerConfigError} with the
   * kubelet's message.
   *
   * @param kubeletMessage e.g. {@value #DEFAULT_CONFIG_MESSAGE} or {@code "couldn't find key
   *     password in Secret jobs/db"}
   * @return the trouble
   */
  public static DriverTrouble configError(String kubeletMessage) {
    return new DriverTrouble(
        Kind.CONFIG_ERROR, null, requireText(kubeletMessage, "kubeletMessage"));
  }

  /**
   * A driver container that cannot be created: {@value #DEFAULT_CONFIG_MESSAGE}.
   *
   * @return the trouble
   */
  public static DriverTrouble configError() {
    return configError(DEFAULT_CONFIG_MESSAGE);
  }

  /**
   * A driver container killed for exceeding its memory limit: terminated with reason {@code
   * OOMKilled} (containerd's {@code oomExitReason}) and exit code 137 (128 + SIGKILL).
   *
   * @return the trouble
   */
  public static DriverTrouble oomKilled() {
    return new DriverTrouble(Kind.OOM_KILLED, null, null);
  }

  /**
   * A driver pod the API server refuses because ResourceQuota {@code quota} is used up: {@code pods
   * "<driver>" is forbidden: exceeded quota: <quota>, requested: …, used: …, limited: …}
   * (kubernetes {@code plugin/pkg/admission/resourcequota/controller.go}, wrapped by {@code
   * NewForbidden}). No driver pod is created; the operator reports the refusal as a failed
   * submission: Kubeflow {@code SUBMISSION_FAILED} with spark-submit's stderr in {@code
   * errorMessage} and its {@code SparkApplicationSubmissionFailed} event, then {@code FAILED};
   * Apache {@code SchedulingFailure} with the stack trace, then {@code ResourceReleased}.
   *
   * @param quota the ResourceQuota's name
   * @return the trouble
   */
  public static DriverTrouble quotaExceeded(String quota) {
    return new DriverTrouble(Kind.QUOTA_EXCEEDED, null, requireText(quota, "quota"));
  }

  /**
   * A driver pod refused by ResourceQuota {@value #DEFAULT_QUOTA}.
   *
   * @return the trouble
   */
  public static DriverTrouble quotaExceeded() {
    return quotaExceeded(DEFAULT_QUOTA);
  }

  /**
   * A driver pod an admission webhook denies: {@code admission webhook "<webhook>" denied the
   * request: <denial>} (kubernetes {@code
   * staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go}). The
   * operators report it as for {@link #quotaExceeded(String)}.
   *
   * @param webhook the webhook's name
   * @param denial what the webhook answered
   * @return the trouble
   */
  public static DriverTrouble admissionDenied(String webhook, String denial) {
    return new DriverTrouble(
        Kind.ADMISSION_DENIED, requireText(webhook, "webhook"), requireText(denial, "denial"));
  }

  /**
   * A driver pod webhook {@value #DEFAULT_WEBHOOK} denies with {@link #DEFAULT_DENIAL}.
   *
   * @return the trouble
   */
  public static DriverTrouble admissionDenied() {
    return admissionDenied(DEFAULT_WEBHOOK, DEFAULT_DENIAL);
  }

  /**
   * A driver pod the API server refuses because admission webhook {@code webhook} (failure policy
   * {@code Fail}) cannot be called: {@code Internal error occurred: failed calling webhook
   * "<webhook>": failed to call webhook: Post "…": dial tcp …: connect: connection refused}
   * (kubernetes {@code staging/src/k8s.io/apiserver/pkg/util/webhook/error.go} {@code
   * ErrCallingWebhook}, {@code .../admission/plugin/webhook/validating/dispatcher.go}, wrapped by
   * {@code NewInternalError}, code 500). The operators report it as for {@link
   * #quotaExceeded(String)}.
   *
   * @param webhook the webhook's name
   * @return the trouble
   */
  public static DriverTrouble webhookUnreachable(String webhook) {
    return new DriverTrouble(Kind.WEBHOOK_UNREACHABLE, requireText(webhook, "webhook"), null);
  }

  /**
   * A driver pod refused because webhook {@value #DEFAULT_UNREACHABLE_WEBHOOK} cannot be called.
   *
   * @return the trouble
   */
  public static DriverTrouble webhookUnreachable() {
    return webhookUnreachable(DEFAULT_UNREACHABLE_WEBHOOK);
  }

  /**
   * A driver pod RBAC forbids {@code user} to create: {@code pods "<driver>" is forbidden: User
   * "<user>" cannot create resource "pods" in API group "" in the namespace "<ns>"} (kubernetes
   * {@code staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go}, {@code
   * forbiddenMessage}, code 403). The operators report it as for {@link #quotaExceeded(String)}.
   *
   * @param user the user the API server names, e.g. {@code system:serviceaccount:NAMESPACE:ACCOUNT}
   * @return the trouble
   */
  public static DriverTrouble forbiddenByRbac(String user) {
    return new DriverTrouble(Kind.FORBIDDEN_BY_RBAC, null, requireText(user, "user"));
  }

  /**
   * A driver pod RBAC forbids {@value #DEFAULT_USER} to create.
   *
   * @return the trouble
   */
  public static DriverTrouble forbiddenByRbac() {
    return forbiddenByRbac(DEFAULT_USER);
  }

  /**
   * An executor killed for its memory while the driver runs: executor pod {@code <prefix>-exec-1}
   * (labelled {@code spark-role=executor} and with the operator's app-name label, owned by the
   * driver pod) terminated {@code OOMKilled}, exit code 137. Kubeflow: {@code RUNNING} with {@code
   * executorState} {@code FAILED} for it and the {@code SparkExecutorFailed} event; Apache: {@code
   * RunningWithBelowThresholdExecutors}. Then the driver exits with code 1 (Spark aborts the job
   * after the executor's loss) and the application fails: Kubeflow {@code FAILING, FAILED}; Apache
   * {@code Failed, ResourceReleased} (the pods deleted). The executor pod stays until then, as with
   * {@code spark.kubernetes.executor.deleteOnTermination=false}, which the Apache operator sets for
   * an application without dynamic allocation or restarts.
   *
   * @return the trouble
   */
  public static DriverTrouble executorOomKilled() {
    return new DriverTrouble(Kind.EXECUTOR_OOM_KILLED, null, null);
  }

  /**
   * Executor pods the scheduler cannot place while the driver runs, with the scheduler's message in
   * their {@code PodScheduled} condition and {@code FailedScheduling} events. Kubeflow: {@code
   * RUNNING} with {@code executorState} {@code PENDING}, then nothing (it waits for ever). Apache:
   * {@code InitializedBelowThresholdExecutors}, then {@code ExecutorsStartTimedOut} ({@code "The
   * Spark application failed to get enough executors in the given time threshold."}) and {@code
   * ResourceReleased}: the driver pod and the executor pods it owns are deleted, their events stay.
   *
   * @param schedulerMessage the scheduler's message
   * @return the trouble
   */
  public static DriverTrouble executorsUnschedulable(String schedulerMessage) {
    return new DriverTrouble(
        Kind.EXECUTORS_UNSCHEDULABLE, null, requireText(schedulerMessage, "schedulerMessage"));
  }

  /**
   * Executor pods that cannot be scheduled: {@value #DEFAULT_EXECUTOR_SCHEDULER_MESSAGE}.
   *
   * @return the trouble
   */
  public static DriverTrouble executorsUnschedulable() {
    return executorsUnschedulable(DEFAULT_EXECUTOR_SCHEDULER_MESSAGE);
  }

  /**
   * The driver's node lost while the driver runs: the scheduler's {@code Scheduled} event named
   * {@code node}, the node lifecycle controller records {@code Warning NodeNotReady "Node is not
   * ready"} on the driver pod (kubernetes {@code pkg/controller/util/node/controller_utils.go}),
   * the taint eviction controller {@code Normal TaintManagerEviction "Marking for deletion Pod
   * <ns>/<pod>"} ({@code pkg/controller/tainteviction/taint_eviction.go}), and the pod is deleted.
   * Apache: {@code Failed} with {@code "Driver removed. …"} ({@code
   * SparkAppStatusUtils.driverUnexpectedRemoved}), then {@code ResourceReleased}; Kubeflow: {@code
   * FAILING} with {@code "driver pod not found"} and the {@code SparkDriverNotFound} event, then
   * {@code FAILED}.
   *
   * @param node the node's name
   * @return the trouble
   */
  public static DriverTrouble nodeLost(String node) {
    return new DriverTrouble(Kind.NODE_LOST, null, requireText(node, "node"));
  }

  /**
   * The driver's node {@value #DEFAULT_NODE} lost while the driver runs.
   *
   * @return the trouble
   */
  public static DriverTrouble nodeLost() {
    return nodeLost(DEFAULT_NODE);
  }

  /**
   * Returns whether the API server refuses the driver pod, so that none is created ({@link
   * Kind#QUOTA_EXCEEDED}, {@link Kind#ADMISSION_DENIED}, {@link Kind#WEBHOOK_UNREACHABLE}, {@link
   * Kind#FORBIDDEN_BY_RBAC}).
   *
   * @return true for a refusal
   */
  public boolean refusesDriver() {
    return kind == Kind.QUOTA_EXCEEDED
        || kind == Kind.ADMISSION_DENIED
        || kind == Kind.WEBHOOK_UNREACHABLE
        || kind == Kind.FORBIDDEN_BY_RBAC;
  }

  /**
   * Returns whether the driver runs and the trouble comes after ({@link Kind#EXECUTOR_OOM_KILLED},
   * {@link Kind#EXECUTORS_UNSCHEDULABLE}, {@link Kind#NODE_LOST}).
   *
   * @return true when the driver pod starts running
   */
  public boolean letsDriverRun() {
    return kind == Kind.EXECUTOR_OOM_KILLED
        || kind == Kind.EXECUTORS_UNSCHEDULABLE
        || kind == Kind.NODE_LOST;
  }

  /**
   * The API server's {@code Status.message} refusing driver pod {@code namespacedPod}.
   *
   * @param namespacedPod the driver pod's namespace and name, {@code <ns>/<name>}
   * @return the message, or null when this trouble refuses nothing
   */
  String refusal(String namespacedPod) {
    String pod = namespacedPod.substring(namespacedPod.indexOf('/') + 1);
    return switch (kind) {
      case QUOTA_EXCEEDED ->
          "pods \""
              + pod
              + "\" is forbidden: exceeded quota: "
              + message
              + ", requested: limits.memory=1408Mi, used: limits.memory=4Gi, limited:"
              + " limits.memory=5Gi";
      case ADMISSION_DENIED -> "admission webhook \"" + image + "\" denied the request: " + message;
      case WEBHOOK_UNREACHABLE ->
          "Internal error occurred: failed calling webhook \""
              + image
              + "\": failed to call webhook: Post \"https://kyverno-svc.kyverno.svc:443/validate/fail"
              + "?timeout=10s\": dial tcp 10.96.41.7:443: connect: connection refused";
      case FORBIDDEN_BY_RBAC ->
          "pods \""
              + pod
              + "\" is forbidden: User \""
              + message
              + "\" cannot create resource \"pods\" in API group \"\" in the namespace \""
              + namespaceOf(namespacedPod)
              + "\"";
      default -> null;
    };
  }

  /**
   * spark-submit's stderr for the refusal of driver pod {@code pod} in {@code namespace}, as
   * fabric8's {@code KubernetesClientException} prints it ({@code OperationSupport.requestFailure}:
   * {@code "Failure executing: POST at: <url>. Message: <message>. Received status: Status(...)."})
   * under the JVM's {@code Exception in thread "main"}, with a frame of Spark's submission client.
   */
  String submitStderr(String namespace, String pod) {
    String refusal = refusal(namespace + "/" + pod);
    int code =
        switch (kind) {
          case QUOTA_EXCEEDED, FORBIDDEN_BY_RBAC -> 403;
          case WEBHOOK_UNREACHABLE -> 500;
          default -> 400;
        };
    return "Exception in thread \"main\" io.fabric8.kubernetes.client.KubernetesClientException:"
        + " Failure executing: POST at: https://kubernetes.default.svc/api/v1/namespaces/"
        + namespace
        + "/pods. Message: "
        + refusal
        + ". Received status: Status(apiVersion=v1, code="
        + code
        + ", details=StatusDetails(causes=[], group=null, kind=pods, name="
        + pod
        + ", retryAfterSeconds=null, uid=null, additionalProperties={}), kind=Status, message="
        + refusal
        + ", metadata=ListMeta(_continue=null, remainingItemCount=null, resourceVersion=null,"
        + " selfLink=null, additionalProperties={}), reason="
        + (code == 403 ? "Forbidden" : code == 500 ? "InternalError" : "BadRequest")
        + ", status=Failure, additionalProperties={}).\n"
        + "\tat io.fabric8.kubernetes.client.dsl.internal.OperationSupport.requestFailure("
        + "OperationSupport.java:671)\n"
        + "\tat org.apache.spark.deploy.k8s.submit.Client.run(KubernetesClientApplication.scala:153)\n";
  }

  /**
   * Parses a value of the label {@value FakeSparkOperator#TROUBLE_LABEL}: a {@link Kind}'s name in
   * lower case with {@code -} for {@code _}, e.g. {@code image-pull}, {@code quota-exceeded},
   * {@code node-lost} (case-insensitive, {@code _} accepted for {@code -}), each with its default
   * message.
   *
   * @param value the label value
   * @return the trouble
   * @throws IllegalArgumentException naming the label, the value and the accepted values
   */
  public static DriverTrouble parse(String value) {
    String normalized = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (Kind k : Kind.values()) {
      if (k.name().equals(normalized)) {
        return switch (k) {
          case IMAGE_PULL -> imagePull();
          case UNSCHEDULABLE -> unschedulable();
          case CONFIG_ERROR -> configError();
          case OOM_KILLED -> oomKilled();
          case QUOTA_EXCEEDED -> quotaExceeded();
          case ADMISSION_DENIED -> admissionDenied();
          case WEBHOOK_UNREACHABLE -> webhookUnreachable();
          case FORBIDDEN_BY_RBAC -> forbiddenByRbac();
          case EXECUTOR_OOM_KILLED -> executorOomKilled();
          case EXECUTORS_UNSCHEDULABLE -> executorsUnschedulable();
          case NODE_LOST -> nodeLost();
        };
      }
    }
    throw new IllegalArgumentException(
        FakeSparkOperator.TROUBLE_LABEL
            + " must be one of "
            + Arrays.stream(Kind.values())
                .map(k -> k.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .toList()
            + ", but was '"
            + value
            + "'");
  }

  /**
   * Returns the kind of trouble.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * Returns whether the driver pod is created and never starts (every kind but {@link
   * Kind#OOM_KILLED} and the refusals).
   *
   * @return true when the driver pod stays {@code Pending}
   */
  public boolean keepsDriverPending() {
    return kind != Kind.OOM_KILLED && !refusesDriver() && !letsDriverRun();
  }

  /**
   * Returns the driver image of an {@link Kind#IMAGE_PULL} trouble, or the webhook of an {@link
   * Kind#ADMISSION_DENIED} or {@link Kind#WEBHOOK_UNREACHABLE} one.
   *
   * @return the image or webhook, or null for the other kinds
   */
  public String image() {
    return image;
  }

  /**
   * Returns the message the cluster writes: the runtime's answer ({@link Kind#IMAGE_PULL}), the
   * scheduler's message ({@link Kind#UNSCHEDULABLE}) or the kubelet's ({@link Kind#CONFIG_ERROR});
   * the quota's name ({@link Kind#QUOTA_EXCEEDED}), the webhook's denial ({@link
   * Kind#ADMISSION_DENIED}), the user ({@link Kind#FORBIDDEN_BY_RBAC}), the scheduler's message
   * ({@link Kind#EXECUTORS_UNSCHEDULABLE}) or the node ({@link Kind#NODE_LOST}).
   *
   * @return the message, or null for the other kinds
   */
  public String message() {
    return message;
  }

  /** Puts the stuck state on a driver pod builder. */
  void applyTo(DriverPodBuilder pod) {
    switch (kind) {
      case IMAGE_PULL -> pod.image(image).waiting("ImagePullBackOff", backOffMessage());
      case UNSCHEDULABLE -> pod.unschedulable(message);
      case CONFIG_ERROR -> pod.waiting("CreateContainerConfigError", message);
      default -> {
        // set when the driver exits, no pod at all, or a driver that runs
      }
    }
  }

  /**
   * The Events the scheduler and the kubelet record about the stuck driver pod, in the order they
   * record them.
   *
   * <p>Sources (kubernetes/kubernetes): kube-scheduler {@code pkg/scheduler/schedule_one.go}
   * records through the {@code events.k8s.io} recorder {@code Eventf(pod, nil, Warning,
   * "FailedScheduling", "Scheduling", msg)} and, once bound, {@code Normal Scheduled "Successfully
   * assigned %v/%v to %v"}; the kubelet records through the {@code core/v1} recorder: {@code
   * pkg/kubelet/images/image_manager.go} (commit 00a3928bde544dbb4fd046bb78439178ec37fb5a) {@code
   * Normal Pulling "Pulling image %q"}, {@code Warning Failed "Failed to pull image %q: %v"},
   * {@code Normal BackOff "Back-off pulling image %q"}, and {@code
   * pkg/kubelet/kuberuntime/kuberuntime_container.go} {@code startContainer}: {@code Warning Failed
   * "Error: %v"} with the error ({@code ErrImagePull}, {@code ImagePullBackOff}) or the
   * configuration error's message; reasons from {@code pkg/kubelet/events/event.go}.
   */
  List<RecordedEvent> events(String namespace, String pod) {
    String node = "node-1";
    RecordedEvent scheduled =
        new RecordedEvent(
            "scheduled",
            "Normal",
            "Scheduled",
            "Successfully assigned " + namespace + "/" + pod + " to " + node,
            "default-scheduler",
            true,
            false);
    return switch (kind) {
      case IMAGE_PULL ->
          List.of(
              scheduled,
              kubelet("pulling", "Normal", "Pulling", "Pulling image \"" + image + "\""),
              kubelet(
                  "failed-pull",
                  "Warning",
                  "Failed",
                  "Failed to pull image \"" + image + "\": " + message),
              kubelet("err-image-pull", "Warning", "Failed", "Error: ErrImagePull"),
              kubelet("back-off", "Normal", "BackOff", backOffMessage()),
              kubelet("image-pull-back-off", "Warning", "Failed", "Error: ImagePullBackOff"));
      case UNSCHEDULABLE ->
          List.of(
              new RecordedEvent(
                  "failed-scheduling",
                  "Warning",
                  "FailedScheduling",
                  message,
                  "default-scheduler",
                  true,
                  true));
      case CONFIG_ERROR ->
          List.of(scheduled, kubelet("config-error", "Warning", "Failed", "Error: " + message));
      default -> List.of();
    };
  }

  private static String namespaceOf(String namespacedPod) {
    int slash = namespacedPod.indexOf('/');
    return slash < 0 ? "" : namespacedPod.substring(0, slash);
  }

  private String backOffMessage() {
    return "Back-off pulling image \"" + image + "\"";
  }

  private static RecordedEvent kubelet(String id, String type, String reason, String message) {
    return new RecordedEvent(id, type, reason, message, "kubelet", false, true);
  }

  private static String requireText(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank, but was '" + value + "'");
    }
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DriverTrouble t
        && kind == t.kind
        && Objects.equals(image, t.image)
        && Objects.equals(message, t.message);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, image, message);
  }

  @Override
  public String toString() {
    return kind + (image != null ? " " + image : "") + (message != null ? ": " + message : "");
  }

  /**
   * One Event a component records about the driver pod.
   *
   * @param id a stable id, part of the event's name
   * @param type Normal or Warning
   * @param reason the reason
   * @param message the message
   * @param component the reporting component
   * @param series whether it is written through {@code events.k8s.io/v1} (the scheduler) rather
   *     than the {@code core/v1} recorder (the kubelet)
   * @param repeats whether the component records it again on each retry
   */
  record RecordedEvent(
      String id,
      String type,
      String reason,
      String message,
      String component,
      boolean series,
      boolean repeats) {}
}
