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
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.internal.kube.HeldCopy;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job as a listing (the {@link StatusCache}'s or a {@link WatchSource}'s) holds it: the memo of
 * its copy, that is its uid, its resourceVersion and the mapping made from it, and the copy itself
 * only while a driver pod, a follow-up or a time-dependent answer still needs it.
 *
 * <p>Not a published API; thread safe.
 */
final class JobMemo implements HeldCopy {
  private static final Logger LOG = LoggerFactory.getLogger(JobMemo.class);

  private final String uid;
  private final String resourceVersion;
  private volatile ResourceSnapshot app;

  /**
   * The mapping of the copy alone: a {@link MappingDecision} kept for the copy's life, or a {@link
   * Timed} one (QUEUED, CANCELLING) that holds only for the questions asked before it was made;
   * null before the first.
   */
  private volatile Object alone;

  /**
   * A mapping that may change with time alone, and the tick it was made at: a question asked before
   * (or at) that tick finds it as fresh as if mapped for it; a later question maps again.
   */
  private record Timed(MappingDecision decision, long tick) {}

  JobMemo(ResourceSnapshot app) {
    this.app = app;
    this.uid = app.uid();
    this.resourceVersion = app.resourceVersion();
  }

  /** The uid of the copy. */
  @Override
  public String uid() {
    return uid;
  }

  /** The resourceVersion of the copy, which the API server changes on every write to it. */
  @Override
  public String resourceVersion() {
    return resourceVersion;
  }

  /**
   * The mapping of the copy without its driver pod for a question asked at tick {@code asked}, made
   * once and shared by concurrent callers; afterwards the copy itself is dropped unless a driver
   * pod or a follow-up still needs it. A QUEUED or CANCELLING mapping, the answers a mapper may
   * change with time alone (see {@link dev.kubejobs.core.spi.JobStatusMapper}), serves only the
   * questions asked before it was made, so it is made again for a later question, once: a read maps
   * a copy alone at most once, and with its driver pod at most once more.
   *
   * @param asked the question's tick (or, mapping ahead, the tick the copy arrived at)
   */
  MappingDecision alone(ExecutionId id, StatusPipeline pipeline, long asked) {
    MappingDecision decision = servedFor(alone, asked);
    if (decision != null) {
      return decision;
    }
    synchronized (this) {
      decision = servedFor(alone, asked);
      if (decision != null) {
        return decision;
      }
      MappingDecision mapped = pipeline.mapAlone(id, app);
      if (mayChangeWithTime(mapped.info())) {
        alone = new Timed(mapped, asked);
        return mapped;
      }
      alone = mapped;
      if (mapped instanceof MappingDecision.Report
          && mapped.info().status() != JobStatus.FAILED
          && app.annotation(dev.kubejobs.core.JobIdentity.ANNOTATION_ENDED).isEmpty()
          && !(mapped.info().status() == JobStatus.STARTED && pipeline.executorsWaiting(app))) {
        // A failure keeps its copy for its diagnosis, made as it is first reported; so does a
        // started job whose operator shows waiting executors, and a copy carrying an end mark
        // the operator's status makes the reader withdraw.
        app = null;
      }
      return mapped;
    }
  }

  /** The memo's decision if it serves a question asked at {@code asked}, else null. */
  private static MappingDecision servedFor(Object memo, long asked) {
    if (memo instanceof Timed timed) {
      return timed.tick() >= asked ? timed.decision() : null;
    }
    return (MappingDecision) memo;
  }

  /**
   * Maps the copy ahead of the read that will ask for it, as it arrives (from a list page or a
   * watch event). A mapping that fails is made again by that read, which reports the failure.
   *
   * @param tick when the copy arrived (the list's tick, or a tick taken as the event arrived): a
   *     question asked before it uses this mapping, even a QUEUED or CANCELLING one
   * @param when how the copy arrived, for the log
   */
  void mapAhead(ExecutionId id, StatusPipeline pipeline, long tick, String when) {
    try {
      alone(id, pipeline, tick);
    } catch (KubeJobsException e) {
      LOG.debug("Job '{}' could not be mapped as {}: {}", id, when, e.getMessage());
    }
  }

  private static boolean mayChangeWithTime(JobExecutionInfo info) {
    return info.status() == JobStatus.QUEUED || info.status() == JobStatus.CANCELLING;
  }

  /** The copy if it is still held, else null. */
  ResourceSnapshot keptCopy() {
    return app;
  }
}
