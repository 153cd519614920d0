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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.testkit.FakeApiException;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowStatuses;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fake Spark operator attached to a {@link FakeKubernetesApiServer}: it finds SparkApplications
 * in the server's store and drives each along a scripted {@link SparkAppPath}, writing status,
 * driver pods and driver logs the way the real operator does (the Apache Spark Kubernetes Operator,
 * {@code spark.apache.org}, or the Kubeflow Spark operator, {@code sparkoperator.k8s.io/v1beta2}).
 *
 * <p>It moves only when told: {@link #step()} moves every application by exactly one transition,
 * {@link #advance(String, String)} one application, {@link #moveTo(String, String, String)} one
 * application up to a named state — so a test can make a job succeed between a cancel's read and
 * its patch. {@link #start(Duration)} moves everything on a timer instead, for demos.
 *
 * <pre>{@code
 * try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
 *     FakeSparkOperator operator = FakeSparkOperator.apache(server)) {
 *   // submit a SparkApplication labelled testkit.kubejobs.dev/path=FAILED through the API
 *   operator.moveTo("jobs", "kj-job-1", "RunningHealthy");
 *   // ... read its status, then let it finish
 *   operator.runToEnd("jobs", "kj-job-1");
 * }
 * }</pre>
 *
 * <p>The path of an application is read once, when the operator first sees it: the one set with
 * {@link #path(String, String, SparkAppPath)}, else the label {@value #PATH_LABEL} (a {@link
 * SparkAppPath} name, case-insensitive), else the operator's default. With the label {@value
 * #SIDECAR_LABEL}{@code =true} its driver pod gets a sidecar container. Only applications that have
 * no status (or an empty one) when first seen, for Kubeflow also those in the empty state, are
 * driven; one that already has a status — a fixture put into the store — is left as it is, except
 * that deleting it gets the operator's reaction. Deletion: the Apache operator adds its finalizer
 * at first sight; when the application gets a {@code deletionTimestamp} it writes {@code
 * ResourceReleased} "shutdown as requested" and deletes the driver pod, then on the next step
 * removes its finalizer. The Kubeflow operator has no finalizer: deleting the application removes
 * it and the server garbage-collects the driver pod through its owner reference.
 *
 * <p>Time: with a {@link Builder#stepDuration(Duration) step duration} and a server on a {@link
 * MutableClock}, each transition first moves the server's clock by that duration, so a reader on
 * the same clock (kubejobs' status cache, for one) sees the time pass that a real operator's
 * reconciles would take. {@link dev.kubejobs.testkit.FakeKubernetesExtension.Builder#operator}
 * registers operators that do this.
 *
 * <p>Down and back: {@link #down()} stops the operator (nothing moves, not even on {@link #step()}
 * or the timer) and {@link #up()} brings it back, resuming every application where its path was;
 * applications created meanwhile are first seen when it is back.
 *
 * <p>Thread safe: steps run one at a time under one lock, whether called by tests or by the timer
 * thread; the store itself is thread safe, so tests may change objects through HTTP meanwhile.
 */
public final class FakeSparkOperator implements AutoCloseable {

  /** The label that picks an application's {@link SparkAppPath}. */
  public static final String PATH_LABEL = "testkit.kubejobs.dev/path";

  /** The label that, set to {@code true}, gives an application's driver pod a sidecar container. */
  public static final String SIDECAR_LABEL = "testkit.kubejobs.dev/sidecar";

  /**
   * The label naming the {@link DriverTrouble} of an application, e.g. {@code
   * testkit.kubejobs.dev/driver-trouble=image-pull}; see {@link DriverTrouble#parse(String)}.
   */
  public static final String TROUBLE_LABEL = "testkit.kubejobs.dev/driver-trouble";

  /** Which Spark operator to imitate. */
  public enum Flavor {
    /** The Apache Spark Kubernetes Operator, {@code spark.apache.org/v1} (or {@code v1beta1}). */
    APACHE,
    /** The Kubeflow Spark operator, {@code sparkoperator.k8s.io/v1beta2}. */
    KUBEFLOW
  }

  private static final Logger LOG = LoggerFactory.getLogger(FakeSparkOperator.class);
  private static final int MAX_STEPS = 10_000;

  private final FakeKubernetesApiServer server;
  private final Settings settings;
  private final Map<String, AppRun> runs = new HashMap<>();
  private final Map<String, SparkAppPath> chosenPaths = new HashMap<>();
  private final Map<String, DriverTrouble> chosenTroubles = new HashMap<>();
  private final Object lock = new Object();
  private volatile boolean up = true;
  private boolean ticked;
  private ScheduledExecutorService timer;
  private Thread timerThread;
  private volatile String lastTimedFailure;

  private FakeSparkOperator(FakeKubernetesApiServer server, Settings settings) {
    this.server = server;
    this.settings = settings;
    server.registerResource(settings.type());
  }

  /**
   * Attaches a fake Apache Spark Kubernetes Operator ({@code spark.apache.org/v1}, default path
   * {@link SparkAppPath#HAPPY}) to a server, registering its resource type there.
   *
   * @param server the server
   * @return the operator, not moving until told
   */
  public static FakeSparkOperator apache(FakeKubernetesApiServer server) {
    return builder(Flavor.APACHE, server).build();
  }

  /**
   * Attaches a fake Kubeflow Spark operator ({@code sparkoperator.k8s.io/v1beta2}, default path
   * {@link SparkAppPath#HAPPY}) to a server, registering its resource type there.
   *
   * @param server the server
   * @return the operator, not moving until told
   */
  public static FakeSparkOperator kubeflow(FakeKubernetesApiServer server) {
    return builder(Flavor.KUBEFLOW, server).build();
  }

  /**
   * Returns a builder for a fake operator with non-default settings. Attach one operator per
   * resource type to a server: two would both drive the same applications.
   *
   * @param flavor which operator to imitate
   * @param server the server to attach to
   * @return a new builder
   */
  public static Builder builder(Flavor flavor, FakeKubernetesApiServer server) {
    return new Builder(flavor, server);
  }

  /**
   * Returns which operator this imitates.
   *
   * @return the flavor
   */
  public Flavor flavor() {
    return settings.flavor();
  }

  /**
   * Returns the SparkApplication resource type this operator serves and watches.
   *
   * @return the type, registered on the server
   */
  public ResourceType resourceType() {
    return settings.type();
  }

  /**
   * Moves every SparkApplication of this operator's type, in all namespaces, by exactly one
   * transition (those at the end of their path and not being deleted stay as they are).
   *
   * @return whether anything changed
   * @throws IllegalArgumentException if an application's {@value #PATH_LABEL} names no path
   */
  public boolean step() {
    synchronized (lock) {
      if (!up) {
        return false;
      }
      ticked = false;
      List<JsonObject> apps = server.store().list(settings.type(), null);
      Set<String> present = new HashSet<>();
      boolean changed = false;
      for (JsonObject app : apps) {
        present.add(AppRun.meta(app, "uid"));
        changed |= advance(app);
      }
      runs.keySet().retainAll(present);
      return changed;
    }
  }

  /**
   * Moves one application by exactly one transition.
   *
   * @param namespace the application's namespace
   * @param name the application's name
   * @return whether anything changed; false when the application does not exist, has nothing left
   *     to do, or the operator is {@link #down() down}
   * @throws IllegalArgumentException if its {@value #PATH_LABEL} names no path
   */
  public boolean advance(String namespace, String name) {
    synchronized (lock) {
      if (!up) {
        return false;
      }
      ticked = false;
      return server.store().get(settings.type(), namespace, name).map(this::advance).orElse(false);
    }
  }

  /**
   * Steps every application until nothing changes.
   *
   * @return the number of steps that changed something
   * @throws IllegalStateException if things still change after 10,000 steps
   */
  public int stepUntilSettled() {
    int steps = 0;
    while (step()) {
      if (++steps >= MAX_STEPS) {
        throw new IllegalStateException(
            "applications still change after " + MAX_STEPS + " steps; is a test looping?");
      }
    }
    return steps;
  }

  /**
   * Advances one application until it has nothing left to do: the end of its path, or for one being
   * deleted, the operator's whole reaction.
   *
   * @param namespace the application's namespace
   * @param name the application's name
   * @return the number of transitions made
   */
  public int runToEnd(String namespace, String name) {
    int steps = 0;
    while (advance(namespace, name) && ++steps < MAX_STEPS) {
      // keep going
    }
    return steps;
  }

  /**
   * Advances one application along its path until it has made the next transition named {@code
   * state}: a state the operator writes ({@code "RunningHealthy"}, {@code "COMPLETED"}) or one of
   * the pseudo-steps {@code "finalizer"}, {@code "driver-exited"}, {@code "unparseable-status"}.
   * The application must not be being deleted.
   *
   * @param namespace the application's namespace
   * @param name the application's name
   * @param state the transition to reach
   * @throws IllegalStateException if the operator is {@link #down() down}, the application does not
   *     exist, is being deleted, or its path has no such transition ahead (the message lists the
   *     transitions left)
   */
  public void moveTo(String namespace, String name, String state) {
    synchronized (lock) {
      if (!up) {
        throw new IllegalStateException(
            "cannot move "
                + namespace
                + "/"
                + name
                + " to "
                + state
                + ": the fake "
                + settings.flavor()
                + " operator is down; call up() first");
      }
      JsonObject app =
          server
              .store()
              .get(settings.type(), namespace, name)
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "cannot move "
                              + namespace
                              + "/"
                              + name
                              + " to "
                              + state
                              + ": no such "
                              + settings.type().qualifiedPlural()));
      AppRun run = runFor(app);
      List<String> remaining = run.remaining();
      int target = remaining.indexOf(state);
      if (target < 0 || deleting(app)) {
        throw new IllegalStateException(
            "cannot move "
                + namespace
                + "/"
                + name
                + " to "
                + state
                + (deleting(app) ? ": it is being deleted" : "")
                + "; path "
                + run.path
                + " has left "
                + remaining);
      }
      int last = run.next + target;
      while (run.next <= last) {
        if (!advance(namespace, name)) {
          throw new IllegalStateException(
              "cannot move " + namespace + "/" + name + " to " + state + ": a transition failed");
        }
      }
    }
  }

  /**
   * Returns the transitions an application has left on its path, oldest first; empty when it is at
   * the end, unknown, or not driven (operator down, or it had a status when first seen).
   *
   * @param namespace the application's namespace
   * @param name the application's name
   * @return the names of the transitions left
   */
  public List<String> remainingTransitions(String namespace, String name) {
    synchronized (lock) {
      return server
          .store()
          .get(settings.type(), namespace, name)
          .map(a -> runFor(a).remaining())
          .orElse(List.of());
    }
  }

  /**
   * Chooses the path of one application, in one line, before the operator first sees it: for
   * example {@code operator.path(id.namespace(), id.name(), SparkAppPath.FAILED)} right after the
   * submit. It wins over the {@value #PATH_LABEL} label and the default path. The application need
   * not exist yet; if the operator has already seen it but not moved it, it is scripted again on
   * the new path.
   *
   * @param namespace the application's namespace
   * @param name the application's name
   * @param path the path to follow
   * @return this operator
   * @throws IllegalStateException if the operator has already moved the application along its path
   *     (choose the path before stepping)
   */
  public FakeSparkOperator path(String namespace, String name, SparkAppPath path) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(path, "path");
    synchronized (lock) {
      forgetUnmovedRun(
          namespace, name, "put " + namespace + "/" + name + " on path " + path, "path");
      chosenPaths.put(namespace + "/" + name, path);
      return this;
    }
  }

  /**
   * Forgets the run of an application that has not moved yet, so that what is chosen now applies
   * from its first step; throws when it has moved already. Called under {@code lock}.
   *
   * @param what what the caller cannot do, for the message
   * @param choice what the caller chooses ("path", "trouble"), for the message
   */
  private void forgetUnmovedRun(String namespace, String name, String what, String choice) {
    var app = server.store().get(settings.type(), namespace, name);
    if (app.isEmpty()) {
      return;
    }
    AppRun run = runs.get(AppRun.meta(app.get(), "uid"));
    if (run == null) {
      return;
    }
    if (run.next > 0 || run.deletionHandled) {
      throw new IllegalStateException(
          "cannot "
              + what
              + ": it has already made transitions on path "
              + run.path
              + "; choose the "
              + choice
              + " right after creating it, before stepping");
    }
    runs.remove(run.uid);
  }

  /**
   * Gives one application's driver a {@link DriverTrouble}: its driver pod will be stuck with that
   * cause (or, for {@link DriverTrouble#oomKilled()}, killed), the fake server gets the Events the
   * scheduler, the kubelet and the operator record, and the operator writes what it writes then.
   * The trouble replaces the application's path (see {@link DriverTrouble}). The label {@value
   * #TROUBLE_LABEL} does the same for an application submitted through the API.
   *
   * @param namespace the application's namespace
   * @param name the application's name (it may not exist yet)
   * @param trouble the trouble
   * @return this operator
   * @throws IllegalStateException if the operator has already moved the application (choose the
   *     trouble before stepping)
   */
  public FakeSparkOperator driverTrouble(String namespace, String name, DriverTrouble trouble) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(trouble, "trouble");
    synchronized (lock) {
      forgetUnmovedRun(
          namespace,
          name,
          "give " + namespace + "/" + name + " the driver trouble " + trouble.kind(),
          "trouble");
      chosenTroubles.put(namespace + "/" + name, trouble);
      return this;
    }
  }

  /**
   * Takes the operator down, as when its pod is gone: until {@link #up()}, nothing moves — {@link
   * #step()}, {@link #advance(String, String)} and the timer change nothing, {@link #moveTo(String,
   * String, String)} throws — and deleting an Apache application stays held by its finalizer. Doing
   * it twice does nothing.
   *
   * @return this operator
   */
  public FakeSparkOperator down() {
    synchronized (lock) {
      if (up) {
        up = false;
        LOG.debug("Fake {} operator down", settings.flavor());
      }
      return this;
    }
  }

  /**
   * Brings the operator back after {@link #down()}: the next steps resume every application where
   * its path was, react to deletions made meanwhile, and first see applications created meanwhile.
   * Doing it when up does nothing.
   *
   * @return this operator
   */
  public FakeSparkOperator up() {
    synchronized (lock) {
      if (!up) {
        up = true;
        LOG.debug("Fake {} operator back up", settings.flavor());
      }
      return this;
    }
  }

  /**
   * Forgets every application and every path chosen with {@link #path(String, String,
   * SparkAppPath)}, and brings the operator up: applications in the store are then seen afresh (as
   * after a restart of a real operator: those with a status are adopted, not driven). {@link
   * dev.kubejobs.testkit.FakeKubernetesExtension} calls it before each test.
   */
  public void reset() {
    synchronized (lock) {
      runs.clear();
      chosenPaths.clear();
      up = true;
    }
  }

  /**
   * Returns whether the operator is up (not taken {@link #down()}).
   *
   * @return true unless down
   */
  public boolean isUp() {
    return up;
  }

  /**
   * Returns how far each transition moves the server's clock ({@link Duration#ZERO} when it does
   * not).
   *
   * @return the step duration
   */
  public Duration stepDuration() {
    return settings.stepDuration();
  }

  /**
   * Starts moving every application by one transition each {@code tick} on one daemon thread, until
   * {@link #close()}; a failing step is logged (WARN once per distinct failure) and the timer goes
   * on.
   *
   * @param tick the time between steps, positive
   * @return this operator
   * @throws IllegalArgumentException if {@code tick} is not positive
   * @throws IllegalStateException if already started
   */
  public FakeSparkOperator start(Duration tick) {
    if (tick.isZero() || tick.isNegative()) {
      throw new IllegalArgumentException("tick must be positive, but was " + tick);
    }
    synchronized (lock) {
      if (timer != null) {
        throw new IllegalStateException("fake " + settings.flavor() + " operator already started");
      }
      String threadName = "fake-spark-operator-" + settings.flavor().name().toLowerCase();
      timer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                synchronized (lock) {
                  timerThread = t;
                }
                return t;
              });
      long millis = Math.max(1, tick.toMillis());
      timer.scheduleWithFixedDelay(this::timedStep, millis, millis, TimeUnit.MILLISECONDS);
      LOG.debug("Fake {} operator ticking every {}", settings.flavor(), tick);
    }
    return this;
  }

  /**
   * Stops the timer thread started by {@link #start(Duration)} and waits up to five seconds for it
   * to exit, so no thread of this operator runs once this returns; does nothing when not started.
   * The operator can still be stepped by hand afterwards, or started again.
   */
  @Override
  public void close() {
    ScheduledExecutorService t;
    Thread worker;
    synchronized (lock) {
      t = timer;
      worker = timerThread;
      timer = null;
      timerThread = null;
    }
    if (t == null) {
      return;
    }
    t.shutdownNow();
    try {
      // awaitTermination returns when the tasks are done, possibly before the worker thread has
      // exited; join it so that "closed" means "no thread left"
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      boolean stopped = t.awaitTermination(5, TimeUnit.SECONDS);
      if (worker != null && worker != Thread.currentThread()) {
        long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        worker.join(left);
        stopped &= !worker.isAlive();
      }
      if (!stopped) {
        LOG.warn("Fake {} operator's timer did not stop within 5 seconds", settings.flavor());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.debug("Interrupted while stopping the fake {} operator's timer", settings.flavor());
    }
  }

  private void timedStep() {
    try {
      step();
    } catch (RuntimeException e) {
      String failure = e.toString();
      if (!failure.equals(lastTimedFailure)) {
        LOG.warn("Fake {} operator step failed: {}", settings.flavor(), failure);
        lastTimedFailure = failure;
      } else {
        LOG.debug("Fake {} operator step failed again: {}", settings.flavor(), failure);
      }
    }
  }

  private boolean advance(JsonObject app) {
    AppRun run = runFor(app);
    String id = run.namespace + "/" + run.name;
    try {
      if (deleting(app)) {
        if (Scripts.mayReactToDeletion(run, app)) {
          tick();
        }
        boolean changed = Scripts.onDeletion(run, app);
        if (changed) {
          LOG.debug("Fake {} operator reacted to deletion of '{}'", settings.flavor(), id);
        }
        return changed;
      }
      if (run.next >= run.steps.size()) {
        return false;
      }
      AppRun.Step step = run.steps.get(run.next);
      tick();
      step.action().run(run);
      run.next++;
      LOG.debug("Fake {} operator moved '{}' to {}", settings.flavor(), id, step.name());
      return true;
    } catch (FakeApiException e) {
      LOG.debug(
          "Fake {} operator could not move '{}': {} {}",
          settings.flavor(),
          id,
          e.code(),
          e.getMessage());
      return false;
    }
  }

  /** Moves the server's clock by the step duration, once per step() or advance() call. */
  private void tick() {
    if (!ticked && !settings.stepDuration().isZero()) {
      ((MutableClock) server.clock()).advance(settings.stepDuration());
    }
    ticked = true;
  }

  private AppRun runFor(JsonObject app) {
    String uid = AppRun.meta(app, "uid");
    AppRun run = runs.get(uid);
    if (run == null) {
      run = firstSight(app);
      runs.put(uid, run);
    }
    return run;
  }

  private AppRun firstSight(JsonObject app) {
    JsonObject labels = app.getAsJsonObject("metadata").getAsJsonObject("labels");
    String pathLabel = labels != null && labels.has(PATH_LABEL) ? string(labels, PATH_LABEL) : null;
    SparkAppPath chosen =
        chosenPaths.remove(AppRun.meta(app, "namespace") + "/" + AppRun.meta(app, "name"));
    SparkAppPath path =
        chosen != null
            ? chosen
            : pathLabel != null ? SparkAppPath.parse(pathLabel) : settings.defaultPath();
    boolean sidecar =
        settings.sidecar()
            || labels != null && "true".equalsIgnoreCase(string(labels, SIDECAR_LABEL));
    DriverTrouble trouble =
        chosenTroubles.remove(AppRun.meta(app, "namespace") + "/" + AppRun.meta(app, "name"));
    if (trouble == null && labels != null && labels.has(TROUBLE_LABEL)) {
      trouble = DriverTrouble.parse(string(labels, TROUBLE_LABEL));
    }
    if (trouble != null && path != SparkAppPath.OPERATOR_DOWN) {
      path = trouble.keepsDriverPending() ? SparkAppPath.DRIVER_START_TIMEOUT : SparkAppPath.FAILED;
    }
    if (!isNew(app) || deleting(app)) {
      path = path == SparkAppPath.OPERATOR_DOWN ? path : null;
    }
    AppRun run = new AppRun(settings, server.store(), server.clock(), app, path, sidecar, trouble);
    Scripts.script(run, retainPolicy(app));
    if (run.path == null) {
      // adopted: remember its driver pod for deletion
      if (run.apache()) {
        run.driverPod =
            ApacheStatuses.driverPodName(
                run.namespace, run.name, ApacheStatuses.attemptId(status(app)));
      } else {
        run.driverPod = KubeflowStatuses.driverPodName(run.name);
      }
    }
    LOG.debug(
        "Fake {} operator found '{}/{}', path {}",
        settings.flavor(),
        run.namespace,
        run.name,
        run.path == null ? "none (already has a status)" : run.path);
    return run;
  }

  private boolean isNew(JsonObject app) {
    JsonObject status = status(app);
    if (app.has("status") && !app.get("status").isJsonNull() && status == null) {
      return false;
    }
    if (status == null || status.size() == 0) {
      return true;
    }
    return settings.flavor() == Flavor.KUBEFLOW
        && KubeflowStatuses.state(status).orElse("").isEmpty()
        && !status.has("phase");
  }

  private static JsonObject status(JsonObject app) {
    JsonElement s = app.get("status");
    return s != null && s.isJsonObject() ? s.getAsJsonObject() : null;
  }

  private static String retainPolicy(JsonObject app) {
    JsonObject spec = app.getAsJsonObject("spec");
    if (spec == null || !spec.has("applicationTolerations")) {
      return "Never";
    }
    JsonObject tolerations = spec.getAsJsonObject("applicationTolerations");
    return tolerations.has("resourceRetainPolicy")
        ? tolerations.get("resourceRetainPolicy").getAsString()
        : "Never";
  }

  private static boolean deleting(JsonObject app) {
    JsonElement d = app.getAsJsonObject("metadata").get("deletionTimestamp");
    return d != null && !d.isJsonNull();
  }

  private static String string(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e == null || e.isJsonNull() ? null : e.getAsString();
  }

  /**
   * Configures a {@link FakeSparkOperator}.
   *
   * <p>Not thread safe: use one builder per thread.
   */
  public static final class Builder {
    private final Flavor flavor;
    private final FakeKubernetesApiServer server;
    private String version;
    private SparkAppPath defaultPath = SparkAppPath.HAPPY;
    private boolean trim = true;
    private String newerState;
    private JsonObject unparseableStatus;
    private boolean sidecar;
    private Duration stepDuration = Duration.ZERO;

    private Builder(Flavor flavor, FakeKubernetesApiServer server) {
      this.flavor = Objects.requireNonNull(flavor, "flavor");
      this.server = Objects.requireNonNull(server, "server");
    }

    /**
     * Sets the API version served and watched: for Apache {@code v1} (default) or {@code v1beta1}
     * (operators 0.3–0.4, whose attempt info holds only {@code id}); Kubeflow only has {@code
     * v1beta2}.
     *
     * @param version the version
     * @return this builder
     * @throws IllegalArgumentException if the operator has no such version
     */
    public Builder version(String version) {
      boolean ok =
          flavor == Flavor.APACHE
              ? "v1".equals(version) || "v1beta1".equals(version)
              : KubeflowStatuses.VERSION.equals(version);
      if (!ok) {
        throw new IllegalArgumentException(
            "version must be "
                + (flavor == Flavor.APACHE ? "v1 or v1beta1" : KubeflowStatuses.VERSION)
                + " for the "
                + flavor
                + " operator, but was "
                + version);
      }
      this.version = version;
      return this;
    }

    /**
     * Sets the path of applications without a {@value #PATH_LABEL} label (default {@link
     * SparkAppPath#HAPPY}).
     *
     * @param path the path
     * @return this builder
     */
    public Builder defaultPath(SparkAppPath path) {
      this.defaultPath = Objects.requireNonNull(path, "path");
      return this;
    }

    /**
     * Sets whether an Apache restart trims the history into {@code previousAttemptSummary} (default
     * true, the operator's default; false keeps one growing history).
     *
     * @param trim whether to trim
     * @return this builder
     */
    public Builder trimHistoryOnRestart(boolean trim) {
      this.trim = trim;
      return this;
    }

    /**
     * Sets the state written by {@link SparkAppPath#NEWER_STATE} (default {@value
     * ApacheFixtures#NEWER_STATE} for Apache, {@value KubeflowFixtures#NEWER_STATE} for Kubeflow).
     *
     * @param state the state string
     * @return this builder
     */
    public Builder newerState(String state) {
      this.newerState = Objects.requireNonNull(state, "state");
      return this;
    }

    /**
     * Sets the status written by {@link SparkAppPath#UNPARSEABLE_STATUS} (default {@code
     * {"phase":"Running"}}).
     *
     * @param status the status, copied
     * @return this builder
     */
    public Builder unparseableStatus(JsonObject status) {
      this.unparseableStatus = status.deepCopy();
      return this;
    }

    /**
     * Gives every driver pod a sidecar container, as the label {@value #SIDECAR_LABEL} does for one
     * application (default false).
     *
     * @param sidecar whether to add a sidecar
     * @return this builder
     */
    public Builder sidecar(boolean sidecar) {
      this.sidecar = sidecar;
      return this;
    }

    /**
     * Sets how far each transition moves the server's {@link MutableClock} before it is made
     * (default zero: the clock moves only when the test moves it). One {@link #step()} moves the
     * clock once, however many applications it moves; {@link #moveTo(String, String, String)} once
     * per transition. Longer than kubejobs' status cache (5 s by default), it lets a reader on the
     * same clock see every transition.
     *
     * @param stepDuration zero or positive
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder stepDuration(Duration stepDuration) {
      if (stepDuration == null || stepDuration.isNegative()) {
        throw new IllegalArgumentException(
            "stepDuration must be zero or positive, but was " + stepDuration);
      }
      this.stepDuration = stepDuration;
      return this;
    }

    /**
     * Attaches the operator to the server, registering its resource type there.
     *
     * @return the operator, not moving until told
     * @throws IllegalStateException if a step duration is set and the server's clock is not a
     *     {@link MutableClock}
     */
    public FakeSparkOperator build() {
      Clock clock = server.clock();
      if (!stepDuration.isZero() && !(clock instanceof MutableClock)) {
        throw new IllegalStateException(
            "stepDuration "
                + stepDuration
                + " needs a server on a MutableClock to move, but its clock is "
                + clock
                + "; build the server with FakeKubernetesApiServer.builder().clock(MutableClock.at(...))"
                + " or leave stepDuration at zero");
      }
      boolean apache = flavor == Flavor.APACHE;
      String v = version != null ? version : apache ? "v1" : KubeflowStatuses.VERSION;
      ResourceType type =
          !apache
              ? ResourceType.KUBEFLOW_SPARK_APPLICATION
              : "v1".equals(v)
                  ? ResourceType.APACHE_SPARK_APPLICATION
                  : ResourceType.APACHE_SPARK_APPLICATION_V1BETA1;
      JsonObject unparseable = unparseableStatus;
      if (unparseable == null) {
        unparseable = new JsonObject();
        unparseable.addProperty("phase", "Running");
      }
      String newer =
          newerState != null
              ? newerState
              : apache ? ApacheFixtures.NEWER_STATE : KubeflowFixtures.NEWER_STATE;
      return new FakeSparkOperator(
          server,
          new Settings(
              flavor, type, v, defaultPath, trim, newer, unparseable, sidecar, stepDuration));
    }
  }
}
