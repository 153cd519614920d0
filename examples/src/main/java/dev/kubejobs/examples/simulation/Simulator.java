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
package dev.kubejobs.examples.simulation;

import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.resilience.ApiCallFailure;
import dev.kubejobs.core.resilience.Resilience4jPolicy;
import dev.kubejobs.core.status.StatusSource;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.KubeflowOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs {@link RaceSimulation} scenarios on one fake API server with both fake operators attached,
 * reset between scenarios. Not thread safe: one scenario at a time (a concurrent scenario uses its
 * own threads inside).
 */
final class Simulator implements AutoCloseable {
  static final String NAMESPACE = "sim";
  static final String CLUSTER = "sim";
  static final String DEPLOYMENT = "sim";

  final MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
  final FakeKubernetesApiServer server;
  private final FakeSparkOperator apache;
  private final FakeSparkOperator kubeflow;
  final ApiClient clientA;
  final ApiClient clientB;
  final EventLog log = new EventLog();
  final ExecutorService pool;

  Simulator() {
    server = FakeKubernetesApiServer.builder().clock(clock).build();
    apache = FakeSparkOperator.apache(server);
    kubeflow = FakeSparkOperator.kubeflow(server);
    server.store().addListener(log);
    clientA = server.newClient("node-a");
    clientB = server.newClient("node-b");
    pool =
        Executors.newFixedThreadPool(
            3,
            r -> {
              Thread t = new Thread(r, "race-simulation");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Runs one scenario and checks the invariants.
   *
   * @param seed the scenario's seed: it chooses everything
   * @param concurrent whether actions run in bursts on real threads
   * @param features what the scenario may contain
   * @return what the scenario found
   */
  Outcome run(long seed, boolean concurrent, Set<Feature> features) {
    server.reset();
    log.clear();
    clock.advance(Duration.ofHours(1));
    ScenarioPlan plan = new ScenarioPlan(seed, concurrent, features);
    Scenario s = new Scenario(this, plan);
    long t0 = System.nanoTime();
    List<Violation> violations = s.run();
    s.trace(
        "-- "
            + server.journal().requests().size()
            + " requests, "
            + (System.nanoTime() - t0) / 1_000_000
            + " ms --");
    return new Outcome(plan.description, violations, s.trace());
  }

  /**
   * What one scenario found.
   *
   * @param description the scenario's flavor, paths, cache periods and features
   * @param violations the broken invariants, empty when all held
   * @param trace the actions taken and what each answered, in order
   */
  record Outcome(String description, List<Violation> violations, List<String> trace) {}

  @Override
  public void close() {
    pool.shutdownNow();
    apache.close();
    kubeflow.close();
    server.close();
  }

  /** A fresh KubeJobs instance for one node of a scenario, on the simulator's clock. */
  KubeJobs<SparkJobSpec> kubeJobs(
      ApiClient client, Flavor flavor, Duration ttl, boolean restarts, boolean watch) {
    var kind =
        flavor == Flavor.APACHE
            ? SparkOperators.apache(
                ApacheOptions.builder()
                    .restartPolicy(
                        restarts
                            ? ApacheOptions.RestartPolicy.ON_FAILURE
                            : ApacheOptions.RestartPolicy.NEVER)
                    .build())
            : SparkOperators.kubeflow(
                KubeflowOptions.builder()
                    .restartPolicy(
                        restarts
                            ? KubeflowOptions.RestartPolicy.ON_FAILURE
                            : KubeflowOptions.RestartPolicy.NEVER)
                    .build());
    RetryConfig retry =
        RetryConfig.custom()
            .maxAttempts(3)
            .intervalBiFunction(
                Resilience4jPolicy.retryAfterAware(
                    IntervalFunction.of(Duration.ofMillis(1)), Duration.ofMillis(2)))
            .retryOnException(e -> e instanceof ApiCallFailure)
            .build();
    return KubeJobs.builder(client, kind)
        .cluster(CLUSTER)
        .deployment(DEPLOYMENT)
        .clock(clock)
        .statusCacheTtl(ttl)
        .statusSource(watch ? StatusSource.watch() : StatusSource.polling())
        .retry(retry)
        .circuitBreaker(Resilience4jPolicy.defaultCircuitBreakerConfig(clock))
        .build();
  }

  /** The fake operator of a flavor. */
  FakeSparkOperator operator(Flavor flavor) {
    return flavor == Flavor.APACHE ? apache : kubeflow;
  }
}
