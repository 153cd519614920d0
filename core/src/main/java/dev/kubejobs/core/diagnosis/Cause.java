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
package dev.kubejobs.core.diagnosis;

/**
 * The stable id of a diagnosed cause. Callers may switch on it and store its name; new constants
 * may be added in later versions, existing ones keep their meaning.
 */
public enum Cause {
  /**
   * The scheduler cannot place a pod: {@code PodScheduled=False} with reason {@code Unschedulable},
   * or {@code FailedScheduling} events (resources, node selector or affinity, taints, a
   * PersistentVolumeClaim not bound or not found).
   */
  UNSCHEDULABLE,
  /** A container image cannot be pulled: {@code ErrImagePull}, {@code ImagePullBackOff}, etc. */
  IMAGE_PULL_FAILED,
  /**
   * A container cannot be created from its configuration ({@code CreateContainerConfigError}: a
   * missing Secret, ConfigMap or key), or a volume cannot be mounted ({@code FailedMount}).
   */
  CONFIG_ERROR,
  /**
   * A container was killed for exceeding its memory limit ({@code OOMKilled}), the driver's or,
   * while the driver runs or after it failed, executors' (also an executor whose JVM ran out of
   * heap, Spark's exit code 52).
   */
  OOM_KILLED,
  /** The kubelet evicted a pod under node pressure; its message names the resource. */
  EVICTED,
  /** The driver container exited with a non-zero code. */
  DRIVER_EXITED_WITH_ERROR,
  /** A container of the pod (often a sidecar or init container) is in {@code CrashLoopBackOff}. */
  CONTAINER_CRASH_LOOP,
  /**
   * The operator could not submit the application (spark-submit or pod creation failed) for a
   * reason none of the refusals below names: fix the job's spec or the cluster as the error says.
   */
  SUBMISSION_FAILED,
  /**
   * A {@code ResourceQuota} refused a pod of the job ({@code "exceeded quota: NAME, requested: …,
   * used: …, limited: …"}); the summary names the quota. Quota frees up as other pods end: retry
   * later, raise the quota, or lower the job's requests.
   */
  QUOTA_EXCEEDED,
  /**
   * An admission webhook denied a pod or resource of the job ({@code "admission webhook "NAME"
   * denied the request: …"}); the summary names the webhook. A policy denies the same spec again:
   * change the spec, do not retry it as it is.
   */
  ADMISSION_DENIED,
  /**
   * An admission webhook that must be called could not be reached ({@code "failed calling webhook
   * "NAME": …"}: connection refused, a deadline exceeded); the summary names the webhook. The
   * cluster's fault, not the job's: retry later and tell the webhook's owners.
   */
  ADMISSION_WEBHOOK_UNREACHABLE,
  /**
   * RBAC forbade the operator's (or spark-submit's) service account a request ({@code "… is
   * forbidden: User "NAME" cannot VERB resource "RESOURCE" …"}); the summary names the user, verb
   * and resource. Grant it with a Role and RoleBinding.
   */
  FORBIDDEN_BY_RBAC,
  /** No operator wrote a status or an event for the application within the expected time. */
  OPERATOR_NOT_RUNNING,
  /**
   * A queueing system (Kueue, Volcano, YuniKorn) holds the job until it admits it; the summary
   * quotes the system and names its object: the Kueue Workload and LocalQueue, the Volcano
   * PodGroup, the YuniKorn queue.
   */
  WAITING_FOR_ADMISSION,
  /**
   * The driver runs while executor pods cannot start; or the job failed because its executors never
   * started (the Apache operator's {@code ExecutorsStartTimedOut}), explained from the executor
   * pods' {@code FailedScheduling} (or mount, image) events left after the pods are gone.
   */
  EXECUTORS_PENDING,
  /**
   * The driver runs while executors died: executor pods that exited with an error or were evicted,
   * or executors the operator lists as failed whose pods are gone; the summary names them and how
   * they died. Executors killed for memory alone are {@link #OOM_KILLED}.
   */
  EXECUTORS_DIED,
  /**
   * The driver was lost with its node: the node lifecycle controller's {@code NodeNotReady} or the
   * taint eviction's {@code TaintManagerEviction} event about the driver pod, or the pod's {@code
   * DisruptionTarget} condition ({@code DeletionByPodGC}: the node no longer exists; {@code
   * DeletionByTaintManager}), behind the Apache operator's {@code "Driver removed…"} failure or the
   * Kubeflow operator's {@code "driver pod not found"}; the summary names the node when an event or
   * the pod does. Not the job's fault: submit it again.
   */
  NODE_LOST,
  /** The operator reported a failure whose reason kubejobs passes on as the operator wrote it. */
  OPERATOR_REPORTED_FAILURE,
  /**
   * The job waits too long or failed, and no cause was found in what could be read; the diagnosis
   * names what could not be read (for example events, without the {@code list events} permission).
   */
  UNDETERMINED
}
