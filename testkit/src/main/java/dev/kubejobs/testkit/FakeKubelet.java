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
package dev.kubejobs.testkit;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.testkit.fixtures.EventBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fake node for a {@link FakeKubernetesApiServer}: it schedules the pods that someone else
 * creates (a real Spark operator's driver pods, a test's own) onto its node and moves them as the
 * scheduler and a kubelet would, writing their status, their logs and the Events of the scheduler
 * and the kubelet into the server's store.
 *
 * <pre>{@code
 * try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
 *     FakeKubelet kubelet = FakeKubelet.builder(server)
 *         .script(FakeKubelet.imageContains(":typo"), FakeKubelet.Script.imagePullFails())
 *         .script(FakeKubelet.labelled("spark-role", "driver"), FakeKubelet.Script.exits(1))
 *         .build()) {
 *   // something creates pods through the API ...
 *   kubelet.stepUntilSettled();          // deterministic, in a test
 *   // or kubelet.start(Duration.ofMillis(500)) for a real operator in another JVM
 * }
 * }</pre>
 *
 * <p>Which pods: every pod not yet bound to a node, that has no {@code PodScheduled} condition yet
 * (so not the pods the {@link dev.kubejobs.testkit.operator.FakeSparkOperator fake operators} write
 * whole), and whose {@code spec.schedulerName} is absent or {@code default-scheduler}; and pods
 * bound to this node that it has not moved yet. Pods bound to other nodes are left alone.
 *
 * <p>What happens to a pod is its {@link Script}, chosen when the kubelet first sees the pod: the
 * first rule given with {@link Builder#script(Predicate, Script)} that matches it, else the default
 * ({@link Script#exits(int) exits(0)} after two running steps). One {@link #step()} moves every pod
 * by one transition:
 *
 * <ol>
 *   <li>scheduled: {@code spec.nodeName}, {@code PodScheduled=True}, Event {@code Scheduled};
 *   <li>containers waiting in {@code ContainerCreating} ({@code Initialized=True}, {@code
 *       Ready=False});
 *   <li>running: phase {@code Running}, every container running and ready, {@code Ready=True},
 *       Events {@code Pulled}, {@code Created}, {@code Started}; the log is served from now on;
 *   <li>as many running steps as the script says;
 *   <li>terminated with the script's exit code ({@code Completed} for 0, else {@code Error}): phase
 *       {@code Succeeded} or {@code Failed}.
 * </ol>
 *
 * <p>Or stuck: {@link Script#imagePullFails()} waits in {@code ErrImagePull}, then {@code
 * ImagePullBackOff}, with the kubelet's Events; {@link Script#unschedulable(String)} stays {@code
 * Pending} with {@code PodScheduled=False} {@code Unschedulable} and the scheduler's {@code
 * FailedScheduling} Event.
 *
 * <p>Deletion: pods bound to this node are deleted gracefully by the server while this kubelet is
 * attached (a {@code deletionTimestamp} in the future); at the next step the kubelet stops their
 * containers (exit code 143 for a running one, Event {@code Killing}), writes the final phase and
 * removes the pod, as the kubelet's status manager does once a terminating pod's containers are
 * gone. The kubelet only moves containers: when a Spark driver exits, its executors go on until
 * someone deletes them (Spark's driver or the operator does that on a real cluster).
 *
 * <p>Time: each transition is stamped with the server's clock; with a {@link
 * Builder#stepDuration(Duration) step duration} and a server on a {@link MutableClock}, every
 * {@link #step()} first moves the clock by it.
 *
 * <p>Thread safe: steps run one at a time, whether called by a test or by the timer of {@link
 * #start(Duration)}.
 */
public final class FakeKubelet implements AutoCloseable {

  /** The node name of a kubelet built without {@link Builder#nodeName(String)}. */
  public static final String DEFAULT_NODE = "fake-node-1";

  private static final Logger LOG = LoggerFactory.getLogger(FakeKubelet.class);
  private static final int MAX_STEPS = 10_000;
  private static final String SCHEDULER = "default-scheduler";

  private final FakeKubernetesApiServer server;
  private final InMemoryStore store;
  private final String node;
  private final String hostIp;
  private final Duration stepDuration;
  private final List<Rule> rules;
  private final Script defaultScript;
  private final Map<String, PodRun> runs = new HashMap<>();
  private final Object lock = new Object();
  private int nextPodIp = 2;
  private boolean closed;
  private ScheduledExecutorService timer;
  private Thread timerThread;
  private volatile String lastTimedFailure;

  private record Rule(Predicate<JsonObject> pods, Script script) {}

  /** Where a pod is on its script. */
  private static final class PodRun {
    final Script script;
    Stage stage = Stage.NEW;
    int steps;
    Instant startedAt;

    PodRun(Script script) {
      this.script = script;
    }
  }

  private enum Stage {
    NEW,
    SCHEDULED,
    CREATING,
    RUNNING,
    ERR_IMAGE_PULL,
    STUCK,
    DONE
  }

  private FakeKubelet(Builder b) {
    this.server = b.server;
    this.store = (InMemoryStore) b.server.store();
    this.node = b.node;
    this.hostIp = "10.0.0." + (Math.floorMod(node.hashCode(), 200) + 10);
    this.stepDuration = b.stepDuration;
    this.rules = List.copyOf(b.rules);
    this.defaultScript = b.defaultScript;
    if (!stepDuration.isZero() && !(server.clock() instanceof MutableClock)) {
      throw new IllegalArgumentException(
          "a step duration needs a server on a MutableClock, but its clock is " + server.clock());
    }
    store.addKubeletNode(node);
  }

  /**
   * Attaches a kubelet with the default settings (node {@value #DEFAULT_NODE}, every pod runs two
   * steps and exits 0) to a server.
   *
   * @param server the server
   * @return the kubelet; close it to stop its timer and detach it
   */
  public static FakeKubelet attach(FakeKubernetesApiServer server) {
    return builder(server).build();
  }

  /**
   * Returns a builder for a kubelet on a server.
   *
   * @param server the server
   * @return a new builder
   */
  public static Builder builder(FakeKubernetesApiServer server) {
    return new Builder(Objects.requireNonNull(server, "server"));
  }

  /**
   * Matches pods with this label value.
   *
   * @param key the label key
   * @param value the label value
   * @return the predicate
   */
  public static Predicate<JsonObject> labelled(String key, String value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    return pod -> value.equals(InMemoryStore.labels(pod).get(key));
  }

  /**
   * Matches pods with a container (or init container) whose image contains this text.
   *
   * @param text e.g. {@code ":does-not-exist"}
   * @return the predicate
   */
  public static Predicate<JsonObject> imageContains(String text) {
    Objects.requireNonNull(text, "text");
    return pod -> {
      for (JsonObject c : containers(pod, "initContainers")) {
        if (String.valueOf(InMemoryStore.string(c, "image")).contains(text)) {
          return true;
        }
      }
      for (JsonObject c : containers(pod, "containers")) {
        if (String.valueOf(InMemoryStore.string(c, "image")).contains(text)) {
          return true;
        }
      }
      return false;
    };
  }

  /**
   * Matches pods whose whole name matches a regular expression.
   *
   * @param regex e.g. {@code ".*-driver"}
   * @return the predicate
   */
  public static Predicate<JsonObject> nameMatches(String regex) {
    Pattern p = Pattern.compile(regex);
    return pod -> p.matcher(name(pod)).matches();
  }

  /**
   * Returns the name of the node this kubelet runs.
   *
   * @return the node name
   */
  public String nodeName() {
    return node;
  }

  /**
   * Moves every pod this kubelet runs by one transition of its script, and finishes the deletion of
   * its pods that are being deleted.
   *
   * @return whether anything changed (a running step of a script counts; a stuck pod does not)
   * @throws IllegalStateException once closed
   */
  public boolean step() {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the fake kubelet of node " + node + " is closed");
      }
      if (!stepDuration.isZero()) {
        ((MutableClock) server.clock()).advance(stepDuration);
      }
      Set<String> present = new HashSet<>();
      boolean changed = false;
      for (JsonObject pod : store.list(ResourceType.POD, null)) {
        String uid = InMemoryStore.uid(pod);
        present.add(uid);
        try {
          changed |= move(pod);
        } catch (FakeApiException e) {
          // The pod changed or went meanwhile; the next step sees it as it is.
          LOG.debug("Fake kubelet could not move pod '{}': {}", name(pod), e.getMessage());
        }
      }
      runs.keySet().retainAll(present);
      return changed;
    }
  }

  /**
   * Steps until nothing changes: every pod finished, stuck or running for good.
   *
   * @return the number of steps that changed something
   * @throws IllegalStateException if things still change after 10,000 steps
   */
  public int stepUntilSettled() {
    int steps = 0;
    while (step()) {
      if (++steps >= MAX_STEPS) {
        throw new IllegalStateException("pods still change after " + MAX_STEPS + " steps");
      }
    }
    return steps;
  }

  /**
   * Steps until a condition holds (checked before each step).
   *
   * @param condition e.g. {@code () -> phase("jobs", "pi-driver").equals("Running")}
   * @return the number of steps taken
   * @throws IllegalStateException if the condition still does not hold after 10,000 steps, or
   *     nothing changes any more while it does not
   */
  public int stepUntil(BooleanSupplier condition) {
    int steps = 0;
    while (!condition.getAsBoolean()) {
      if (!step()) {
        if (condition.getAsBoolean()) {
          return steps;
        }
        throw new IllegalStateException(
            "nothing changes any more after " + steps + " steps, and the condition does not hold");
      }
      if (++steps >= MAX_STEPS) {
        throw new IllegalStateException(
            "the condition does not hold after " + MAX_STEPS + " steps");
      }
    }
    return steps;
  }

  /**
   * Starts stepping on one daemon thread every {@code tick}, until {@link #close()}: for a real
   * operator running in another thread or JVM. A failing step is logged and the timer goes on.
   *
   * @param tick the time between steps, positive
   * @return this kubelet
   * @throws IllegalArgumentException if {@code tick} is not positive
   * @throws IllegalStateException if already started or closed
   */
  public FakeKubelet start(Duration tick) {
    if (tick.isZero() || tick.isNegative()) {
      throw new IllegalArgumentException("tick must be positive, but was " + tick);
    }
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the fake kubelet of node " + node + " is closed");
      }
      if (timer != null) {
        throw new IllegalStateException("the fake kubelet of node " + node + " already started");
      }
      timer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "fake-kubelet-" + node);
                t.setDaemon(true);
                synchronized (lock) {
                  timerThread = t;
                }
                return t;
              });
      long millis = Math.max(1, tick.toMillis());
      timer.scheduleWithFixedDelay(this::timedStep, millis, millis, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /**
   * Stops the timer (waiting up to five seconds for its thread to end) and detaches the kubelet
   * from the server: pods on its node are then removed at once when deleted, as without a kubelet.
   * Calling it again does nothing.
   */
  @Override
  public void close() {
    ScheduledExecutorService t;
    Thread worker;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      t = timer;
      worker = timerThread;
      timer = null;
      timerThread = null;
    }
    store.removeKubeletNode(node);
    if (t == null) {
      return;
    }
    t.shutdownNow();
    try {
      if (!t.awaitTermination(5, TimeUnit.SECONDS)) {
        LOG.warn("Fake kubelet's timer did not stop within 5 seconds");
      }
      if (worker != null && worker != Thread.currentThread()) {
        worker.join(5_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "FakeKubelet[" + node + "]";
  }

  private void timedStep() {
    try {
      synchronized (lock) {
        if (closed) {
          return;
        }
      }
      step();
    } catch (RuntimeException e) {
      String failure = e.toString();
      if (!failure.equals(lastTimedFailure)) {
        LOG.warn("Fake kubelet step failed: {}", failure);
        lastTimedFailure = failure;
      }
    }
  }

  // ---- one pod ----------------------------------------------------------------------------------

  private boolean move(JsonObject pod) {
    String uid = InMemoryStore.uid(pod);
    JsonObject spec = object(pod, "spec");
    String boundTo = InMemoryStore.string(spec, "nodeName");
    PodRun run = runs.get(uid);
    if (run == null) {
      if (!isOurs(pod, spec, boundTo)) {
        return false;
      }
      run = new PodRun(scriptFor(pod));
      if (boundTo != null) {
        run.stage = Stage.SCHEDULED;
      }
      runs.put(uid, run);
    }
    if (InMemoryStore.metadata(pod).has("deletionTimestamp")) {
      return node.equals(boundTo) && finishDeletion(pod, run);
    }
    Script s = run.script;
    switch (run.stage) {
      case NEW -> {
        if (s.kind == Kind.UNSCHEDULABLE) {
          unschedulable(pod, s.message);
          run.stage = Stage.STUCK;
        } else {
          schedule(pod);
          run.stage = Stage.SCHEDULED;
        }
        return true;
      }
      case SCHEDULED -> {
        creating(pod, s);
        run.stage = Stage.CREATING;
        run.steps = 0;
        return true;
      }
      case CREATING -> {
        if (s.kind == Kind.IMAGE_PULL_FAILS) {
          imagePull(pod, s, false);
          run.stage = Stage.ERR_IMAGE_PULL;
          return true;
        }
        if (++run.steps < s.creatingSteps) {
          return true;
        }
        run.startedAt = now();
        running(pod, s, run.startedAt);
        run.stage = Stage.RUNNING;
        run.steps = 0;
        return true;
      }
      case ERR_IMAGE_PULL -> {
        imagePull(pod, s, true);
        run.stage = Stage.STUCK;
        return true;
      }
      case RUNNING -> {
        if (s.runningSteps < 0) {
          return false;
        }
        if (++run.steps < s.runningSteps) {
          return true;
        }
        terminated(pod, s, run.startedAt, s.exitCode);
        run.stage = Stage.DONE;
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  private boolean isOurs(JsonObject pod, JsonObject spec, String boundTo) {
    if (boundTo != null) {
      return node.equals(boundTo) && object(pod, "status").get("containerStatuses") == null;
    }
    String scheduler = InMemoryStore.string(spec, "schedulerName");
    if (scheduler != null && !scheduler.equals(SCHEDULER)) {
      return false;
    }
    boolean gated = spec.get("schedulingGates") instanceof JsonArray g && !g.isEmpty();
    return condition(pod, "PodScheduled") == null && !gated;
  }

  private Script scriptFor(JsonObject pod) {
    for (Rule r : rules) {
      if (r.pods().test(pod)) {
        return r.script();
      }
    }
    return defaultScript;
  }

  /**
   * kube-scheduler's binding and its Event ({@code pkg/scheduler/schedule_one.go}: {@code Normal
   * Scheduled "Successfully assigned %v/%v to %v"}, recorded through {@code events.k8s.io/v1}).
   */
  private void schedule(JsonObject pod) {
    String ns = namespace(pod);
    String name = name(pod);
    JsonObject updated =
        store.update(
            ResourceType.POD,
            ns,
            name,
            p -> {
              object(p, "spec").addProperty("nodeName", node);
              JsonObject status = object(p, "status");
              status.addProperty("phase", "Pending");
              setCondition(status, "PodScheduled", "True", null, null);
              return p;
            });
    event(
        updated,
        "Normal",
        "Scheduled",
        "Successfully assigned " + ns + "/" + name + " to " + node,
        SCHEDULER,
        true);
  }

  /**
   * The scheduler's answer when no node fits: {@code PodScheduled=False} reason {@code
   * Unschedulable} and {@code Warning FailedScheduling} with the {@code FitError} message ({@code
   * pkg/scheduler/schedule_one.go} {@code handleSchedulingFailure}, {@code
   * pkg/scheduler/framework/types.go}).
   */
  private void unschedulable(JsonObject pod, String message) {
    JsonObject updated =
        updatePod(
            pod,
            p -> {
              JsonObject status = object(p, "status");
              status.addProperty("phase", "Pending");
              setCondition(status, "PodScheduled", "False", "Unschedulable", message);
              return p;
            });
    event(updated, "Warning", "FailedScheduling", message, SCHEDULER, true);
  }

  /** Changes the stored pod {@code pod} names, as this node writes it, and returns the result. */
  private JsonObject updatePod(JsonObject pod, UnaryOperator<JsonObject> change) {
    return store.update(ResourceType.POD, namespace(pod), name(pod), change);
  }

  /** The kubelet has the pod: its containers are being created. */
  private void creating(JsonObject pod, Script s) {
    updatePod(
        pod,
        p -> {
          JsonObject status = object(p, "status");
          status.addProperty("phase", "Pending");
          status.addProperty("hostIP", hostIp);
          status.add("hostIPs", ips(hostIp));
          status.addProperty("startTime", InMemoryStore.timestamp(now()));
          setCondition(status, "PodReadyToStartContainers", "False", null, null);
          setCondition(status, "Initialized", "True", null, null);
          String notReady = "containers with unready status: " + names(p, "containers");
          setCondition(status, "Ready", "False", "ContainersNotReady", notReady);
          setCondition(status, "ContainersReady", "False", "ContainersNotReady", notReady);
          status.add("initContainerStatuses", initStatuses(p));
          JsonArray statuses = new JsonArray();
          for (JsonObject c : containers(p, "containers")) {
            statuses.add(containerStatus(p, c, waiting("ContainerCreating", null), false));
          }
          status.add("containerStatuses", statuses);
          status.addProperty("qosClass", qosClass(p));
          return p;
        });
  }

  /**
   * The image cannot be pulled: first {@code ErrImagePull} with {@code Pulling}, {@code Failed
   * "Failed to pull image %q: %v"} and {@code Failed "Error: ErrImagePull"}, then {@code
   * ImagePullBackOff} with {@code BackOff "Back-off pulling image %q"} and {@code Failed "Error:
   * ImagePullBackOff"} (kubernetes/kubernetes {@code pkg/kubelet/images/image_manager.go}, reasons
   * in {@code pkg/kubelet/events/event.go}).
   */
  private void imagePull(JsonObject pod, Script s, boolean backOff) {
    String reason = backOff ? "ImagePullBackOff" : "ErrImagePull";
    List<JsonObject> bad = new ArrayList<>();
    JsonObject updated =
        updatePod(
            pod,
            p -> {
              JsonArray statuses = new JsonArray();
              for (JsonObject c : containers(p, "containers")) {
                String image = InMemoryStore.string(c, "image");
                JsonObject state;
                if (s.images.test(String.valueOf(image))) {
                  bad.add(c);
                  state =
                      waiting(
                          reason,
                          backOff ? "Back-off pulling image \"" + image + "\"" : pullError(image));
                } else {
                  state = waiting("ContainerCreating", null);
                }
                statuses.add(containerStatus(p, c, state, false));
              }
              object(p, "status").add("containerStatuses", statuses);
              return p;
            });
    for (JsonObject c : bad) {
      String image = InMemoryStore.string(c, "image");
      if (backOff) {
        event(
            updated,
            "Normal",
            "BackOff",
            "Back-off pulling image \"" + image + "\"",
            "kubelet",
            false);
        event(updated, "Warning", "Failed", "Error: ImagePullBackOff", "kubelet", false);
      } else {
        event(updated, "Normal", "Pulling", "Pulling image \"" + image + "\"", "kubelet", false);
        event(
            updated,
            "Warning",
            "Failed",
            "Failed to pull image \"" + image + "\": " + pullError(image),
            "kubelet",
            false);
        event(updated, "Warning", "Failed", "Error: ErrImagePull", "kubelet", false);
      }
    }
  }

  /** containerd's answer for an image that does not exist. */
  private static String pullError(String image) {
    return "rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/"
        + image
        + "\": failed to resolve reference \"docker.io/"
        + image
        + "\": docker.io/"
        + image
        + ": not found";
  }

  /**
   * Every container started: phase {@code Running}, {@code Ready=True}, and the kubelet's {@code
   * Pulled}, {@code Created} and {@code Started} Events ({@code
   * pkg/kubelet/images/image_manager.go} "Container image %q already present on machine", {@code
   * pkg/kubelet/kuberuntime/kuberuntime_container.go} "Created container: %s", "Started container
   * %s").
   */
  private void running(JsonObject pod, Script s, Instant startedAt) {
    String ip = "10.244.1." + (nextPodIp++ % 250 + 2);
    JsonObject updated =
        updatePod(
            pod,
            p -> {
              JsonObject status = object(p, "status");
              status.addProperty("phase", "Running");
              status.addProperty("podIP", ip);
              status.add("podIPs", ips(ip));
              setCondition(status, "PodReadyToStartContainers", "True", null, null);
              setCondition(status, "Ready", "True", null, null);
              setCondition(status, "ContainersReady", "True", null, null);
              JsonArray statuses = new JsonArray();
              for (JsonObject c : containers(p, "containers")) {
                JsonObject running = new JsonObject();
                running.addProperty("startedAt", InMemoryStore.timestamp(startedAt));
                JsonObject state = new JsonObject();
                state.add("running", running);
                statuses.add(containerStatus(p, c, state, true));
              }
              status.add("containerStatuses", statuses);
              return p;
            });
    for (JsonObject c : containers(updated, "containers")) {
      String container = InMemoryStore.string(c, "name");
      event(
          updated,
          "Normal",
          "Pulled",
          "Container image \"" + InMemoryStore.string(c, "image") + "\" already present on machine",
          "kubelet",
          false);
      event(updated, "Normal", "Created", "Created container: " + container, "kubelet", false);
      event(updated, "Normal", "Started", "Started container " + container, "kubelet", false);
      store.setPodLog(namespace(pod), name(pod), container, s.log(name(pod), container, null));
    }
  }

  /**
   * Every container terminated with the exit code ({@code Completed} for 0, {@code Error}
   * otherwise): phase {@code Succeeded} when all exited 0, else {@code Failed} (a pod with {@code
   * restartPolicy: Never}, as Spark's), {@code Ready=False} reason {@code PodCompleted}.
   */
  private JsonObject terminated(JsonObject pod, Script s, Instant startedAt, int exitCode) {
    Instant finishedAt = now();
    JsonObject updated =
        updatePod(
            pod,
            p -> {
              JsonObject status = object(p, "status");
              status.addProperty("phase", exitCode == 0 ? "Succeeded" : "Failed");
              setCondition(status, "PodReadyToStartContainers", "False", null, null);
              setCondition(status, "Ready", "False", "PodCompleted", null);
              setCondition(status, "ContainersReady", "False", "PodCompleted", null);
              JsonArray statuses = new JsonArray();
              for (JsonObject c : containers(p, "containers")) {
                JsonObject t = new JsonObject();
                t.addProperty("exitCode", exitCode);
                t.addProperty("reason", exitCode == 0 ? "Completed" : "Error");
                if (startedAt != null) {
                  t.addProperty("startedAt", InMemoryStore.timestamp(startedAt));
                }
                t.addProperty("finishedAt", InMemoryStore.timestamp(finishedAt));
                t.addProperty("containerID", containerId(p, c));
                JsonObject state = new JsonObject();
                state.add("terminated", t);
                statuses.add(containerStatus(p, c, state, false));
              }
              status.add("containerStatuses", statuses);
              return p;
            });
    if (startedAt != null) {
      for (JsonObject c : containers(updated, "containers")) {
        String container = InMemoryStore.string(c, "name");
        store.setPodLog(
            namespace(pod), name(pod), container, s.log(name(pod), container, exitCode));
      }
    }
    return updated;
  }

  /**
   * A pod being deleted: its containers are stopped ({@code Normal Killing "Stopping container
   * %s"}, {@code pkg/kubelet/kuberuntime/kuberuntime_container.go} {@code killContainer}; a running
   * one exits 143, from SIGTERM), its final phase written, and it is removed with grace period 0
   * (the status manager's {@code canBeDeleted}, {@code pkg/kubelet/status/status_manager.go}).
   */
  private boolean finishDeletion(JsonObject pod, PodRun run) {
    if (run.stage == Stage.DONE && InMemoryStore.graceSeconds(pod) == 0) {
      return false; // removed as far as the kubelet goes; finalizers hold it
    }
    String phase = InMemoryStore.string(object(pod, "status"), "phase");
    boolean finished = "Succeeded".equals(phase) || "Failed".equals(phase);
    if (!finished) {
      for (JsonObject c : containers(pod, "containers")) {
        event(
            pod,
            "Normal",
            "Killing",
            "Stopping container " + InMemoryStore.string(c, "name"),
            "kubelet",
            false);
      }
      terminated(pod, run.script, run.startedAt, run.stage == Stage.RUNNING ? 143 : 137);
    }
    run.stage = Stage.DONE;
    store.delete(ResourceType.POD, namespace(pod), name(pod));
    return true;
  }

  // ---- status pieces ----------------------------------------------------------------------------

  private JsonArray initStatuses(JsonObject pod) {
    JsonArray inits = new JsonArray();
    for (JsonObject c : containers(pod, "initContainers")) {
      JsonObject t = new JsonObject();
      t.addProperty("exitCode", 0);
      t.addProperty("reason", "Completed");
      t.addProperty("startedAt", InMemoryStore.timestamp(now()));
      t.addProperty("finishedAt", InMemoryStore.timestamp(now()));
      t.addProperty("containerID", containerId(pod, c));
      JsonObject state = new JsonObject();
      state.add("terminated", t);
      inits.add(containerStatus(pod, c, state, false));
    }
    return inits;
  }

  /**
   * The pod's QoS class as {@code GetPodQOS} computes it (kubernetes/kubernetes {@code
   * pkg/apis/core/helper/qos/qos.go}), simplified: {@code BestEffort} without requests or limits,
   * {@code Guaranteed} when every container's limits equal its requests for cpu and memory, else
   * {@code Burstable}.
   */
  private static String qosClass(JsonObject pod) {
    boolean any = false;
    boolean guaranteed = true;
    for (JsonObject c : containers(pod, "containers")) {
      JsonObject resources = c.get("resources") instanceof JsonObject r ? r : new JsonObject();
      JsonObject requests =
          resources.get("requests") instanceof JsonObject q ? q : new JsonObject();
      JsonObject limits = resources.get("limits") instanceof JsonObject l ? l : new JsonObject();
      any |= !requests.isEmpty() || !limits.isEmpty();
      for (String r : List.of("cpu", "memory")) {
        JsonElement limit = limits.get(r);
        JsonElement request = requests.has(r) ? requests.get(r) : limit;
        guaranteed &= limit != null && limit.equals(request);
      }
    }
    return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
  }

  private static JsonObject containerStatus(
      JsonObject pod, JsonObject container, JsonObject state, boolean running) {
    JsonObject cs = new JsonObject();
    cs.addProperty("name", InMemoryStore.string(container, "name"));
    cs.addProperty("image", InMemoryStore.string(container, "image"));
    cs.addProperty("imageID", "");
    cs.addProperty("ready", running);
    cs.addProperty("restartCount", 0);
    cs.addProperty("started", running);
    if (!state.has("waiting")) {
      cs.addProperty("containerID", containerId(pod, container));
    }
    cs.add("state", state);
    return cs;
  }

  private static String containerId(JsonObject pod, JsonObject container) {
    String seed = InMemoryStore.uid(pod) + "/" + InMemoryStore.string(container, "name");
    return "containerd://"
        + UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString().replace("-", "");
  }

  private static JsonObject waiting(String reason, String message) {
    JsonObject w = new JsonObject();
    w.addProperty("reason", reason);
    if (message != null) {
      w.addProperty("message", message);
    }
    JsonObject state = new JsonObject();
    state.add("waiting", w);
    return state;
  }

  private void setCondition(
      JsonObject status, String type, String value, String reason, String message) {
    JsonArray conditions = status.get("conditions") instanceof JsonArray a ? a : new JsonArray();
    status.add("conditions", conditions);
    JsonObject c = null;
    for (JsonElement e : conditions) {
      if (e.isJsonObject() && type.equals(InMemoryStore.string(e.getAsJsonObject(), "type"))) {
        c = e.getAsJsonObject();
      }
    }
    if (c == null) {
      c = new JsonObject();
      c.addProperty("type", type);
      conditions.add(c);
    }
    if (!value.equals(InMemoryStore.string(c, "status"))) {
      c.addProperty("lastTransitionTime", InMemoryStore.timestamp(now()));
    }
    c.addProperty("status", value);
    c.add("lastProbeTime", null);
    c.remove("reason");
    c.remove("message");
    if (reason != null) {
      c.addProperty("reason", reason);
    }
    if (message != null) {
      c.addProperty("message", message);
    }
  }

  private static JsonObject condition(JsonObject pod, String type) {
    JsonElement conditions = object(pod, "status").get("conditions");
    if (conditions instanceof JsonArray a) {
      for (JsonElement e : a) {
        if (e.isJsonObject() && type.equals(InMemoryStore.string(e.getAsJsonObject(), "type"))) {
          return e.getAsJsonObject();
        }
      }
    }
    return null;
  }

  private static JsonArray ips(String ip) {
    JsonArray a = new JsonArray();
    JsonObject o = new JsonObject();
    o.addProperty("ip", ip);
    a.add(o);
    return a;
  }

  /**
   * Records an Event about the pod: the kubelet's through the {@code core/v1} recorder, the
   * scheduler's through {@code events.k8s.io/v1} (read back with {@code eventTime}).
   */
  private void event(
      JsonObject pod,
      String type,
      String reason,
      String message,
      String component,
      boolean series) {
    String id = reason + "/" + message;
    String name =
        name(pod)
            + "."
            + Long.toHexString(
                UUID.nameUUIDFromBytes(
                        (InMemoryStore.uid(pod) + id).getBytes(StandardCharsets.UTF_8))
                    .getMostSignificantBits());
    EventBuilder b = EventBuilder.about(pod).named(name).reportedBy(component).at(now());
    if ("Warning".equals(type)) {
      b.warning(reason, message);
    } else {
      b.normal(reason, message);
    }
    JsonObject event = series ? b.buildSeries() : b.build();
    try {
      store.create(ResourceType.EVENT, namespace(pod), event);
    } catch (FakeApiException e) {
      // Recorded already (the same reason and message): the recorder counts it again.
      store.update(
          ResourceType.EVENT,
          namespace(pod),
          name,
          old -> {
            JsonElement count = old.get("count");
            if (count != null && count.isJsonPrimitive()) {
              old.addProperty("count", count.getAsInt() + 1);
              old.addProperty("lastTimestamp", InMemoryStore.timestamp(now()));
            }
            return old;
          });
    }
  }

  private Instant now() {
    Clock clock = server.clock();
    return clock.instant();
  }

  private static List<JsonObject> containers(JsonObject pod, String field) {
    List<JsonObject> result = new ArrayList<>();
    JsonElement list = object(pod, "spec").get(field);
    if (list instanceof JsonArray a) {
      for (JsonElement e : a) {
        if (e.isJsonObject()) {
          result.add(e.getAsJsonObject());
        }
      }
    }
    return result;
  }

  private static String names(JsonObject pod, String field) {
    List<String> names = new ArrayList<>();
    for (JsonObject c : containers(pod, field)) {
      names.add(InMemoryStore.string(c, "name"));
    }
    return "[" + String.join(" ", names) + "]";
  }

  private static JsonObject object(JsonObject o, String key) {
    if (o.get(key) instanceof JsonObject child) {
      return child;
    }
    JsonObject child = new JsonObject();
    o.add(key, child);
    return child;
  }

  private static String name(JsonObject pod) {
    return InMemoryStore.string(InMemoryStore.metadata(pod), "name");
  }

  private static String namespace(JsonObject pod) {
    return InMemoryStore.string(InMemoryStore.metadata(pod), "namespace");
  }

  // ---- scripts ----------------------------------------------------------------------------------

  private enum Kind {
    RUN,
    IMAGE_PULL_FAILS,
    UNSCHEDULABLE
  }

  /**
   * What happens to a pod on the node: run and exit with a code after some steps, run until
   * deleted, fail to pull its image, or find no node. Immutable; the {@code with}-style methods
   * return a changed copy.
   */
  public static final class Script {

    /**
     * The scheduler's message of {@link #unschedulable()}, as kube-scheduler's {@code FitError}
     * writes it for one node short of CPU (kubernetes/kubernetes {@code
     * pkg/scheduler/framework/types.go}) with the default preemption plugin's post-filter message.
     */
    public static final String DEFAULT_UNSCHEDULABLE_MESSAGE =
        "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No"
            + " preemption victims found for incoming pod.";

    private final Kind kind;
    private final int creatingSteps;
    private final int runningSteps;
    private final int exitCode;
    private final String message;
    private final String log;
    private final Predicate<String> images;

    private Script(
        Kind kind,
        int creatingSteps,
        int runningSteps,
        int exitCode,
        String message,
        String log,
        Predicate<String> images) {
      this.kind = kind;
      this.creatingSteps = creatingSteps;
      this.runningSteps = runningSteps;
      this.exitCode = exitCode;
      this.message = message;
      this.log = log;
      this.images = images;
    }

    /**
     * Scheduled, one step creating, running for two steps, then every container exits with this
     * code.
     *
     * @param exitCode 0 for success
     * @return the script
     */
    public static Script exits(int exitCode) {
      return new Script(Kind.RUN, 1, 2, exitCode, null, null, i -> true);
    }

    /**
     * {@link #exits(int) exits(0)}.
     *
     * @return the script
     */
    public static Script succeeds() {
      return exits(0);
    }

    /**
     * Runs until the pod is deleted.
     *
     * @return the script
     */
    public static Script runsUntilDeleted() {
      return new Script(Kind.RUN, 1, -1, 0, null, null, i -> true);
    }

    /**
     * Scheduled, then every container's image fails to pull: {@code ErrImagePull}, then {@code
     * ImagePullBackOff} for good, with the kubelet's Events.
     *
     * @return the script
     */
    public static Script imagePullFails() {
      return new Script(Kind.IMAGE_PULL_FAILS, 1, 0, 0, null, null, i -> true);
    }

    /**
     * Like {@link #imagePullFails()}, but only the containers whose image contains this text fail
     * to pull; the others wait in {@code ContainerCreating}.
     *
     * @param text part of the image reference
     * @return the script
     */
    public static Script imagePullFails(String text) {
      Objects.requireNonNull(text, "text");
      return new Script(Kind.IMAGE_PULL_FAILS, 1, 0, 0, null, null, i -> i.contains(text));
    }

    /**
     * Never scheduled: {@code Pending}, {@code PodScheduled=False} {@code Unschedulable}, with the
     * scheduler's {@code FailedScheduling} Event carrying {@value #DEFAULT_UNSCHEDULABLE_MESSAGE}.
     *
     * @return the script
     */
    public static Script unschedulable() {
      return unschedulable(DEFAULT_UNSCHEDULABLE_MESSAGE);
    }

    /**
     * Never scheduled, with this scheduler message.
     *
     * @param message the scheduler's message
     * @return the script
     */
    public static Script unschedulable(String message) {
      Objects.requireNonNull(message, "message");
      return new Script(Kind.UNSCHEDULABLE, 1, 0, 0, message, null, i -> true);
    }

    /**
     * Returns this script with the containers running for this many steps before they exit.
     *
     * @param steps at least 1
     * @return a changed copy
     * @throws IllegalArgumentException if fewer than 1, or the script does not run
     */
    public Script runningFor(int steps) {
      if (steps < 1 || kind != Kind.RUN) {
        throw new IllegalArgumentException(
            "runningFor needs at least 1 step and a script that runs, but was " + steps);
      }
      return new Script(kind, creatingSteps, steps, exitCode, message, log, images);
    }

    /**
     * Returns this script with the containers being created for this many steps.
     *
     * @param steps at least 1
     * @return a changed copy
     * @throws IllegalArgumentException if fewer than 1
     */
    public Script creatingFor(int steps) {
      if (steps < 1) {
        throw new IllegalArgumentException("creatingFor needs at least 1 step, but was " + steps);
      }
      return new Script(kind, steps, runningSteps, exitCode, message, log, images);
    }

    /**
     * Returns this script with every container's log: served from the moment it runs (default: one
     * line when it starts and one when it exits).
     *
     * @param text the log
     * @return a changed copy
     */
    public Script log(String text) {
      return new Script(
          kind,
          creatingSteps,
          runningSteps,
          exitCode,
          message,
          Objects.requireNonNull(text),
          images);
    }

    String log(String pod, String container, Integer exit) {
      if (log != null) {
        return log;
      }
      String started = "Container " + container + " of pod " + pod + " started\n";
      return exit == null
          ? started
          : started + "Container " + container + " exited with code " + exit + "\n";
    }

    @Override
    public String toString() {
      return switch (kind) {
        case RUN ->
            runningSteps < 0
                ? "runs until deleted"
                : "exits " + exitCode + " after " + runningSteps + " running steps";
        case IMAGE_PULL_FAILS -> "image pull fails";
        case UNSCHEDULABLE -> "unschedulable: " + message;
      };
    }
  }

  /**
   * Configures a {@link FakeKubelet}.
   *
   * <p>Not thread safe.
   */
  public static final class Builder {
    private final FakeKubernetesApiServer server;
    private String node = DEFAULT_NODE;
    private Duration stepDuration = Duration.ZERO;
    private final List<Rule> rules = new ArrayList<>();
    private Script defaultScript = Script.succeeds();

    private Builder(FakeKubernetesApiServer server) {
      this.server = server;
    }

    /**
     * Sets the node's name (default {@value FakeKubelet#DEFAULT_NODE}); several kubelets on one
     * server need different names.
     *
     * @param name a DNS subdomain
     * @return this builder
     */
    public Builder nodeName(String name) {
      if (name == null || !NameRules.dns1123Subdomain(name).isEmpty()) {
        throw new IllegalArgumentException("not a node name: " + name);
      }
      this.node = name;
      return this;
    }

    /**
     * Moves the server's {@link MutableClock} by this much at the start of each step (default zero:
     * the clock moves only when the test moves it).
     *
     * @param d zero or positive
     * @return this builder
     */
    public Builder stepDuration(Duration d) {
      if (d == null || d.isNegative()) {
        throw new IllegalArgumentException("stepDuration must not be negative, but was " + d);
      }
      this.stepDuration = d;
      return this;
    }

    /**
     * Gives the pods that match a predicate a script; the first matching rule wins.
     *
     * @param pods e.g. {@link FakeKubelet#labelled(String, String)}, {@link
     *     FakeKubelet#imageContains(String)}, {@link FakeKubelet#nameMatches(String)}
     * @param script the script
     * @return this builder
     */
    public Builder script(Predicate<JsonObject> pods, Script script) {
      rules.add(new Rule(Objects.requireNonNull(pods, "pods"), Objects.requireNonNull(script)));
      return this;
    }

    /**
     * Sets the script of pods no rule matches (default {@link Script#succeeds()}).
     *
     * @param script the script
     * @return this builder
     */
    public Builder defaultScript(Script script) {
      this.defaultScript = Objects.requireNonNull(script, "script");
      return this;
    }

    /**
     * Attaches the kubelet: from now on, pods bound to its node are deleted gracefully.
     *
     * @return the kubelet; close it to stop its timer and detach it
     */
    public FakeKubelet build() {
      return new FakeKubelet(this);
    }
  }
}
