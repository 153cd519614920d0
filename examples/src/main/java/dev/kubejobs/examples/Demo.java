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
package dev.kubejobs.examples;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.logs.DriverLog;
import dev.kubejobs.core.preflight.PreflightReport;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.status.StatusSource;
import dev.kubejobs.core.sweep.SweepEntry;
import dev.kubejobs.core.sweep.SweepReport;
import dev.kubejobs.core.sweep.SweepRequest;
import dev.kubejobs.examples.cli.DiagnosisFormat;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.KubeflowOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Hold;
import dev.kubejobs.testkit.operator.DriverTrouble;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import io.kubernetes.client.openapi.ApiClient;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The demo: kubejobs on an embedded, <b>simulated</b> cluster (the testkit's fake Kubernetes API
 * server with a fake Apache and a fake Kubeflow Spark operator), doing what a scheduler does.
 *
 * <ol>
 *   <li>submits SparkPi to both operators and follows it live, one line per state change, then
 *       prints the driver log tail;
 *   <li>submits a second job and cancels it (CANCELLED);
 *   <li>submits a job nobody runs (the "operator down" path) and shows it FAILED after the
 *       no-status timeout, shortened here to a few seconds;
 *   <li>submits a job whose driver image does not exist: the driver pod is stuck in {@code
 *       ImagePullBackOff} until the Apache operator gives up ({@code DriverStartTimedOut}), and the
 *       demo prints the job's diagnosis (cause, sentence, evidence) as the CLI's {@code status}
 *       does;
 *   <li>runs two scheduler nodes (two {@code KubeJobs} on the same cluster, with the same cluster
 *       and deployment names): node A cancels a job just as its driver succeeds, the operator's
 *       outcome landing between the cancel's mark and its delete (held in the fake API server), and
 *       both nodes read SUCCEEDED; then node A cancels a job that still runs, and both read
 *       CANCELLED;
 *   <li>leaves an orphan (a job the scheduler never recorded) and sweeps it;
 *   <li>prints the preflight report and a table of the jobs.
 * </ol>
 *
 * <p>The fake operators move one transition per tick, driven from the demo's own loop. Run it with
 * {@code java -jar examples/target/kubejobs-examples.jar}; it takes a few seconds and exits 0 when
 * every job ended as expected and both nodes agreed.
 */
public final class Demo {
  static final String NAMESPACE = "spark-jobs";
  static final String CLUSTER = "simulated";
  static final String DEPLOYMENT = "demo-scheduler";
  private static final String NODE_A = "node-a";
  private static final String NODE_B = "node-b";
  private static final DateTimeFormatter HMS =
      DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final PrintWriter out;
  private final Settings settings;
  private long start = System.nanoTime();
  private double setupSeconds;
  private final List<Job> jobs = new ArrayList<>();
  private FakeSparkOperator apacheOperator;
  private FakeKubernetesApiServer server;
  private FakeSparkOperator kubeflowOperator;
  private KubeJobs<SparkJobSpec> nodeA;
  private KubeJobs<SparkJobSpec> nodeB;

  private Demo(PrintWriter out, Settings settings) {
    this.out = out;
    this.settings = settings;
  }

  /**
   * Runs the demo, printing for a person.
   *
   * @param out where to print
   * @param settings the tick and the shortened timeouts
   * @return 0 when every job ended as expected, 1 otherwise (the reason is printed)
   */
  public static int run(PrintWriter out, Settings settings) {
    Demo demo = new Demo(out, settings);
    try {
      return demo.run();
    } catch (RuntimeException e) {
      out.println();
      out.println("demo failed: " + Errors.describe(e));
      return Errors.FAILED;
    } finally {
      out.flush();
    }
  }

  private int run() {
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
        FakeSparkOperator apacheOp = FakeSparkOperator.apache(server);
        FakeSparkOperator kubeflowOp = FakeSparkOperator.kubeflow(server)) {
      this.apacheOperator = apacheOp;
      this.server = server;
      this.kubeflowOperator = kubeflowOp;
      banner(server);
      ApiClient client = server.newClient();
      KubeJobs<SparkJobSpec> apache =
          KubeJobs.builder(
                  client,
                  // The default no-status timeout: only section 3's Kubeflow job needs the short
                  // one,
                  // and a loaded machine must not fail a job whose status is merely late.
                  SparkOperators.apache(ApacheOptions.builder().build()))
              .cluster(CLUSTER)
              .deployment(DEPLOYMENT)
              .statusCacheTtl(Duration.ZERO) // what a namespace whose watch is broken falls back to
              .statusSource(StatusSource.watch())
              .build();
      KubeJobs<SparkJobSpec> kubeflow =
          KubeJobs.builder(
                  client,
                  SparkOperators.kubeflow(
                      KubeflowOptions.builder().noStatusTimeout(settings.noStatusTimeout).build()))
              .cluster(CLUSTER)
              .deployment(DEPLOYMENT)
              .statusCacheTtl(Duration.ZERO) // what a namespace whose watch is broken falls back to
              .statusSource(StatusSource.watch())
              .build();

      try (apache;
          kubeflow;
          KubeJobs<SparkJobSpec> nodeA = node(server, NODE_A);
          KubeJobs<SparkJobSpec> nodeB = node(server, NODE_B)) {
        this.nodeA = nodeA;
        this.nodeB = nodeB;
        return show(apache, kubeflow);
      }
    }
  }

  /** Runs the demo's sections on two instances that read statuses in watch mode. */
  private int show(KubeJobs<SparkJobSpec> apache, KubeJobs<SparkJobSpec> kubeflow) {
    setupSeconds = elapsedSeconds();
    out.printf(
        Locale.ROOT,
        "(simulated cluster up in %.1f s; the times below count from here)%n",
        setupSeconds);
    start = System.nanoTime();

    section("1. Submit SparkPi to both operators and follow it");
    Job piApache = submit(apache, "apache", "spark-pi", sparkPi().build());
    Job piKubeflow = submit(kubeflow, "kubeflow", "spark-pi", sparkPi().build());
    follow(List.of(piApache, piKubeflow), j -> false);
    printLog(piApache);

    section("2. Submit a second job and cancel it once it runs");
    Job etl = submit(apache, "apache", "etl-nightly", sparkPi().arguments(List.of("5000")).build());
    follow(List.of(etl), j -> j.last != null && j.last.status() == JobStatus.STARTED);
    CancelResult cancel = apache.canceller().cancel(etl.id);
    etl.cancelRequested = true;
    line("cancel(" + etl.id.name() + ") -> " + cancel + " (the call never waits for the end)");
    follow(List.of(etl), j -> false);

    section("3. Operator down: a job that never gets a status");
    out.println(
        "   The fake Kubeflow operator ignores this job, as a stopped operator would. kubejobs"
            + " fails it");
    out.println(
        "   "
            + human(settings.noStatusTimeout)
            + " after the resource's creationTimestamp (whole seconds), deleting the resource"
            + " first.");
    out.println("   (The no-status timeout is shortened for the demo; its default is 10 min.)");
    Job ingest =
        submit(
            kubeflow,
            "kubeflow",
            "ingest-raw",
            sparkPi()
                .label(FakeSparkOperator.PATH_LABEL, SparkAppPath.OPERATOR_DOWN.name())
                .build());
    follow(List.of(ingest), j -> false);

    section("4. A stuck job, and why");
    out.println(
        "   This job names a driver image that does not exist. Its driver pod waits in"
            + " ImagePullBackOff;");
    out.println(
        "   the Apache operator says only \"Requested driver from resource scheduler.\" until"
            + " it gives up.");
    out.println(
        "   kubejobs reads the pod and its events and says why (for a job waiting over 60 s, or"
            + " one that");
    out.println("   just failed), as `status` and `watch` print it:");
    Job stuck =
        submit(
            apache,
            "apache",
            "stuck-image",
            sparkPi()
                .image(DriverTrouble.DEFAULT_BAD_IMAGE)
                .label(FakeSparkOperator.TROUBLE_LABEL, "image-pull")
                .build());
    follow(List.of(stuck), j -> false);

    section("5. Two scheduler nodes, a cancel racing the job's end");
    Race race = races();

    section("6. Sweep an orphan");
    out.println(
        "   A scheduler node crashed after submitting job 'lost-report' and before recording it:"
            + " the");
    out.println("   resource runs on the cluster but no scheduler knows it.");
    ExecutionId lost = apache.submitter().submit("lost-report", sparkPi().build());
    line("submitted " + lost + " (not recorded)");
    Set<String> known = jobs.stream().map(j -> j.jobId).collect(Collectors.toSet());
    line("known job ids: " + known.stream().sorted().toList());
    int swept = 0;
    for (KubeJobs<SparkJobSpec> kind : List.of(apache, kubeflow)) {
      SweepReport report =
          kind.sweeper()
              .sweep(
                  SweepRequest.builder()
                      .namespaces(NAMESPACE)
                      .knownJobIds(known)
                      .gracePeriod(settings.orphanGracePeriod)
                      .build());
      for (SweepEntry e : report.deleted()) {
        line(
            "sweep "
                + kind.jobKind().resourceKind().group()
                + ": "
                + e.outcome()
                + " "
                + e.namespace()
                + "/"
                + e.name()
                + " (job '"
                + e.jobId()
                + "')");
      }
      line("sweep " + kind.jobKind().resourceKind().group() + ": " + report.summary());
      swept += report.deleted().size();
    }

    section("7. Preflight");
    for (KubeJobs<SparkJobSpec> kind : List.of(apache, kubeflow)) {
      PreflightReport report = kind.preflight().check(NAMESPACE);
      report.summary().lines().forEach(l -> out.println("   " + l));
    }

    section("8. Jobs");
    table();
    out.printf(
        Locale.ROOT,
        "%nDemo finished in %.1f s (%.1f s to start the simulated cluster).%n",
        setupSeconds + elapsedSeconds(),
        setupSeconds);
    return verdict(piApache, piKubeflow, etl, ingest, stuck, race, swept);
  }

  /**
   * A kubejobs instance of one scheduler node: its own client, the same cluster and deployment as
   * every other node, fresh reads (no cache) so that what it prints is what the cluster holds.
   */
  private static KubeJobs<SparkJobSpec> node(FakeKubernetesApiServer server, String clientId) {
    return KubeJobs.builder(
            server.newClient(clientId), SparkOperators.apache(ApacheOptions.builder().build()))
        .cluster(CLUSTER)
        .deployment(DEPLOYMENT)
        .statusCacheTtl(Duration.ZERO)
        .build();
  }

  /**
   * Section 5: node A cancels a job the moment its driver succeeds (the operator's outcome lands
   * between the cancel's mark and its delete: the outcome stands), then a job that still runs (the
   * cancel stands); both nodes read each job and tell the same outcome. The interleaving is made
   * with a hold on node A's DELETE in the fake API server and the fake operator's stepper, not with
   * timing.
   */
  private Race races() {
    Race race = new Race();
    out.println(
        "   Node A and node B are two kubejobs instances (two scheduler nodes) on the same cluster,");
    out.println("   with the same cluster and deployment names.");
    out.println();
    out.println("   a) Node A cancels a job just as its driver succeeds:");
    Job late = startOnNodeA("daily-report");
    Hold delete =
        server.hold(Hold.on("DELETE", ".*/sparkapplications/" + late.id.name()).forClient(NODE_A));
    CompletableFuture<CancelResult> cancel =
        CompletableFuture.supplyAsync(() -> nodeA.canceller().cancel(late.id));
    try {
      delete.awaitArrived();
    } catch (AssertionError e) {
      // the cancel sent no delete within 10 s: let it finish and say so in the verdict
      delete.release();
      race.wrong.add("node A's cancel of " + late.jobId + " sent no delete: " + cancel.join());
      return race;
    }
    line("node A: cancel(" + late.id.name() + ") put its cancel mark; its delete is on the way");
    apacheOperator.moveTo(late.id.namespace(), late.id.name(), "Succeeded");
    line("the driver succeeds: the operator writes Succeeded before the delete arrives");
    delete.release();
    CancelResult lateResult = cancel.join();
    line(
        "node A: cancel("
            + late.id.name()
            + ") -> "
            + lateResult
            + " (its delete was locked to the marked copy, so it was refused)");
    agree(race, late, JobStatus.SUCCEEDED, "the outcome reached before the delete stands");
    if (lateResult != CancelResult.ALREADY_FINISHED) {
      race.wrong.add("the cancel racing the success answered " + lateResult);
    }

    out.println();
    out.println("   b) Node A cancels a job that still runs:");
    Job early = startOnNodeA("hourly-sync");
    CancelResult earlyResult = nodeA.canceller().cancel(early.id);
    line("node A: cancel(" + early.id.name() + ") -> " + earlyResult + " (marked, then deleted)");
    early.cancelRequested = true;
    // The operator reacts to the delete one step at a time; both nodes read after each step.
    String lastA = null;
    String lastB = null;
    for (int i = 0; i < 20; i++) {
      String onA = statusOn(nodeA, early);
      String onB = statusOn(nodeB, early);
      if (!onA.equals(lastA) || !onB.equals(lastB)) {
        line(String.format(Locale.ROOT, "node A reads %s, node B reads %s", onA, onB));
        lastA = onA;
        lastB = onB;
      }
      if (!onB.equals("gone") && !onA.equals(onB)) {
        race.wrong.add("hourly-sync read " + onA + " on node A and " + onB + " on node B");
      }
      if (onB.equals("gone") || !apacheOperator.advance(early.id.namespace(), early.id.name())) {
        break;
      }
    }
    if ("CANCELLED".equals(lastA) && "CANCELLED".equals(lastB)) {
      line("both nodes: CANCELLED (the delete came first: the cancel stands)");
    } else if ("CANCELLED".equals(lastA) && "gone".equals(lastB)) {
      line(
          "node A: CANCELLED (its delete was confirmed: it remembers its cancel once the operator"
              + " removed the resource); node B finds the resource gone");
    } else {
      race.wrong.add("hourly-sync read " + lastA + " on node A and " + lastB + " on node B");
    }
    try {
      early.last = nodeA.statusReader().get(early.id);
    } catch (NoSuchJobException e) {
      early.last = JobExecutionInfo.builder(JobStatus.CANCELLED).message(lastA).build();
    }
    return race;
  }

  /**
   * Submits a job on node A and moves it straight to a running driver (the earlier sections showed
   * the way there tick by tick).
   */
  private Job startOnNodeA(String jobId) {
    Job job = submit(nodeA, "apache", jobId, sparkPi().build());
    apacheOperator.moveTo(job.id.namespace(), job.id.name(), "RunningHealthy");
    read(job);
    return job;
  }

  /** Both nodes read the job; they must tell the same, expected, outcome. */
  private void agree(Race race, Job job, JobStatus expected, String why) {
    String onA = statusOn(nodeA, job);
    String onB = statusOn(nodeB, job);
    line("node A reads " + job.jobId + ": " + onA);
    line("node B reads " + job.jobId + ": " + onB);
    if (onA.equals(onB) && onA.equals(expected.name())) {
      line("both nodes: " + expected + " (" + why + ")");
    } else {
      race.wrong.add(
          job.label()
              + " read "
              + onA
              + " on node A and "
              + onB
              + " on node B, expected "
              + expected);
    }
    try {
      job.last = nodeA.statusReader().get(job.id);
    } catch (NoSuchJobException e) {
      // the table keeps the last state read
    }
  }

  private static String statusOn(KubeJobs<SparkJobSpec> node, Job job) {
    try {
      return node.statusReader().get(job.id).status().name();
    } catch (NoSuchJobException e) {
      return "gone";
    }
  }

  /** What went wrong in the races, empty when both nodes agreed as expected. */
  private static final class Race {
    final List<String> wrong = new ArrayList<>();
  }

  private int verdict(
      Job piApache, Job piKubeflow, Job etl, Job ingest, Job stuck, Race race, int swept) {
    List<String> wrong = new ArrayList<>();
    wrong.addAll(race.wrong);
    expect(wrong, piApache, JobStatus.SUCCEEDED);
    expect(wrong, piKubeflow, JobStatus.SUCCEEDED);
    expect(wrong, etl, JobStatus.CANCELLED);
    expect(wrong, ingest, JobStatus.FAILED);
    expect(wrong, stuck, JobStatus.FAILED);
    if (swept != 1) {
      wrong.add("swept " + swept + " orphans, expected 1");
    }
    if (wrong.isEmpty()) {
      return 0;
    }
    out.println("UNEXPECTED: " + String.join("; ", wrong));
    return Errors.FAILED;
  }

  private static void expect(List<String> wrong, Job job, JobStatus status) {
    if (job.status() != status) {
      wrong.add(job.label() + " ended " + job.status() + ", expected " + status);
    }
  }

  private void banner(FakeKubernetesApiServer server) {
    out.println("kubejobs demo on a SIMULATED cluster");
    out.println("====================================");
    out.println(
        "An in-process fake Kubernetes API server ("
            + server.url()
            + ") with a fake Apache Spark operator");
    out.println(
        "(spark.apache.org/v1) and a fake Kubeflow Spark operator (sparkoperator.k8s.io/v1beta2).");
    out.println("Nothing here touches a real cluster; the operators move one step per tick.");
    out.println(
        "Against a real cluster: "
            + dev.kubejobs.examples.cli.Launch.command()
            + " --help (submit, watch, ...).");
  }

  private Job submit(
      KubeJobs<SparkJobSpec> kind, String operator, String jobId, SparkJobSpec spec) {
    ExecutionId id = kind.submitter().submit(jobId, spec);
    Job job = new Job(kind, operator, jobId, id);
    jobs.add(job);
    line("submitted " + id);
    return job;
  }

  /** Reads every job, prints each change, moves the operators one tick, until all ended or stop. */
  private void follow(List<Job> followed, Predicate<Job> stop) {
    long deadline = System.nanoTime() + settings.maxWait.toNanos();
    while (true) {
      for (Job job : followed) {
        if (!job.ended()) {
          read(job);
        }
      }
      if (followed.stream().allMatch(Job::ended) || followed.stream().anyMatch(stop)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "jobs did not end within " + human(settings.maxWait) + ": " + followed);
      }
      if (!settings.tick.isZero()) {
        LockSupport.parkNanos(settings.tick.toNanos());
      }
      apacheOperator.step();
      kubeflowOperator.step();
      catchUp(followed);
    }
  }

  /**
   * Gives the watches time to bring what the operators' step changed (at most {@link #CATCH_UP}),
   * so that every state is read before the next step: in particular an ended job's driver log
   * before the operator releases its pod. It waits until kubejobs reports, for each followed job,
   * the operator state the server's copy holds now; a read costs no request while a watch is in
   * sync.
   */
  private void catchUp(List<Job> followed) {
    long until = System.nanoTime() + CATCH_UP.toNanos();
    for (Job job : followed) {
      if (job.last == null || job.ended() || job.gone) {
        continue;
      }
      String expected = operatorStateOnServer(job);
      while (expected != null && System.nanoTime() < until) {
        try {
          if (job.kind.statusReader().get(job.id).operatorState().equals(expected)) {
            break;
          }
        } catch (KubeJobsException e) {
          break; // gone, for one: the next read tells it
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
      }
    }
  }

  /** The operator state of the job's application as the server holds it, or null when gone. */
  private String operatorStateOnServer(Job job) {
    FakeSparkOperator operator = job.operator.equals("apache") ? apacheOperator : kubeflowOperator;
    return server
        .store()
        .get(operator.resourceType(), job.id.namespace(), job.id.name())
        .map(
            o ->
                job.kind
                    .jobKind()
                    .statusMapper()
                    .map(ResourceSnapshot.of(o), DriverPod.notLookedUp(), Instant.now())
                    .info()
                    .operatorState())
        .orElse(null);
  }

  private void read(Job job) {
    JobExecutionInfo info;
    try {
      info = job.kind.statusReader().get(job.id);
    } catch (NoSuchJobException e) {
      // The resource is gone. A scheduler keeps its own record: a cancelled job is CANCELLED.
      JobStatus status = job.cancelRequested ? JobStatus.CANCELLED : JobStatus.FAILED;
      info =
          JobExecutionInfo.builder(status)
              .message("resource gone" + (job.cancelRequested ? " after the cancel" : ""))
              .build();
      job.gone = true;
    }
    boolean changed =
        job.last == null
            || job.last.status() != info.status()
            || !job.last.operatorState().equals(info.operatorState());
    job.last = info;
    if (changed) {
      String detail = info.status().isTerminal() ? "  " + shorten(info.message(), 70) : "";
      String text =
          String.format(
              Locale.ROOT,
              "   %+6.2fs  %-8s %-12s %-10s %-20s%s",
              elapsedSeconds(),
              job.operator,
              job.jobId,
              info.status(),
              info.operatorState().isEmpty() ? "(no status)" : info.operatorState(),
              detail);
      out.println(text.stripTrailing());
      out.flush();
    }
    String diagnosis = info.diagnosis().map(d -> d.cause() + ": " + d.summary()).orElse("");
    if (!diagnosis.equals(job.diagnosis)) {
      // printed when it appears or changes, below the job's state line, as `watch` does
      DiagnosisFormat.lines(info).forEach(l -> out.println("             " + l));
      out.flush();
      job.diagnosis = diagnosis;
    }
    if (info.status().isTerminal() && job.log == null && !job.gone) {
      // Read now: the operator releases the driver pod on its next step.
      job.log = job.kind.driverLogs().tail(job.id, settings.logLines, 64 * 1024);
    }
  }

  private void printLog(Job job) {
    DriverLog log = job.log == null ? DriverLog.empty() : job.log;
    out.println();
    out.println(
        "   driver log tail of "
            + job.jobId
            + " ("
            + job.operator
            + ", pod "
            + log.pod().orElse("-")
            + ", container "
            + log.container().orElse("-")
            + "):");
    if (log.isEmpty()) {
      out.println("     (empty)");
    }
    log.lines().forEach(l -> out.println("     | " + l));
  }

  private void table() {
    String format = "   %-12s %-9s %-10s %-9s %-9s %s%n";
    out.printf(
        Locale.ROOT,
        format,
        "JOB",
        "OPERATOR",
        "STATUS",
        "STARTED",
        "FINISHED",
        "SPARKAPPLICATION");
    for (Job job : jobs) {
      out.printf(
          Locale.ROOT,
          format,
          job.jobId,
          job.operator,
          job.status(),
          hms(job.last == null ? Optional.empty() : job.last.startedAt()),
          hms(job.last == null ? Optional.empty() : job.last.finishedAt()),
          job.id.name() + (stillThere(job) ? "" : " (deleted)"));
    }
    out.println(
        "   (times in UTC; the statuses are the scheduler's record, as a scheduler keeps it)");
  }

  /** Whether the job's resource is still on the cluster, by a fresh read. */
  private static boolean stillThere(Job job) {
    try {
      job.kind.statusReader().get(job.id);
      return true;
    } catch (NoSuchJobException e) {
      return false;
    }
  }

  private void section(String title) {
    out.println();
    out.println(title);
    out.flush();
  }

  private void line(String text) {
    out.printf(Locale.ROOT, "   %+6.2fs  %s%n", elapsedSeconds(), text);
    out.flush();
  }

  private double elapsedSeconds() {
    return (System.nanoTime() - start) / 1e9;
  }

  private static String hms(Optional<Instant> t) {
    return t.map(HMS::format).orElse("-");
  }

  private static String human(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  private static String shorten(String s, int max) {
    if (s == null) {
      return "";
    }
    String one = s.replaceAll("\\s+", " ").strip();
    return one.length() <= max ? one : one.substring(0, max - 1) + "…";
  }

  private static SparkJobSpec.Builder sparkPi() {
    return SparkJobSpec.builder()
        .namespace(NAMESPACE)
        .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
        .mainClass("org.apache.spark.examples.SparkPi")
        .image("apache/spark:4.0.1")
        .sparkVersion("4.0.1")
        .arguments(List.of("1000"));
  }

  /** One job the demo's "scheduler" keeps a record of. */
  /** The longest wait for the watches after an operator step. */
  private static final Duration CATCH_UP = Duration.ofSeconds(2);

  private static final class Job {
    final KubeJobs<SparkJobSpec> kind;
    final String operator;
    final String jobId;
    final ExecutionId id;
    JobExecutionInfo last;
    boolean cancelRequested;
    boolean gone;
    DriverLog log;
    String diagnosis = "";

    Job(KubeJobs<SparkJobSpec> kind, String operator, String jobId, ExecutionId id) {
      this.kind = kind;
      this.operator = operator;
      this.jobId = jobId;
      this.id = id;
    }

    boolean ended() {
      return last != null && last.status().isTerminal();
    }

    JobStatus status() {
      return last == null ? null : last.status();
    }

    String label() {
      return jobId + " (" + operator + ")";
    }

    @Override
    public String toString() {
      return label() + " " + status();
    }
  }

  /**
   * How fast the demo runs. Immutable.
   *
   * @param tick the pause between two operator steps; zero for tests
   * @param noStatusTimeout the shortened no-status timeout of the Kubeflow instance
   * @param orphanGracePeriod how old an orphan must be to be swept
   * @param maxWait how long one stage may take before the demo gives up
   * @param logLines how many driver log lines to print
   */
  public record Settings(
      Duration tick,
      Duration noStatusTimeout,
      Duration orphanGracePeriod,
      Duration maxWait,
      int logLines) {
    /**
     * Returns the settings of {@code java -jar}: a 150 ms tick, a 4 s no-status timeout, no grace
     * period for orphans, at most 30 s per stage, 6 log lines.
     *
     * @return the defaults
     */
    public static Settings ofDefaults() {
      return new Settings(
          Duration.ofMillis(150), Duration.ofSeconds(4), Duration.ZERO, Duration.ofSeconds(30), 6);
    }

    /**
     * Returns these settings with another tick.
     *
     * @param tick the pause between two operator steps
     * @return new settings
     */
    public Settings withTick(Duration tick) {
      return new Settings(tick, noStatusTimeout, orphanGracePeriod, maxWait, logLines);
    }
  }
}
