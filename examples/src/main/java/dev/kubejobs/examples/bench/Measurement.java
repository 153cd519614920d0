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

import dev.kubejobs.examples.bench.ScaleBenchmark.Cost;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The measurement loop the benchmarks here share: rounds of kubejobs' section and the {@link
 * Floor}'s, interleaved, warm-up rounds first, each side after a {@code System.gc()} so that
 * neither pays for the other's garbage, each side first in every other round, and the client cost
 * of the measured rounds per side ({@link ClientThreads}) taken as the median round's, times the
 * rounds. The median, not the sum: on a shared virtual machine a round now and then costs two or
 * three times the others on either side (the host's CPU steal counts as the thread's CPU time), and
 * one such round decided the ratio of a sum. Each side goes first in half the rounds: the first
 * LIST after the server's objects changed costs its client more than the same LIST right after it
 * (with the fake server in the same JVM on two cores, a slower answer means more waits and smaller
 * reads on the client's thread), and with kubejobs always first the 100%-changed case showed it
 * 1.32x the floor, with the floor always first 1.22x (Apache; Kubeflow 1.34x and 1.06x, one run
 * each). Compare the ratio of the two sides of one run.
 */
final class Measurement {
  private Measurement() {}

  /**
   * The cost of kubejobs and of the floor over the measured rounds: each side's median round (CPU,
   * allocation and wall time each its own median) times the number of rounds.
   */
  record Totals(Cost kubejobs, Cost floor) {}

  /**
   * Runs {@code warmups} rounds, then {@code measured} ones, and returns each side's median
   * measured round times {@code measured}.
   *
   * @param warmups rounds run first and not counted
   * @param measured rounds counted
   * @param collectInWarmUps whether warm-up rounds also collect before each side (measured rounds
   *     always do)
   * @param prepare run first in each round, told whether the round is measured (change jobs, pass
   *     the cache period, clear the journal)
   * @param kubejobs kubejobs' section, measured
   * @param afterMeasured run after kubejobs' section of a measured round, not measured (to count
   *     its requests)
   * @param floor the floor's section, measuring itself; it runs before kubejobs' section in every
   *     other round, so what it leaves (requests in a journal) must not count as kubejobs'
   * @return the costs
   */
  static Totals againstFloor(
      int warmups,
      int measured,
      boolean collectInWarmUps,
      Consumer<Boolean> prepare,
      Runnable kubejobs,
      Runnable afterMeasured,
      Supplier<Cost> floor) {
    List<Cost> k = new ArrayList<>(measured);
    List<Cost> f = new ArrayList<>(measured);
    for (int i = 0; i < warmups + measured; i++) {
      boolean counted = i >= warmups;
      prepare.accept(counted);
      boolean floorFirst = i % 2 == 1;
      Cost fc = floorFirst ? floor(floor, counted || collectInWarmUps) : null;
      collectIf(counted || collectInWarmUps);
      Cost kc = ClientThreads.measure(kubejobs);
      if (counted) {
        k.add(kc);
        afterMeasured.run();
      }
      if (!floorFirst) {
        fc = floor(floor, counted || collectInWarmUps);
      }
      if (counted) {
        f.add(fc);
      }
    }
    if (Boolean.getBoolean(PRINT_ROUNDS)) {
      for (int i = 0; i < measured; i++) {
        System.out.printf(
            Locale.ROOT,
            "    round %d: kubejobs %.1f ms CPU, floor %.1f ms CPU%n",
            i + 1,
            k.get(i).cpuNanos() / 1e6,
            f.get(i).cpuNanos() / 1e6);
      }
    }
    return new Totals(medianTimes(k), medianTimes(f));
  }

  /** The system property that, when {@code true}, prints each measured round's CPU times. */
  static final String PRINT_ROUNDS = "kubejobs.bench.printRounds";

  private static Cost floor(Supplier<Cost> floor, boolean collect) {
    collectIf(collect);
    return floor.get();
  }

  /** Each measure's median over the rounds, times the rounds. */
  static Cost medianTimes(List<Cost> rounds) {
    return new Cost(
        median(rounds, Cost::cpuNanos) * rounds.size(),
        median(rounds, Cost::allocatedBytes) * rounds.size(),
        median(rounds, Cost::wallNanos) * rounds.size());
  }

  private static long median(List<Cost> rounds, ToLongFunction<Cost> measure) {
    long[] values = rounds.stream().mapToLong(measure).sorted().toArray();
    if (values.length == 0) {
      return 0;
    }
    int mid = values.length / 2;
    return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
  }

  private static void collectIf(boolean collect) {
    if (collect) {
      System.gc();
    }
  }

  /** Adds a cost to a sum of {CPU ns, allocated bytes, wall ns}. */
  static void add(long[] sum, Cost c) {
    sum[0] += c.cpuNanos();
    sum[1] += c.allocatedBytes();
    sum[2] += c.wallNanos();
  }

  /** {@code a / b}; infinite when {@code b} is 0. */
  static double ratio(double a, double b) {
    return b == 0 ? Double.POSITIVE_INFINITY : a / b;
  }
}
