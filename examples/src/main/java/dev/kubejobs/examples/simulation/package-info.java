/**
 * The two-node race simulation of issue 8: seeded scenarios in which two scheduler nodes act on
 * the same jobs on a SIMULATED cluster (fake API server, fake operators) under faults, restarts,
 * outages and real threads, judged against the fake server's own event log. Start with {@link
 * dev.kubejobs.examples.simulation.RaceSimulation}.
 */
package dev.kubejobs.examples.simulation;
