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

/**
 * One broken invariant found by a {@link RaceSimulation} scenario.
 *
 * @param seed the scenario's seed; {@code --replay SEED} (with {@code --threads} for a concurrent
 *     scenario) runs it again
 * @param concurrent whether the scenario ran its actions on real threads
 * @param invariant the invariant's letter in issue 8, {@code a} to {@code g}
 * @param scenario the scenario's description (flavor, paths, cache periods, features)
 * @param what what went wrong
 */
public record Violation(
    long seed, boolean concurrent, char invariant, String scenario, String what) {

  /** Returns the violation on one line, with the option that replays it. */
  @Override
  public String toString() {
    return "seed="
        + seed
        + (concurrent ? " (concurrent)" : "")
        + " invariant ("
        + invariant
        + ") "
        + what
        + " | "
        + scenario
        + " | replay: --replay "
        + seed
        + (concurrent ? " --threads" : "");
  }
}
