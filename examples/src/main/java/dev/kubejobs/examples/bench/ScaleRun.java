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

import com.google.gson.JsonObject;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.examples.bench.ScaleBenchmark.Mode;
import dev.kubejobs.examples.bench.ScaleBenchmark.Operator;
import dev.kubejobs.examples.bench.ScaleBenchmark.Requests;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import io.kubernetes.client.openapi.ApiClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What every experiment of {@link ScaleBenchmark} runs on for one operator, job count and mode: its
 * own fake server and operator, the floor, the injected clock, and the helpers they share (new
 * instances, the cache period passing, request counts). Not thread safe.
 */
final class ScaleRun {
  private static final String APP_LIST = ".*/namespaces/[^/]+/sparkapplications";
  private static final String APP_GET = APP_LIST + "/[^/]+";
  private static final String POD_LIST = "/api/v1/namespaces/[^/]+/pods";
  private static final String POD_GET = POD_LIST + "/[^/]+";
  private static final int WARM_UP_JOBS = 50_000;
  private static final int MAX_WARM_UPS = 50;

  final Operator operator;
  final Mode mode;
  final int size;
  final int namespaces;
  final int iterations;

  /** How many jobs each ending storm ends: 1,000, or a tenth of the jobs when fewer. */
  final int storm;

  final MutableClock clock;
  final FakeKubernetesApiServer server;
  final FakeSparkOperator fake;
  final Floor floor;

  ScaleRun(
      Operator operator,
      Mode mode,
      int size,
      int namespaces,
      int iterations,
      int stormMax,
      MutableClock clock,
      FakeKubernetesApiServer server,
      FakeSparkOperator fake,
      Floor floor) {
    this.operator = operator;
    this.mode = mode;
    this.size = size;
    this.namespaces = namespaces;
    this.iterations = iterations;
    this.storm = Math.max(1, Math.min(stormMax, size / 10));
    this.clock = clock;
    this.server = server;
    this.fake = fake;
    this.floor = floor;
  }

  /**
   * Warm-up rounds before measured ones: as many as the measured ones, and at least enough to read
   * {@value #WARM_UP_JOBS} jobs, so that small job counts are measured on compiled code too (the
   * floor's few methods compile long before kubejobs' many).
   */
  int warmups() {
    return Math.max(iterations, Math.min(MAX_WARM_UPS, (WARM_UP_JOBS + size - 1) / size));
  }

  /** Changes one job's resource (an annotation, as an operator's status write would). */
  void touch(ExecutionId id, int poll) {
    server
        .store()
        .update(
            fake.resourceType(),
            id.namespace(),
            id.name(),
            o -> {
              JsonObject meta = o.getAsJsonObject("metadata");
              JsonObject annotations =
                  meta.has("annotations") ? meta.getAsJsonObject("annotations") : new JsonObject();
              annotations.addProperty("bench.kubejobs.dev/poll", Integer.toString(poll));
              meta.add("annotations", annotations);
              return o;
            });
  }

  /** Every application in the store, as it holds them. */
  List<JsonObject> apps() {
    List<JsonObject> apps = new ArrayList<>(size);
    for (int n = 0; n < namespaces; n++) {
      apps.addAll(server.store().list(fake.resourceType(), "team-" + n));
    }
    return apps;
  }

  /** A new instance on a new client of the fake server, configured for the mode. */
  KubeJobs<SparkJobSpec> instance() {
    return instance(server.newClient());
  }

  /** A new instance on the client given, configured for the mode. */
  KubeJobs<SparkJobSpec> instance(ApiClient client) {
    return mode.configure
        .apply(
            KubeJobs.builder(client, operator.kind())
                .cluster("simulated")
                .deployment("scale")
                .clock(clock))
        .build();
  }

  /** Submits every job; the first {@link #storm} take the path that fails. */
  List<ExecutionId> submit(KubeJobs<SparkJobSpec> jobs) {
    List<ExecutionId> ids = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      ExecutionId id = jobs.submitter().submit("scale-" + i, ScaleBenchmark.spec(i, namespaces));
      if (i < storm) {
        fake.path(id.namespace(), id.name(), SparkAppPath.FAILED);
      }
      ids.add(id);
    }
    return ids;
  }

  /** Lets the instance's cache period pass. */
  void expire(KubeJobs<SparkJobSpec> jobs) {
    clock.advance(jobs.statusCacheTtl().plusSeconds(1));
  }

  /** One poll of every job once the cache period passed: the requests it sent. */
  Requests poll(KubeJobs<SparkJobSpec> jobs, List<ExecutionId> ids) {
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

  /** The first page of each application LIST in the journal (not watches). */
  List<RecordedRequest> firstPages() {
    return server.journal().requests("GET", APP_LIST).stream()
        .filter(r -> r.queryParameter("continue") == null)
        .filter(r -> !"true".equals(r.queryParameter("watch")))
        .toList();
  }

  /** The requests in the journal, by kind. */
  Requests requests() {
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

  /** Fails unless every job was read as running. */
  static void requireAllOpen(Map<ExecutionId, JobStatusResult> results, int expected) {
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
}
