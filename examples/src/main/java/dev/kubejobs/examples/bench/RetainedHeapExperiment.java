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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.spark.SparkJobSpec;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@link ScaleBenchmark}'s fourth experiment: the heap instances retain per job asked for, reading
 * copies of the jobs from a server in another JVM ({@link FakeClusterProcess}), once asking for all
 * jobs and once for 10 (averaged over 10 instances).
 */
final class RetainedHeapExperiment {
  private static final int HEAP_ATTEMPTS = 3;

  /** How long to wait for each thread of a closed instance to end. */
  private static final Duration THREAD_END_WAIT = Duration.ofSeconds(5);

  private RetainedHeapExperiment() {}

  /**
   * What the experiment measured, in bytes per job asked for.
   *
   * @param perJob with all jobs asked, cache filled
   * @param expiredPerJob with all jobs asked, after the cache period passed and another read
   * @param perAskedJobOfTen with 10 jobs asked, cache filled
   */
  record Figures(double perJob, double expiredPerJob, double perAskedJobOfTen) {}

  static Figures measure(ScaleRun run, List<ExecutionId> ids) {
    double[] all;
    double[] ten;
    try (FakeClusterProcess elsewhere =
        FakeClusterProcess.start(run.fake.resourceType(), run.apps())) {
      all = retained(run, elsewhere, ids, 1);
      ten = retained(run, elsewhere, new ArrayList<>(ids.subList(0, Math.min(10, ids.size()))), 10);
    }
    return new Figures(all[0], all[1], ten[0]);
  }

  /**
   * Heap retained per job asked for: {cache filled, cache period passed and another read made},
   * averaged over {@code instances} instances asking the same jobs (the heap's own churn, a few KB,
   * would drown 10 jobs' share otherwise).
   */
  private static double[] retained(
      ScaleRun run, FakeClusterProcess elsewhere, List<ExecutionId> asked, int instances) {
    double[] figures = null;
    for (int attempt = 0; attempt < HEAP_ATTEMPTS && figures == null; attempt++) {
      figures = retainedOnce(run, elsewhere, asked, instances);
    }
    return figures != null ? figures : new double[] {Double.NaN, Double.NaN};
  }

  /**
   * One measurement of {@link #retained}, or null when a thread that was alive at the first reading
   * had ended by a later one: a thread that ends frees what it held (the JDK keeps a buffer cache
   * per thread that did socket I/O, about 5 KB), and the status threads of an idle instance,
   * OkHttp's and the in-process server's end after an idle period. Threads the instances start are
   * theirs and counted.
   */
  private static double[] retainedOnce(
      ScaleRun run, FakeClusterProcess elsewhere, List<ExecutionId> asked, int instances) {
    Set<Long> threadsBefore = threadIds();
    List<KubeJobs<SparkJobSpec>> all = new ArrayList<>();
    // One read of as many namespaces without jobs first: what an instance holds once it talked
    // to the server (HTTP client, connections, parsers, the threads of a parallel read and what
    // the JDK keeps per thread that did socket I/O) is its own, not its cache's.
    List<ExecutionId> noJobs = new ArrayList<>();
    for (int n = 0; n < run.namespaces; n++) {
      noJobs.add(
          ExecutionId.of(
              "simulated", run.operator.kind().resourceKind(), "warm-up-" + n, "kj-warm-up"));
    }
    for (int i = 0; i < instances; i++) {
      KubeJobs<SparkJobSpec> jobs = run.instance(elsewhere.newClient(run.namespaces));
      jobs.statusReader().getAll(noJobs);
      all.add(jobs);
    }
    Set<Long> threadsAtStart = threadIds();
    long before = Heap.settledUsed();
    for (KubeJobs<SparkJobSpec> jobs : all) {
      jobs.statusReader().getAll(asked);
    }
    long filled = Heap.settledUsed();
    for (KubeJobs<SparkJobSpec> jobs : all) {
      run.expire(jobs);
      jobs.statusReader().getAll(noJobs); // a read drops the lists whose period passed
    }
    long expired = Heap.settledUsed();
    boolean steady = threadIds().containsAll(threadsAtStart);
    Reference.reachabilityFence(all);
    all.forEach(KubeJobs::close);
    // the next measurement starts after the threads of these instances ended
    awaitEnded(kubejobsStartedSince(threadsBefore));
    double jobs = (double) asked.size() * instances;
    return steady ? new double[] {(filled - before) / jobs, (expired - before) / jobs} : null;
  }

  /** The JVM's live threads, by id (ids keep no thread reachable). */
  private static Set<Long> threadIds() {
    Set<Long> ids = new HashSet<>();
    for (long id : ManagementFactory.getThreadMXBean().getAllThreadIds()) {
      ids.add(id);
    }
    return ids;
  }

  /** kubejobs' threads (status, watch, listener) started since {@code before}. */
  private static List<Thread> kubejobsStartedSince(Set<Long> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !before.contains(t.getId()) && t.getName().startsWith("kubejobs-"))
        .toList();
  }

  private static void awaitEnded(List<Thread> threads) {
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
