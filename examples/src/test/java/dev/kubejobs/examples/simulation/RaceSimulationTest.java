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

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Runs the two-node race simulation of issue 8 ({@link RaceSimulation}) over every kind of scenario
 * — both operators, cancels at any moment, faults per node, restarts, unparseable statuses,
 * operator outages, double submits and cancels of unmanaged resources — and checks that a seed
 * replays the same scenario. The findings it once had (F1–F9) are in {@code docs/race-findings.md},
 * each with its seed.
 *
 * <p>Size: {@code -Drace.scenarios} deterministic scenarios in all (default 1000) and {@code
 * -Drace.concurrent} concurrent ones on real threads (default 100), on two workers.
 */
class RaceSimulationTest {
  private static final int SCENARIOS = Integer.getInteger("race.scenarios", 1000);
  private static final int CONCURRENT = Integer.getInteger("race.concurrent", 100);

  @Test
  void everyKindOfScenarioKeepsEveryInvariant() {
    RaceSimulation.Summary summary =
        RaceSimulation.run(20_260_101L, SCENARIOS * 8 / 10, CONCURRENT, Feature.all());

    assertThat(summary.violations()).as(summary.toString()).isEmpty();
    assertThat(summary.inherent()).as(summary.toString()).isEmpty();
  }

  @Test
  void restartsAndOperatorOutagesOnKubeflowUnderFaultsKeepEveryInvariant() {
    // Kubeflow's rerun path (PENDING_RERUN, SUBMITTED again) against a no-status timeout.
    RaceSimulation.Summary summary =
        RaceSimulation.run(
            7_000L,
            SCENARIOS / 5,
            0,
            EnumSet.of(
                Feature.KUBEFLOW,
                Feature.CANCEL,
                Feature.RESTARTS,
                Feature.OPERATOR_OUTAGE,
                Feature.FAULTS,
                Feature.DOUBLE_SUBMIT));

    assertThat(summary.violations()).as(summary.toString()).isEmpty();
  }

  @Test
  void aSeedReplaysTheSameScenario() {
    try (Simulator simulator = new Simulator()) {
      // Watch events arrive on real threads: only polling scenarios replay step for step.
      Set<Feature> replayable = Feature.all();
      replayable.remove(Feature.WATCH);
      List<String> first = withoutTiming(simulator.run(42L, false, replayable).trace());
      List<String> again = withoutTiming(simulator.run(42L, false, replayable).trace());

      assertThat(again).isEqualTo(first);
      assertThat(first).hasSizeGreaterThan(5);
    }
  }

  private static List<String> withoutTiming(List<String> trace) {
    return trace.subList(0, trace.size() - 1);
  }
}
