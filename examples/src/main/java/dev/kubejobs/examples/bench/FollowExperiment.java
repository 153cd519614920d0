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
import dev.kubejobs.examples.bench.ScaleBenchmark.Mode;
import dev.kubejobs.examples.bench.ScaleBenchmark.Requests;
import dev.kubejobs.spark.SparkJobSpec;
import java.util.List;

/**
 * {@link ScaleBenchmark}'s fifth experiment: a new instance follows every job for {@value #POLLS}
 * polls while 1% of them change between polls: its requests, and the bytes it got from the API
 * server, estimated from the JSON size per job of the first experiment.
 */
final class FollowExperiment {
  static final int POLLS = 10;

  /** The bytes a watch event adds around its object: {"type":"MODIFIED","object":...}. */
  private static final int WATCH_EVENT_ENVELOPE = 30;

  private FollowExperiment() {}

  /**
   * What the experiment measured.
   *
   * @param requests the requests of all polls
   * @param changes jobs changing per poll
   * @param bytes about how many bytes came from the API server
   */
  record Figures(Requests requests, int changes, long bytes) {}

  /**
   * Follows the jobs.
   *
   * @param jsonBytesPerJob the JSON size per job (first experiment)
   * @param getAllRequests the requests of one getAll of every job (first experiment)
   */
  static Figures measure(
      ScaleRun run, List<ExecutionId> ids, long jsonBytesPerJob, Requests getAllRequests) {
    KubeJobs<SparkJobSpec> follower = run.instance();
    List<ExecutionId> open = ids;
    follower.statusReader().getAll(open);
    run.server.journal().clear();
    int changes = Math.max(1, open.size() / 100);
    long eventBytes = 0;
    for (int poll = 0; poll < POLLS; poll++) {
      for (int c = 0; c < changes; c++) {
        ExecutionId id = open.get((poll * changes + c) % open.size());
        run.touch(id, poll);
        eventBytes += jsonBytesPerJob + WATCH_EVENT_ENVELOPE;
      }
      run.expire(follower);
      follower.statusReader().getAll(open);
    }
    Requests followRequests = run.requests();
    follower.close();
    // Bytes from the API server, estimated from the JSON size per job measured in step 1: a
    // full listing of all namespaces carries every job; a GET one job; a watch event one job.
    long listBytes =
        getAllRequests.appLists() == 0
            ? 0
            : (long) followRequests.appLists()
                * run.size
                * jsonBytesPerJob
                / getAllRequests.appLists();
    long followBytes =
        listBytes
            + (long) (followRequests.appGets() + followRequests.podGets()) * jsonBytesPerJob
            + (run.mode == Mode.WATCH ? eventBytes : 0);
    return new Figures(followRequests, changes, followBytes);
  }
}
