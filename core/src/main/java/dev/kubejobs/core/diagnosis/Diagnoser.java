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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Explains why a job is stuck or why it failed, from the driver pod, executor pods, the namespace's
 * events and the operator's status: a pure function of a {@link DiagnosisInput}, with no I/O, meant
 * to run as one step of the status pipeline.
 *
 * <p>What runs, in order (the first that explains the job wins):
 *
 * <ol>
 *   <li>Nothing for a job that succeeded or was cancelled, nor for a QUEUED job that waited less
 *       than {@link Builder#stuckAfter(Duration)}.
 *   <li>For a STARTED job, only its executors: pods pending longer than that ({@link
 *       Cause#EXECUTORS_PENDING}), pods that died ({@link Cause#OOM_KILLED}, {@link
 *       Cause#EXECUTORS_DIED}), then the operator's rules on its executor records.
 *   <li>The driver pod: lost with its node ({@code DisruptionTarget}), evicted, OOMKilled, a
 *       container waiting on its image, configuration or in CrashLoopBackOff, a volume that cannot
 *       be mounted, not schedulable (an unbound claim named with its event), held by scheduling
 *       gates (with the queueing system's words, below, when there are any) or skipped by YuniKorn
 *       for its queue's quota, the driver container exited with an error. For a failed job whose
 *       driver merely exited with an error, an OOMKilled executor is named instead.
 *   <li>For a FAILED job, a driver pod lost with its node: {@link Cause#NODE_LOST}.
 *   <li>The operator's rules ({@link Builder#rule(DiagnosisRule)}), in the order added.
 *   <li>A queueing system's events about the job (Kueue Workload, Volcano PodGroup, YuniKorn),
 *       Normal events included.
 *   <li>No status and no event from an operator after {@link Builder#stuckAfter(Duration)}, for a
 *       QUEUED job and for one FAILED by the no-status timeout: {@link Cause#OPERATOR_NOT_RUNNING}.
 *   <li>Nothing found while events could not be read: {@link Cause#UNDETERMINED}, naming what was
 *       not read.
 * </ol>
 *
 * <p>Events are only taken as evidence about the object they name, the pod's current incarnation
 * (same uid, not older than the pod), and a {@code FailedScheduling} event never explains a pod
 * that has been scheduled since. Immutable and thread safe.
 */
public final class Diagnoser {

  /** The default time a job may wait in QUEUED before it is diagnosed: 60 seconds. */
  public static final Duration DEFAULT_STUCK_AFTER = Duration.ofSeconds(60);

  private final Duration stuckAfter;
  private final List<DiagnosisRule> rules;

  private Diagnoser(Builder b) {
    this.stuckAfter = b.stuckAfter;
    this.rules = List.copyOf(b.rules);
  }

  /**
   * Returns a diagnoser with the default threshold and no operator rules.
   *
   * @return a new diagnoser
   */
  public static Diagnoser ofDefaults() {
    return builder().build();
  }

  /**
   * Starts a diagnoser.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns how long a job may wait before it is diagnosed.
   *
   * @return the threshold
   */
  public Duration stuckAfter() {
    return stuckAfter;
  }

  /**
   * Explains the job, if it is stuck or failed and a cause can be found.
   *
   * @param input what is known about the job
   * @return the diagnosis, or empty for a healthy job or when nothing explains it
   */
  public Optional<Diagnosis> diagnose(DiagnosisInput input) {
    Objects.requireNonNull(input, "input");
    JobStatus status = input.status();
    if (status == JobStatus.SUCCEEDED
        || status == JobStatus.CANCELLED
        || status == JobStatus.CANCELLING) {
      return Optional.empty();
    }
    if (status == JobStatus.STARTED) {
      Optional<Diagnosis> d = executorsPending(input);
      if (d.isEmpty()) {
        d = executorsDied(input);
      }
      for (int i = 0; d.isEmpty() && i < rules.size(); i++) {
        d = rules.get(i).diagnose(input, this);
      }
      return d;
    }
    if (status == JobStatus.QUEUED && input.waited().compareTo(stuckAfter) < 0) {
      return Optional.empty();
    }
    Optional<Diagnosis> d = input.driverPod().flatMap(p -> diagnosePod(p, "Driver", input));
    if (status == JobStatus.FAILED
        && (d.isEmpty() || d.get().cause() == Cause.DRIVER_EXITED_WITH_ERROR)) {
      Optional<Diagnosis> executorOom = executorOom(input, d);
      if (executorOom.isPresent()) {
        return executorOom;
      }
    }
    if (d.isPresent()
        && d.get().cause() == Cause.WAITING_FOR_ADMISSION
        && !d.get().evidence().isEmpty()
        && d.get().evidence().get(0).reason().equals("SchedulingGated")) {
      // A pod held by scheduling gates: the queueing system's own words say why it waits.
      Optional<Diagnosis> queue = admission(input);
      if (queue.isPresent()) {
        List<Evidence> evidence = new ArrayList<>(queue.get().evidence());
        evidence.addAll(d.get().evidence());
        return Optional.of(
            Diagnosis.of(
                Cause.WAITING_FOR_ADMISSION,
                queue.get().summary() + " " + d.get().summary(),
                evidence));
      }
    }
    if (d.isPresent()) {
      return d;
    }
    if (status == JobStatus.FAILED) {
      d = nodeLost(input);
      if (d.isPresent()) {
        return d;
      }
    }
    for (DiagnosisRule rule : rules) {
      d = rule.diagnose(input, this);
      if (d.isPresent()) {
        return d;
      }
    }
    d = admission(input);
    if (d.isEmpty()) {
      d = operatorSilent(input);
    }
    if (d.isEmpty()) {
      d = undetermined(input);
    }
    return d;
  }

  /**
   * Explains one pod from its status, conditions, container states and its own events; operator
   * rules call it on a pod status the operator copied (as the Apache operator's {@code
   * lastObservedDriverStatus}).
   *
   * @param pod the pod, or an object with {@code metadata.name} (and namespace) and {@code status}
   * @param role {@code "Driver"} or {@code "Executor"}: how the sentence names the pod
   * @param input the input whose events are read
   * @return the diagnosis, or empty when the pod shows no cause
   */
  public Optional<Diagnosis> diagnosePod(JsonObject pod, String role, DiagnosisInput input) {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(role, "role");
    return new PodRules(pod, role, input.events()).diagnose();
  }

  private Optional<Diagnosis> executorsPending(DiagnosisInput input) {
    List<JsonObject> executors = input.executorPods();
    int pending = 0;
    Diagnosis first = null;
    for (JsonObject pod : executors) {
      if (!"Pending".equals(PodRules.str(PodRules.obj(pod, "status"), "phase"))) {
        continue;
      }
      Instant created = PodRules.time(PodRules.obj(pod, "metadata"), "creationTimestamp");
      if (created != null && Duration.between(created, input.now()).compareTo(stuckAfter) < 0) {
        continue;
      }
      Optional<Diagnosis> d = diagnosePod(pod, "Executor", input);
      if (d.isPresent()) {
        pending++;
        if (first == null) {
          first = d.get();
        }
      }
    }
    if (first == null) {
      return Optional.empty();
    }
    return Optional.of(
        Diagnosis.of(
            Cause.EXECUTORS_PENDING,
            "The driver of "
                + input.applicationKind()
                + " "
                + input.namespace()
                + "/"
                + input.applicationName()
                + " runs, but "
                + pending
                + " of "
                + executors.size()
                + " executor pods cannot start: "
                + first.summary(),
            first.evidence()));
  }

  private static final Pattern ASSIGNED = Pattern.compile("^Successfully assigned \\S+ to (\\S+)$");

  /**
   * A failed job whose driver pod's node was lost: a {@code NodeNotReady} or {@code
   * TaintManagerEviction} event about the driver pod (the pod itself, or one named {@code
   * <app>…-driver} when it is gone), the node named from the pod or its {@code Scheduled} event.
   */
  private Optional<Diagnosis> nodeLost(DiagnosisInput input) {
    String driverName =
        input.driverPod().map(p -> PodRules.str(PodRules.obj(p, "metadata"), "name")).orElse(null);
    ClusterEvent lost = null;
    String pod = null;
    String node =
        input
            .driverPod()
            .map(p -> PodRules.str(PodRules.obj(p, "spec"), "nodeName"))
            .filter(n -> !n.isEmpty())
            .orElse(null);
    for (ClusterEvent e : input.events()) {
      if (!e.kind().equals("Pod")) {
        continue;
      }
      boolean driver =
          driverName != null
              ? e.name().equals(driverName)
              : podOfApp(e.name(), input.applicationName(), DRIVER_POD);
      if (!driver) {
        continue;
      }
      if (e.reason().equals("NodeNotReady") || e.reason().equals("TaintManagerEviction")) {
        if (lost == null || e.reason().equals("NodeNotReady")) {
          lost = e;
          pod = e.name();
        }
      }
    }
    if (lost == null) {
      return Optional.empty();
    }
    for (ClusterEvent e : input.events()) {
      Matcher m = ASSIGNED.matcher(e.message());
      if (node == null && e.reason().equals("Scheduled") && e.name().equals(pod) && m.find()) {
        node = m.group(1);
      }
    }
    List<Evidence> evidence = new ArrayList<>();
    for (ClusterEvent e : input.events()) {
      if (e.name().equals(pod)
          && (e.reason().equals("NodeNotReady") || e.reason().equals("TaintManagerEviction"))) {
        evidence.add(e.toEvidence());
      }
    }
    return Optional.of(
        Diagnosis.of(
            Cause.NODE_LOST,
            "The driver pod "
                + input.namespace()
                + "/"
                + pod
                + " of "
                + input.applicationKind()
                + " "
                + input.namespace()
                + "/"
                + input.applicationName()
                + " was lost with its node"
                + (node == null ? "" : " " + node)
                + " (the node stopped reporting ready and its pods were evicted): not the job's"
                + " fault; submit it again, and ask the cluster's owners about the node.",
            evidence));
  }

  /** The end of an executor pod's name: Spark's {@code <prefix>-exec-<id>}. */
  private static final Pattern EXECUTOR_POD = Pattern.compile("-exec-\\d+$");

  /** The end of a driver pod's name: {@code <prefix>-driver}. */
  private static final Pattern DRIVER_POD = Pattern.compile("-driver$");

  /** What may stand between the application's name and a pod's role: an attempt or an id. */
  private static final Pattern PREFIX_ID = Pattern.compile("(?:-[0-9a-z]+)?");

  /**
   * Whether a pod name is one the operators give a pod of application {@code app}: {@code app},
   * then at most one dash-free token (the Apache operator's attempt {@code <app>-<n>}, Spark's id
   * {@code <app>-<hex>}), then the role's ending; {@code app-2-0-exec-1} is not a pod of {@code
   * app}.
   */
  static boolean podOfApp(String pod, String app, Pattern ending) {
    if (!pod.startsWith(app)) {
      return false;
    }
    Matcher end = ending.matcher(pod);
    if (!end.find() || end.start() < app.length()) {
      return false;
    }
    return PREFIX_ID.matcher(pod.substring(app.length(), end.start())).matches();
  }

  /** The reasons of Warning events that keep a pod from starting, by what they say to do. */
  private static final List<String> START_FAILURES =
      List.of("FailedScheduling", "FailedMount", "Failed", "FailedCreatePodSandBox");

  /**
   * Explains a failed job's executors that never started, as the Apache operator's {@code
   * ExecutorsStartTimedOut} reports: executor pods still there that are stuck (diagnosed as pods),
   * else the events left about executor pods already gone ({@code <app>…-exec-<n>}): the latest
   * {@code FailedScheduling} (or mount, image or sandbox failure) of each, skipping a pod a later
   * {@code Scheduled} event shows placed (a scale-up that resolved it). Operator rules call it.
   *
   * @param input what is known about the job
   * @return {@link Cause#EXECUTORS_PENDING} naming the pods and quoting the reason, or empty when
   *     nothing about the executors was found
   */
  public Optional<Diagnosis> diagnoseExecutorsNotStarted(DiagnosisInput input) {
    Objects.requireNonNull(input, "input");
    String app = input.applicationKind() + " " + input.namespace() + "/" + input.applicationName();
    int stuck = 0;
    Diagnosis first = null;
    for (JsonObject pod : input.executorPods()) {
      if (!"Pending".equals(PodRules.str(PodRules.obj(pod, "status"), "phase"))) {
        continue;
      }
      Optional<Diagnosis> d = diagnosePod(pod, "Executor", input);
      if (d.isPresent()) {
        stuck++;
        first = first == null ? d.get() : first;
      }
    }
    if (first != null) {
      return Optional.of(
          Diagnosis.of(
              Cause.EXECUTORS_PENDING,
              "The executors of "
                  + app
                  + " never started ("
                  + stuck
                  + (stuck == 1 ? " executor pod" : " executor pods")
                  + " stuck): "
                  + first.summary(),
              first.evidence()));
    }
    java.util.Map<String, ClusterEvent> latest = new java.util.TreeMap<>();
    java.util.Set<String> placed = new java.util.HashSet<>();
    for (ClusterEvent e : input.events()) {
      if (!e.kind().equals("Pod") || !podOfApp(e.name(), input.applicationName(), EXECUTOR_POD)) {
        continue;
      }
      if (e.reason().equals("Scheduled")) {
        placed.add(e.name());
      }
      if (!e.type().equals("Warning") || !START_FAILURES.contains(e.reason())) {
        continue;
      }
      ClusterEvent seen = latest.get(e.name());
      if (seen == null
          || e.lastSeen().orElse(Instant.MIN).isAfter(seen.lastSeen().orElse(Instant.MIN))) {
        latest.put(e.name(), e);
      }
    }
    List<ClusterEvent> found = new ArrayList<>();
    for (ClusterEvent e : latest.values()) {
      // A pod the scheduler placed after its FailedScheduling was not kept from starting by it.
      if (!(e.reason().equals("FailedScheduling") && placed.contains(e.name()))) {
        found.add(e);
      }
    }
    if (found.isEmpty()) {
      return Optional.empty();
    }
    ClusterEvent telling = found.get(0);
    for (ClusterEvent e : found) {
      if (e.lastSeen().orElse(Instant.MIN).isAfter(telling.lastSeen().orElse(Instant.MIN))) {
        telling = e;
      }
    }
    String todo;
    switch (telling.reason()) {
      case "FailedScheduling":
        todo =
            " Lower the executors' requests (spark.executor.cores, spark.executor.memory and"
                + " its overhead) or their number, fix their node selector, affinity or"
                + " tolerations, or add nodes that fit.";
        break;
      case "FailedMount":
        todo = " Create the ConfigMap, Secret or volume it names, or fix the reference.";
        break;
      case "Failed":
        todo = " Fix the executors' image or configuration as the kubelet says.";
        break;
      default:
        todo = " Ask the cluster's owners about the node's container runtime or network.";
        break;
    }
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(telling.toEvidence());
    for (ClusterEvent e : found) {
      if (e != telling && evidence.size() < MAX_NAMED) {
        evidence.add(e.toEvidence());
      }
    }
    return Optional.of(
        Diagnosis.of(
            Cause.EXECUTORS_PENDING,
            "The executors of "
                + app
                + " never started: "
                + found.size()
                + (found.size() == 1 ? " executor pod" : " executor pods")
                + " (their pods are gone; events remain) could not start, "
                + telling.name()
                + " last with "
                + telling.reason()
                + ": "
                + PodRules.firstSentence(telling.message())
                + todo,
            evidence));
  }

  /** The most executor deaths named in a summary; the rest are counted. */
  private static final int MAX_NAMED = 5;

  /**
   * Executor pods of a running driver that died: OOMKilled, out of heap, evicted or exited with an
   * error, named with how, and what to raise. OOM_KILLED when every death was for memory.
   */
  private Optional<Diagnosis> executorsDied(DiagnosisInput input) {
    List<PodRules.Death> deaths = new ArrayList<>();
    for (JsonObject pod : input.executorPods()) {
      new PodRules(pod, "Executor", input.events()).death().ifPresent(deaths::add);
    }
    if (deaths.isEmpty()) {
      return Optional.empty();
    }
    EnumSet<PodRules.DeathKind> kinds = EnumSet.noneOf(PodRules.DeathKind.class);
    StringBuilder named = new StringBuilder();
    List<Evidence> evidence = new ArrayList<>();
    for (int i = 0; i < deaths.size(); i++) {
      PodRules.Death death = deaths.get(i);
      kinds.add(death.kind());
      if (i < MAX_NAMED) {
        named.append(i == 0 ? "" : ", ").append(death.pod()).append(' ').append(death.how());
        evidence.add(death.evidence());
      }
    }
    if (deaths.size() > MAX_NAMED) {
      named.append(" and ").append(deaths.size() - MAX_NAMED).append(" more");
    }
    StringBuilder advice = new StringBuilder();
    if (kinds.contains(PodRules.DeathKind.OOM_KILLED)) {
      advice.append(
          " An OOMKilled executor used more memory than its pod's limit, outside the JVM heap"
              + " too: raise spark.executor.memoryOverhead (or spark.executor.memory).");
    }
    if (kinds.contains(PodRules.DeathKind.OUT_OF_HEAP)) {
      advice.append(
          " An executor out of JVM heap needs a larger spark.executor.memory, or smaller"
              + " partitions.");
    }
    if (kinds.contains(PodRules.DeathKind.EVICTED)) {
      advice.append(
          " An evicted executor ran on a node short of the resource named: request enough of it,"
              + " or run on nodes with more.");
    }
    if (kinds.contains(PodRules.DeathKind.EXITED)) {
      advice.append(" Read the executors' logs for the error of the others.");
    }
    boolean memoryOnly =
        kinds.stream()
            .allMatch(
                k -> k == PodRules.DeathKind.OOM_KILLED || k == PodRules.DeathKind.OUT_OF_HEAP);
    return Optional.of(
        Diagnosis.of(
            memoryOnly ? Cause.OOM_KILLED : Cause.EXECUTORS_DIED,
            "The driver of "
                + input.applicationKind()
                + " "
                + input.namespace()
                + "/"
                + input.applicationName()
                + " runs, but "
                + deaths.size()
                + (deaths.size() == 1 ? " executor pod" : " executor pods")
                + " died: "
                + named
                + "."
                + advice,
            evidence));
  }

  private Optional<Diagnosis> executorOom(DiagnosisInput input, Optional<Diagnosis> driver) {
    for (JsonObject pod : input.executorPods()) {
      Optional<Diagnosis> d = diagnosePod(pod, "Executor", input);
      if (d.isPresent() && d.get().cause() == Cause.OOM_KILLED) {
        List<Evidence> evidence = new ArrayList<>(d.get().evidence());
        driver.ifPresent(x -> evidence.addAll(x.evidence()));
        return Optional.of(Diagnosis.of(Cause.OOM_KILLED, d.get().summary(), evidence));
      }
    }
    return Optional.empty();
  }

  /** Kueue's label naming a job's (or pod's) LocalQueue ({@code constants.QueueLabel}). */
  static final String KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name";

  /** The annotation naming a pod's PodGroup, which Volcano and the Kubeflow operator set. */
  static final String GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name";

  /**
   * Explains a job a queueing system holds, from that system's events: a Kueue Workload's {@code
   * Pending} event ({@code "couldn't assign flavors to pod set …: insufficient unused quota …"}), a
   * Volcano PodGroup's (the one the driver pod's {@code scheduling.k8s.io/group-name} names, or one
   * named after the job), a YuniKorn event about the job's pods; the summary names the Workload or
   * PodGroup, the Kueue LocalQueue ({@code kueue.x-k8s.io/queue-name} on the application or its
   * driver pod) and the YuniKorn queue. Operator rules call it, e.g. for an application suspended
   * until Kueue admits it.
   *
   * @param input what is known about the job
   * @return {@link Cause#WAITING_FOR_ADMISSION}, or empty when no queueing system's event was found
   */
  public Optional<Diagnosis> diagnoseAdmission(DiagnosisInput input) {
    return admission(Objects.requireNonNull(input, "input"));
  }

  private Optional<Diagnosis> admission(DiagnosisInput input) {
    String app = input.applicationName();
    JsonObject driverMeta = input.driverPod().map(p -> PodRules.obj(p, "metadata")).orElse(null);
    String driverName = driverMeta == null ? "\u0000" : PodRules.str(driverMeta, "name");
    String group = PodRules.str(PodRules.obj(driverMeta, "annotations"), GROUP_NAME_ANNOTATION);
    ClusterEvent found = null;
    String system = null;
    for (ClusterEvent e : input.events()) {
      boolean related =
          e.name().contains(app)
              || e.name().contains(driverName)
              || !group.isEmpty() && e.kind().equals("PodGroup") && e.name().equals(group);
      if (!related) {
        continue;
      }
      String reporter = e.reporter().toLowerCase(Locale.ROOT);
      String message = e.message().toLowerCase(Locale.ROOT);
      String candidate = null;
      if (e.kind().equals("Workload")
          && (message.contains("quota") || e.reason().equals("Pending"))) {
        candidate = "Kueue";
      } else if (e.kind().equals("PodGroup")
          && !e.reason().equals("Scheduled")
          && !e.reason().equals("Running")) {
        candidate = "Volcano";
      } else if (reporter.contains("yunikorn")
          && (message.contains("queue") || message.contains("quota"))) {
        candidate = "YuniKorn";
      } else if (message.contains("insufficient unused quota")) {
        candidate = "Kueue";
      }
      if (candidate != null
          && (found == null
              || e.lastSeen().orElse(Instant.MIN).isAfter(found.lastSeen().orElse(Instant.MIN)))) {
        found = e;
        system = candidate;
      }
    }
    if (found == null) {
      return Optional.empty();
    }
    StringBuilder names = new StringBuilder(found.kind()).append(' ').append(found.name());
    if (system.equals("Kueue")) {
      String queue = input.applicationLabels().get(KUEUE_QUEUE_LABEL);
      if (queue == null || queue.isEmpty()) {
        queue = PodRules.str(PodRules.obj(driverMeta, "labels"), KUEUE_QUEUE_LABEL);
      }
      if (queue != null && !queue.isEmpty()) {
        names.append(", LocalQueue ").append(queue);
      }
    } else if (system.equals("YuniKorn") && input.driverPod().isPresent()) {
      String queue = new PodRules(input.driverPod().get(), "Driver", List.of()).yunikornQueue();
      if (queue != null) {
        names.append(", queue ").append(queue);
      }
    }
    return Optional.of(
        Diagnosis.of(
            Cause.WAITING_FOR_ADMISSION,
            input.applicationKind()
                + " "
                + input.namespace()
                + "/"
                + app
                + " waits for "
                + system
                + " to admit it ("
                + names
                + "): "
                + PodRules.firstSentence(found.message())
                + " It starts when its queue has room; free quota or raise the queue's quota.",
            List.of(found.toEvidence())));
  }

  private Optional<Diagnosis> operatorSilent(DiagnosisInput input) {
    // A FAILED job with no status is one the no-status timeout failed (or one deleted before any
    // operator wrote to it): the same cause as a QUEUED one, once it waited past the threshold.
    boolean waiting = input.status() == JobStatus.QUEUED;
    boolean failedWaiting =
        input.status() == JobStatus.FAILED && input.waited().compareTo(stuckAfter) >= 0;
    if (!(waiting || failedWaiting) || input.driverPod().isPresent()) {
      return Optional.empty();
    }
    boolean noStatus = input.operatorStatus().map(Diagnoser::blank).orElse(true);
    if (!noStatus) {
      return Optional.empty();
    }
    for (ClusterEvent e : input.events()) {
      if (e.isAbout(input.applicationKind(), input.applicationName(), null)) {
        return Optional.empty();
      }
    }
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(
        Evidence.builder(
                Evidence.Source.OPERATOR_STATUS,
                input.applicationKind() + " " + input.namespace() + "/" + input.applicationName())
            .reason("NoStatus")
            .message("no status written after " + input.waited().toSeconds() + " s")
            .build());
    input.eventsNotRead().ifPresent(r -> evidence.add(notRead(input, r)));
    return Optional.of(
        Diagnosis.of(
            Cause.OPERATOR_NOT_RUNNING,
            "No operator has written a status or an event for "
                + input.applicationKind()
                + " "
                + input.namespace()
                + "/"
                + input.applicationName()
                + " in "
                + input.waited().toSeconds()
                + " s"
                + (failedWaiting ? ", so it was failed" : "")
                + ": check that the operator runs and watches namespace "
                + input.namespace()
                + ".",
            evidence));
  }

  /**
   * Whether a status holds nothing an operator wrote: no field, or only empty strings and empty
   * objects (the Kubeflow operator's {@code applicationState.state ""} before it picks the
   * application up).
   */
  private static boolean blank(JsonElement e) {
    if (e == null || e.isJsonNull()) {
      return true;
    }
    if (e.isJsonObject()) {
      for (Map.Entry<String, JsonElement> f : e.getAsJsonObject().entrySet()) {
        if (!blank(f.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (e.isJsonArray()) {
      return e.getAsJsonArray().isEmpty();
    }
    return e.getAsJsonPrimitive().isString() && e.getAsString().isEmpty();
  }

  private Optional<Diagnosis> undetermined(DiagnosisInput input) {
    if (input.eventsNotRead().isEmpty()) {
      return Optional.empty();
    }
    String reason = input.eventsNotRead().get();
    return Optional.of(
        Diagnosis.of(
            Cause.UNDETERMINED,
            input.applicationKind()
                + " "
                + input.namespace()
                + "/"
                + input.applicationName()
                + " is "
                + input.status()
                + " and no cause was found in what could be read; events could not be read ("
                + PodRules.firstSentence(reason)
                + ") Allow list on events in namespace "
                + input.namespace()
                + " to see the scheduler's and kubelet's reasons.",
            List.of(notRead(input, reason))));
  }

  private static Evidence notRead(DiagnosisInput input, String reason) {
    return Evidence.builder(Evidence.Source.NOT_READ, "Events in namespace " + input.namespace())
        .message(reason)
        .build();
  }

  /** Builds a {@link Diagnoser}; not thread safe. */
  public static final class Builder {
    private Duration stuckAfter = DEFAULT_STUCK_AFTER;
    private final List<DiagnosisRule> rules = new ArrayList<>();

    private Builder() {}

    /**
     * Sets how long a job may wait in QUEUED, or an executor pod in Pending, before it is diagnosed
     * (default {@link #DEFAULT_STUCK_AFTER}).
     *
     * @param stuckAfter the threshold, positive
     * @return this builder
     * @throws IllegalArgumentException if {@code stuckAfter} is zero or negative
     */
    public Builder stuckAfter(Duration stuckAfter) {
      Objects.requireNonNull(stuckAfter, "stuckAfter");
      if (stuckAfter.isZero() || stuckAfter.isNegative()) {
        throw new IllegalArgumentException(
            "stuckAfter must be positive, but was " + stuckAfter + "; e.g. Duration.ofSeconds(60)");
      }
      this.stuckAfter = stuckAfter;
      return this;
    }

    /**
     * Adds an operator's rule, run after the driver pod's rules in the order added.
     *
     * @param rule the rule
     * @return this builder
     */
    public Builder rule(DiagnosisRule rule) {
      rules.add(Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /**
     * Builds the diagnoser.
     *
     * @return a new diagnoser
     */
    public Diagnoser build() {
      return new Diagnoser(this);
    }
  }
}
