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
import dev.kubejobs.core.resilience.ApiCallFailure;
import dev.kubejobs.core.resilience.Resilience4jPolicy;
import dev.kubejobs.core.status.StatusSource;
import dev.kubejobs.core.sweep.SweepReport;
import dev.kubejobs.core.sweep.SweepRequest;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.KubeflowOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceEvent;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import dev.kubejobs.testkit.operator.SparkAppPath;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Runs {@link RaceSimulation} scenarios on one fake API server with both fake operators attached,
 * reset between scenarios. Not thread safe: one scenario at a time (a concurrent scenario uses its
 * own threads inside).
 */
final class Simulator implements AutoCloseable {
  static final String NAMESPACE = "sim";
  static final String CLUSTER = "sim";
  static final String DEPLOYMENT = "sim";
  private static final Duration NO_STATUS_JUMP = Duration.ofMinutes(11);
  private static final List<Duration> TTLS =
      List.of(Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(5));

  private final MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
  private final FakeKubernetesApiServer server;
  private final FakeSparkOperator apache;
  private final FakeSparkOperator kubeflow;
  private final ApiClient clientA;
  private final ApiClient clientB;
  private final EventLog log = new EventLog();
  private final ExecutorService pool;

  Simulator() {
    server = FakeKubernetesApiServer.builder().clock(clock).build();
    apache = FakeSparkOperator.apache(server);
    kubeflow = FakeSparkOperator.kubeflow(server);
    server.store().addListener(log);
    clientA = server.newClient("node-a");
    clientB = server.newClient("node-b");
    pool =
        Executors.newFixedThreadPool(
            3,
            r -> {
              Thread t = new Thread(r, "race-simulation");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Runs one scenario and checks the invariants.
   *
   * @param seed the scenario's seed: it chooses everything
   * @param concurrent whether actions run in bursts on real threads
   * @param features what the scenario may contain
   * @return what the scenario found
   */
  Outcome run(long seed, boolean concurrent, Set<Feature> features) {
    server.reset();
    log.clear();
    clock.advance(Duration.ofHours(1));
    Scenario s = new Scenario(seed, concurrent, features);
    long t0 = System.nanoTime();
    List<Violation> violations = s.run();
    s.trace(
        "-- "
            + server.journal().requests().size()
            + " requests, "
            + (System.nanoTime() - t0) / 1_000_000
            + " ms --");
    return new Outcome(s.description, violations, s.trace());
  }

  /**
   * What one scenario found.
   *
   * @param description the scenario's flavor, paths, cache periods and features
   * @param violations the broken invariants, empty when all held
   * @param trace the actions taken and what each answered, in order
   */
  record Outcome(String description, List<Violation> violations, List<String> trace) {}

  @Override
  public void close() {
    pool.shutdownNow();
    apache.close();
    kubeflow.close();
    server.close();
  }

  private KubeJobs<SparkJobSpec> kubeJobs(
      ApiClient client, Flavor flavor, Duration ttl, boolean restarts, boolean watch) {
    var kind =
        flavor == Flavor.APACHE
            ? SparkOperators.apache(
                ApacheOptions.builder()
                    .restartPolicy(
                        restarts
                            ? ApacheOptions.RestartPolicy.ON_FAILURE
                            : ApacheOptions.RestartPolicy.NEVER)
                    .build())
            : SparkOperators.kubeflow(
                KubeflowOptions.builder()
                    .restartPolicy(
                        restarts
                            ? KubeflowOptions.RestartPolicy.ON_FAILURE
                            : KubeflowOptions.RestartPolicy.NEVER)
                    .build());
    RetryConfig retry =
        RetryConfig.custom()
            .maxAttempts(3)
            .intervalBiFunction(
                Resilience4jPolicy.retryAfterAware(
                    IntervalFunction.of(Duration.ofMillis(1)), Duration.ofMillis(2)))
            .retryOnException(e -> e instanceof ApiCallFailure)
            .build();
    return KubeJobs.builder(client, kind)
        .cluster(CLUSTER)
        .deployment(DEPLOYMENT)
        .clock(clock)
        .statusCacheTtl(ttl)
        .statusSource(watch ? StatusSource.watch() : StatusSource.polling())
        .retry(retry)
        .circuitBreaker(Resilience4jPolicy.defaultCircuitBreakerConfig(clock))
        .build();
  }

  /** One scheduler node: a KubeJobs instance on its own client, as a second server would have. */
  /** Paths that fail, which a restart-on-failure policy would restart (the fake does not). */
  private static final List<SparkAppPath> FAILING_PATHS =
      List.of(
          SparkAppPath.FAILED, SparkAppPath.DRIVER_START_TIMEOUT, SparkAppPath.RETAINED_ON_FAILURE);

  private record Node(String name, KubeJobs<SparkJobSpec> jobs) {}

  /** One job of a scenario and what each node saw of it. */
  private static final class Job {
    final String jobId;
    final SparkAppPath path;
    final boolean orphan;
    volatile ExecutionId id;

    /** A cancel returned, or failed saying it may have been applied: the scheduler's own cancel. */
    volatile boolean cancelAsked;

    /** Cancels under way; guarded by this job's monitor. */
    private int cancelsInFlight;

    final Map<String, List<JobStatus>> seen = new HashMap<>();
    final Map<String, JobStatus> recorded = new HashMap<>();

    synchronized void cancelStarts() {
      cancelsInFlight++;
    }

    synchronized void cancelEnds() {
      cancelsInFlight--;
      notifyAll();
    }

    /** Waits for the cancels under way to end; whether one of them was the scheduler's own. */
    synchronized boolean awaitCancels() {
      while (cancelsInFlight > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted waiting for a cancel", e);
        }
      }
      return cancelAsked;
    }

    Job(String jobId, SparkAppPath path, boolean orphan) {
      this.jobId = jobId;
      this.path = path;
      this.orphan = orphan;
    }
  }

  private enum Action {
    OPERATOR_STEP,
    POLL,
    CANCEL,
    CLOCK,
    FAULT,
    OUTAGE,
    FOREIGN_CANCEL
  }

  private final class Scenario {
    final long seed;
    final boolean concurrent;
    final Set<Feature> features;
    final java.util.Random rnd;

    /**
     * Chooses which node a fault hits; separate from {@link #rnd} so that the rest of a scenario
     * stays what it was before faults could be scoped to one node.
     */
    final java.util.Random faultScope;

    final Flavor flavor;
    final FakeSparkOperator operator;
    final List<Job> jobs = new ArrayList<>();
    final Node a;
    final Node b;
    final List<Node> nodes;
    final List<String> trace = new ArrayList<>();
    final List<Violation> violations = new ArrayList<>();
    final String description;
    final Set<String> bystanders = new HashSet<>();
    final boolean watchA;
    final boolean watchB;
    volatile boolean operatorDown;

    Scenario(long seed, boolean concurrent, Set<Feature> features) {
      this.seed = seed;
      this.concurrent = concurrent;
      this.features = features.isEmpty() ? EnumSet.noneOf(Feature.class) : EnumSet.copyOf(features);
      this.rnd = new java.util.Random(seed);
      this.faultScope = new java.util.Random(seed * 31 + 7);
      boolean apacheDrawn = rnd.nextBoolean();
      boolean apacheOn = features.contains(Feature.APACHE);
      boolean kubeflowOn = features.contains(Feature.KUBEFLOW);
      this.flavor =
          apacheOn == kubeflowOn
              ? (apacheDrawn ? Flavor.APACHE : Flavor.KUBEFLOW)
              : (apacheOn ? Flavor.APACHE : Flavor.KUBEFLOW);
      this.operator = flavor == Flavor.APACHE ? apache : kubeflow;
      int jobCount = 1 + rnd.nextInt(2);
      boolean restarts = false;
      boolean failing = false;
      for (int i = 0; i < jobCount; i++) {
        SparkAppPath path = pickPath(restarts, failing);
        restarts |= path == SparkAppPath.RESTARTED_THEN_SUCCEEDED;
        failing |= FAILING_PATHS.contains(path);
        jobs.add(new Job("job-" + i, path, false));
      }
      Duration ttlA = TTLS.get(rnd.nextInt(TTLS.size()));
      Duration ttlB = TTLS.get(rnd.nextInt(TTLS.size()));
      // fresh instances: no cache or breaker state carries over, so a seed replays alone
      // drawn apart from the rest, so scenarios without WATCH replay as before
      java.util.Random modes = new java.util.Random(seed * 17 + 3);
      int watching = this.features.contains(Feature.WATCH) ? modes.nextInt(4) : 0;
      this.watchA = (watching & 1) != 0;
      this.watchB = (watching & 2) != 0;
      this.a = new Node("A", kubeJobs(clientA, flavor, ttlA, restarts, watchA));
      this.b = new Node("B", kubeJobs(clientB, flavor, ttlB, restarts, watchB));
      this.nodes = List.of(a, b);
      StringBuilder d = new StringBuilder();
      d.append(flavor.name().toLowerCase(Locale.ROOT)).append(" jobs=[");
      for (Job j : jobs) {
        d.append(j.jobId).append(':').append(j.path).append(' ');
      }
      d.setLength(d.length() - 1);
      d.append("] ttl A=").append(ttlA.toSeconds()).append("s B=").append(ttlB.toSeconds());
      d.append("s");
      if (watchA || watchB) {
        d.append(" watch=").append(watchA ? "A" : "").append(watchB ? "B" : "");
      }
      d.append(" features=").append(this.features);
      this.description = d.toString();
    }

    /**
     * Picks a path. The restart policy is one per node (restart on failure when a job restarts), so
     * once a job restarts, the others take paths that do not fail, which the policy would restart
     * while the fake operator does not; and after a failing path, none restarts.
     */
    private SparkAppPath pickPath(boolean restarting, boolean failingEarlier) {
      List<SparkAppPath> paths =
          new ArrayList<>(List.of(SparkAppPath.HAPPY, SparkAppPath.NEWER_STATE));
      if (!restarting) {
        paths.addAll(FAILING_PATHS);
      }
      if (features.contains(Feature.RESTARTS) && !restarting && !failingEarlier) {
        paths.add(SparkAppPath.RESTARTED_THEN_SUCCEEDED);
      }
      if (features.contains(Feature.UNPARSEABLE_STATUS)) {
        paths.add(SparkAppPath.UNPARSEABLE_STATUS);
      }
      if (features.contains(Feature.OPERATOR_OUTAGE)) {
        paths.add(SparkAppPath.OPERATOR_DOWN);
      }
      return paths.get(rnd.nextInt(paths.size()));
    }

    List<Violation> run() {
      try {
        addBystanders();
        submitAll();
        int steps = 6 + rnd.nextInt(18);
        for (int i = 0; i < steps; i++) {
          if (concurrent) {
            burst();
          } else {
            act(pickAction(), rnd);
          }
        }
        settle();
        checkOutcomes();
        checkOneApplicationPerJob();
        sweepAndCheck();
        checkBystanders();
      } catch (RuntimeException | InterruptedException e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        violation('f', "the scenario itself failed: " + e + " after " + trace);
      } finally {
        a.jobs().close();
        b.jobs().close();
      }
      return violations;
    }

    // ---- set-up ----

    private void addBystanders() {
      ResourceType type = operator.resourceType();
      JsonObject status = new JsonObject();
      if (flavor == Flavor.APACHE) {
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
        JsonObject created = server.store().create(type, NAMESPACE, o);
        bystanders.add(created.getAsJsonObject("metadata").get("uid").getAsString());
      }
    }

    private JsonObject app(
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
      ann.addProperty(
          JobIdentity.ANNOTATION_JOB_ID, labels.getOrDefault("kubejobs.dev/job-id", ""));
      meta.add("annotations", ann);
      o.add("metadata", meta);
      o.add("spec", new JsonObject());
      o.add("status", status.deepCopy());
      return o;
    }

    private SparkJobSpec spec(SparkAppPath path) {
      return SparkJobSpec.builder()
          .namespace(NAMESPACE)
          .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
          .mainClass("org.apache.spark.examples.SparkPi")
          .sparkVersion("4.0.1")
          .label(FakeSparkOperator.PATH_LABEL, path.name())
          .build();
    }

    private void submitAll() throws InterruptedException {
      Job orphan = new Job("orphan", SparkAppPath.HAPPY, true);
      submit(a, orphan);
      boolean twice = features.contains(Feature.DOUBLE_SUBMIT);
      for (Job job : jobs) {
        if (twice && rnd.nextInt(2) == 0) {
          if (features.contains(Feature.FAULTS) && rnd.nextBoolean()) {
            Fault.Builder post = scoped(Fault.on("POST", collectionRegex()));
            Fault f = rnd.nextBoolean() ? post.appliedThenLost() : post.connectionReset();
            server.faults().add(f);
            trace("fault " + f);
          }
          if (concurrent) {
            together(List.of(() -> submit(a, job), () -> submit(b, job)));
          } else {
            submit(a, job);
            submit(b, job);
          }
          server.faults().clear();
        } else {
          submit(a, job);
        }
      }
      jobs.add(orphan);
    }

    private void submit(Node node, Job job) {
      try {
        ExecutionId id = node.jobs().submitter().submit(job.jobId, spec(job.path));
        job.id = id;
        trace(node.name() + " submit " + job.jobId + " -> ok");
      } catch (KubeJobsException e) {
        trace(node.name() + " submit " + job.jobId + " -> " + e.getClass().getSimpleName());
        undocumented(node, "submit", e);
        if (e instanceof dev.kubejobs.core.JobConflictException) {
          violation(
              'e',
              node.name()
                  + " submit of "
                  + job.jobId
                  + " answered JobConflictException for the same job id and deployment: "
                  + e.getMessage());
        }
      } catch (RuntimeException e) {
        undocumented(node, "submit", e);
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
    private void act(Action action, java.util.Random r) {
      Node node = r.nextBoolean() ? a : b;
      Job job = jobs.get(r.nextInt(jobs.size() - 1)); // never the orphan
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
          clock.advance(d);
          trace("clock +" + d.toMillis() + "ms");
          break;
        case FAULT:
          Fault f = fault(r);
          server.faults().add(f);
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
        tasks.add(() -> act(action, new java.util.Random(taskSeed)));
      }
      trace("burst " + picked);
      together(tasks);
    }

    private void together(List<Runnable> tasks) throws InterruptedException {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (Runnable task : tasks) {
        futures.add(
            pool.submit(
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
        } catch (java.util.concurrent.ExecutionException e) {
          violation('f', "a concurrent action threw " + e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
          violation('g', "a concurrent action did not finish within 60 s");
          f.cancel(true);
        }
      }
    }

    private Fault fault(java.util.Random r) {
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
      synchronized (faultScope) {
        scope = faultScope.nextInt(3);
      }
      return scope == 0 ? fault : fault.forClient(scope == 1 ? "node-a" : "node-b");
    }

    private String collectionRegex() {
      ResourceType t = operator.resourceType();
      return Pattern.quote("/apis/" + t.group() + "/" + t.version() + "/namespaces/" + NAMESPACE)
          + "/"
          + t.plural();
    }

    private String podRegex() {
      return Pattern.quote("/api/v1/namespaces/" + NAMESPACE + "/pods") + "(/.*)?";
    }

    private void poll(Node node, Job job) {
      ExecutionId id = job.id;
      if (id == null) {
        return;
      }
      try {
        JobExecutionInfo info = node.jobs().statusReader().get(id);
        note(node, job, info.status(), "");
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
        note(node, job, ownCancel ? JobStatus.CANCELLED : JobStatus.FAILED, " (NoSuchJob)");
      } catch (RuntimeException e) {
        trace(node.name() + " get " + job.jobId + " -> " + e.getClass().getSimpleName());
        undocumented(node, "get", e);
      }
    }

    private void note(Node node, Job job, JobStatus status, String how) {
      trace(node.name() + " get " + job.jobId + " -> " + status + how);
      synchronized (job) {
        List<JobStatus> seen = job.seen.computeIfAbsent(node.name(), k -> new ArrayList<>());
        if (!seen.isEmpty()) {
          JobStatus last = seen.get(seen.size() - 1);
          if (last.isTerminal() && status != last) {
            violation(
                'b',
                node.name()
                    + " saw "
                    + job.jobId
                    + " "
                    + last
                    + " then "
                    + status
                    + how
                    + ": a terminal status changed");
          } else if (rank(status) < rank(last)) {
            violation(
                'b',
                node.name()
                    + " saw "
                    + job.jobId
                    + " "
                    + last
                    + " then "
                    + status
                    + how
                    + ": backwards");
          }
        }
        seen.add(status);
        if (status.isTerminal()) {
          job.recorded.putIfAbsent(node.name(), status);
        }
      }
    }

    private void cancel(Node node, Job job) {
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
        undocumented(node, "cancel", e);
      } finally {
        job.cancelEnds();
      }
    }

    /** Whether the server's log shows the job's application without outcome or driver exit. */
    private boolean unfinished(Job job) {
      List<EventLog.Entry> ordered = log.ordered();
      String uid = lastUid(ordered, job.id.name());
      if (uid == null) {
        return false;
      }
      Truth truth = Truth.of(ordered, uid, flavor, job.path);
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
        undocumented(node, "cancel of an unmanaged id", e);
      }
    }

    private void undocumented(Node node, String call, RuntimeException e) {
      if (!(e instanceof KubeJobsException) || e.getClass().getName().contains(".internal.")) {
        violation('f', node.name() + " " + call + " threw an undocumented " + e);
      }
    }

    // ---- settle and check ----

    private void settle() throws InterruptedException {
      server.faults().clear();
      operatorDown = false;
      trace("-- faults cleared, operator up --");
      for (Job job : jobs) {
        for (int i = 0; i < 3 && job.id == null; i++) {
          clock.advance(Duration.ofSeconds(11)); // past an open circuit breaker
          submit(a, job);
        }
      }
      // Go on until every node has recorded every job and the operator has nothing left to do, so
      // that the server's log holds each path's end and the judge never sees "not finished" for a
      // job whose outcome the operator had already decided.
      boolean moved = true;
      for (int round = 0; round < 40 && (moved || !allRecorded()); round++) {
        moved = operator.step();
        clock.advance(Duration.ofSeconds(6));
        if (round == 6) {
          clock.advance(NO_STATUS_JUMP);
        }
        for (Job job : jobs) {
          for (Node node : nodes) {
            if (!job.orphan && !job.recorded.containsKey(node.name())) {
              poll(node, job);
            }
          }
        }
      }
      // A watching node sees the operator's last writes when their events arrive (real time).
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while ((watchA || watchB) && !allRecorded() && System.nanoTime() < deadline) {
        clock.advance(Duration.ofSeconds(6));
        for (Job job : jobs) {
          for (Node node : nodes) {
            if (!job.orphan && !job.recorded.containsKey(node.name())) {
              poll(node, job);
            }
          }
        }
        Thread.sleep(20);
      }
      clock.advance(Duration.ofSeconds(6));
      for (Job job : jobs) {
        if (job.orphan) {
          continue;
        }
        for (Node node : nodes) {
          if (!job.recorded.containsKey(node.name())) {
            violation(
                'g',
                node.name()
                    + " never saw "
                    + job.jobId
                    + " end once faults cleared; it saw "
                    + job.seen.getOrDefault(node.name(), List.of()));
          } else {
            poll(node, job); // a terminal status must not change
          }
        }
      }
    }

    private boolean allRecorded() {
      for (Job job : jobs) {
        if (!job.orphan && job.recorded.size() < nodes.size()) {
          return false;
        }
      }
      return true;
    }

    private void checkOutcomes() {
      List<EventLog.Entry> ordered = log.ordered();
      for (Job job : jobs) {
        if (job.orphan || job.id == null || job.recorded.isEmpty()) {
          continue;
        }
        String uid = lastUid(ordered, job.id.name());
        if (uid == null) {
          violation('a', job.jobId + " was never created on the server");
          continue;
        }
        Truth truth = Truth.of(ordered, uid, flavor, job.path);
        Set<JobStatus> distinct = new HashSet<>(job.recorded.values());
        if (distinct.size() > 1) {
          violation(
              'a',
              "the nodes disagree on "
                  + job.jobId
                  + ": "
                  + job.recorded
                  + "; the server saw:"
                  + truth.story());
        }
        for (Map.Entry<String, JobStatus> r : job.recorded.entrySet()) {
          if (!truth.allowed().contains(r.getValue())) {
            violation(
                'a',
                r.getKey()
                    + " recorded "
                    + job.jobId
                    + " "
                    + r.getValue()
                    + " but the server saw:"
                    + truth.story()
                    + " -> "
                    + (truth.allowed().isEmpty() ? "no terminal status" : truth.allowed()));
          }
        }
      }
    }

    private String lastUid(List<EventLog.Entry> ordered, String name) {
      String uid = null;
      for (EventLog.Entry e : ordered) {
        if (!e.pod() && e.kind() == ResourceEvent.Kind.ADDED && name.equals(e.name())) {
          uid = e.uid();
        }
      }
      return uid;
    }

    private void checkOneApplicationPerJob() {
      Map<String, Set<String>> alive = new HashMap<>();
      for (EventLog.Entry e : log.ordered()) {
        if (e.pod() || bystanders.contains(e.uid())) {
          continue;
        }
        String jobId = EventLog.string(e.labels(), JobIdentity.LABEL_JOB_ID);
        if (jobId == null) {
          continue;
        }
        Set<String> uids = alive.computeIfAbsent(jobId, k -> new HashSet<>());
        if (e.kind() == ResourceEvent.Kind.DELETED) {
          uids.remove(e.uid());
        } else {
          uids.add(e.uid());
          if (uids.size() > 1) {
            violation('e', "two SparkApplications at once for job id " + jobId + ": " + uids);
          }
        }
      }
    }

    private void sweepAndCheck() {
      Set<String> known = new HashSet<>();
      Set<String> knownNames = new HashSet<>();
      for (Job job : jobs) {
        if (!job.orphan) {
          known.add(job.jobId);
          if (job.id != null) {
            knownNames.add(job.id.name());
          }
        }
      }
      int mark = log.size();
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
      boolean orphanDeleted = false;
      Job orphan = jobs.get(jobs.size() - 1);
      for (EventLog.Entry e : log.since(mark)) {
        if (e.pod() || !e.deleting()) {
          continue;
        }
        if (orphan.id != null && orphan.id.name().equals(e.name())) {
          orphanDeleted = true;
        } else if (knownNames.contains(e.name())) {
          violation('d', "the sweep deleted known job " + e.name());
        }
      }
      if (orphan.id != null && !orphanDeleted) {
        violation('d', "the sweep left the orphan " + orphan.id.name() + ": " + report.summary());
      }
    }

    private void checkBystanders() {
      for (EventLog.Entry e : log.ordered()) {
        if (e.pod() || !bystanders.contains(e.uid()) || e.kind() == ResourceEvent.Kind.ADDED) {
          continue;
        }
        if (e.deleting() || e.annotations().has(JobIdentity.ANNOTATION_CANCEL_REQUESTED)) {
          violation(
              'c',
              "kubejobs touched "
                  + e.name()
                  + " ("
                  + (e.deleting() ? "deleted" : "cancel mark")
                  + "), which it does not manage or which belongs to another deployment");
          return;
        }
      }
    }

    private void trace(String s) {
      synchronized (trace) {
        trace.add(s);
      }
    }

    private void violation(char invariant, String what) {
      synchronized (violations) {
        violations.add(new Violation(seed, concurrent, invariant, description, what));
      }
    }

    List<String> trace() {
      synchronized (trace) {
        return List.copyOf(trace);
      }
    }
  }

  private static int rank(JobStatus s) {
    switch (s) {
      case QUEUED:
        return 0;
      case STARTED:
      case CANCELLING:
        return 1;
      default:
        return 2;
    }
  }
}
