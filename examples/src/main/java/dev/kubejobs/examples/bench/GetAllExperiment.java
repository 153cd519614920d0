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
import dev.kubejobs.examples.bench.ScaleBenchmark.Cost;
import dev.kubejobs.examples.bench.ScaleBenchmark.Requests;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.testkit.RecordedRequest;
import java.util.List;

/**
 * {@link ScaleBenchmark}'s first experiment: {@code getAll} of every job with the cache expired,
 * against the {@link Floor} sending the same LISTs; once with the jobs unchanged since the last
 * list, once with every job changed.
 */
final class GetAllExperiment {
  private GetAllExperiment() {}

  /**
   * What the experiment measured.
   *
   * @param requests the requests of one getAll
   * @param firstPages the first page of each LIST it sent, which the floor sends again
   * @param jsonBytesPerJob the JSON size per listed job
   * @param kubejobs kubejobs' cost, jobs unchanged
   * @param floor the floor's cost, jobs unchanged
   * @param kubejobsChanged kubejobs' cost, every job changed
   * @param floorChanged the floor's cost, every job changed
   */
  record Figures(
      Requests requests,
      List<RecordedRequest> firstPages,
      long jsonBytesPerJob,
      Cost kubejobs,
      Cost floor,
      Cost kubejobsChanged,
      Cost floorChanged) {}

  static Figures measure(ScaleRun run, KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids) {
    run.server.journal().clear();
    run.expire(jobs);
    ScaleRun.requireAllOpen(jobs.statusReader().getAll(ids), ids.size());
    Requests requests = run.requests();
    List<RecordedRequest> firstPages = run.firstPages();
    long jsonBytesPerJob = run.floor.jsonBytes(firstPages) / run.size;
    Measurement.Totals unchanged = compare(run, jobs, ids, firstPages, false);
    Measurement.Totals changed = compare(run, jobs, ids, firstPages, true);
    return new Figures(
        requests,
        firstPages,
        jsonBytesPerJob,
        unchanged.kubejobs(),
        unchanged.floor(),
        changed.kubejobs(),
        changed.floor());
  }

  /**
   * Measures getAll (cache expired) and the floor, interleaved, after as many warm-ups; with {@code
   * changeAll}, every job is changed (an annotation written) before each round, so that none is the
   * copy kubejobs listed before.
   */
  private static Measurement.Totals compare(
      ScaleRun run,
      KubeJobs<SparkJobSpec> jobs,
      List<ExecutionId> ids,
      List<RecordedRequest> pages,
      boolean changeAll) {
    int[] round = {0};
    return Measurement.againstFloor(
        run.warmups(),
        run.iterations,
        false,
        measured -> {
          int i = round[0]++;
          if (changeAll) {
            for (ExecutionId id : ids) {
              run.touch(id, -1 - i);
            }
          }
          run.expire(jobs);
        },
        () -> ScaleRun.requireAllOpen(jobs.statusReader().getAll(ids), ids.size()),
        () -> {},
        () -> run.floor.fetch(pages, false));
  }
}
