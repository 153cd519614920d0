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

import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * What a {@link RaceSimulation} scenario is, drawn from its seed before anything runs: the operator
 * flavor, one or two jobs with their operator paths, each node's cache period and whether it
 * watches. Its {@link #rnd} goes on to draw the scenario's actions, so a seed replays the same
 * scenario. Not thread safe.
 */
final class ScenarioPlan {
  /** Cache periods a node may have. */
  private static final List<Duration> TTLS =
      List.of(Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(5));

  /** Paths that fail, which a restart-on-failure policy would restart (the fake does not). */
  static final List<SparkAppPath> FAILING_PATHS =
      List.of(
          SparkAppPath.FAILED, SparkAppPath.DRIVER_START_TIMEOUT, SparkAppPath.RETAINED_ON_FAILURE);

  final long seed;
  final boolean concurrent;
  final Set<Feature> features;

  /** Draws the plan, then the actions. */
  final Random rnd;

  /**
   * Chooses which node a fault hits; separate from {@link #rnd} so that the rest of a scenario
   * stays what it was before faults could be scoped to one node.
   */
  final Random faultScope;

  final Flavor flavor;

  /** The scenario's jobs; the orphan is added last when it is submitted. */
  final List<ScenarioJob> jobs = new ArrayList<>();

  final Duration ttlA;
  final Duration ttlB;

  /** Whether a job restarts: the nodes then use a restart-on-failure policy. */
  final boolean restarts;

  /**
   * Whether the scenario runs the no-status delete race ({@link Feature#NO_STATUS_DELETE_RACE}).
   */
  final boolean noStatusRace;

  /**
   * Draws the no-status delete race; apart from {@link #rnd}, so other scenarios replay as before.
   */
  final Random raceRandom;

  /**
   * Whether the scenario runs issue 43's race ({@link Feature#OPERATOR_AFTER_END_MARK}), drawn with
   * {@link #endMarkRandom}, apart from the rest, so other scenarios replay as before.
   */
  final boolean endMarkRace;

  /** Draws issue 43's race. */
  final Random endMarkRandom;

  /**
   * Which of issue 43's recordless histories the scenario runs ({@link
   * Feature#RECORDLESS_HISTORIES}): -1 for none, else 0 to 3; drawn apart from the rest.
   */
  final int recordless;

  /** Draws the recordless history. */
  final Random recordlessRandom;

  final boolean watchA;
  final boolean watchB;
  final String description;

  ScenarioPlan(long seed, boolean concurrent, Set<Feature> features) {
    this.seed = seed;
    this.concurrent = concurrent;
    this.features = features.isEmpty() ? EnumSet.noneOf(Feature.class) : EnumSet.copyOf(features);
    this.rnd = new Random(seed);
    this.faultScope = new Random(seed * 31 + 7);
    boolean apacheDrawn = rnd.nextBoolean();
    boolean apacheOn = features.contains(Feature.APACHE);
    boolean kubeflowOn = features.contains(Feature.KUBEFLOW);
    this.flavor =
        apacheOn == kubeflowOn
            ? (apacheDrawn ? Flavor.APACHE : Flavor.KUBEFLOW)
            : (apacheOn ? Flavor.APACHE : Flavor.KUBEFLOW);
    int jobCount = 1 + rnd.nextInt(2);
    boolean restarting = false;
    boolean failing = false;
    for (int i = 0; i < jobCount; i++) {
      SparkAppPath path = pickPath(restarting, failing);
      restarting |= path == SparkAppPath.RESTARTED_THEN_SUCCEEDED;
      failing |= FAILING_PATHS.contains(path);
      jobs.add(new ScenarioJob("job-" + i, path, false));
    }
    this.restarts = restarting;
    this.ttlA = TTLS.get(rnd.nextInt(TTLS.size()));
    this.ttlB = TTLS.get(rnd.nextInt(TTLS.size()));
    // drawn apart from the rest, so scenarios without WATCH replay as before
    Random modes = new Random(seed * 17 + 3);
    int watching = this.features.contains(Feature.WATCH) ? modes.nextInt(4) : 0;
    this.raceRandom = new Random(seed * 13 + 5);
    this.noStatusRace =
        this.features.contains(Feature.NO_STATUS_DELETE_RACE) && raceRandom.nextInt(3) == 0;
    this.endMarkRandom = new Random(seed * 19 + 11);
    this.endMarkRace =
        this.features.contains(Feature.OPERATOR_AFTER_END_MARK) && endMarkRandom.nextInt(3) == 0;
    this.recordlessRandom = new Random(seed * 23 + 13);
    this.recordless =
        this.features.contains(Feature.RECORDLESS_HISTORIES) && recordlessRandom.nextInt(3) == 0
            ? recordlessRandom.nextInt(4)
            : -1;
    this.watchA = (watching & 1) != 0;
    this.watchB = (watching & 2) != 0;
    this.description = describe();
  }

  /**
   * Picks a path. The restart policy is one per node (restart on failure when a job restarts), so
   * once a job restarts, the others take paths that do not fail, which the policy would restart
   * while the fake operator does not; and after a failing path, none restarts.
   */
  private SparkAppPath pickPath(boolean restarting, boolean failingEarlier) {
    List<SparkAppPath> paths =
        new ArrayList<>(List.of(SparkAppPath.HAPPY, SparkAppPath.NEWER_STATE));
    if (!restarting) {
      paths.addAll(FAILING_PATHS);
    }
    if (features.contains(Feature.RESTARTS) && !restarting && !failingEarlier) {
      paths.add(SparkAppPath.RESTARTED_THEN_SUCCEEDED);
    }
    if (features.contains(Feature.UNPARSEABLE_STATUS)) {
      paths.add(SparkAppPath.UNPARSEABLE_STATUS);
    }
    if (features.contains(Feature.OPERATOR_OUTAGE)) {
      paths.add(SparkAppPath.OPERATOR_DOWN);
    }
    return paths.get(rnd.nextInt(paths.size()));
  }

  private String describe() {
    StringBuilder d = new StringBuilder();
    d.append(flavor.name().toLowerCase(Locale.ROOT)).append(" jobs=[");
    for (ScenarioJob j : jobs) {
      d.append(j.jobId).append(':').append(j.path).append(' ');
    }
    d.setLength(d.length() - 1);
    d.append("] ttl A=").append(ttlA.toSeconds()).append("s B=").append(ttlB.toSeconds());
    d.append("s");
    if (watchA || watchB) {
      d.append(" watch=").append(watchA ? "A" : "").append(watchB ? "B" : "");
    }
    if (noStatusRace) {
      d.append(" no-status-delete-race");
    }
    if (endMarkRace) {
      d.append(" operator-after-end-mark");
    }
    if (recordless >= 0) {
      d.append(" recordless-history=").append(recordless);
    }
    d.append(" features=").append(features);
    return d.toString();
  }
}
