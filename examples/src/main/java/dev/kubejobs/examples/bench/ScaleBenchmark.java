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

import static dev.kubejobs.examples.bench.Measurement.add;
import static dev.kubejobs.examples.bench.Measurement.ratio;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobKind;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.core.status.StatusSource;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import io.kubernetes.client.openapi.ApiClient;
import java.io.PrintStream;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
  private static final String APP_LIST = ".*/namespaces/[^/]+/sparkapplications";
  private static final String APP_GET = APP_LIST + "/[^/]+";
  private static final String POD_LIST = "/api/v1/namespaces/[^/]+/pods";
  private static final String POD_GET = POD_LIST + "/[^/]+";
  private static final int STORM = 1000;
  private static final int CONCURRENT_CALLERS = 8;
  private static final int FOLLOW_POLLS = 10;
  private static final int WARM_UP_JOBS = 50_000;
  private static final int MAX_WARM_UPS = 50;
  private static final int HEAP_ATTEMPTS = 3;

  /** How long to wait for each thread of a closed instance to end. */
  private static final Duration THREAD_END_WAIT = Duration.ofSeconds(5);

  /**
   * Enough server workers for the watching instances alive at once (each open watch holds one). The
   * heap figure's server in its own JVM has twice as many: its 10 instances each watch the jobs'
   * namespaces and as many without jobs.
   */
  static final int SERVER_THREADS = 256;

  /** The bytes a watch event adds around its object: {"type":"MODIFIED","object":...}. */
  private static final int WATCH_EVENT_ENVELOPE = 30;

  private static final Duration LATENCY = Duration.ofMillis(50);

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

    private final UnaryOperator<KubeJobs.Builder<SparkJobSpec>> configure;

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

    private final FakeSparkOperator.Flavor flavor;
    private final int stepsToRunning;
    private final String succeeded;
    private final String failed;

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
          Result r = new Run(operator, mode, size, namespaces, iterations).measure();
          print(r, out);
          results.add(r);
        }
      }
    }
    out.printf(Locale.ROOT, "Ratios (kubejobs / floor; the issue's bar in brackets)%n");
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
        "[2048]");
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
        LATENCY.toMillis(),
        r.latencyRatio);
    out.printf(
        Locale.ROOT,
        "cache-hit getAll: %.2f us and %.0f bytes per job; %d concurrent callers: %.2f us (wall)"
            + " and %.0f bytes per job and caller%n",
        r.cacheHitNanosPerJob / 1000,
        r.cacheHitBytesPerJob,
        CONCURRENT_CALLERS,
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

  /** One operator, job count and mode: its own server, operator and instances. */
  private static final class Run {
    private final Operator operator;
    private final Mode mode;
    private final int size;
    private final int namespaces;
    private final int iterations;
    private final int storm;
    private final MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
    private FakeKubernetesApiServer server;
    private FakeSparkOperator fake;
    private Floor floor;

    /**
     * Warm-up rounds before measured ones: as many as the measured ones, and at least enough to
     * read {@value #WARM_UP_JOBS} jobs, so that small job counts are measured on compiled code too
     * (the floor's few methods compile long before kubejobs' many).
     */
    private int warmups() {
      return Math.max(iterations, Math.min(MAX_WARM_UPS, (WARM_UP_JOBS + size - 1) / size));
    }

    Run(Operator operator, Mode mode, int size, int namespaces, int iterations) {
      this.operator = operator;
      this.mode = mode;
      this.size = size;
      this.namespaces = namespaces;
      this.iterations = iterations;
      this.storm = Math.max(1, Math.min(STORM, size / 10));
    }

    Result measure() {
      try (FakeKubernetesApiServer s =
              FakeKubernetesApiServer.builder().clock(clock).threads(SERVER_THREADS).build();
          FakeSparkOperator f = FakeSparkOperator.builder(operator.flavor, s).build()) {
        server = s;
        fake = f;
        floor = new Floor(s.url());
        try {
          return measureAll();
        } finally {
          floor.close();
        }
      }
    }

    private Result measureAll() {
      KubeJobs<SparkJobSpec> jobs = instance();
      List<ExecutionId> ids = submit(jobs);
      for (int i = 0; i < operator.stepsToRunning; i++) {
        fake.step();
      }

      // 1. getAll with the cache expired, against the floor.
      server.journal().clear();
      expire(jobs);
      requireAllOpen(jobs.statusReader().getAll(ids), ids.size());
      Requests getAllRequests = requests();
      List<RecordedRequest> firstPages = firstPages();
      long jsonBytesPerJob = floor.jsonBytes(firstPages) / size;
      Cost[] costs = compare(jobs, ids, firstPages, false);
      Cost[] changed = compare(jobs, ids, firstPages, true);

      // 2. the same at 50 ms per request.
      double latencyRatio = latency(jobs, ids, firstPages);

      // 3. cache hits.
      expire(jobs);
      jobs.statusReader().getAll(ids);
      double[] hit = cacheHit(jobs, ids);
      double[] concurrent = concurrentCacheHit(jobs, ids);

      // 4. retained heap, of instances reading copies of the jobs from a server in another JVM.
      double[] retainedAll;
      double[] retainedTen;
      try (FakeClusterProcess elsewhere = FakeClusterProcess.start(fake.resourceType(), apps())) {
        retainedAll = retained(elsewhere, ids, 1);
        retainedTen = retained(elsewhere, spread(ids, Math.min(10, ids.size())), 10);
      }

      // 5. followed for FOLLOW_POLLS polls, a few jobs changing between polls.
      KubeJobs<SparkJobSpec> follower = instance();
      List<ExecutionId> open = ids;
      follower.statusReader().getAll(open);
      server.journal().clear();
      int changes = Math.max(1, open.size() / 100);
      long eventBytes = 0;
      for (int poll = 0; poll < FOLLOW_POLLS; poll++) {
        for (int c = 0; c < changes; c++) {
          ExecutionId id = open.get((poll * changes + c) % open.size());
          touch(id, poll);
          eventBytes += jsonBytesPerJob + WATCH_EVENT_ENVELOPE;
        }
        expire(follower);
        follower.statusReader().getAll(open);
      }
      Requests followRequests = requests();
      close(follower);
      // Bytes from the API server, estimated from the JSON size per job measured in step 1: a
      // full listing of all namespaces carries every job; a GET one job; a watch event one job.
      long listBytes =
          getAllRequests.appLists() == 0
              ? 0
              : (long) followRequests.appLists()
                  * size
                  * jsonBytesPerJob
                  / getAllRequests.appLists();
      long followBytes =
          listBytes
              + (long) (followRequests.appGets() + followRequests.podGets()) * jsonBytesPerJob
              + (mode == Mode.WATCH ? eventBytes : 0);
      // 6. ending storms.
      for (int i = 0; i < storm; i++) {
        ExecutionId id = ids.get(storm + i);
        fake.moveTo(id.namespace(), id.name(), operator.succeeded);
      }
      Requests succeeded = poll(jobs, ids);
      for (int i = 0; i < storm; i++) {
        ExecutionId id = ids.get(i);
        fake.moveTo(id.namespace(), id.name(), operator.failed);
      }
      Requests failed = poll(jobs, ids);
      List<ExecutionId> happy = ids.subList(storm, ids.size());
      for (ExecutionId id : happy.subList(storm, happy.size())) {
        fake.moveTo(id.namespace(), id.name(), operator.succeeded);
      }
      // A fresh instance each time (nothing reported yet), against the floor: summed over as many
      // rounds as the other figures, each side after a System.gc().
      long allWall = 0;
      long floorWall = 0;
      Requests allSucceeded = null;
      List<RecordedRequest> endedPages = null;
      for (int round = 0; round < iterations; round++) {
        KubeJobs<SparkJobSpec> fresh = instance();
        System.gc();
        server.journal().clear();
        long t0 = System.nanoTime();
        Map<ExecutionId, JobStatusResult> ended = fresh.statusReader().getAll(happy);
        allWall += System.nanoTime() - t0;
        if (allSucceeded == null) {
          allSucceeded = requests();
          endedPages = firstPages();
        }
        long ok =
            ended.values().stream()
                .filter(r -> r.info().map(i -> i.status().isTerminal()).orElse(false))
                .count();
        if (ok != happy.size()) {
          throw new IllegalStateException(
              "expected " + happy.size() + " ended jobs, but " + ok + " were reported ended");
        }
        close(fresh);
        System.gc();
        floorWall += floor.fetch(endedPages, false).wallNanos;
      }
      close(jobs);

      return new Result(
          operator,
          mode,
          size,
          namespaces,
          jsonBytesPerJob,
          getAllRequests,
          costs[0],
          costs[1],
          changed[0],
          changed[1],
          latencyRatio,
          hit[0],
          hit[1],
          concurrent[0],
          concurrent[1],
          retainedAll[0],
          retainedAll[1],
          retainedTen[0],
          storm,
          succeeded,
          failed,
          allSucceeded,
          happy.size(),
          ratio(allWall, floorWall),
          FOLLOW_POLLS,
          changes,
          followRequests,
          followBytes);
    }

    /** Changes one job's resource (an annotation, as an operator's status write would). */
    private void touch(ExecutionId id, int poll) {
      server
          .store()
          .update(
              fake.resourceType(),
              id.namespace(),
              id.name(),
              o -> {
                JsonObject meta = o.getAsJsonObject("metadata");
                JsonObject annotations =
                    meta.has("annotations")
                        ? meta.getAsJsonObject("annotations")
                        : new JsonObject();
                annotations.addProperty("bench.kubejobs.dev/poll", Integer.toString(poll));
                meta.add("annotations", annotations);
                return o;
              });
    }

    /** Every application in the store, as it holds them. */
    private List<JsonObject> apps() {
      List<JsonObject> apps = new ArrayList<>(size);
      for (int n = 0; n < namespaces; n++) {
        apps.addAll(server.store().list(fake.resourceType(), "team-" + n));
      }
      return apps;
    }

    private KubeJobs<SparkJobSpec> instance() {
      return instance(server.newClient());
    }

    private KubeJobs<SparkJobSpec> instance(ApiClient client) {
      return mode.configure
          .apply(
              KubeJobs.builder(client, operator.kind())
                  .cluster("simulated")
                  .deployment("scale")
                  .clock(clock))
          .build();
    }

    private List<ExecutionId> submit(KubeJobs<SparkJobSpec> jobs) {
      List<ExecutionId> ids = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        ExecutionId id = jobs.submitter().submit("scale-" + i, spec(i, namespaces));
        if (i < storm) {
          fake.path(id.namespace(), id.name(), SparkAppPath.FAILED);
        }
        ids.add(id);
      }
      return ids;
    }

    private void expire(KubeJobs<SparkJobSpec> jobs) {
      clock.advance(jobs.statusCacheTtl().plusSeconds(1));
    }

    private Requests poll(KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids) {
      expire(jobs);
      server.journal().clear();
      Map<ExecutionId, JobStatusResult> results = jobs.statusReader().getAll(ids);
      Optional<KubeJobsException> failure =
          results.values().stream().flatMap(r -> r.error().stream()).findFirst();
      if (failure.isPresent()) {
        // The counts of a poll whose reads failed are not the poll's cost: say so, loudly.
        throw new IllegalStateException(
            operator + " " + mode + ": a poll's reads failed, its request counts are void",
            failure.get());
      }
      return requests();
    }

    /**
     * Measures getAll (cache expired) and the floor, interleaved, after as many warm-ups; with
     * {@code changeAll}, every job is changed (an annotation written) before each round, so that
     * none is the copy kubejobs listed before.
     */
    private Cost[] compare(
        KubeJobs<SparkJobSpec> jobs,
        List<ExecutionId> ids,
        List<RecordedRequest> pages,
        boolean changeAll) {
      int[] round = {0};
      Measurement.Totals totals =
          Measurement.againstFloor(
              warmups(),
              iterations,
              false,
              measured -> {
                int i = round[0]++;
                if (changeAll) {
                  for (ExecutionId id : ids) {
                    touch(id, -1 - i);
                  }
                }
                expire(jobs);
              },
              () -> requireAllOpen(jobs.statusReader().getAll(ids), ids.size()),
              () -> {},
              () -> floor.fetch(pages, false));
      return new Cost[] {totals.kubejobs(), totals.floor()};
    }

    private double latency(
        KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids, List<RecordedRequest> pages) {
      server.faults().add(Fault.on("GET", ".*").forever().delay(LATENCY));
      try {
        long k = 0;
        long f = 0;
        // the first round warms up; then as many rounds as the other figures (one round alone
        // ranged 0.68-1.34x between runs)
        for (int i = 0; i <= iterations; i++) {
          expire(jobs);
          long t0 = System.nanoTime();
          requireAllOpen(jobs.statusReader().getAll(ids), ids.size());
          long kw = System.nanoTime() - t0;
          long fw = floor.fetch(pages, true).wallNanos;
          if (i > 0) {
            k += kw;
            f += fw;
          }
        }
        return ratio(k, f);
      } finally {
        server.faults().clear();
      }
    }

    private double[] cacheHit(KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids) {
      for (int i = 0; i < warmups(); i++) {
        jobs.statusReader().getAll(ids);
      }
      long[] sum = new long[3];
      for (int i = 0; i < iterations; i++) {
        add(sum, ClientThreads.measure(() -> jobs.statusReader().getAll(ids)));
      }
      double calls = (double) iterations * ids.size();
      return new double[] {sum[0] / calls, sum[1] / calls};
    }

    private double[] concurrentCacheHit(KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids) {
      ExecutorService callers = Executors.newFixedThreadPool(CONCURRENT_CALLERS);
      try {
        long[] sum = new long[3];
        int warmups = warmups();
        for (int i = 0; i < warmups + iterations; i++) {
          CountDownLatch start = new CountDownLatch(1);
          List<Future<?>> done = new ArrayList<>();
          Cost c =
              ClientThreads.measure(
                  () -> {
                    for (int t = 0; t < CONCURRENT_CALLERS; t++) {
                      done.add(
                          callers.submit(
                              () -> {
                                start.await();
                                return jobs.statusReader().getAll(ids);
                              }));
                    }
                    start.countDown();
                    for (Future<?> d : done) {
                      try {
                        d.get();
                      } catch (Exception e) {
                        throw new IllegalStateException("a concurrent getAll failed", e);
                      }
                    }
                  });
          if (i >= warmups) {
            add(sum, c);
          }
        }
        double calls = (double) iterations * CONCURRENT_CALLERS * ids.size();
        return new double[] {sum[2] / calls, sum[1] / calls};
      } finally {
        callers.shutdownNow();
      }
    }

    /**
     * Heap retained per job asked for: {cache filled, cache period passed and another read made},
     * averaged over {@code instances} instances asking the same jobs (the heap's own churn, a few
     * KB, would drown 10 jobs' share otherwise).
     */
    private double[] retained(
        FakeClusterProcess elsewhere, List<ExecutionId> asked, int instances) {
      double[] figures = null;
      for (int attempt = 0; attempt < HEAP_ATTEMPTS && figures == null; attempt++) {
        figures = retainedOnce(elsewhere, asked, instances);
      }
      return figures != null ? figures : new double[] {Double.NaN, Double.NaN};
    }

    /**
     * One measurement of {@link #retained}, or null when a thread that was alive at the first
     * reading had ended by a later one: a thread that ends frees what it held (the JDK keeps a
     * buffer cache per thread that did socket I/O, about 5 KB), and the status threads of an idle
     * instance, OkHttp's and the in-process server's end after an idle period. Threads the
     * instances start are theirs and counted.
     */
    private double[] retainedOnce(
        FakeClusterProcess elsewhere, List<ExecutionId> asked, int instances) {
      Set<Long> threadsBefore = Threads.ids();
      List<KubeJobs<SparkJobSpec>> all = new ArrayList<>();
      // One read of as many namespaces without jobs first: what an instance holds once it talked
      // to the server (HTTP client, connections, parsers, the threads of a parallel read and what
      // the JDK keeps per thread that did socket I/O) is its own, not its cache's.
      List<ExecutionId> noJobs = new ArrayList<>();
      for (int n = 0; n < namespaces; n++) {
        noJobs.add(
            ExecutionId.of(
                "simulated", operator.kind().resourceKind(), "warm-up-" + n, "kj-warm-up"));
      }
      for (int i = 0; i < instances; i++) {
        KubeJobs<SparkJobSpec> jobs = instance(elsewhere.newClient(namespaces));
        jobs.statusReader().getAll(noJobs);
        all.add(jobs);
      }
      Set<Long> threadsAtStart = Threads.ids();
      long before = Heap.settledUsed();
      for (KubeJobs<SparkJobSpec> jobs : all) {
        jobs.statusReader().getAll(asked);
      }
      long filled = Heap.settledUsed();
      for (KubeJobs<SparkJobSpec> jobs : all) {
        expire(jobs);
        jobs.statusReader().getAll(noJobs); // a read drops the lists whose period passed
      }
      long expired = Heap.settledUsed();
      boolean steady = Threads.ids().containsAll(threadsAtStart);
      Reference.reachabilityFence(all);
      all.forEach(ScaleBenchmark::close);
      // the next measurement starts after the threads of these instances ended
      Threads.awaitEnded(Threads.kubejobsStartedSince(threadsBefore));
      double jobs = (double) asked.size() * instances;
      return steady ? new double[] {(filled - before) / jobs, (expired - before) / jobs} : null;
    }

    private List<RecordedRequest> firstPages() {
      return server.journal().requests("GET", APP_LIST).stream()
          .filter(r -> r.queryParameter("continue") == null)
          .filter(r -> !"true".equals(r.queryParameter("watch")))
          .toList();
    }

    private Requests requests() {
      Map<String, Integer> n = new HashMap<>();
      for (RecordedRequest r : server.journal().requests()) {
        String key;
        if (!"GET".equals(r.verb())) {
          key = "other";
        } else if ("true".equals(r.queryParameter("watch"))) {
          key = "watch";
        } else if (r.path().matches(APP_GET)) {
          key = "appGet";
        } else if (r.path().matches(APP_LIST)) {
          key = "appList";
        } else if (r.path().matches(POD_GET)) {
          key = "podGet";
        } else if (r.path().matches(POD_LIST)) {
          key = "podList";
        } else {
          key = "other";
        }
        n.merge(key, 1, Integer::sum);
      }
      return new Requests(
          n.getOrDefault("appList", 0),
          n.getOrDefault("appGet", 0),
          n.getOrDefault("podList", 0),
          n.getOrDefault("podGet", 0),
          n.getOrDefault("watch", 0),
          n.getOrDefault("other", 0));
    }
  }

  /** The JVM's live threads, by id (ids keep no thread reachable). */
  private static final class Threads {
    static Set<Long> ids() {
      Set<Long> ids = new HashSet<>();
      for (long id : ManagementFactory.getThreadMXBean().getAllThreadIds()) {
        ids.add(id);
      }
      return ids;
    }

    /** kubejobs' threads (status, watch, listener) started since {@code before}. */
    static List<Thread> kubejobsStartedSince(Set<Long> before) {
      return Thread.getAllStackTraces().keySet().stream()
          .filter(t -> !before.contains(t.getId()) && t.getName().startsWith("kubejobs-"))
          .toList();
    }

    static void awaitEnded(List<Thread> threads) {
      try {
        for (Thread thread : threads) {
          thread.join(THREAD_END_WAIT.toMillis());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for threads to end", e);
      }
    }
  }

  /** The spec of job {@code i}, submitted as {@code "scale-" + i}. */
  private static SparkJobSpec spec(int i, int namespaces) {
    return SparkJobSpec.builder()
        .namespace("team-" + (i % namespaces))
        .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
        .mainClass("org.apache.spark.examples.SparkPi")
        .sparkVersion("4.0.1")
        .build();
  }

  private static List<ExecutionId> spread(List<ExecutionId> ids, int count) {
    return new ArrayList<>(ids.subList(0, count));
  }

  private static void requireAllOpen(Map<ExecutionId, JobStatusResult> results, int expected) {
    long open =
        results.values().stream()
            .map(JobStatusResult::info)
            .filter(i -> i.map(JobExecutionInfo::status).map(s -> !s.isTerminal()).orElse(false))
            .count();
    if (open != expected) {
      throw new IllegalStateException(
          "expected " + expected + " running jobs, but " + open + " were read as running");
    }
  }

  private static void close(KubeJobs<?> jobs) {
    jobs.close();
  }

  private static String loadAverage() {
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return load < 0 ? "load unknown" : String.format(Locale.ROOT, "load average %.2f", load);
  }
}
