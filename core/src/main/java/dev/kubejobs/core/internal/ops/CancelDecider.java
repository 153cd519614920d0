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
package dev.kubejobs.core.internal.ops;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.ops.StatusPipeline.Purpose;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.util.Optional;

/**
 * The status reader's side of a cancel ({@link CancelDecisions}): whether the job already finished,
 * decided by the reader's {@link StatusPipeline} and held against what the reader reported ({@link
 * ReportedFloor}); what a confirmed cancel leaves the reader to report; the end mark's withdrawal
 * when the operator acted; dropping the reader's copy of a job. Thread safe.
 */
final class CancelDecider implements CancelDecisions {
  private final KubeJobsContext<?> ctx;
  private final StatusPipeline pipeline;
  private final StatusCache cache;
  private final ReportedStatuses reported;
  private final WatchSource watch;
  private final ReportedFloor floor;

  /** The decisions of one reader; {@code watch} is null when the reader polls. */
  CancelDecider(
      KubeJobsContext<?> ctx,
      StatusPipeline pipeline,
      StatusCache cache,
      ReportedStatuses reported,
      WatchSource watch,
      ReportedFloor floor) {
    this.ctx = ctx;
    this.pipeline = pipeline;
    this.cache = cache;
    this.reported = reported;
    this.watch = watch;
    this.floor = floor;
  }

  @Override
  public Optional<JobExecutionInfo> reportedTerminal(ExecutionId id) {
    return reported.terminal(id);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The same pipeline as {@link StatusOperation#get(ExecutionId)}, for {@link Purpose#CANCEL}.
   */
  @Override
  public JobExecutionInfo decideForCancel(ExecutionId id, ResourceSnapshot fresh) {
    Optional<JobExecutionInfo> done = reported.terminal(id);
    if (done.isPresent()) {
      return done.get();
    }
    JobExecutionInfo info =
        pipeline.decide(id, fresh, pipeline.mapAlone(id, fresh), null, Purpose.CANCEL).info();
    if (!info.status().isTerminal()) {
      return info;
    }
    return floor.floor(id, info, fresh.uid(), null);
  }

  @Override
  public void cancelledHere(ExecutionId id, String uid, JobExecutionInfo before) {
    reported.cancelledHere(
        id,
        uid,
        before.toBuilder()
            .status(dev.kubejobs.core.JobStatus.CANCELLED)
            .message(
                "cancelled by this kubejobs instance: its cancel mark landed and its delete was"
                    + " confirmed")
            .finishedAt(ctx.clock().instant())
            .build());
  }

  @Override
  public EndMarkCheck withdrawEndMarkIfTheOperatorActed(ExecutionId id, ResourceSnapshot app) {
    if (app.isBeingDeleted() || !pipeline.operatorActed(id, app)) {
      return new EndMarkCheck.Stands();
    }
    return pipeline
        .withdrawEndMark(id, app)
        .<EndMarkCheck>map(EndMarkCheck.Withdrawn::new)
        .orElseGet(EndMarkCheck.Changed::new);
  }

  @Override
  public void forget(ExecutionId id) {
    cache.forget(id);
    if (watch != null) {
      watch.forget(id);
    }
  }
}
