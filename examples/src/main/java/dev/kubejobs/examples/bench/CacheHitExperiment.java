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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.examples.bench.ScaleBenchmark.Cost;
import dev.kubejobs.spark.SparkJobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@link ScaleBenchmark}'s third experiment: getAll answered from the cache, by one caller and by
 * {@value #CONCURRENT_CALLERS} at once: time and allocation per job.
 */
final class CacheHitExperiment {
  static final int CONCURRENT_CALLERS = 8;

  private CacheHitExperiment() {}

  /**
   * What the experiment measured.
   *
   * @param nanosPerJob one caller's client CPU per job
   * @param bytesPerJob one caller's allocation per job
   * @param concurrentNanosPerJob wall time per job and caller, callers at once
   * @param concurrentBytesPerJob allocation per job and caller, callers at once
   */
  record Figures(
      double nanosPerJob,
      double bytesPerJob,
      double concurrentNanosPerJob,
      double concurrentBytesPerJob) {}

  static Figures measure(ScaleRun run, KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids) {
    run.expire(jobs);
    jobs.statusReader().getAll(ids);
    double[] hit = alone(run, jobs, ids);
    double[] concurrent = concurrent(run, jobs, ids);
    return new Figures(hit[0], hit[1], concurrent[0], concurrent[1]);
  }

  private static double[] alone(ScaleRun run, KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids) {
    for (int i = 0; i < run.warmups(); i++) {
      jobs.statusReader().getAll(ids);
    }
    long[] sum = new long[3];
    for (int i = 0; i < run.iterations; i++) {
      add(sum, ClientThreads.measure(() -> jobs.statusReader().getAll(ids)));
    }
    double calls = (double) run.iterations * ids.size();
    return new double[] {sum[0] / calls, sum[1] / calls};
  }

  private static double[] concurrent(
      ScaleRun run, KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids) {
    ExecutorService callers = Executors.newFixedThreadPool(CONCURRENT_CALLERS);
    try {
      long[] sum = new long[3];
      int warmups = run.warmups();
      for (int i = 0; i < warmups + run.iterations; i++) {
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
      double calls = (double) run.iterations * CONCURRENT_CALLERS * ids.size();
      return new double[] {sum[2] / calls, sum[1] / calls};
    } finally {
      callers.shutdownNow();
    }
  }
}
