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
/**
 * The two-node race simulation of issue 8: seeded scenarios in which two scheduler nodes act on
 * the same jobs on a SIMULATED cluster (fake API server, fake operators) under faults, restarts,
 * outages and real threads, judged against the fake server's own event log. Start with {@link
 * dev.kubejobs.examples.simulation.RaceSimulation}.
 */
package dev.kubejobs.examples.simulation;
