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
package dev.kubejobs.examples.bench;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What polling many jobs costs with kubejobs compared with the hand-written way, measured in one
 * run on the simulated cluster (the testkit's fake API server and fake Apache operator).
 *
 * <p>Two scenarios, each printed with the ratio of the two sides:
 *
 * <ol>
 *   <li><b>Polling running jobs.</b> {@code jobs} running SparkApplications spread over {@code
 *       namespaces} namespaces are polled {@code rounds} times: once with {@code getAll} and the
 *       status cache (one labelled LIST per namespace per cache period, the default; the cache
 *       period passes between rounds on the instance's clock, so every round lists afresh), and
 *       once job by job with {@code get} and the cache off ({@code statusCacheTtl(0)}: one GET per
 *       job, as a hand-written executor polls).
 *   <li><b>A hung API server.</b> Every request hangs longer than the request timeout. {@code
 *       hungQueries} status queries are made one after another: once with the default resilience
 *       policy (retry and circuit breaker) and once with {@link ResiliencePolicy#none()}: without
 *       the breaker every query waits out its timeout.
 * </ol>
 *
 * <p>Times are of the in-process fake server on this machine, not of a real API server; the request
 * counts are exact. Run it after {@code mvn -B -q -DskipTests -pl examples -am package}: {@code
 * java -cp examples/target/kubejobs-examples.jar dev.kubejobs.examples.bench.PollingCostBenchmark
 * [jobs] [namespaces] [rounds] [hungQueries]} (defaults 1000 4 5 200). {@code
 * PollingCostBenchmarkTest} runs it small and checks the counts.
 */
public final class PollingCostBenchmark {
  private static final String APPS =
      "/apis/spark\\.apache\\.org/v1/namespaces/[^/]+/sparkapplications";
  private static final Duration HUNG_REQUEST_TIMEOUT = Duration.ofMillis(50);

  /**
   * The measurements of one run.
   *
   * @param jobs the number of jobs polled
   * @param namespaces the number of namespaces they are spread over
   * @param rounds the number of polls of all jobs
   * @param cachedRequests requests made by the polls with the status cache
   * @param uncachedRequests requests made by the polls without it
   * @param cachedMillis wall time of the polls with the status cache
   * @param uncachedMillis wall time of the polls without it
   * @param hungQueries status queries made against the hung server
   * @param breakerRequests requests that reached the hung server with the default policy
   * @param noBreakerRequests requests that reached the hung server without a breaker
   * @param breakerMillis wall time of the queries with the default policy
   * @param noBreakerMillis wall time of the queries without a breaker
   */
  public record Result(
      int jobs,
      int namespaces,
      int rounds,
      int cachedRequests,
      int uncachedRequests,
      double cachedMillis,
      double uncachedMillis,
      int hungQueries,
      int breakerRequests,
      int noBreakerRequests,
      double breakerMillis,
      double noBreakerMillis) {}

  private PollingCostBenchmark() {}

  /**
   * Runs the benchmark from the command line.
   *
   * @param args optional: jobs, namespaces, rounds, hung queries
   */
  public static void main(String[] args) {
    int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int namespaces = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int hung = args.length > 3 ? Integer.parseInt(args[3]) : 200;
    run(jobs, namespaces, rounds, hung, System.out);
  }

  /**
   * Runs both scenarios and prints what they measured.
   *
   * @param jobs how many running jobs to poll, at least 1
   * @param namespaces over how many namespaces, at least 1
   * @param rounds how many polls of all jobs, at least 1
   * @param hungQueries how many status queries against the hung server, at least 1
   * @param out where to print
   * @return the measurements
   * @throws IllegalArgumentException if a count is below 1
   */
  public static Result run(int jobs, int namespaces, int rounds, int hungQueries, PrintStream out) {
    if (jobs < 1 || namespaces < 1 || rounds < 1 || hungQueries < 1) {
      throw new IllegalArgumentException(
          "jobs, namespaces, rounds and hungQueries must each be at least 1, but were "
              + List.of(jobs, namespaces, rounds, hungQueries));
    }
    MutableClock clock = MutableClock.at(Instant.now());
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.builder().clock(clock).build();
        FakeSparkOperator operator = FakeSparkOperator.apache(server)) {
      KubeJobs<SparkJobSpec> cached = instance(server, clock).build();
      KubeJobs<SparkJobSpec> uncached =
          instance(server, clock).statusCacheTtl(Duration.ZERO).build();

      List<ExecutionId> ids = submitAndStart(cached, operator, jobs, namespaces);
      out.printf(
          Locale.ROOT,
          "Polling cost on a SIMULATED cluster: %d running jobs in %d namespaces, %d polls each%n",
          jobs,
          namespaces,
          rounds);
      double[] cachedMs = {0};
      int cachedRequests = poll(server, clock, cached, ids, rounds, cachedMs);
      double[] uncachedMs = {0};
      int uncachedRequests = poll(server, clock, uncached, ids, rounds, uncachedMs);
      out.printf(
          Locale.ROOT,
          "  with the status cache (LIST per namespace): %7d requests %9.0f ms%n",
          cachedRequests,
          cachedMs[0]);
      out.printf(
          Locale.ROOT,
          "  without it (one GET per job):               %7d requests %9.0f ms%n",
          uncachedRequests,
          uncachedMs[0]);
      out.printf(
          Locale.ROOT,
          "  ratio without/with: %.1fx the requests, %.1fx the time%n",
          ratio(uncachedRequests, cachedRequests),
          ratio(uncachedMs[0], cachedMs[0]));

      server
          .faults()
          .add(Fault.on("*", ".*").forever().delay(HUNG_REQUEST_TIMEOUT.multipliedBy(4)));
      out.printf(
          Locale.ROOT,
          "Hung API server (every request outlasts the %d ms request timeout): %d status queries%n",
          HUNG_REQUEST_TIMEOUT.toMillis(),
          hungQueries);
      double[] breakerMs = {0};
      int breakerRequests =
          queryHung(server, hungInstance(server).build(), ids, hungQueries, breakerMs);
      double[] noBreakerMs = {0};
      int noBreakerRequests =
          queryHung(
              server,
              hungInstance(server).resiliencePolicy(ResiliencePolicy.none()).build(),
              ids,
              hungQueries,
              noBreakerMs);
      out.printf(
          Locale.ROOT,
          "  default policy (retry + circuit breaker): %7d requests %9.0f ms%n",
          breakerRequests,
          breakerMs[0]);
      out.printf(
          Locale.ROOT,
          "  no policy (each query waits it out):      %7d requests %9.0f ms%n",
          noBreakerRequests,
          noBreakerMs[0]);
      out.printf(
          Locale.ROOT,
          "  ratio without/with the breaker: %.1fx the requests, %.1fx the time%n",
          ratio(noBreakerRequests, breakerRequests),
          ratio(noBreakerMs[0], breakerMs[0]));
      server.faults().clear();
      return new Result(
          jobs,
          namespaces,
          rounds,
          cachedRequests,
          uncachedRequests,
          cachedMs[0],
          uncachedMs[0],
          hungQueries,
          breakerRequests,
          noBreakerRequests,
          breakerMs[0],
          noBreakerMs[0]);
    }
  }

  private static KubeJobs.Builder<SparkJobSpec> instance(
      FakeKubernetesApiServer server, MutableClock clock) {
    return KubeJobs.builder(server.newClient(), SparkOperators.apache())
        .cluster("simulated")
        .deployment("benchmark")
        .clock(clock);
  }

  private static KubeJobs.Builder<SparkJobSpec> hungInstance(FakeKubernetesApiServer server) {
    // The system clock: the breaker's open period must pass in real time, as in production.
    return KubeJobs.builder(server.newClient(), SparkOperators.apache())
        .cluster("simulated")
        .deployment("benchmark")
        .statusCacheTtl(Duration.ZERO)
        .requestTimeout(HUNG_REQUEST_TIMEOUT);
  }

  private static List<ExecutionId> submitAndStart(
      KubeJobs<SparkJobSpec> jobs, FakeSparkOperator operator, int count, int namespaces) {
    List<ExecutionId> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(
          jobs.submitter()
              .submit(
                  "bench-" + i,
                  SparkJobSpec.builder()
                      .namespace("team-" + (i % namespaces))
                      .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
                      .mainClass("org.apache.spark.examples.SparkPi")
                      .sparkVersion("4.0.1")
                      .build()));
    }
    // Submitted, finalizer, DriverRequested, DriverStarted, DriverReady, RunningHealthy.
    for (int step = 0; step < 6; step++) {
      operator.step();
    }
    return ids;
  }

  private static int poll(
      FakeKubernetesApiServer server,
      MutableClock clock,
      KubeJobs<SparkJobSpec> jobs,
      List<ExecutionId> ids,
      int rounds,
      double[] millis) {
    server.journal().clear();
    for (int round = 0; round < rounds; round++) {
      clock.advance(jobs.statusCacheTtl().plusSeconds(1)); // every round lists afresh
      long t0 = System.nanoTime();
      Map<ExecutionId, JobExecutionInfo> infos = new LinkedHashMap<>();
      if (jobs.statusCacheTtl().isZero()) {
        for (ExecutionId id : ids) {
          infos.put(id, jobs.statusReader().get(id));
        }
      } else {
        infos = jobs.statusReader().getAll(ids);
      }
      millis[0] += (System.nanoTime() - t0) / 1e6;
      long running = infos.values().stream().filter(i -> i.status() == JobStatus.STARTED).count();
      if (running != ids.size()) {
        throw new IllegalStateException(
            "expected " + ids.size() + " running jobs, but " + running + " were running");
      }
    }
    return server.journal().count("GET", APPS + "(/[^/]+)?");
  }

  private static int queryHung(
      FakeKubernetesApiServer server,
      KubeJobs<SparkJobSpec> jobs,
      List<ExecutionId> ids,
      int queries,
      double[] millis) {
    server.journal().clear();
    long t0 = System.nanoTime();
    for (int i = 0; i < queries; i++) {
      try {
        jobs.statusReader().get(ids.get(i % ids.size()));
        throw new IllegalStateException("a query to the hung server answered");
      } catch (ApiUnavailableException expected) {
        // What the caller gets either way: retry later.
      }
    }
    millis[0] = (System.nanoTime() - t0) / 1e6;
    return server.journal().count("*", ".*");
  }

  private static double ratio(double a, double b) {
    return b == 0 ? Double.POSITIVE_INFINITY : a / b;
  }
}
