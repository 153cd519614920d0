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

import com.google.gson.JsonObject;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.status.JobStatusReader;
import dev.kubejobs.core.status.StatusSource;
import dev.kubejobs.examples.bench.ScaleBenchmark.Cost;
import dev.kubejobs.examples.bench.ScaleBenchmark.Operator;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import io.kubernetes.client.openapi.ApiClient;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;

/**
 * The status pull of a scheduler that asks for each job on its own, as Gravitino's job manager
 * does: every pull interval, one {@code get(id)} per active job, one after another, in no
 * particular order ({@code JobManager.pullAndUpdateJobStatus}, apache/gravitino {@code
 * core/src/main/java/org/apache/gravitino/job/JobManager.java}, commit 3560646d3fbb7767). Issue 26
 * sets the bars: polling at most one LIST per namespace per pull, client CPU at most 1.2x the floor
 * and at most 1 KB retained per job; watch mode no request per pull and at most 2 KB per job.
 *
 * <p>For each operator, job count and status source it creates the jobs, all running, straight in
 * the fake API server's store (in this JVM), spread over the namespaces, and prints one line per
 * case:
 *
 * <ul>
 *   <li><b>first pull</b> of a fresh instance; in watch mode this is the time to the first complete
 *       sync of every namespace's watch;
 *   <li><b>unchanged</b>, <b>1% changed</b>, <b>100% changed</b>: a pull after the cache period
 *       passed, with that share of the jobs changed on the server (a label, so a new
 *       resourceVersion) before it; the requests it sent (app LISTs counted once per namespace,
 *       pages apart, and GETs), and its client CPU time, allocation and wall time over the FLOOR's,
 *       each the median of {@code rounds} measured rounds after one warm-up round. The floor sends
 *       the same LISTs (all pages) raw with OkHttp and parses each page with Gson, nothing else
 *       (see {@link ScaleBenchmark}). Watch mode measures the unchanged case only (changes reach
 *       its views as events between pulls, on the watch threads); its floor is still the polling
 *       one, as that is what the watch replaces.
 *   <li><b>retained</b>: heap bytes per job the instance holds after its pulls (the class
 *       histogram's live bytes, after a full collection, with the instance reachable and then
 *       closed and unreachable; the server's store is in both).
 * </ul>
 *
 * <p>Client CPU is the per-thread CPU time of every thread but the fake server's HTTP workers and
 * the JVM's own ({@link ClientThreads}); compare the ratios of one run.
 *
 * <p>Run it after {@code ./mvnw -B -ntp -DskipTests -pl examples -am package}: {@code java -Xmx8g
 * -cp examples/target/kubejobs-examples.jar dev.kubejobs.examples.bench.PullBenchmark [sizes]
 * [namespaces] [rounds] [operators] [modes]} (defaults {@code 10000,100000 100 3 APACHE,KUBEFLOW
 * POLLING,WATCH}); {@code -Dkubejobs.bench.protocol=h2c} measures both sides over HTTP/2. {@code
 * PullBenchmarkTest} runs it with 300 jobs in 3 namespaces and checks the request counts.
 */
public final class PullBenchmark {
  private static final String APP_LIST = ".*/namespaces/[^/]+/sparkapplications";
  private static final String APP_GET = APP_LIST + "/[^/]+";
  private static final Duration TTL = Duration.ofSeconds(5);

  /**
   * The system property that makes kubejobs and the floor speak HTTP/2 to the fake server, {@code
   * -Dkubejobs.bench.protocol=h2c} (cleartext with prior knowledge, as a client over TLS does after
   * ALPN chose {@code h2}); HTTP/1.1 otherwise.
   */
  static final String PROTOCOL = "kubejobs.bench.protocol";

  /** The status sources measured. */
  public enum Mode {
    /** Polling with the defaults: one LIST per namespace per cache period. */
    POLLING,
    /** Watch mode: per namespace one LIST, then a WATCH; reads look at the watched view. */
    WATCH
  }

  /**
   * One pull case.
   *
   * @param name the case
   * @param lists app LISTs sent per pull (one per namespace listed, pages not counted)
   * @param pages app LIST requests per pull, pages included
   * @param gets app GETs per pull
   * @param other every other request per pull (watches opened, pods)
   * @param kubejobs the pulls' client cost over the measured rounds
   * @param floor the floor's over as many rounds
   * @param rounds the measured rounds
   */
  public record Case(
      String name,
      double lists,
      double pages,
      double gets,
      double other,
      Cost kubejobs,
      Cost floor,
      int rounds) {
    /**
     * Returns the client CPU time over the floor's.
     *
     * @return the ratio
     */
    public double cpuRatio() {
      return ratio(kubejobs.cpuNanos(), floor.cpuNanos());
    }
  }

  /**
   * The figures of one operator, job count and mode.
   *
   * @param operator the operator
   * @param mode the status source
   * @param jobs the jobs
   * @param namespaces the namespaces
   * @param firstPullMillis the wall time of the first pull (watch: to the first complete sync)
   * @param cases the pull cases
   * @param retainedPerJob heap bytes the instance retains per job
   */
  public record Result(
      Operator operator,
      Mode mode,
      int jobs,
      int namespaces,
      double firstPullMillis,
      List<Case> cases,
      double retainedPerJob) {}

  private PullBenchmark() {}

  /**
   * Runs the benchmark from the command line.
   *
   * @param args optional: job counts separated by commas, namespaces, rounds, operators, modes
   */
  public static void main(String[] args) {
    List<Integer> sizes = new ArrayList<>();
    for (String s : (args.length > 0 ? args[0] : "10000,100000").split(",")) {
      sizes.add(Integer.parseInt(s.trim()));
    }
    int namespaces = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Set<Operator> operators =
        args.length > 3 ? parse(args[3], Operator.class) : EnumSet.allOf(Operator.class);
    Set<Mode> modes = args.length > 4 ? parse(args[4], Mode.class) : EnumSet.allOf(Mode.class);
    boolean h2c = "h2c".equalsIgnoreCase(System.getProperty(PROTOCOL, "http/1.1"));
    run(sizes, namespaces, rounds, operators, modes, h2c, System.out);
  }

  private static <E extends Enum<E>> Set<E> parse(String names, Class<E> type) {
    Set<E> out = EnumSet.noneOf(type);
    for (String name : names.split(",")) {
      out.add(Enum.valueOf(type, name.trim().toUpperCase(Locale.ROOT)));
    }
    return out;
  }

  /**
   * Runs every combination and prints each result as it is measured.
   *
   * @return the results
   */
  static List<Result> run(
      List<Integer> sizes,
      int namespaces,
      int rounds,
      Set<Operator> operators,
      Set<Mode> modes,
      boolean h2c,
      PrintStream out) {
    List<Result> results = new ArrayList<>();
    out.printf(
        Locale.ROOT,
        "PullBenchmark: one get(id) per job per pull, %d namespaces, %d rounds, %d processors,"
            + " max heap %d MB, %s%n",
        namespaces,
        rounds,
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20,
        h2c ? "HTTP/2 (h2c)" : "HTTP/1.1");
    for (Operator operator : operators) {
      for (int size : sizes) {
        for (Mode mode : modes) {
          Result r = new Run(operator, mode, size, namespaces, rounds, h2c).measure();
          print(r, out);
          results.add(r);
        }
      }
    }
    return results;
  }

  private static void print(Result r, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%s %s %,d jobs in %d namespaces: first pull %.0f ms%s; retained %.0f B/job%n",
        r.operator(),
        r.mode(),
        r.jobs(),
        r.namespaces(),
        r.firstPullMillis(),
        r.mode() == Mode.WATCH ? " (to the first complete sync)" : "",
        r.retainedPerJob());
    for (Case c : r.cases()) {
      out.printf(
          Locale.ROOT,
          "  %-12s per pull: app LIST %.0f (%.0f pages), app GET %.0f, other %.0f;"
              + " vs floor: CPU %.2fx, alloc %.2fx, wall %.2fx (kubejobs %.0f ms CPU per pull)%n",
          c.name(),
          c.lists(),
          c.pages(),
          c.gets(),
          c.other(),
          c.cpuRatio(),
          ratio(c.kubejobs().allocatedBytes(), c.floor().allocatedBytes()),
          ratio(c.kubejobs().wallNanos(), c.floor().wallNanos()),
          c.kubejobs().cpuNanos() / 1e6 / Math.max(1, c.rounds()));
    }
  }

  private static final class Run {
    private final Operator operator;
    private final Mode mode;
    private final int size;
    private final int namespaces;
    private final int rounds;
    private final boolean h2c;
    private final MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
    private final Random random = new Random(26);
    private FakeKubernetesApiServer server;
    private int touches;

    Run(Operator operator, Mode mode, int size, int namespaces, int rounds, boolean h2c) {
      this.h2c = h2c;
      this.operator = operator;
      this.mode = mode;
      this.size = size;
      this.namespaces = namespaces;
      this.rounds = rounds;
    }

    Result measure() {
      try (FakeKubernetesApiServer s =
          FakeKubernetesApiServer.builder()
              .clock(clock)
              .threads(ScaleBenchmark.SERVER_THREADS)
              .build()) {
        server = s;
        s.registerResource(type());
        List<ExecutionId> ids = create();
        try (Floor floor = new Floor(s.url(), speaking(new OkHttpClient()))) {
          return measure(ids, floor);
        }
      }
    }

    private ResourceType type() {
      return operator == Operator.APACHE
          ? ResourceType.APACHE_SPARK_APPLICATION
          : ResourceType.KUBEFLOW_SPARK_APPLICATION;
    }

    private List<ExecutionId> create() {
      List<ExecutionId> ids = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        String ns = "team-" + (i % namespaces);
        String name = "kj-pull-" + i;
        JsonObject app =
            operator == Operator.APACHE
                ? ApacheFixtures.inState("RunningHealthy")
                    .name(name)
                    .namespace(ns)
                    .kubejobs("pull-" + i, "pull")
                    .build()
                : KubeflowFixtures.inState("RUNNING")
                    .name(name)
                    .namespace(ns)
                    .kubejobs("pull-" + i, "pull")
                    .build();
        server.store().create(type(), ns, app);
        ids.add(ExecutionId.of("simulated", operator.kind().resourceKind(), ns, name));
      }
      // The scheduler asks in the order its own store returns the jobs, not by namespace.
      Collections.shuffle(ids, random);
      return ids;
    }

    /** The client as it is, or speaking HTTP/2 only. */
    private OkHttpClient speaking(OkHttpClient http) {
      return h2c ? http.newBuilder().protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE)).build() : http;
    }

    private ApiClient client() {
      ApiClient client = server.newClient();
      return client.setHttpClient(speaking(client.getHttpClient()));
    }

    private KubeJobs<SparkJobSpec> instance() {
      KubeJobs.Builder<SparkJobSpec> b =
          KubeJobs.builder(client(), operator.kind())
              .cluster("simulated")
              .deployment("pull")
              .clock(clock)
              .statusCacheTtl(TTL);
      if (mode == Mode.WATCH) {
        b.statusSource(StatusSource.watch());
      }
      return b.build();
    }

    private Result measure(List<ExecutionId> ids, Floor floor) {
      KubeJobs<SparkJobSpec> jobs = instance();
      // The first pull: in watch mode every namespace's first read waits for its watch's sync, so
      // a getAll (namespaces in parallel by default) measures the time to the first complete sync.
      server.journal().clear();
      long t0 = System.nanoTime();
      if (mode == Mode.WATCH) {
        jobs.statusReader().getAll(ids);
      } else {
        pull(jobs.statusReader(), ids);
      }
      double firstPullMillis = (System.nanoTime() - t0) / 1e6;
      List<RecordedRequest> firstPages = firstPages();
      if (firstPages.size() != namespaces) {
        throw new IllegalStateException(
            "expected one LIST per namespace, but saw " + firstPages.size());
      }

      List<Case> cases = new ArrayList<>();
      cases.add(pulls("unchanged", jobs, ids, 0, firstPages, floor));
      if (mode == Mode.POLLING) {
        // In watch mode changes arrive as events on the watch threads, between pulls: not
        // measured here.
        cases.add(pulls("1% changed", jobs, ids, Math.max(1, size / 100), firstPages, floor));
        cases.add(pulls("100% changed", jobs, ids, size, firstPages, floor));
      }

      server.journal().clear();
      long with = Heap.settledUsed();
      jobs.close();
      jobs = null;
      long without = Heap.settledUsed();
      return new Result(
          operator,
          mode,
          size,
          namespaces,
          firstPullMillis,
          cases,
          (double) (with - without) / size);
    }

    /** One warm-up round and the measured rounds of a case, each side after a collection. */
    private Case pulls(
        String name,
        KubeJobs<SparkJobSpec> jobs,
        List<ExecutionId> ids,
        int changed,
        List<RecordedRequest> firstPages,
        Floor floor) {
      int[] requests = new int[4];
      Measurement.Totals totals =
          Measurement.againstFloor(
              1,
              rounds,
              true,
              measured -> {
                change(ids, changed);
                clock.advance(TTL.plusSeconds(1));
                server.journal().clear();
              },
              () -> pull(jobs.statusReader(), ids),
              () -> {
                int pages = pages().size();
                int gets = server.journal().count("GET", APP_GET);
                requests[0] += firstPages().size();
                requests[1] += pages;
                requests[2] += gets;
                requests[3] += server.journal().requests().size() - pages - gets;
              },
              () -> {
                Cost cost = floor.fetch(firstPages, false);
                server.journal().clear(); // the floor's LISTs are not kubejobs' requests
                return cost;
              });
      return new Case(
          name,
          (double) requests[0] / rounds,
          (double) requests[1] / rounds,
          (double) requests[2] / rounds,
          (double) requests[3] / rounds,
          totals.kubejobs(),
          totals.floor(),
          rounds);
    }

    /** Changes {@code count} jobs on the server (a label: a new resourceVersion, same status). */
    private void change(List<ExecutionId> ids, int count) {
      touches++;
      for (int i = 0; i < count; i++) {
        ExecutionId id = ids.get((i * 97 + touches) % ids.size());
        String value = Integer.toString(touches);
        server
            .store()
            .update(
                type(),
                id.namespace(),
                id.name(),
                o -> {
                  o.getAsJsonObject("metadata")
                      .getAsJsonObject("labels")
                      .addProperty("bench/touched", value);
                  return o;
                });
      }
    }

    /** The app LISTs sent, pages included (not watches). */
    private List<RecordedRequest> pages() {
      List<RecordedRequest> out = new ArrayList<>();
      for (RecordedRequest r : server.journal().requests("GET", APP_LIST)) {
        if (r.queryParameter("watch") == null) {
          out.add(r);
        }
      }
      return out;
    }

    /** The first page of each app LIST sent: one per namespace listed. */
    private List<RecordedRequest> firstPages() {
      List<RecordedRequest> out = new ArrayList<>();
      for (RecordedRequest r : pages()) {
        if (r.queryParameter("continue") == null) {
          out.add(r);
        }
      }
      return out;
    }
  }

  /** One pull: a get per job, one after another, as Gravitino's job manager sends them. */
  static void pull(JobStatusReader reader, List<ExecutionId> ids) {
    for (ExecutionId id : ids) {
      JobStatus status = reader.get(id).status();
      if (status.isTerminal()) {
        throw new IllegalStateException("job " + id + " read as " + status + ", not running");
      }
    }
  }
}
