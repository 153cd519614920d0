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

import java.util.EnumSet;
import java.util.Set;

/**
 * A kind of event a {@link RaceSimulation} scenario may contain. A run enables a set of them; a
 * scenario draws only from the enabled ones, so a kind that still finds violations can be left out
 * of a run that must pass.
 */
public enum Feature {
  /** Scenarios on the fake Apache Spark Kubernetes Operator (with neither flavor: both). */
  APACHE,
  /** Scenarios on the fake Kubeflow Spark operator (with neither flavor: both). */
  KUBEFLOW,
  /** Cancels from either node, at any moment of the job's life. */
  CANCEL,
  /**
   * Cancels from either node as {@link #CANCEL}, but only while the server's event log shows the
   * job unfinished (no outcome written, no driver exit) when the cancel starts.
   */
  CANCEL_RUNNING,
  /**
   * Faults on one node's or both nodes' requests: connection reset before the request is applied,
   * the answer lost after it was applied, 500/503, 429 with {@code Retry-After}.
   */
  FAULTS,
  /**
   * The operator down and back: it stops moving applications for a while, some applications never
   * get a status, and the clock jumps past the no-status timeout.
   */
  OPERATOR_OUTAGE,
  /** Applications whose first attempt fails and that the operator restarts. */
  RESTARTS,
  /** Applications with a status no operator writes, whose driver pod tells the outcome. */
  UNPARSEABLE_STATUS,
  /** Both nodes submit the same job id, possibly while a create's answer is lost. */
  DOUBLE_SUBMIT,
  /** A node cancels a hand-built id of a SparkApplication that kubejobs does not manage. */
  FOREIGN_CANCEL,
  /**
   * Issue 24's race, in some scenarios: once past the no-status timeout, one node's delete of the
   * job loses its answer (applied, or reset before it was applied) while the other node cancels it;
   * then the first node reads it again.
   */
  NO_STATUS_DELETE_RACE,
  /**
   * Issue 43's race, in some scenarios: the operator is down past the no-status timeout, so a node
   * puts its end mark; the end mark's patch or the delete after it meets a fault that lasts (5xx or
   * 403 until cleared, lost answers, resets), and the operator's writes come back between any two
   * requests of that node's read or of the other node's cancel or read; then the operator runs the
   * job while the fault lasts.
   */
  OPERATOR_AFTER_END_MARK,
  /**
   * Issue 43's histories that leave the nodes unable to agree without a durable record of how a job
   * ended, in some scenarios, one of: a cancel whose delete lands while every answer to it and
   * every read after it is lost; another node reading the job while a cancel's delete is applied
   * and its answer not yet back; the driver exiting while a cancel's delete is on its way; a node
   * that cannot read pods (503 until cleared) while the job ends and is cancelled.
   */
  RECORDLESS_HISTORIES,
  /**
   * kubejobs may write its record of how it ended a job: the fake API server grants {@code create
   * events}. Without this feature it refuses them (403), as for a Role without that optional rule,
   * and kubejobs behaves as without a record.
   */
  OUTCOME_RECORD,
  /**
   * Node A, node B, both or neither read statuses in watch mode ({@code StatusSource.watch()})
   * instead of polling, drawn per scenario. Watch events arrive on real threads, so such a scenario
   * does not replay step for step.
   */
  WATCH;

  /**
   * Returns every feature.
   *
   * @return a new mutable set of all features
   */
  public static Set<Feature> all() {
    return EnumSet.allOf(Feature.class);
  }
}
