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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.RecordedRequest;
import java.time.Duration;
import java.util.List;

/**
 * {@link ScaleBenchmark}'s second experiment: the first one's getAll at {@value #LATENCY_MS} ms per
 * request (a fault delaying every GET), against the floor sending its LISTs in parallel: wall time
 * only.
 */
final class LatencyExperiment {
  static final long LATENCY_MS = 50;
  static final Duration LATENCY = Duration.ofMillis(LATENCY_MS);

  private LatencyExperiment() {}

  /** Returns getAll's wall time over the parallel floor's, summed over the measured rounds. */
  static double ratioToFloor(
      ScaleRun run,
      KubeJobs<SparkJobSpec> jobs,
      List<ExecutionId> ids,
      List<RecordedRequest> pages) {
    run.server.faults().add(Fault.on("GET", ".*").forever().delay(LATENCY));
    try {
      long k = 0;
      long f = 0;
      // the first round warms up; then as many rounds as the other figures (one round alone
      // ranged 0.68-1.34x between runs)
      for (int i = 0; i <= run.iterations; i++) {
        run.expire(jobs);
        long t0 = System.nanoTime();
        ScaleRun.requireAllOpen(jobs.statusReader().getAll(ids), ids.size());
        long kw = System.nanoTime() - t0;
        long fw = run.floor.fetch(pages, true).wallNanos();
        if (i > 0) {
          k += kw;
          f += fw;
        }
      }
      return ratio(k, f);
    } finally {
      run.server.faults().clear();
    }
  }
}
