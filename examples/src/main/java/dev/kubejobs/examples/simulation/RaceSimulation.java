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

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The two-node race simulation of issue 8: seeded scenarios in which two scheduler nodes (two
 * {@code KubeJobs} instances, each on its own {@code ApiClient}) act on the same jobs on one fake
 * API server while a fake operator (Apache or Kubeflow, chosen per scenario) drives them, and after
 * each of which invariants are checked against the fake server's own event log.
 *
 * <p><b>A scenario</b> submits one or two jobs on random operator paths (success, failure,
 * driver-start timeout, retained, newer operator state, and per {@link Feature}: restarts, no
 * status, unparseable status), plus an orphan and two bystanders (an unmanaged SparkApplication and
 * one of another deployment). Then 6 to 23 random actions: operator steps, polls and cancels from
 * either node, clock jumps (cache periods of 0, 2 or 5 s per node, the circuit breaker and the
 * no-status timeout all run on the injected clock), faults (reset before the request is applied,
 * answer lost after it was applied, 500, 503, 429 with {@code Retry-After}), the operator going
 * down and back. In a concurrent scenario the actions run in bursts of two or three on real
 * threads. Then faults clear, the operator runs to the end and both nodes poll until each has
 * recorded a terminal status (as Gravitino records: {@code NoSuchJobException} after a cancel of
 * its own is CANCELLED, else FAILED); then a sweep with the right known jobs.
 *
 * <p><b>Invariants</b> (the letters of issue 8): (a) each recorded terminal status is one the
 * server's event log allows (see {@link Truth}) and both nodes agree; (b) a node's statuses never
 * go backwards and a terminal one never changes (a read is held against the node's reads that
 * returned before it began: two reads that overlap may return in either order); (c) nothing
 * unmanaged or of another deployment is marked or deleted; (d) the sweep deletes the orphan and no
 * known job; (e) never two SparkApplications at once for one job id, and no conflict for our own
 * job id; (f) only documented exceptions; (g) once faults clear, every job reaches a terminal
 * status on both nodes, and once the operator settled, every node's outcome is the one the operator
 * wrote (issue 43: what the operator did wins over kubejobs' own end mark); (h) a resource carrying
 * an operator status is deleted only by a cancel.
 *
 * <p><b>Run it:</b> {@code java -cp examples/target/kubejobs-examples.jar
 * dev.kubejobs.examples.simulation.RaceSimulation --scenarios 10000 --concurrent 2000 --seed 1}.
 * Scenario {@code i} has seed {@code S + i}; each violation prints its seed, and {@code --replay
 * SEED} (with {@code --threads} for a concurrent one) runs that scenario alone with its trace.
 * {@code --features} restricts the run to some {@link Feature}s. The exit code is 0 when no
 * invariant broke. {@code RaceSimulationTest} runs a bounded set in the build.
 */
@Command(
    name = "race",
    mixinStandardHelpOptions = true,
    description =
        "Runs seeded two-node race scenarios on a SIMULATED cluster and checks their"
            + " invariants (a) to (h), counting inherent disagreements apart.")
public final class RaceSimulation implements Callable<Integer> {
  /** Scenarios run on two fake servers at once, one per core of a small machine. */
  private static final int WORKERS = 2;

  @Option(
      names = "--scenarios",
      defaultValue = "1000",
      description = "Deterministic scenarios (default: ${DEFAULT-VALUE}).")
  int scenarios;

  @Option(
      names = "--concurrent",
      defaultValue = "100",
      description = "Concurrent scenarios, on real threads (default: ${DEFAULT-VALUE}).")
  int concurrent;

  @Option(names = "--seed", defaultValue = "1", description = "First seed (default: 1).")
  long seed;

  @Option(
      names = "--replay",
      description = "Runs only the scenario with this seed, with its trace.")
  Long replay;

  @Option(names = "--threads", description = "With --replay: the scenario is a concurrent one.")
  boolean threads;

  @Option(
      names = "--features",
      split = ",",
      description = "Features scenarios may contain (default: all): ${COMPLETION-CANDIDATES}.")
  List<Feature> features;

  @Option(
      names = "--without-record",
      description =
          "Leaves out OUTCOME_RECORD: the fake API server refuses 'create events', so kubejobs"
              + " runs without its record of how it ended a job.")
  boolean withoutRecord;

  @Option(names = "--max-print", defaultValue = "50", description = "Violations to print.")
  int maxPrint;

  @Option(names = "--verbose", description = "Prints one line per scenario.")
  boolean verbose;

  /** Creates the command; picocli sets its options. */
  public RaceSimulation() {}

  /**
   * Runs the simulation from the command line.
   *
   * @param args the options, see {@code --help}
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new RaceSimulation()).execute(args));
  }

  /** Runs the scenarios the options ask for and prints the result; 0 when no invariant broke. */
  @Override
  public Integer call() {
    PrintWriter out = new PrintWriter(System.out, true);
    Set<Feature> enabled =
        features == null || features.isEmpty() ? Feature.all() : EnumSet.copyOf(features);
    if (withoutRecord) {
      enabled.remove(Feature.OUTCOME_RECORD);
    }
    if (replay != null) {
      try (Simulator simulator = new Simulator()) {
        Simulator.Outcome o = simulator.run(replay, threads, enabled);
        out.println("scenario " + replay + ": " + o.description());
        o.trace().forEach(t -> out.println("  " + t));
        o.violations().forEach(v -> out.println("VIOLATION " + v));
        return o.violations().isEmpty() ? 0 : 1;
      }
    }
    Summary summary =
        run(
            seed,
            scenarios,
            concurrent,
            enabled,
            verbose
                ? o -> out.println(o.description() + " " + o.trace().get(o.trace().size() - 1))
                : o -> {});
    summary.violations().stream().limit(maxPrint).forEach(v -> out.println("VIOLATION " + v));
    summary.inherent().stream().limit(maxPrint).forEach(v -> out.println("INHERENT " + v));
    out.println(summary);
    return summary.violations().isEmpty() && summary.inherent().isEmpty() ? 0 : 1;
  }

  /**
   * Runs {@code scenarios} deterministic scenarios with seeds {@code seed, seed + 1, ...} and then
   * {@code concurrent} concurrent ones with the following seeds.
   *
   * @param seed the first seed
   * @param scenarios how many deterministic scenarios
   * @param concurrent how many concurrent scenarios
   * @param features what scenarios may contain
   * @return every violation found, with counts
   */
  public static Summary run(long seed, int scenarios, int concurrent, Set<Feature> features) {
    return run(seed, scenarios, concurrent, features, o -> {});
  }

  static Summary run(
      long seed,
      int scenarios,
      int concurrent,
      Set<Feature> features,
      java.util.function.Consumer<Simulator.Outcome> each) {
    long t0 = System.nanoTime();
    int total = scenarios + concurrent;
    int workers = Math.max(1, Math.min(WORKERS, total));
    List<List<Violation>> found = new ArrayList<>(Collections.nCopies(total, List.of()));
    java.util.concurrent.atomic.AtomicInteger next =
        new java.util.concurrent.atomic.AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    List<RuntimeException> crashes = Collections.synchronizedList(new ArrayList<>());
    for (int w = 0; w < workers; w++) {
      Thread t =
          new Thread(
              () -> {
                try (Simulator simulator = new Simulator()) {
                  for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                    Simulator.Outcome outcome = simulator.run(seed + i, i >= scenarios, features);
                    synchronized (found) {
                      each.accept(outcome);
                      found.set(i, outcome.violations());
                    }
                  }
                } catch (RuntimeException e) {
                  crashes.add(e);
                }
              },
              "race-simulation-worker-" + w);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the scenarios", e);
      }
    }
    if (!crashes.isEmpty()) {
      throw crashes.get(0);
    }
    List<Violation> violations = new ArrayList<>();
    List<Violation> inherent = new ArrayList<>();
    int failedScenarios = 0;
    for (List<Violation> v : found) {
      boolean broke = false;
      for (Violation one : v) {
        if (one.invariant() == Invariants.INHERENT) {
          inherent.add(one);
        } else {
          violations.add(one);
          broke = true;
        }
      }
      failedScenarios += broke ? 1 : 0;
    }
    return new Summary(
        scenarios,
        concurrent,
        failedScenarios,
        Collections.unmodifiableList(violations),
        Collections.unmodifiableList(inherent),
        (System.nanoTime() - t0) / 1_000_000_000.0);
  }

  /**
   * The result of a run.
   *
   * @param scenarios how many deterministic scenarios ran
   * @param concurrent how many concurrent scenarios ran
   * @param failedScenarios how many scenarios broke at least one invariant
   * @param violations every broken invariant, in seed order
   * @param inherent every inherent disagreement (nodes disagree because one read the job gone and
   *     no record told it how the job ended), in seed order
   * @param seconds how long the run took
   */
  public record Summary(
      int scenarios,
      int concurrent,
      int failedScenarios,
      List<Violation> violations,
      List<Violation> inherent,
      double seconds) {

    /** Returns the one-line summary the program prints, with the count per invariant. */
    @Override
    public String toString() {
      java.util.Map<Character, Integer> perInvariant = new java.util.TreeMap<>();
      for (Violation v : violations) {
        perInvariant.merge(v.invariant(), 1, Integer::sum);
      }
      return String.format(
          Locale.ROOT,
          "%d deterministic + %d concurrent scenarios in %.1f s: %d with violations (%d"
              + " violations%s); %d inherent disagreements",
          scenarios,
          concurrent,
          seconds,
          failedScenarios,
          violations.size(),
          perInvariant.isEmpty() ? "" : ", per invariant " + perInvariant,
          inherent.size());
    }
  }
}
