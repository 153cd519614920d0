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

import static dev.kubejobs.examples.bench.Measurement.ratio;

import com.google.gson.JsonParser;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.status.StatusSource;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.io.PrintStream;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What reading the status of many jobs costs the client, measured against the cheapest client that
 * could do the same (the FLOOR), in one run on the simulated cluster (the testkit's fake API server
 * and fake operators, both in this JVM). Issue 10 ("Status at scale") sets the bar.
 *
 * <p>For each operator (Apache {@code spark.apache.org/v1}, Kubeflow {@code
 * sparkoperator.k8s.io/v1beta2}), each job count ({@code 1000,10000,20000} by default) and each
 * {@link Mode status source}, it submits the jobs over {@code namespaces} namespaces, lets the fake
 * operator run them (realistic status histories: the Apache operator's 5 entries up to {@code
 * RunningHealthy}) and prints:
 *
 * <ol>
 *   <li><b>getAll, cache expired</b>: the requests of one {@code getAll} of all jobs, by verb and
 *       kind (from the fake server's journal); its client CPU time, allocated bytes and wall time
 *       against the floor, over several warm-up and measured iterations (each side after a {@code
 *       System.gc()}, so neither pays for the other's garbage). The floor sends the same LIST
 *       requests (the same paths, label selector and {@code limit}, paging with {@code continue})
 *       raw with OkHttp and parses each page with Gson ({@link JsonParser#parseReader(Reader)} on
 *       the body's stream), nothing else. Measured twice: with no job changed since kubejobs' last
 *       list (a poll of running jobs: kubejobs keeps the copies it holds, skipping the rest of each
 *       unchanged job once its metadata is read), and with every job changed before each round
 *       ("CPU new": every copy read and mapped anew).
 *   <li><b>10 namespaces at 50 ms latency</b>: every GET answered after 50 ms (a testkit {@link
 *       Fault.Builder#delay(Duration) delay} fault: the server answers normally, later); the wall
 *       time of a {@code getAll} against a parallel floor (one thread per namespace, each paging
 *       its LIST), summed over as many rounds as the iterations, after one warm-up round.
 *   <li><b>Cache hit</b>: a {@code getAll} of all jobs again while the lists are fresh: µs and
 *       allocated bytes per job, alone and with 8 concurrent callers.
 *   <li><b>Retained heap</b>: the bytes of all live objects (the JVM's class histogram, after a
 *       full collection) of a fresh instance after one read of as many namespaces without jobs
 *       (what an instance holds once it talked to the server, threads included, is its own, not its
 *       cache's), after its {@code getAll} (cache filled) and after the cache period passed and it
 *       read those other namespaces again (a read drops the lists whose period passed), divided by
 *       the jobs asked for; once asking for all jobs, and once for 10 (averaged over 10 instances
 *       each asking them, as the heap's own churn of a few KB would drown 10 jobs' share).
 *       Instances are kept reachable throughout. These instances read copies of the jobs from a
 *       {@link FakeClusterProcess fake API server in a JVM of its own}: a server in this JVM grows
 *       with the connections it serves, and that growth is not the client's. Not counted either:
 *       Okio's segments (its JVM-wide buffer pool) and what a thread that ended during the
 *       measurement had held (the measurement is made again, up to 3 times).
 *   <li><b>Ending storms</b>: a poll after {@code storm} jobs (1,000, or a tenth of the jobs when
 *       fewer) just succeeded; a poll after {@code storm} others just failed (their driver exited
 *       with code 1; the fake operator's {@link SparkAppPath#FAILED} path, stopped at its failed
 *       state with the terminated driver pod kept); and, on a fresh instance, a poll of all the
 *       jobs that succeeded once every running job has: requests by verb and wall time against the
 *       floor (summed over as many rounds as the iterations, a fresh instance each).
 * </ol>
 *
 * <p><b>How client cost is measured.</b> The fake server runs in this JVM, so process CPU would
 * count the server's work too. The program sums {@link com.sun.management.ThreadMXBean}'s
 * per-thread CPU time and allocated bytes over every live thread except the server's HTTP workers
 * (Jetty's {@code qtp…} threads) and the JVM's own service threads, before and after the measured
 * section: the calling thread, OkHttp's threads and any executor kubejobs starts are counted; a
 * thread that ends inside the section loses its share (none do today: OkHttp's synchronous calls
 * run on the caller). Garbage collection is not a Java thread and is not counted, on either side.
 * Times on a shared machine are noisy: compare the RATIOS of one run, not absolute numbers across
 * runs.
 *
 * <p><b>How it is built.</b> Each numbered experiment is a class of its own ({@link
 * GetAllExperiment}, {@link LatencyExperiment}, {@link CacheHitExperiment}, {@link
 * RetainedHeapExperiment}, {@link FollowExperiment}, {@link EndingStormsExperiment}) run on a
 * {@link ScaleRun} (the fake server, operator, floor and clock of one operator, job count and
 * mode), in that order; the loop that measures kubejobs against the floor is {@link Measurement}'s,
 * which {@link PullBenchmark} shares.
 *
 * <p><b>A second status source.</b> {@link Mode} lists the status sources measured; each is a
 * change to the {@link KubeJobs.Builder}. Issue 11's watch mode adds one constant (for example
 * {@code WATCH(b -> b.statusSource(...))}) and every figure gets a column for it.
 *
 * <p>Run it after {@code ./mvnw -o -B -q -DskipTests -pl examples -am package}: {@code java -Xmx8g
 * -cp examples/target/kubejobs-examples.jar dev.kubejobs.examples.bench.ScaleBenchmark [sizes]
 * [namespaces] [iterations] [operators] [modes]} (defaults {@code 1000,10000,20000 10 5
 * APACHE,KUBEFLOW POLLING,PARALLEL,WATCH}). {@code ScaleBenchmarkTest} runs it with 40 jobs in 2
 * namespaces and checks the request counts.
 */
public final class ScaleBenchmark {
  private static final int STORM = 1000;

  /**
   * Enough server workers for the watching instances alive at once (each open watch holds one). The
   * heap figure's server in its own JVM has twice as many: its 10 instances each watch the jobs'
   * namespaces and as many without jobs.
   */
  static final int SERVER_THREADS = 256;

  /** The status sources measured; each adds a column to every figure. */
  public enum Mode {
    /**
     * Polling with the defaults: the status cache lists each namespace once per cache period, up to
     * 4 namespaces of one getAll at once.
     */
    POLLING(b -> b),
    /** Polling, the namespaces of one getAll listed in parallel on up to 10 threads. */
    PARALLEL(b -> b.statusParallelism(10)),
    /** Watch mode: per namespace one LIST, then a WATCH; reads look at the watched view. */
    WATCH(b -> b.statusSource(StatusSource.watch()));

    final UnaryOperator<KubeJobs.Builder<SparkJobSpec>> configure;

    Mode(UnaryOperator<KubeJobs.Builder<SparkJobSpec>> configure) {
      this.configure = configure;
    }
  }

  /** The operators measured, with the states their scripts pass through. */
  public enum Operator {
    /** The Apache Spark Kubernetes Operator. */
    APACHE(FakeSparkOperator.Flavor.APACHE, 6, "Succeeded", "Failed"),
    /** The Kubeflow Spark operator. */
    KUBEFLOW(FakeSparkOperator.Flavor.KUBEFLOW, 2, "COMPLETED", "FAILED");

    final FakeSparkOperator.Flavor flavor;
    final int stepsToRunning;
    final String succeeded;
    final String failed;

    Operator(FakeSparkOperator.Flavor flavor, int stepsToRunning, String succeeded, String failed) {
      this.flavor = flavor;
      this.stepsToRunning = stepsToRunning;
      this.succeeded = succeeded;
      this.failed = failed;
    }

    JobKind<SparkJobSpec> kind() {
      return this == APACHE ? SparkOperators.apache() : SparkOperators.kubeflow();
    }
  }

  /**
   * Requests counted in the journal, by verb and kind.
   *
   * @param appLists LISTs of SparkApplications (each page counts)
   * @param appGets GETs of one SparkApplication
   * @param podLists LISTs of pods
   * @param podGets GETs of one pod
   * @param other every other request (writes, log reads)
   */
  public record Requests(
      int appLists, int appGets, int podLists, int podGets, int watches, int other) {
    /**
     * Returns the number of all requests.
     *
     * @return the sum
     */
    public int total() {
      return appLists + appGets + podLists + podGets + watches + other;
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%d requests (app LIST %d, app GET %d, pod LIST %d, pod GET %d, WATCH %d, other %d)",
          total(),
          appLists,
          appGets,
          podLists,
          podGets,
          watches,
          other);
    }
  }

  /**
   * Client cost of one side, summed over the measured iterations.
   *
   * @param cpuNanos CPU time of the client threads
   * @param allocatedBytes bytes allocated by the client threads
   * @param wallNanos wall time
   */
  public record Cost(long cpuNanos, long allocatedBytes, long wallNanos) {}

  /**
   * The measurements of one operator, job count and mode.
   *
   * @param operator the operator
   * @param mode the status source
   * @param jobs the number of jobs
   * @param namespaces the number of namespaces
   * @param jsonBytesPerJob the average size of one listed application's JSON
   * @param getAll the requests of one {@code getAll} with the cache expired
   * @param kubejobs the cost of the measured {@code getAll}s, no job changed since the last list
   * @param floor the cost of the floor over as many iterations
   * @param kubejobsChanged the cost of the measured {@code getAll}s when every job changed since
   *     the last list
   * @param floorChanged the cost of the floor over those iterations
   * @param latencyRatio wall time of one {@code getAll} at 50 ms per request over the parallel
   *     floor
   * @param cacheHitNanosPerJob CPU time of a cache-hit {@code getAll}, per job
   * @param cacheHitBytesPerJob bytes allocated by a cache-hit {@code getAll}, per job
   * @param concurrentNanosPerJob wall time of 8 concurrent cache-hit {@code getAll}s, per job and
   *     caller
   * @param concurrentBytesPerJob bytes allocated by them, per job and caller
   * @param retainedPerJob heap retained per job when all were asked for (cache filled)
   * @param retainedExpiredPerJob the same after the cache period passed
   * @param retainedPerAskedJob heap retained per job asked for when 10 were asked for
   * @param storm how many jobs end in each of the two storms
   * @param succeededStorm the requests of the poll after {@code storm} jobs succeeded
   * @param failedStorm the requests of the poll after {@code storm} jobs failed
   * @param allSucceeded the requests of the poll of all succeeded jobs (fresh instance)
   * @param allSucceededJobs how many jobs that poll asked for
   * @param allSucceededWallRatio its wall time over the floor's
   */
  public record Result(
      Operator operator,
      Mode mode,
      int jobs,
      int namespaces,
      long jsonBytesPerJob,
      Requests getAll,
      Cost kubejobs,
      Cost floor,
      Cost kubejobsChanged,
      Cost floorChanged,
      double latencyRatio,
      double cacheHitNanosPerJob,
      double cacheHitBytesPerJob,
      double concurrentNanosPerJob,
      double concurrentBytesPerJob,
      double retainedPerJob,
      double retainedExpiredPerJob,
      double retainedPerAskedJob,
      int storm,
      Requests succeededStorm,
      Requests failedStorm,
      Requests allSucceeded,
      int allSucceededJobs,
      double allSucceededWallRatio,
      int followPolls,
      int followChanges,
      Requests followRequests,
      long followBytes) {

    /**
     * Returns the client CPU time of kubejobs over the floor's.
     *
     * @return the ratio
     */
    public double cpuRatio() {
      return ratio(kubejobs.cpuNanos, floor.cpuNanos);
    }

    /**
     * Returns the client CPU time of kubejobs over the floor's when every job changed since the
     * last list (kubejobs reads and maps every job anew).
     *
     * @return the ratio
     */
    public double cpuChangedRatio() {
      return ratio(kubejobsChanged.cpuNanos, floorChanged.cpuNanos);
    }

    /**
     * Returns the bytes kubejobs allocated over the floor's.
     *
     * @return the ratio
     */
    public double allocationRatio() {
      return ratio(kubejobs.allocatedBytes, floor.allocatedBytes);
    }
  }

  private ScaleBenchmark() {}

  /**
   * Runs the benchmark from the command line.
   *
   * @param args optional: job counts separated by commas, namespaces, measured iterations
   */
  public static void main(String[] args) {
    int[] sizes =
        Arrays.stream((args.length > 0 ? args[0] : "1000,10000,20000").split(","))
            .mapToInt(s -> Integer.parseInt(s.trim()))
            .toArray();
    int namespaces = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Set<Operator> operators =
        args.length > 3 ? parse(args[3], Operator.class) : EnumSet.allOf(Operator.class);
    Set<Mode> modes = args.length > 4 ? parse(args[4], Mode.class) : EnumSet.allOf(Mode.class);
    run(sizes, namespaces, iterations, operators, modes, System.out);
  }

  private static <E extends Enum<E>> Set<E> parse(String names, Class<E> type) {
    Set<E> set = EnumSet.noneOf(type);
    for (String name : names.split(",")) {
      set.add(Enum.valueOf(type, name.trim().toUpperCase(Locale.ROOT)));
    }
    return set;
  }

  /**
   * Runs every operator, job count and mode, printing as it goes.
   *
   * @param sizes the job counts, each at least {@code namespaces}
   * @param namespaces over how many namespaces, at least 1
   * @param iterations measured iterations (as many warm-ups run first), at least 1
   * @param out where to print
   * @return the measurements, in the order printed
   * @throws IllegalArgumentException if a count is out of range
   */
  public static List<Result> run(int[] sizes, int namespaces, int iterations, PrintStream out) {
    return run(
        sizes,
        namespaces,
        iterations,
        EnumSet.allOf(Operator.class),
        EnumSet.allOf(Mode.class),
        out);
  }

  /**
   * Runs some operators and modes for every job count, printing as it goes.
   *
   * @param sizes the job counts, each at least {@code namespaces}
   * @param namespaces over how many namespaces, at least 1
   * @param iterations measured iterations (as many warm-ups run first), at least 1
   * @param operators which operators
   * @param modes which status sources
   * @param out where to print
   * @return the measurements, in the order printed
   * @throws IllegalArgumentException if a count is out of range
   */
  public static List<Result> run(
      int[] sizes,
      int namespaces,
      int iterations,
      Set<Operator> operators,
      Set<Mode> modes,
      PrintStream out) {
    if (namespaces < 1 || iterations < 1 || sizes.length == 0) {
      throw new IllegalArgumentException(
          "namespaces and iterations must be at least 1 and sizes not empty, but were "
              + namespaces
              + ", "
              + iterations
              + ", "
              + Arrays.toString(sizes));
    }
    for (int size : sizes) {
      if (size < namespaces) {
        throw new IllegalArgumentException(
            "each job count must be at least the number of namespaces ("
                + namespaces
                + "), but was "
                + size);
      }
    }
    out.printf(
        Locale.ROOT,
        "Status at scale on a SIMULATED cluster (fake API server in this JVM, for retained heap in"
            + " another; %d cores, %s)%n",
        Runtime.getRuntime().availableProcessors(),
        loadAverage());
    List<Result> results = new ArrayList<>();
    for (Operator operator : operators) {
      for (int size : sizes) {
        for (Mode mode : modes) {
          Result r = measure(operator, mode, size, namespaces, iterations);
          print(r, out);
          results.add(r);
        }
      }
    }
    out.printf(Locale.ROOT, "Ratios (kubejobs / floor; the goal in brackets)%n");
    out.printf(
        Locale.ROOT,
        "%-9s %-8s %6s %7s %7s %7s %8s %8s %9s %9s %9s %9s%n",
        "operator",
        "mode",
        "jobs",
        "CPU",
        "CPU new",
        "alloc",
        "allEnd",
        "latency",
        "hit us/j",
        "hit B/j",
        "ret B/j",
        "ret10 B/j");
    out.printf(
        Locale.ROOT,
        "%-9s %-8s %6s %7s %7s %7s %8s %8s %9s %9s %9s %9s%n",
        "",
        "",
        "",
        "[1.2]",
        "",
        "[1.2]",
        "[1.5]",
        "[1.3]",
        "[2]",
        "",
        "[2048]",
        ""); // 10 jobs asked keep their namespaces' listings for the cache period: no goal
    for (Result r : results) {
      out.printf(
          Locale.ROOT,
          "%-9s %-8s %6d %6.2fx %6.2fx %6.2fx %7.2fx %7.2fx %9.2f %9.0f %9.0f %9.0f%n",
          r.operator,
          r.mode,
          r.jobs,
          r.cpuRatio(),
          r.cpuChangedRatio(),
          r.allocationRatio(),
          r.allSucceededWallRatio,
          r.latencyRatio,
          r.cacheHitNanosPerJob / 1000,
          r.cacheHitBytesPerJob,
          r.retainedPerJob,
          r.retainedPerAskedJob);
    }
    return results;
  }

  private static void print(Result r, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%n== %s, %s: %d jobs in %d namespaces (%d bytes of JSON per listed job)%n",
        r.operator,
        r.mode,
        r.jobs,
        r.namespaces,
        r.jsonBytesPerJob);
    out.printf(Locale.ROOT, "getAll, cache expired: %s%n", r.getAll);
    out.printf(
        Locale.ROOT,
        "  client CPU   kubejobs %8.1f ms  floor %8.1f ms  ratio %.2fx%n",
        r.kubejobs.cpuNanos / 1e6,
        r.floor.cpuNanos / 1e6,
        r.cpuRatio());
    out.printf(
        Locale.ROOT,
        "  allocated    kubejobs %8.1f MB  floor %8.1f MB  ratio %.2fx%n",
        r.kubejobs.allocatedBytes / 1e6,
        r.floor.allocatedBytes / 1e6,
        r.allocationRatio());
    out.printf(
        Locale.ROOT,
        "  wall         kubejobs %8.1f ms  floor %8.1f ms  ratio %.2fx  (sums over the measured"
            + " iterations)%n",
        r.kubejobs.wallNanos / 1e6,
        r.floor.wallNanos / 1e6,
        ratio(r.kubejobs.wallNanos, r.floor.wallNanos));
    out.printf(
        Locale.ROOT,
        "  every job changed since the last list: client CPU kubejobs %8.1f ms  floor %8.1f ms"
            + "  ratio %.2fx; allocated %.2fx%n",
        r.kubejobsChanged.cpuNanos / 1e6,
        r.floorChanged.cpuNanos / 1e6,
        r.cpuChangedRatio(),
        ratio(r.kubejobsChanged.allocatedBytes, r.floorChanged.allocatedBytes));
    out.printf(
        Locale.ROOT,
        "%d namespaces at %d ms per request: getAll / parallel floor = %.2fx%n",
        r.namespaces,
        LatencyExperiment.LATENCY.toMillis(),
        r.latencyRatio);
    out.printf(
        Locale.ROOT,
        "cache-hit getAll: %.2f us and %.0f bytes per job; %d concurrent callers: %.2f us (wall)"
            + " and %.0f bytes per job and caller%n",
        r.cacheHitNanosPerJob / 1000,
        r.cacheHitBytesPerJob,
        CacheHitExperiment.CONCURRENT_CALLERS,
        r.concurrentNanosPerJob / 1000,
        r.concurrentBytesPerJob);
    out.printf(
        Locale.ROOT,
        "retained heap: %.0f bytes per job with all asked (%.0f after the cache period passed and"
            + " another read);"
            + " %.0f bytes per job asked with 10 asked%n",
        r.retainedPerJob,
        r.retainedExpiredPerJob,
        r.retainedPerAskedJob);
    out.printf(
        Locale.ROOT, "poll after %d of %d just succeeded: %s%n", r.storm, r.jobs, r.succeededStorm);
    out.printf(Locale.ROOT, "poll after %d more just failed:      %s%n", r.storm, r.failedStorm);
    out.printf(
        Locale.ROOT,
        "poll of all %d succeeded jobs (fresh instance): %s; wall %.2fx the floor%n",
        r.allSucceededJobs,
        r.allSucceeded,
        r.allSucceededWallRatio);
    out.printf(
        Locale.ROOT,
        "followed for %d polls, %d jobs changing per poll (after the first read): %s, about %.1f MB"
            + " from the API server%n",
        r.followPolls,
        r.followChanges,
        r.followRequests,
        r.followBytes / 1e6);
  }

  /**
   * Runs the experiments for one operator, job count and mode, on a fake server and operator of
   * their own, in order: getAll against the floor, the same at a latency, cache hits, retained
   * heap, following, ending storms.
   */
  private static Result measure(
      Operator operator, Mode mode, int size, int namespaces, int iterations) {
    MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
    try (FakeKubernetesApiServer server =
            FakeKubernetesApiServer.builder().clock(clock).threads(SERVER_THREADS).build();
        FakeSparkOperator fake = FakeSparkOperator.builder(operator.flavor, server).build();
        Floor floor = new Floor(server.url())) {
      ScaleRun run =
          new ScaleRun(
              operator, mode, size, namespaces, iterations, STORM, clock, server, fake, floor);
      KubeJobs<SparkJobSpec> jobs = run.instance();
      List<ExecutionId> ids = run.submit(jobs);
      for (int i = 0; i < operator.stepsToRunning; i++) {
        fake.step();
      }
      GetAllExperiment.Figures getAll = GetAllExperiment.measure(run, jobs, ids);
      double latencyRatio = LatencyExperiment.ratioToFloor(run, jobs, ids, getAll.firstPages());
      CacheHitExperiment.Figures hit = CacheHitExperiment.measure(run, jobs, ids);
      RetainedHeapExperiment.Figures retained = RetainedHeapExperiment.measure(run, ids);
      FollowExperiment.Figures follow =
          FollowExperiment.measure(run, ids, getAll.jsonBytesPerJob(), getAll.requests());
      EndingStormsExperiment.Figures storms = EndingStormsExperiment.measure(run, jobs, ids);
      jobs.close();
      return new Result(
          operator,
          mode,
          size,
          namespaces,
          getAll.jsonBytesPerJob(),
          getAll.requests(),
          getAll.kubejobs(),
          getAll.floor(),
          getAll.kubejobsChanged(),
          getAll.floorChanged(),
          latencyRatio,
          hit.nanosPerJob(),
          hit.bytesPerJob(),
          hit.concurrentNanosPerJob(),
          hit.concurrentBytesPerJob(),
          retained.perJob(),
          retained.expiredPerJob(),
          retained.perAskedJobOfTen(),
          run.storm,
          storms.succeeded(),
          storms.failed(),
          storms.allSucceeded(),
          storms.allSucceededJobs(),
          storms.allSucceededWallRatio(),
          FollowExperiment.POLLS,
          follow.changes(),
          follow.requests(),
          follow.bytes());
    }
  }

  /** The spec of job {@code i}, submitted as {@code "scale-" + i}. */
  static SparkJobSpec spec(int i, int namespaces) {
    return SparkJobSpec.builder()
        .namespace("team-" + (i % namespaces))
        .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
        .mainClass("org.apache.spark.examples.SparkPi")
        .sparkVersion("4.0.1")
        .build();
  }

  private static String loadAverage() {
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return load < 0 ? "load unknown" : String.format(Locale.ROOT, "load average %.2f", load);
  }
}
