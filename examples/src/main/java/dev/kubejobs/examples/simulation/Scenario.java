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
package dev.kubejobs.examples.simulation;

import static dev.kubejobs.examples.simulation.Simulator.CLUSTER;
import static dev.kubejobs.examples.simulation.Simulator.NAMESPACE;

import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.sweep.SweepReport;
import dev.kubejobs.core.sweep.SweepRequest;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * One {@link RaceSimulation} scenario on a {@link Simulator}'s fake cluster: carries out its {@link
 * ScenarioPlan} as actions (submits, operator steps, polls and cancels from either node, clock
 * jumps, faults, operator outages), settles, sweeps, and has the {@link Invariants} checked along
 * the way and at the end. Runs once; actions of a concurrent scenario run on the simulator's
 * threads.
 */
final class Scenario {
  private static final Duration NO_STATUS_JUMP = Duration.ofMinutes(11);

  private enum Action {
    OPERATOR_STEP,
    POLL,
    CANCEL,
    CLOCK,
    FAULT,
    OUTAGE,
    FOREIGN_CANCEL
  }

  /** One scheduler node: a KubeJobs instance on its own client, as a second server would have. */
  private record Node(String name, KubeJobs<SparkJobSpec> jobs) {}

  private final Simulator sim;
  private final ScenarioPlan plan;
  private final Random rnd;
  private final Set<Feature> features;
  private final List<ScenarioJob> jobs;
  private final FakeSparkOperator operator;
  private final Node a;
  private final Node b;
  private final List<Node> nodes;
  private final Invariants invariants;
  private final List<String> trace = new ArrayList<>();
  private volatile boolean operatorDown;

  /** Whether the no-status delete race ran; it runs once, at the first jump past the timeout. */
  private boolean raced;

  Scenario(Simulator sim, ScenarioPlan plan) {
    this.sim = sim;
    this.plan = plan;
    this.rnd = plan.rnd;
    this.features = plan.features;
    this.jobs = plan.jobs;
    this.operator = sim.operator(plan.flavor);
    // fresh instances: no cache or breaker state carries over, so a seed replays alone
    this.a =
        new Node(
            "A", sim.kubeJobs(sim.clientA, plan.flavor, plan.ttlA, plan.restarts, plan.watchA));
    this.b =
        new Node(
            "B", sim.kubeJobs(sim.clientB, plan.flavor, plan.ttlB, plan.restarts, plan.watchB));
    this.nodes = List.of(a, b);
    this.invariants = new Invariants(plan, sim.log);
  }

  /** Runs the scenario and returns the broken invariants. */
  List<Violation> run() {
    try {
      // The record's optional permission, as the plan's features grant it.
      sim.server.rbac().reset();
      if (!features.contains(Feature.OUTCOME_RECORD)) {
        sim.server.rbac().deny("create", "", "events");
      }
      addBystanders();
      submitAll();
      if (plan.endMarkRace) {
        endMarkRace();
      }
      if (plan.recordless >= 0) {
        recordlessHistory();
      }
      int steps = 6 + rnd.nextInt(18);
      for (int i = 0; i < steps; i++) {
        if (plan.concurrent) {
          burst();
        } else {
          act(pickAction(), rnd);
        }
      }
      settle();
      invariants.recordedOutcomesAreAllowedAndAgreed();
      invariants.operatorOutcomeIsEveryNodes();
      invariants.deletedWithAStatusOnlyByACancel();
      invariants.oneApplicationPerJob();
      sweep();
      invariants.nothingUnmanagedTouched();
    } catch (RuntimeException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      invariants.threw("the scenario itself failed: " + e + " after " + trace);
    } finally {
      a.jobs().close();
      b.jobs().close();
    }
    return invariants.violations();
  }

  // ---- set-up ----

  private void addBystanders() {
    ResourceType type = operator.resourceType();
    JsonObject status = new JsonObject();
    if (plan.flavor == Flavor.APACHE) {
      JsonObject cs = new JsonObject();
      cs.addProperty("currentStateSummary", "RunningHealthy");
      status.add("currentState", cs);
    } else {
      JsonObject st = new JsonObject();
      st.addProperty("state", "RUNNING");
      status.add("applicationState", st);
    }
    JsonObject unmanaged = app(type, "hand-made", Map.of("team", "etl"), status);
    JsonObject otherDeployment =
        app(
            type,
            "kj-job-0-other",
            Map.of(
                JobIdentity.LABEL_MANAGED_BY,
                JobIdentity.MANAGED_BY_VALUE,
                JobIdentity.LABEL_JOB_ID,
                "job-0",
                JobIdentity.LABEL_DEPLOYMENT,
                "other"),
            status);
    for (JsonObject o : List.of(unmanaged, otherDeployment)) {
      JsonObject created = sim.server.store().create(type, NAMESPACE, o);
      invariants.bystander(created.getAsJsonObject("metadata").get("uid").getAsString());
    }
  }

  private static JsonObject app(
      ResourceType type, String name, Map<String, String> labels, JsonObject status) {
    JsonObject o = new JsonObject();
    o.addProperty("apiVersion", type.apiVersion());
    o.addProperty("kind", type.kind());
    JsonObject meta = new JsonObject();
    meta.addProperty("name", name);
    meta.addProperty("namespace", NAMESPACE);
    JsonObject l = new JsonObject();
    labels.forEach(l::addProperty);
    meta.add("labels", l);
    JsonObject ann = new JsonObject();
    ann.addProperty(JobIdentity.ANNOTATION_JOB_ID, labels.getOrDefault("kubejobs.dev/job-id", ""));
    meta.add("annotations", ann);
    o.add("metadata", meta);
    o.add("spec", new JsonObject());
    o.add("status", status.deepCopy());
    return o;
  }

  private static SparkJobSpec spec(SparkAppPath path) {
    return SparkJobSpec.builder()
        .namespace(NAMESPACE)
        .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
        .mainClass("org.apache.spark.examples.SparkPi")
        .sparkVersion("4.0.1")
        .label(FakeSparkOperator.PATH_LABEL, path.name())
        .build();
  }

  private void submitAll() throws InterruptedException {
    ScenarioJob orphan = new ScenarioJob("orphan", SparkAppPath.HAPPY, true);
    submit(a, orphan);
    boolean twice = features.contains(Feature.DOUBLE_SUBMIT);
    for (ScenarioJob job : jobs) {
      if (twice && rnd.nextInt(2) == 0) {
        if (features.contains(Feature.FAULTS) && rnd.nextBoolean()) {
          Fault.Builder post = scoped(Fault.on("POST", collectionRegex()));
          Fault f = rnd.nextBoolean() ? post.appliedThenLost() : post.connectionReset();
          sim.server.faults().add(f);
          trace("fault " + f);
        }
        if (plan.concurrent) {
          together(List.of(() -> submit(a, job), () -> submit(b, job)));
        } else {
          submit(a, job);
          submit(b, job);
        }
        sim.server.faults().clear();
      } else {
        submit(a, job);
      }
    }
    jobs.add(orphan);
  }

  private void submit(Node node, ScenarioJob job) {
    try {
      ExecutionId id = node.jobs().submitter().submit(job.jobId, spec(job.path));
      job.id = id;
      trace(node.name() + " submit " + job.jobId + " -> ok");
    } catch (KubeJobsException e) {
      trace(node.name() + " submit " + job.jobId + " -> " + e.getClass().getSimpleName());
      invariants.documentedException(node.name(), "submit", e);
      invariants.noConflictForOwnJob(node.name(), job, e);
    } catch (RuntimeException e) {
      invariants.documentedException(node.name(), "submit", e);
    }
  }

  // ---- actions ----

  private Action pickAction() {
    while (true) {
      int x = rnd.nextInt(100);
      Action action;
      if (x < 30) {
        action = Action.OPERATOR_STEP;
      } else if (x < 55) {
        action = Action.POLL;
      } else if (x < 67) {
        action = Action.CANCEL;
      } else if (x < 80) {
        action = Action.CLOCK;
      } else if (x < 92) {
        action = Action.FAULT;
      } else if (x < 97) {
        action = Action.OUTAGE;
      } else {
        action = Action.FOREIGN_CANCEL;
      }
      if (allowed(action)) {
        return action;
      }
    }
  }

  private boolean allowed(Action action) {
    switch (action) {
      case CANCEL:
        return features.contains(Feature.CANCEL) || features.contains(Feature.CANCEL_RUNNING);
      case FAULT:
        return features.contains(Feature.FAULTS);
      case OUTAGE:
        return features.contains(Feature.OPERATOR_OUTAGE);
      case FOREIGN_CANCEL:
        return features.contains(Feature.FOREIGN_CANCEL);
      default:
        return true;
    }
  }

  /** Performs one action; {@code r} is the random source of the thread running it. */
  private void act(Action action, Random r) {
    Node node = r.nextBoolean() ? a : b;
    ScenarioJob job = jobs.get(r.nextInt(jobs.size() - 1)); // never the orphan
    switch (action) {
      case OPERATOR_STEP:
        if (!operatorDown) {
          if (r.nextBoolean()) {
            operator.step();
            trace("operator step");
          } else if (job.id != null) {
            operator.advance(NAMESPACE, job.id.name());
            trace("operator advance " + job.jobId);
          }
        }
        break;
      case POLL:
        poll(node, job);
        break;
      case CANCEL:
        cancel(node, job);
        break;
      case CLOCK:
        Duration d =
            features.contains(Feature.OPERATOR_OUTAGE) && r.nextInt(8) == 0
                ? NO_STATUS_JUMP
                : Duration.ofMillis(r.nextInt(7000));
        sim.clock.advance(d);
        trace("clock +" + d.toMillis() + "ms");
        if (d == NO_STATUS_JUMP) {
          noStatusDeleteRace(false);
        }
        break;
      case FAULT:
        Fault f = fault(r);
        sim.server.faults().add(f);
        trace("fault " + f);
        break;
      case OUTAGE:
        operatorDown = !operatorDown;
        trace(operatorDown ? "operator down" : "operator back");
        break;
      case FOREIGN_CANCEL:
        foreignCancel(node);
        break;
      default:
        throw new IllegalStateException("unknown action " + action);
    }
  }

  /** Two or three actions at once on real threads; a clock jump, fault or outage runs alone. */
  private void burst() throws InterruptedException {
    Action first = pickAction();
    if (first == Action.CLOCK || first == Action.FAULT || first == Action.OUTAGE) {
      act(first, rnd);
      return;
    }
    int n = 2 + rnd.nextInt(2);
    List<Runnable> tasks = new ArrayList<>();
    List<Action> picked = new ArrayList<>();
    picked.add(first);
    while (picked.size() < n) {
      Action next = pickAction();
      if (next != Action.CLOCK && next != Action.FAULT && next != Action.OUTAGE) {
        picked.add(next);
      }
    }
    for (Action action : picked) {
      long taskSeed = rnd.nextLong();
      tasks.add(() -> act(action, new Random(taskSeed)));
    }
    trace("burst " + picked);
    together(tasks);
  }

  private void together(List<Runnable> tasks) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (Runnable task : tasks) {
      futures.add(
          sim.pool.submit(
              () -> {
                start.await();
                task.run();
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      try {
        f.get(60, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        invariants.threw("a concurrent action threw " + e.getCause());
      } catch (TimeoutException e) {
        invariants.hung("a concurrent action did not finish within 60 s");
        f.cancel(true);
      }
    }
  }

  private Fault fault(Random r) {
    String[] verbs = {"GET", "POST", "PATCH", "DELETE", "*"};
    String verb = verbs[r.nextInt(verbs.length)];
    String path = r.nextInt(4) == 0 ? podRegex() : collectionRegex() + "(/.*)?";
    Fault.Builder on = scoped(Fault.on(verb, path).times(1 + r.nextInt(3)));
    switch (r.nextInt(5)) {
      case 0:
        return on.connectionReset();
      case 1:
        return on.appliedThenLost();
      case 2:
        return on.status(500, "InternalError", "simulated");
      case 3:
        return on.status(503, "ServiceUnavailable", "simulated");
      default:
        return on.tooManyRequests(1);
    }
  }

  /** Scopes a fault to node A's client, node B's, or neither (both nodes see it). */
  private Fault.Builder scoped(Fault.Builder fault) {
    int scope;
    synchronized (plan.faultScope) {
      scope = plan.faultScope.nextInt(3);
    }
    return scope == 0 ? fault : fault.forClient(scope == 1 ? "node-a" : "node-b");
  }

  private String collectionRegex() {
    ResourceType t = operator.resourceType();
    return Pattern.quote("/apis/" + t.group() + "/" + t.version() + "/namespaces/" + NAMESPACE)
        + "/"
        + t.plural();
  }

  private static String podRegex() {
    return Pattern.quote("/api/v1/namespaces/" + NAMESPACE + "/pods") + "(/.*)?";
  }

  private void poll(Node node, ScenarioJob job) {
    poll(node, job, false);
  }

  /**
   * A node reads a job's status, with {@code get}, or with {@code getAll} of that one job when
   * {@code all}, and records it as Gravitino would.
   */
  private void poll(Node node, ScenarioJob job, boolean all) {
    ExecutionId id = job.id;
    if (id == null) {
      return;
    }
    long begun = job.readBegins();
    try {
      JobExecutionInfo info =
          all
              ? node.jobs().statusReader().getAll(List.of(id)).get(id).orElseThrow()
              : node.jobs().statusReader().get(id);
      note(node, job, begun, info.status(), "");
    } catch (NoSuchJobException e) {
      synchronized (job) {
        if (job.recorded.containsKey(node.name())) {
          trace(node.name() + " get " + job.jobId + " -> NoSuchJob after it ended");
          return;
        }
      }
      // As Gravitino records it: gone after its own cancel is CANCELLED, else FAILED. It changes
      // one job's record at a time (one row), so a NoSuchJob that arrives while its cancel of
      // the job is under way is recorded after that cancel ends.
      boolean ownCancel = job.awaitCancels();
      note(node, job, begun, ownCancel ? JobStatus.CANCELLED : JobStatus.FAILED, " (NoSuchJob)");
    } catch (RuntimeException e) {
      trace(node.name() + " get " + job.jobId + " -> " + e.getClass().getSimpleName());
      invariants.documentedException(node.name(), "get", e);
    }
  }

  /**
   * A node read a status of a job, in a read that began at {@code begun}: checked by (b), then
   * kept; a terminal one is recorded.
   */
  private void note(Node node, ScenarioJob job, long begun, JobStatus status, String how) {
    trace(node.name() + " get " + job.jobId + " -> " + status + how);
    synchronized (job) {
      List<JobStatus> before = job.returned(node.name(), begun, status);
      invariants.neverBackwards(node.name(), job, before, status, how);
      if (status.isTerminal() && job.recorded.putIfAbsent(node.name(), status) == null) {
        if (!how.isEmpty()) {
          job.guessed.add(node.name());
        }
      }
    }
  }

  private void cancel(Node node, ScenarioJob job) {
    ExecutionId id = job.id;
    if (id == null) {
      return;
    }
    if (!features.contains(Feature.CANCEL) && !unfinished(job)) {
      return;
    }
    synchronized (job) {
      if (!job.recorded.isEmpty()) {
        return; // the scheduler does not cancel a job it recorded as ended
      }
      job.cancelStarts();
    }
    // A cancel that took effect is the scheduler's own (Gravitino records CANCELLING); one that
    // failed is not, unless the exception says it may have been applied.
    try {
      CancelResult result = node.jobs().canceller().cancel(id);
      // ALREADY_FINISHED: nothing of this cancel took effect (the job ended, or is being deleted
      // without a cancel); ALREADY_DELETING: an earlier cancel is deleting it.
      job.cancelAsked |= result != CancelResult.ALREADY_FINISHED;
      trace(node.name() + " cancel " + job.jobId + " -> " + result);
    } catch (ApiUnavailableException e) {
      job.cancelAsked |= e.mayHaveBeenApplied();
      trace(
          node.name()
              + " cancel "
              + job.jobId
              + " -> ApiUnavailableException(mayHaveBeenApplied="
              + e.mayHaveBeenApplied()
              + ")");
    } catch (RuntimeException e) {
      trace(node.name() + " cancel " + job.jobId + " -> " + e.getClass().getSimpleName());
      invariants.documentedException(node.name(), "cancel", e);
    } finally {
      job.cancelEnds();
    }
  }

  /** Whether the server's log shows the job's application without outcome or driver exit. */
  private boolean unfinished(ScenarioJob job) {
    List<EventLog.Entry> ordered = sim.log.ordered();
    String uid = Invariants.lastUid(ordered, job.id.name());
    if (uid == null) {
      return false;
    }
    Truth truth = Truth.of(ordered, uid, plan.flavor, job.path);
    return truth.allowed().isEmpty() && !truth.story().contains("driver-exit");
  }

  private void foreignCancel(Node node) {
    ResourceType t = operator.resourceType();
    ExecutionId id =
        ExecutionId.parse(
            CLUSTER + "/" + t.qualifiedPlural() + "/" + NAMESPACE + "/" + "hand-made");
    try {
      CancelResult result = node.jobs().canceller().cancel(id);
      trace(node.name() + " cancel hand-made -> " + result);
    } catch (RuntimeException e) {
      trace(node.name() + " cancel hand-made -> " + e.getClass().getSimpleName());
      invariants.documentedException(node.name(), "cancel of an unmanaged id", e);
    }
  }

  // ---- settle and sweep ----

  /**
   * Clears the faults, brings the operator up and runs it to the end while both nodes poll, until
   * each has recorded every job; then checks (g) and polls once more for (b).
   */
  private void settle() throws InterruptedException {
    sim.server.faults().clear();
    operatorDown = false;
    trace("-- faults cleared, operator up --");
    for (ScenarioJob job : jobs) {
      for (int i = 0; i < 3 && job.id == null; i++) {
        sim.clock.advance(Duration.ofSeconds(11)); // past an open circuit breaker
        submit(a, job);
      }
    }
    // Go on until every node has recorded every job and the operator has nothing left to do, so
    // that the server's log holds each path's end and the judge never sees "not finished" for a
    // job whose outcome the operator had already decided.
    boolean moved = true;
    for (int round = 0; round < 40 && (moved || !allRecorded()); round++) {
      moved = operator.step();
      sim.clock.advance(Duration.ofSeconds(6));
      if (round == 6) {
        sim.clock.advance(NO_STATUS_JUMP);
        noStatusDeleteRace(true);
      }
      pollUnrecorded();
    }
    // A watching node sees the operator's last writes when their events arrive (real time).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while ((plan.watchA || plan.watchB) && !allRecorded() && System.nanoTime() < deadline) {
      sim.clock.advance(Duration.ofSeconds(6));
      pollUnrecorded();
      Thread.sleep(20);
    }
    sim.clock.advance(Duration.ofSeconds(6));
    for (ScenarioJob job : jobs) {
      if (job.orphan) {
        continue;
      }
      for (Node node : nodes) {
        if (!job.recorded.containsKey(node.name())) {
          invariants.ended(node.name(), job);
        } else {
          poll(node, job); // a terminal status must not change
        }
      }
    }
  }

  /**
   * Issue 24's race, when the plan draws it, at the first jump past the no-status timeout (in the
   * scenario's steps or while settling), on a job no node recorded yet: one node's delete of a job
   * loses its answer (applied then lost, or reset before it was applied) while the other node
   * cancels the job; then the first node reads it again. The scheduler records what each node read
   * as Gravitino would ({@link #poll}). In the scenario's steps the race's fault stays, as the
   * others do, until used or cleared.
   *
   * @param settling whether the scenario is settling (its faults were cleared before)
   */
  private void noStatusDeleteRace(boolean settling) {
    if (!plan.noStatusRace || raced) {
      return;
    }
    List<ScenarioJob> open = new ArrayList<>();
    for (ScenarioJob j : jobs) {
      if (!j.orphan && j.id != null && j.recorded.isEmpty()) {
        open.add(j);
      }
    }
    if (open.isEmpty()) {
      return;
    }
    raced = true;
    Random r = plan.raceRandom;
    ScenarioJob job = open.get(r.nextInt(open.size()));
    Node sender = r.nextBoolean() ? a : b;
    Node other = sender == a ? b : a;
    Fault.Builder on =
        Fault.on("DELETE", collectionRegex() + "/" + Pattern.quote(job.id.name()))
            .forClient(sender == a ? "node-a" : "node-b")
            .times(1 + r.nextInt(9));
    Fault f = r.nextBoolean() ? on.appliedThenLost() : on.connectionReset();
    sim.server.faults().add(f);
    trace("no-status delete race on " + job.jobId + ": " + sender.name() + " fault " + f);
    if (plan.concurrent) {
      try {
        together(List.of(() -> poll(sender, job), () -> cancel(other, job)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        invariants.threw("interrupted during the no-status delete race");
        return;
      }
    } else {
      poll(sender, job);
      cancel(other, job);
    }
    poll(sender, job);
    if (settling) {
      sim.server.faults().clear(); // the faults were cleared to settle: only the race's is left
    }
  }

  /**
   * Issue 43's race, when the plan draws it, right after the jobs were submitted: the operator is
   * down past the no-status timeout, so a node's read puts the end mark on a job; a fault that may
   * last until cleared (5xx or 403 for good, lost answers, resets) meets the end mark's patch or
   * the delete after it; the operator comes back between any two requests of that read, or of the
   * other node's cancel or read, and runs the job while the fault lasts. Then both nodes read
   * again; the fault is cleared now or when the scenario settles.
   */
  private void endMarkRace() throws InterruptedException {
    Random r = plan.endMarkRandom;
    List<ScenarioJob> open = new ArrayList<>();
    for (ScenarioJob j : jobs) {
      if (!j.orphan && j.id != null) {
        open.add(j);
      }
    }
    if (open.isEmpty()) {
      return;
    }
    ScenarioJob job = open.get(r.nextInt(open.size()));
    Node sender = r.nextBoolean() ? a : b;
    Node other = sender == a ? b : a;
    operatorDown = true;
    sim.clock.advance(NO_STATUS_JUMP);
    trace("operator down past the no-status timeout; end-mark race on " + job.jobId);
    String app = collectionRegex() + "/" + Pattern.quote(job.id.name());
    boolean everyNode = r.nextBoolean();
    List<Fault> faults = new ArrayList<>();
    switch (r.nextInt(6)) {
      case 0 ->
          faults.add(
              raceFault(Fault.on("DELETE", app).forever(), sender, everyNode)
                  .status(503, "ServiceUnavailable", "simulated, until cleared"));
      case 1 ->
          faults.add(
              raceFault(Fault.on("DELETE", app).times(1 + r.nextInt(4)), sender, everyNode)
                  .appliedThenLost());
      case 2 -> {
        faults.add(raceFault(Fault.on("PATCH", app).times(1), sender, everyNode).appliedThenLost());
        faults.add(
            raceFault(Fault.on("DELETE", app).forever(), sender, everyNode)
                .status(500, "InternalError", "simulated, until cleared"));
      }
      case 3 ->
          faults.add(
              raceFault(Fault.on("DELETE", app).times(3 + r.nextInt(4)), sender, everyNode)
                  .connectionReset());
      case 4 ->
          faults.add(
              raceFault(Fault.on("PATCH", app).times(1 + r.nextInt(2)), sender, everyNode)
                  .appliedThenLost());
      default ->
          faults.add(
              raceFault(Fault.on("DELETE", app).forever(), sender, everyNode)
                  .status(
                      403, "Forbidden", "simulated: delete not permitted until the Role is fixed"));
    }
    for (Fault f : faults) {
      sim.server.faults().add(f);
      trace("fault " + f);
    }
    boolean senderAll = r.nextBoolean();
    interleaved(sender, job, r, () -> poll(sender, job, senderAll));
    if (r.nextBoolean()) {
      interleaved(other, job, r, () -> cancel(other, job));
    } else {
      boolean otherAll = r.nextBoolean();
      interleaved(other, job, r, () -> poll(other, job, otherAll));
    }
    operatorDown = false;
    int steps = r.nextInt(12);
    for (int i = 0; i < steps; i++) {
      operator.advance(NAMESPACE, job.id.name());
      sim.clock.advance(Duration.ofSeconds(1));
      if (r.nextInt(3) == 0) {
        poll(r.nextBoolean() ? sender : other, job, r.nextBoolean());
      }
    }
    trace("operator back, " + steps + " steps of " + job.jobId);
    poll(sender, job, r.nextBoolean());
    poll(other, job, r.nextBoolean());
    if (r.nextBoolean()) {
      sim.server.faults().clear();
      trace("faults cleared");
    }
  }

  /**
   * Issue 43's histories that no node can settle without a durable record ({@link
   * Feature#RECORDLESS_HISTORIES}), right after the jobs were submitted and the operator started
   * them: node X cancels a job while
   *
   * <ol start="0">
   *   <li>its delete lands and every answer to it and every read of the job after it is lost;
   *   <li>node Y reads the job while X's delete is applied and its answer not yet back;
   *   <li>the operator moves the job on (the driver exits) while X's delete is on its way;
   *   <li>node Y cannot read pods (503 until cleared) while the job ends and X cancels it.
   * </ol>
   *
   * Then the faults clear and both nodes read the job.
   */
  private void recordlessHistory() throws InterruptedException {
    Random r = plan.recordlessRandom;
    List<ScenarioJob> open = new ArrayList<>();
    for (ScenarioJob j : jobs) {
      if (!j.orphan && j.id != null && j.recorded.isEmpty()) {
        open.add(j);
      }
    }
    if (open.isEmpty()) {
      return;
    }
    ScenarioJob job = open.get(r.nextInt(open.size()));
    Node x = r.nextBoolean() ? a : b;
    Node y = x == a ? b : a;
    String xClient = x == a ? "node-a" : "node-b";
    String app = collectionRegex() + "/" + Pattern.quote(job.id.name());
    int moves = 1 + r.nextInt(3);
    for (int i = 0; i < moves; i++) {
      operator.advance(NAMESPACE, job.id.name());
    }
    trace("recordless history " + plan.recordless + " on " + job.jobId + " by " + x.name());
    switch (plan.recordless) {
      case 0 -> {
        // Every attempt of the delete loses its answer (the first applied, the retries answered
        // 404), and every attempt of the two reads after it fails (503: the breaker stays closed).
        sim.server
            .faults()
            .add(Fault.on("DELETE", app).forClient(xClient).times(3).appliedThenLost());
        sim.server
            .faults()
            .add(
                Fault.on("GET", app)
                    .forClient(xClient)
                    .skip(1)
                    .times(6)
                    .status(503, "ServiceUnavailable", "simulated: every read after the delete"));
        cancel(x, job);
        sim.server.faults().clear();
      }
      case 1 -> {
        Hold hold = sim.server.hold(Hold.on("DELETE", app).forClient(xClient).afterApplying());
        Future<?> f = sim.pool.submit(() -> cancel(x, job));
        awaitArrival(hold, f);
        if (hold.hasArrived()) {
          // Y's read records after the cancel ends (the scheduler changes one row at a time), so
          // it runs on its own thread too.
          Future<?> read = sim.pool.submit(() -> poll(y, job, r.nextBoolean()));
          java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
          hold.release();
          finish(read);
        } else {
          hold.release();
        }
        finish(f);
      }
      case 2 -> {
        Hold hold = sim.server.hold(Hold.on("DELETE", app).forClient(xClient).beforeApplying());
        Future<?> f = sim.pool.submit(() -> cancel(x, job));
        awaitArrival(hold, f);
        if (hold.hasArrived()) {
          for (int i = 0; i < 1 + r.nextInt(8); i++) {
            operator.advance(NAMESPACE, job.id.name());
          }
          poll(y, job, r.nextBoolean());
        }
        hold.release();
        finish(f);
      }
      default -> {
        sim.server
            .faults()
            .add(
                Fault.on("GET", podRegex())
                    .forClient(y == a ? "node-a" : "node-b")
                    .forever()
                    .status(503, "ServiceUnavailable", "simulated: pods cannot be read"));
        for (int i = 0; i < 1 + r.nextInt(8); i++) {
          operator.advance(NAMESPACE, job.id.name());
        }
        poll(y, job, r.nextBoolean());
        cancel(x, job);
        poll(y, job, r.nextBoolean());
        sim.server.faults().clear();
      }
    }
    poll(x, job, r.nextBoolean());
    poll(y, job, r.nextBoolean());
  }

  private static void awaitArrival(Hold hold, Future<?> f) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!f.isDone() && !hold.hasArrived() && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(200_000);
    }
  }

  private void finish(Future<?> f) throws InterruptedException {
    try {
      f.get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      invariants.threw("an action of a recordless history threw " + e.getCause());
    } catch (TimeoutException e) {
      invariants.hung("an action of a recordless history did not finish within 60 s");
      f.cancel(true);
    }
  }

  private Fault.Builder raceFault(Fault.Builder on, Node sender, boolean everyNode) {
    return everyNode ? on : on.forClient(sender == a ? "node-a" : "node-b");
  }

  /**
   * Runs a node's action on a thread of the pool; in half the cases, holds that node's request
   * number {@code 0..3} to the job's resource (or its collection) before it is applied, has the
   * operator make one to eight transitions of the job meanwhile, then lets it go.
   */
  private void interleaved(Node node, ScenarioJob job, Random r, Runnable action)
      throws InterruptedException {
    Hold hold = null;
    int moves = 0;
    if (r.nextBoolean()) {
      int skip = r.nextInt(4);
      moves = 1 + r.nextInt(8);
      hold =
          sim.server.hold(
              Hold.on("*", collectionRegex() + "(/" + Pattern.quote(job.id.name()) + ")?")
                  .forClient(node == a ? "node-a" : "node-b")
                  .skip(skip)
                  .beforeApplying());
      trace(node.name() + "'s request " + (skip + 1) + " waits for " + moves + " operator moves");
    }
    Future<?> f = sim.pool.submit(action);
    if (hold != null) {
      while (!f.isDone() && !hold.hasArrived()) {
        java.util.concurrent.locks.LockSupport.parkNanos(200_000);
      }
      if (hold.hasArrived()) {
        for (int i = 0; i < moves; i++) {
          operator.advance(NAMESPACE, job.id.name());
        }
        trace("operator moved " + job.jobId + " while " + node.name() + " waited");
      }
      hold.release();
    }
    try {
      f.get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      invariants.threw("an action of the end-mark race threw " + e.getCause());
    } catch (TimeoutException e) {
      invariants.hung("an action of the end-mark race did not finish within 60 s");
      f.cancel(true);
    }
  }

  private void pollUnrecorded() {
    for (ScenarioJob job : jobs) {
      for (Node node : nodes) {
        if (!job.orphan && !job.recorded.containsKey(node.name())) {
          poll(node, job);
        }
      }
    }
  }

  private boolean allRecorded() {
    for (ScenarioJob job : jobs) {
      if (!job.orphan && job.recorded.size() < nodes.size()) {
        return false;
      }
    }
    return true;
  }

  /** Node A sweeps with the right known jobs; (d) is checked on what it deleted. */
  private void sweep() {
    Set<String> known = new HashSet<>();
    for (ScenarioJob job : jobs) {
      if (!job.orphan) {
        known.add(job.jobId);
      }
    }
    int mark = sim.log.size();
    SweepReport report =
        a.jobs()
            .sweeper()
            .sweep(
                SweepRequest.builder()
                    .namespaces(NAMESPACE)
                    .knownJobIds(known)
                    .gracePeriod(Duration.ZERO)
                    .build());
    trace("A sweep -> " + report.summary());
    invariants.sweepDeletedTheOrphanOnly(mark, report);
  }

  void trace(String s) {
    synchronized (trace) {
      trace.add(s);
    }
  }

  List<String> trace() {
    synchronized (trace) {
      return List.copyOf(trace);
    }
  }
}
