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
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RequestJournal;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The many-jobs simulation: what polling many jobs costs. A scheduler submits {@code --jobs}
 * SparkPi jobs spread over {@code --namespaces} namespaces of the simulated cluster (fake API
 * server, fake Apache operator), then, round after round, the fake operator moves every job one
 * transition and the scheduler polls all its unfinished jobs with one {@code getAll}. Each round
 * prints the statuses and the requests the poll made, counted by the fake server's journal.
 *
 * <p>What it shows: a round costs one LIST per namespace, however many jobs there are and however
 * many of them ended: each round's lists are sent after its question, so their copies may end jobs
 * without a GET (a copy listed before the question would be listed again, not read job by job). The
 * status cache period (5 s by default) is passed between rounds on the instance's clock, so every
 * round lists afresh.
 *
 * <p>Run it: {@code java -jar examples/target/kubejobs-examples.jar simulate --jobs 1000
 * --namespaces 4}. {@code ManyJobsSimulationTest} runs it with 400 jobs and checks the counts.
 */
public final class ManyJobsSimulation {
  static final String LIST = "/apis/spark\\.apache\\.org/v1/namespaces/[^/]+/sparkapplications";
  static final String GET = LIST + "/[^/]+";
  static final String PODS = "/api/v1/namespaces/[^/]+/pods(/.*)?";

  private ManyJobsSimulation() {}

  /**
   * Runs the simulation.
   *
   * @param out where to print
   * @param jobCount how many jobs
   * @param namespaceCount over how many namespaces
   * @return 0 when every job succeeded and no round listed more than once per namespace or read a
   *     job with a GET
   */
  public static int run(PrintWriter out, int jobCount, int namespaceCount) {
    MutableClock clock = MutableClock.at(Instant.now());
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
        FakeSparkOperator operator = FakeSparkOperator.apache(server)) {
      KubeJobs<SparkJobSpec> jobs =
          KubeJobs.builder(server.newClient(), SparkOperators.apache())
              .cluster("simulated")
              .deployment("simulation")
              .clock(clock)
              .build();
      out.printf(
          Locale.ROOT,
          "Many-jobs simulation on a SIMULATED cluster: %d SparkPi jobs in %d namespaces,"
              + " fake Apache operator%n",
          jobCount,
          namespaceCount);
      long t0 = System.nanoTime();
      List<ExecutionId> open = new ArrayList<>();
      for (int i = 0; i < jobCount; i++) {
        SparkJobSpec spec =
            SparkJobSpec.builder()
                .namespace("team-" + (i % namespaceCount))
                .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
                .mainClass("org.apache.spark.examples.SparkPi")
                .sparkVersion("4.0.1")
                .build();
        open.add(jobs.submitter().submit("job-" + i, spec));
      }
      out.printf(Locale.ROOT, "submitted %d jobs in %.1f s%n", jobCount, seconds(t0));
      out.printf(
          Locale.ROOT,
          "%5s %8s %8s %10s %6s %6s %6s %8s%n",
          "round",
          "QUEUED",
          "STARTED",
          "SUCCEEDED",
          "LIST",
          "GET",
          "pods",
          "poll ms");
      RequestJournal journal = server.journal();
      boolean withinBudget = true;
      int succeeded = 0;
      int round = 0;
      while (!open.isEmpty() && round < 100) {
        round++;
        operator.step();
        clock.advance(jobs.statusCacheTtl()); // the cache period passes: list afresh
        journal.clear();
        long p0 = System.nanoTime();
        Map<ExecutionId, JobExecutionInfo> infos = jobs.statusReader().getAllInfos(open);
        double pollMs = seconds(p0) * 1000;
        Map<JobStatus, Integer> count = new EnumMap<>(JobStatus.class);
        List<ExecutionId> stillOpen = new ArrayList<>();
        for (ExecutionId id : open) {
          JobExecutionInfo info = infos.get(id);
          JobStatus status = info == null ? JobStatus.FAILED : info.status();
          count.merge(status, 1, Integer::sum);
          if (status.isTerminal()) {
            succeeded += status == JobStatus.SUCCEEDED ? 1 : 0;
          } else {
            stillOpen.add(id);
          }
        }
        int lists = journal.count("GET", LIST);
        int gets = journal.count("GET", GET);
        int pods = journal.count("*", PODS);
        withinBudget &= lists <= namespaceCount && gets == 0;
        out.printf(
            Locale.ROOT,
            "%5d %8d %8d %10d %6d %6d %6d %8.0f%n",
            round,
            count.getOrDefault(JobStatus.QUEUED, 0),
            count.getOrDefault(JobStatus.STARTED, 0),
            succeeded,
            lists,
            gets,
            pods,
            pollMs);
        open = stillOpen;
      }
      out.printf(
          Locale.ROOT,
          "%d of %d jobs SUCCEEDED after %d rounds; every poll of all unfinished jobs cost %s%n",
          succeeded,
          jobCount,
          round,
          withinBudget
              ? "at most one LIST per namespace and no GET"
              : "MORE than one LIST per namespace, or a GET");
      return succeeded == jobCount && withinBudget ? 0 : Errors.FAILED;
    } catch (RuntimeException e) {
      out.println("simulation failed: " + Errors.describe(e));
      return Errors.FAILED;
    } finally {
      out.flush();
    }
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  /** The {@code simulate} subcommand. */
  @Command(
      name = "simulate",
      mixinStandardHelpOptions = true,
      description = "Polls many jobs on a SIMULATED cluster and counts the requests it costs.")
  public static final class SimulateCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--jobs",
        defaultValue = "1000",
        description = "Jobs (default: ${DEFAULT-VALUE}).")
    int jobs;

    @Option(
        names = "--namespaces",
        defaultValue = "4",
        description = "Namespaces (default: ${DEFAULT-VALUE}).")
    int namespaces;

    @Override
    public Integer call() {
      if (jobs < 1) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "--jobs must be at least 1, but was " + jobs);
      }
      if (namespaces < 1) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "--namespaces must be at least 1, but was " + namespaces);
      }
      return run(spec.commandLine().getOut(), jobs, namespaces);
    }
  }
}
