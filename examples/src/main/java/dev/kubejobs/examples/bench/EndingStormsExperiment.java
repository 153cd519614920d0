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
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.examples.bench.ScaleBenchmark.Requests;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.testkit.RecordedRequest;
import java.util.List;
import java.util.Map;

/**
 * {@link ScaleBenchmark}'s sixth experiment: ending storms. A poll after {@code storm} jobs just
 * succeeded, one after {@code storm} others just failed, and, on a fresh instance each round, a
 * poll of all the jobs that succeeded once every running job has, against the floor.
 */
final class EndingStormsExperiment {
  private EndingStormsExperiment() {}

  /**
   * What the experiment measured.
   *
   * @param succeeded the requests of the poll after {@code storm} jobs succeeded
   * @param failed the requests of the poll after {@code storm} jobs failed
   * @param allSucceeded the requests of a fresh instance's poll of all succeeded jobs
   * @param allSucceededJobs how many jobs that poll read
   * @param allSucceededWallRatio its wall time over the floor's, summed over the rounds
   */
  record Figures(
      Requests succeeded,
      Requests failed,
      Requests allSucceeded,
      int allSucceededJobs,
      double allSucceededWallRatio) {}

  static Figures measure(ScaleRun run, KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids) {
    int storm = run.storm;
    for (int i = 0; i < storm; i++) {
      ExecutionId id = ids.get(storm + i);
      run.fake.moveTo(id.namespace(), id.name(), run.operator.succeeded);
    }
    Requests succeeded = run.poll(jobs, ids);
    for (int i = 0; i < storm; i++) {
      ExecutionId id = ids.get(i);
      run.fake.moveTo(id.namespace(), id.name(), run.operator.failed);
    }
    Requests failed = run.poll(jobs, ids);
    List<ExecutionId> happy = ids.subList(storm, ids.size());
    for (ExecutionId id : happy.subList(storm, happy.size())) {
      run.fake.moveTo(id.namespace(), id.name(), run.operator.succeeded);
    }
    // A fresh instance each time (nothing reported yet), against the floor: summed over as many
    // rounds as the other figures, each side after a System.gc().
    long allWall = 0;
    long floorWall = 0;
    Requests allSucceeded = null;
    List<RecordedRequest> endedPages = null;
    for (int round = 0; round < run.iterations; round++) {
      KubeJobs<SparkJobSpec> fresh = run.instance();
      System.gc();
      run.server.journal().clear();
      long t0 = System.nanoTime();
      Map<ExecutionId, JobStatusResult> ended = fresh.statusReader().getAll(happy);
      allWall += System.nanoTime() - t0;
      if (allSucceeded == null) {
        allSucceeded = run.requests();
        endedPages = run.firstPages();
      }
      long ok =
          ended.values().stream()
              .filter(r -> r.info().map(i -> i.status().isTerminal()).orElse(false))
              .count();
      if (ok != happy.size()) {
        throw new IllegalStateException(
            "expected " + happy.size() + " ended jobs, but " + ok + " were reported ended");
      }
      fresh.close();
      System.gc();
      floorWall += run.floor.fetch(endedPages, false).wallNanos();
    }
    return new Figures(succeeded, failed, allSucceeded, happy.size(), ratio(allWall, floorWall));
  }
}
