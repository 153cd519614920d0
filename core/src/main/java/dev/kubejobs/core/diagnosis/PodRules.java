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

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The rules that read one pod: its status, conditions, container states and its own events. */
final class PodRules {

  private static final Pattern PVC_NOT_FOUND =
      Pattern.compile("persistentvolumeclaim \"([^\"]+)\" not found", Pattern.CASE_INSENSITIVE);
  private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");
  private static final Pattern CONFIGMAP_NOT_FOUND =
      Pattern.compile("configmap \"([^\"]+)\" not found", Pattern.CASE_INSENSITIVE);

  private final JsonObject pod;
  private final String role;
  private final String podName;
  private final String object;
  private final List<ClusterEvent> events;
  private final List<ClusterEvent> allEvents;

  /**
   * Reads a pod.
   *
   * @param pod the pod, or a pod-shaped object with only {@code metadata.name} and {@code status}
   * @param role {@code "Driver"} or {@code "Executor"}, the start of each sentence
   * @param allEvents the namespace's events; only those about this pod's current incarnation and
   *     not older than it are read
   */
  PodRules(JsonObject pod, String role, List<ClusterEvent> allEvents) {
    this.pod = pod;
    this.role = role;
    JsonObject metadata = obj(pod, "metadata");
    this.podName = str(metadata, "name");
    String ns = str(metadata, "namespace");
    this.object = "Pod " + (ns.isEmpty() ? "" : ns + "/") + podName;
    String uid = str(metadata, "uid");
    Instant created = time(metadata, "creationTimestamp");
    List<ClusterEvent> own = new ArrayList<>();
    for (ClusterEvent e : allEvents) {
      if (!e.isAbout("Pod", podName, uid)) {
        continue;
      }
      // An event last seen before this pod existed is about an earlier pod of the same name.
      if (created != null && e.lastSeen().isPresent() && e.lastSeen().get().isBefore(created)) {
        continue;
      }
      own.add(e);
    }
    this.events = own;
    this.allEvents = allEvents;
  }

  /** Runs the rules in order; the first that explains the pod wins. */
  Optional<Diagnosis> diagnose() {
    Optional<Diagnosis> d = lostWithNode();
    if (d.isEmpty()) {
      d = evicted();
    }
    if (d.isEmpty()) {
      d = oomKilled();
    }
    if (d.isEmpty()) {
      d = waiting();
    }
    if (d.isEmpty()) {
      d = failedMount();
    }
    if (d.isEmpty()) {
      d = unscheduled();
    }
    if (d.isEmpty()) {
      d = exitedWithError();
    }
    return d;
  }

  private String subject() {
    return role + " pod " + object.substring("Pod ".length());
  }

  /** The scheduler's event naming the node a pod was bound to. */
  private static final Pattern ASSIGNED = Pattern.compile("^Successfully assigned \\S+ to (\\S+)$");

  /**
   * Returns the node the pod was bound to: its {@code spec.nodeName}, else the node its {@code
   * Scheduled} event names.
   *
   * @return the node, or null when unknown
   */
  String node() {
    String node = str(obj(pod, "spec"), "nodeName");
    if (!node.isEmpty()) {
      return node;
    }
    for (ClusterEvent e : events) {
      Matcher m = ASSIGNED.matcher(e.message());
      if (e.reason().equals("Scheduled") && m.find()) {
        return m.group(1);
      }
    }
    return null;
  }

  /**
   * A pod deleted because its node was lost: the {@code DisruptionTarget} condition the pod garbage
   * collector sets on a pod whose node object is gone ({@code DeletionByPodGC}, {@code "PodGC: node
   * no longer exists"}) or the taint eviction controller on a pod of a node tainted {@code
   * NoExecute} ({@code DeletionByTaintManager}), as the pod or a copy of its status shows it.
   */
  private Optional<Diagnosis> lostWithNode() {
    JsonObject disruption = condition(obj(pod, "status"), "DisruptionTarget");
    if (disruption == null || !"True".equals(str(disruption, "status"))) {
      return Optional.empty();
    }
    String reason = str(disruption, "reason");
    if (!reason.equals("DeletionByPodGC") && !reason.equals("DeletionByTaintManager")) {
      return Optional.empty();
    }
    String node = node();
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(
        Evidence.builder(Evidence.Source.POD_CONDITION, object)
            .type("DisruptionTarget=True")
            .reason(reason)
            .message(str(disruption, "message"))
            .firstSeen(time(disruption, "lastTransitionTime"))
            .build());
    for (ClusterEvent e : events) {
      if (e.reason().equals("NodeNotReady") || e.reason().equals("TaintManagerEviction")) {
        evidence.add(e.toEvidence());
      }
    }
    return Optional.of(
        Diagnosis.of(
            Cause.NODE_LOST,
            subject()
                + " was lost with its node"
                + (node == null ? "" : " " + node)
                + (reason.equals("DeletionByPodGC")
                    ? " (the node no longer exists; the pod garbage collector deleted the pod)"
                    : " (the node was tainted NoExecute, as a node that stops reporting ready is,"
                        + " and its pods were evicted)")
                + ": not the job's fault; submit it again, and ask the cluster's owners about the"
                + " node.",
            evidence));
  }

  private Optional<Diagnosis> evicted() {
    JsonObject status = obj(pod, "status");
    if (!"Evicted".equals(str(status, "reason"))) {
      return Optional.empty();
    }
    String message = str(status, "message");
    Evidence e =
        Evidence.builder(Evidence.Source.POD_STATUS, object)
            .type(str(status, "phase"))
            .reason("Evicted")
            .message(message)
            .build();
    return Optional.of(
        Diagnosis.of(
            Cause.EVICTED,
            subject()
                + " was evicted by the kubelet: "
                + firstSentence(message)
                + " Request enough of that resource for the pod, or run it on nodes with more.",
            List.of(e)));
  }

  private Optional<Diagnosis> oomKilled() {
    for (Container c : containers()) {
      for (String which : new String[] {"state", "lastState"}) {
        JsonObject t = obj(obj(c.status, which), "terminated");
        if ("OOMKilled".equals(str(t, "reason"))) {
          String memorySetting =
              role.equals("Driver")
                  ? "spark.driver.memory or spark.driver.memoryOverhead"
                  : "spark.executor.memory or spark.executor.memoryOverhead";
          return Optional.of(
              Diagnosis.of(
                  Cause.OOM_KILLED,
                  "Container "
                      + c.name
                      + " of "
                      + lower(subject())
                      + " was OOMKilled (exit code "
                      + num(t, "exitCode")
                      + "): it used more memory than its limit; raise "
                      + memorySetting
                      + ".",
                  List.of(terminatedEvidence(c, t))));
        }
      }
    }
    return Optional.empty();
  }

  private Optional<Diagnosis> waiting() {
    for (Container c : containers()) {
      JsonObject w = obj(obj(c.status, "state"), "waiting");
      String reason = str(w, "reason");
      String message = str(w, "message");
      Evidence ev =
          Evidence.builder(Evidence.Source.CONTAINER_STATE, c.describe(object))
              .type("waiting")
              .reason(reason)
              .message(message)
              .build();
      switch (reason) {
        case "ErrImagePull":
        case "ImagePullBackOff":
        case "InvalidImageName":
        case "ErrImageNeverPull":
          return Optional.of(imagePull(c, reason, message, ev));
        case "CreateContainerConfigError":
        case "CreateContainerError":
          return Optional.of(
              Diagnosis.of(
                  Cause.CONFIG_ERROR,
                  "Container "
                      + c.name
                      + " of "
                      + lower(subject())
                      + " cannot be created: "
                      + firstSentence(message)
                      + " Create what it names or fix the reference in the job's spec.",
                  withEvents(ev, "Failed")));
        case "CrashLoopBackOff":
          {
            JsonObject last = obj(obj(c.status, "lastState"), "terminated");
            List<Evidence> evidence = new ArrayList<>();
            evidence.add(ev);
            if (last != null) {
              evidence.add(terminatedEvidence(c, last));
            }
            String exit =
                last == null
                    ? ""
                    : " (last exit code "
                        + num(last, "exitCode")
                        + ", "
                        + str(last, "reason")
                        + ")";
            return Optional.of(
                Diagnosis.of(
                    Cause.CONTAINER_CRASH_LOOP,
                    (c.kind.isEmpty() ? "Container " : c.kind + " container ")
                        + c.name
                        + " of "
                        + lower(subject())
                        + " keeps crashing"
                        + exit
                        + "; read its log (kubectl logs --previous -c "
                        + c.name
                        + ") and fix its command or configuration.",
                    evidence));
          }
        default:
          break;
      }
    }
    return Optional.empty();
  }

  private Diagnosis imagePull(Container c, String reason, String message, Evidence ev) {
    String image = str(c.spec, "image");
    if (image.isEmpty()) {
      image = str(c.status, "image");
    }
    if (image.isEmpty()) {
      Matcher m = QUOTED.matcher(message);
      image = m.find() ? m.group(1) : "?";
    }
    List<Evidence> evidence = withEvents(ev, "Failed");
    StringBuilder registry = new StringBuilder(message);
    for (ClusterEvent e : events) {
      if (e.reason().equals("Failed")) {
        registry.append('\n').append(e.message());
      }
    }
    String answer = registry.toString().toLowerCase(Locale.ROOT);
    String what;
    if (reason.equals("InvalidImageName")) {
      what = "the name is not a valid image reference; fix spark.kubernetes.container.image.";
    } else if (answer.contains("unauthorized")
        || answer.contains("401")
        || answer.contains("403")
        || answer.contains("denied")
        || answer.contains("authorization failed")
        || answer.contains("no basic auth credentials")) {
      what =
          "the registry refused access; give the pod credentials for it (imagePullSecrets) or"
              + " check the name.";
    } else if (answer.contains("not found")
        || answer.contains("manifest unknown")
        || answer.contains("notfound")) {
      what = "the registry says it does not exist; check the image name and tag.";
    } else if (reason.equals("ErrImageNeverPull")) {
      what = "its pull policy is Never and the node does not have it.";
    } else {
      what = firstSentence(message) + " Check the image name, tag and the registry's reachability.";
    }
    return Diagnosis.of(
        Cause.IMAGE_PULL_FAILED,
        subject()
            + " cannot pull image \""
            + image
            + "\" for container "
            + c.name
            + " ("
            + reason
            + "): "
            + what,
        evidence);
  }

  private Optional<Diagnosis> failedMount() {
    if (!"Pending".equals(str(obj(pod, "status"), "phase"))) {
      return Optional.empty();
    }
    ClusterEvent mount = lastWith("FailedMount");
    if (mount == null) {
      return Optional.empty();
    }
    String hint = "";
    Matcher m = CONFIGMAP_NOT_FOUND.matcher(mount.message());
    if (m.find() && m.group(1).endsWith("-driver-conf-map")) {
      hint =
          " ConfigMap "
              + m.group(1)
              + " holds the Spark conf that spark-submit writes with the driver pod; it is"
              + " missing when the pod outlived it or was created without it: submit the job"
              + " again.";
    } else {
      hint = " Create the ConfigMap, Secret or volume it names, or fix the reference.";
    }
    return Optional.of(
        Diagnosis.of(
            Cause.CONFIG_ERROR,
            subject() + " cannot mount a volume: " + firstSentence(mount.message()) + hint,
            List.of(mount.toEvidence())));
  }

  private Optional<Diagnosis> unscheduled() {
    JsonObject status = obj(pod, "status");
    JsonObject scheduled = condition(status, "PodScheduled");
    if (scheduled != null && "True".equals(str(scheduled, "status"))) {
      // A FailedScheduling event from before the pod was placed explains nothing now.
      return Optional.empty();
    }
    if (!str(obj(pod, "spec"), "nodeName").isEmpty()) {
      return Optional.empty();
    }
    List<Evidence> evidence = new ArrayList<>();
    String message = "";
    String reason = "";
    if (scheduled != null && "False".equals(str(scheduled, "status"))) {
      reason = str(scheduled, "reason");
      message = str(scheduled, "message");
      evidence.add(
          Evidence.builder(Evidence.Source.POD_CONDITION, object)
              .type("PodScheduled=False")
              .reason(reason)
              .message(message)
              .firstSeen(time(scheduled, "lastTransitionTime"))
              .build());
    }
    if (reason.equals("SchedulingGated")) {
      List<String> gates = new ArrayList<>();
      for (JsonElement g : arr(obj(pod, "spec"), "schedulingGates")) {
        if (g.isJsonObject()) {
          gates.add(str(g.getAsJsonObject(), "name"));
        }
      }
      return Optional.of(
          Diagnosis.of(
              Cause.WAITING_FOR_ADMISSION,
              subject()
                  + " is held by scheduling gates "
                  + gates
                  + " until a queueing system (such as Kueue) admits it; see that queue's"
                  + " quota.",
              evidence));
    }
    if (reason.equals("SchedulingSkipped")) {
      // YuniKorn marks a pod it skips for its queue's quota this way, with a Normal
      // PodUnschedulable event (apache/yunikorn-k8shim pkg/cache/context.go).
      ClusterEvent skipped = lastWith("PodUnschedulable");
      if (skipped != null) {
        evidence.add(skipped.toEvidence());
      }
      String queue = yunikornQueue();
      return Optional.of(
          Diagnosis.of(
              Cause.WAITING_FOR_ADMISSION,
              subject()
                  + " is skipped by YuniKorn because its queue"
                  + (queue == null ? "'s" : " " + queue + "'s")
                  + " quota is exceeded"
                  + (message.isEmpty() ? "." : ": " + firstSentence(message))
                  + " It starts when the queue has room; free quota or raise the queue's limit.",
              evidence));
    }
    ClusterEvent failed = lastWith("FailedScheduling");
    if (failed != null) {
      evidence.add(failed.toEvidence());
      if (message.isEmpty()) {
        message = failed.message();
      }
    }
    if (evidence.isEmpty() || message.isEmpty() && !reason.equals("Unschedulable")) {
      return Optional.empty();
    }
    Matcher pvc = PVC_NOT_FOUND.matcher(message);
    String todo;
    if (pvc.find()) {
      todo = " Create PersistentVolumeClaim \"" + pvc.group(1) + "\" or fix the volume's claim.";
    } else if (message.contains("unbound immediate PersistentVolumeClaims")) {
      List<String> claims = claimNames();
      ClusterEvent claimEvent = latestClaimEvent(claims);
      if (claimEvent != null) {
        evidence.add(claimEvent.toEvidence());
      }
      todo =
          (claims.isEmpty()
                  ? " Its PersistentVolumeClaim is not bound"
                  : " PersistentVolumeClaim "
                      + String.join(", ", claims)
                      + (claims.size() == 1 ? " is" : " are")
                      + " not bound")
              + (claimEvent == null
                  ? ": check the claim's storage class and events."
                  : " ("
                      + claimEvent.reason()
                      + " event on PersistentVolumeClaim "
                      + claimEvent.name()
                      + ": "
                      + firstSentence(claimEvent.message()).replaceAll("\\.$", "")
                      + "): fix the claim's storage class or create a volume it can bind to.");
    } else {
      todo =
          " Lower its requests, fix its node selector, affinity or tolerations, or add nodes"
              + " that fit.";
    }
    return Optional.of(
        Diagnosis.of(
            Cause.UNSCHEDULABLE,
            subject() + " cannot be scheduled: " + firstSentence(message) + todo,
            evidence));
  }

  /** The claims the pod's volumes name ({@code spec.volumes[].persistentVolumeClaim.claimName}). */
  private List<String> claimNames() {
    List<String> out = new ArrayList<>();
    for (JsonElement v : arr(obj(pod, "spec"), "volumes")) {
      if (v.isJsonObject()) {
        String claim = str(obj(v.getAsJsonObject(), "persistentVolumeClaim"), "claimName");
        if (!claim.isEmpty() && !out.contains(claim)) {
          out.add(claim);
        }
      }
    }
    return out;
  }

  /**
   * The latest Warning event about one of the claims (the volume controller's {@code
   * ProvisioningFailed}, {@code FailedBinding}), else the latest Normal one ({@code
   * WaitForFirstConsumer}, {@code ExternalProvisioning}).
   */
  private ClusterEvent latestClaimEvent(List<String> claims) {
    ClusterEvent best = null;
    for (ClusterEvent e : allEvents) {
      if (!e.kind().equals("PersistentVolumeClaim") || !claims.contains(e.name())) {
        continue;
      }
      boolean warning = e.type().equals("Warning");
      boolean bestWarning = best != null && best.type().equals("Warning");
      if (best == null
          || warning && !bestWarning
          || warning == bestWarning
              && e.lastSeen().orElse(Instant.MIN).isAfter(best.lastSeen().orElse(Instant.MIN))) {
        best = e;
      }
    }
    return best;
  }

  /**
   * The YuniKorn queue the pod asks for: its label {@code queue} or annotation {@code
   * yunikorn.apache.org/queue} (apache/yunikorn-k8shim {@code pkg/common/constants}).
   */
  String yunikornQueue() {
    JsonObject metadata = obj(pod, "metadata");
    String queue = str(obj(metadata, "annotations"), "yunikorn.apache.org/queue");
    if (queue.isEmpty()) {
      queue = str(obj(metadata, "labels"), "queue");
    }
    return queue.isEmpty() ? null : queue;
  }

  private Optional<Diagnosis> exitedWithError() {
    if (!role.equals("Driver")) {
      return Optional.empty();
    }
    for (Container c : containers()) {
      if (!c.kind.isEmpty() || !c.isDriver) {
        continue;
      }
      JsonObject t = obj(obj(c.status, "state"), "terminated");
      if (t == null || num(t, "exitCode") == 0) {
        continue;
      }
      String message = str(t, "message");
      return Optional.of(
          Diagnosis.of(
              Cause.DRIVER_EXITED_WITH_ERROR,
              "Driver container "
                  + c.name
                  + " of pod "
                  + object.substring("Pod ".length())
                  + " exited with code "
                  + num(t, "exitCode")
                  + " ("
                  + str(t, "reason")
                  + ")"
                  + (message.isEmpty() ? "" : ": " + lastLine(message))
                  + "; read the driver log for the error.",
              List.of(terminatedEvidence(c, t))));
    }
    return Optional.empty();
  }

  /** How an executor pod died. */
  enum DeathKind {
    /** The kernel killed a container at its memory limit: raise the memory overhead. */
    OOM_KILLED,
    /** The JVM ran out of heap: Spark's {@code SparkExitCode.OOM}, exit code 52. */
    OUT_OF_HEAP,
    /** The kubelet evicted the pod under node pressure. */
    EVICTED,
    /** A container exited with another non-zero code. */
    EXITED
  }

  /** An executor pod's death: the pod, how, in words, and the evidence. */
  record Death(String pod, DeathKind kind, String how, Evidence evidence) {}

  /** Spark's exit code of a JVM that ran out of heap ({@code SparkExitCode.OOM}). */
  private static final long SPARK_OOM_EXIT = 52;

  /**
   * How this pod died, when it did: evicted, a container OOMKilled (now or in its last state), or a
   * container terminated with a non-zero code; empty for a pod that lives or ended well.
   */
  Optional<Death> death() {
    String name = object.substring("Pod ".length());
    JsonObject status = obj(pod, "status");
    if ("Evicted".equals(str(status, "reason"))) {
      return Optional.of(
          new Death(
              name,
              DeathKind.EVICTED,
              "evicted (" + firstSentence(str(status, "message")).replaceAll("\\.$", "") + ")",
              Evidence.builder(Evidence.Source.POD_STATUS, object)
                  .type(str(status, "phase"))
                  .reason("Evicted")
                  .message(str(status, "message"))
                  .build()));
    }
    Death exited = null;
    for (Container c : containers()) {
      for (String which : new String[] {"state", "lastState"}) {
        JsonObject t = obj(obj(c.status, which), "terminated");
        if (t == null || num(t, "exitCode") == 0) {
          continue;
        }
        long code = num(t, "exitCode");
        if ("OOMKilled".equals(str(t, "reason"))) {
          return Optional.of(
              new Death(
                  name,
                  DeathKind.OOM_KILLED,
                  "OOMKilled (exit code " + code + ")",
                  terminatedEvidence(c, t)));
        }
        if (exited == null) {
          boolean heap = code == SPARK_OOM_EXIT;
          exited =
              new Death(
                  name,
                  heap ? DeathKind.OUT_OF_HEAP : DeathKind.EXITED,
                  heap
                      ? "out of JVM heap (exit code 52)"
                      : "exited with code "
                          + code
                          + (str(t, "reason").isEmpty() ? "" : " (" + str(t, "reason") + ")"),
                  terminatedEvidence(c, t));
        }
      }
    }
    return Optional.ofNullable(exited);
  }

  private Evidence terminatedEvidence(Container c, JsonObject t) {
    return Evidence.builder(Evidence.Source.CONTAINER_STATE, c.describe(object))
        .type("terminated, exit code " + num(t, "exitCode"))
        .reason(str(t, "reason"))
        .message(str(t, "message"))
        .firstSeen(time(t, "startedAt"))
        .lastSeen(time(t, "finishedAt"))
        .build();
  }

  private List<Evidence> withEvents(Evidence first, String reason) {
    List<Evidence> out = new ArrayList<>();
    out.add(first);
    for (ClusterEvent e : events) {
      if (e.reason().equals(reason)) {
        out.add(e.toEvidence());
      }
    }
    return out;
  }

  private ClusterEvent lastWith(String reason) {
    ClusterEvent best = null;
    for (ClusterEvent e : events) {
      if (!e.reason().equals(reason)) {
        continue;
      }
      if (best == null
          || e.lastSeen().orElse(Instant.MIN).isAfter(best.lastSeen().orElse(Instant.MIN))) {
        best = e;
      }
    }
    return best;
  }

  /** A container of the pod with its spec (may be empty) and status, init containers first. */
  private static final class Container {
    final String name;
    final String kind;
    final boolean isDriver;
    final JsonObject spec;
    final JsonObject status;

    Container(String name, String kind, boolean isDriver, JsonObject spec, JsonObject status) {
      this.name = name;
      this.kind = kind;
      this.isDriver = isDriver;
      this.spec = spec;
      this.status = status;
    }

    String describe(String podObject) {
      return (kind.isEmpty() ? "" : kind.toLowerCase(Locale.ROOT) + " ")
          + "container "
          + name
          + " of "
          + podObject;
    }
  }

  private List<Container> containers() {
    JsonObject spec = obj(pod, "spec");
    JsonObject status = obj(pod, "status");
    List<Container> out = new ArrayList<>();
    addContainers(out, arr(status, "initContainerStatuses"), arr(spec, "initContainers"), "Init");
    JsonArray statuses = arr(status, "containerStatuses");
    JsonArray specs = arr(spec, "containers");
    // The main container: Spark names it spark-kubernetes-driver; without that name, the only
    // container, or else the first, is the driver. The others are sidecars.
    String main = null;
    for (JsonElement s : statuses) {
      if (s.isJsonObject() && "spark-kubernetes-driver".equals(str(s.getAsJsonObject(), "name"))) {
        main = "spark-kubernetes-driver";
      }
    }
    if (main == null && statuses.size() > 0 && statuses.get(0).isJsonObject()) {
      main = str(statuses.get(0).getAsJsonObject(), "name");
    }
    for (JsonElement s : statuses) {
      if (!s.isJsonObject()) {
        continue;
      }
      String name = str(s.getAsJsonObject(), "name");
      boolean isMain = name.equals(main);
      out.add(
          new Container(
              name, isMain ? "" : "Sidecar", isMain, specNamed(specs, name), s.getAsJsonObject()));
    }
    return out;
  }

  private static void addContainers(
      List<Container> out, JsonArray statuses, JsonArray specs, String kind) {
    for (JsonElement s : statuses) {
      if (s.isJsonObject()) {
        String name = str(s.getAsJsonObject(), "name");
        out.add(new Container(name, kind, false, specNamed(specs, name), s.getAsJsonObject()));
      }
    }
  }

  private static JsonObject specNamed(JsonArray specs, String name) {
    for (JsonElement e : specs) {
      if (e.isJsonObject() && name.equals(str(e.getAsJsonObject(), "name"))) {
        return e.getAsJsonObject();
      }
    }
    return new JsonObject();
  }

  private static JsonObject condition(JsonObject status, String type) {
    for (JsonElement c : arr(status, "conditions")) {
      if (c.isJsonObject() && type.equals(str(c.getAsJsonObject(), "type"))) {
        return c.getAsJsonObject();
      }
    }
    return null;
  }

  static String firstSentence(String message) {
    String m = message.strip();
    int nl = m.indexOf('\n');
    if (nl >= 0) {
      m = m.substring(0, nl).strip();
    }
    m = Messages.cap(m, 600);
    return m.endsWith(".") ? m : m + ".";
  }

  static String lastLine(String message) {
    String m = message.strip();
    int nl = m.lastIndexOf('\n');
    return Messages.cap(nl >= 0 ? m.substring(nl + 1).strip() : m, 600);
  }

  private static String lower(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  static JsonObject obj(JsonObject o, String field) {
    if (o == null) {
      return null;
    }
    JsonElement e = o.get(field);
    return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
  }

  static JsonArray arr(JsonObject o, String field) {
    if (o == null) {
      return new JsonArray();
    }
    JsonElement e = o.get(field);
    return e != null && e.isJsonArray() ? e.getAsJsonArray() : new JsonArray();
  }

  static String str(JsonObject o, String field) {
    if (o == null) {
      return "";
    }
    JsonElement e = o.get(field);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : "";
  }

  static long num(JsonObject o, String field) {
    if (o == null) {
      return 0;
    }
    JsonElement e = o.get(field);
    return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()
        ? e.getAsLong()
        : 0;
  }

  static Instant time(JsonObject o, String field) {
    return ResourceSnapshot.parseTime(str(o, field)).orElse(null);
  }
}
