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

import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.cancel.JobCanceller;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.spi.CancelMark;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels jobs: fresh read; not managed by kubejobs → {@link JobConflictException}; finished (by
 * the status reader's full mapping, driver pod included) → no-op; being deleted → done; otherwise
 * put the cancel mark (writer token, resourceVersion and state of the copy) with a
 * resourceVersion-locked merge patch (409 → read and decide again) and delete locked to the marked
 * copy's uid and resourceVersion (409 → read and decide again). A delete whose answer was lost is
 * confirmed by a read (being deleted or gone → done, the mark stays); a delete that truly failed
 * removes the mark again, only while the resource is not being deleted. A job whose driver exited
 * after the mark has the mark withdrawn before the cancel answers {@link
 * CancelResult#ALREADY_FINISHED}; a read that finds it so does the same, so a delete on its way
 * meets 409 instead of deleting a job reported finished. A copy carrying an {@link EndMark} (a
 * status read ended the job, for example at the no-status timeout) is finished while the operator
 * has not acted since: the cancel marks and deletes nothing; once the operator wrote a status after
 * it, the mark is withdrawn (locked) and the cancel goes on, and its mark patch, locked to an older
 * copy, meets 409 against an end mark put meanwhile. Not a published API; thread safe.
 *
 * @param <S> the job spec type
 */
public final class CancelOperation<S> implements JobCanceller {
  private static final Logger LOG = LoggerFactory.getLogger(CancelOperation.class);

  /** How many times a cancel reads and decides again after its mark lost a 409 race. */
  static final int MAX_ROUNDS = 5;

  private final KubeJobsContext<S> ctx;
  private final KubeGateway gateway;
  private final ResourceKind resourceKind;
  private final CancelDecisions status;
  private final OutcomeRecord record;

  /**
   * Creates the operation.
   *
   * @param ctx the shared context
   * @param status the status reader, whose pipeline decides "finished" and whose copies are dropped
   */
  public CancelOperation(KubeJobsContext<S> ctx, CancelDecisions status) {
    this.ctx = ctx;
    this.gateway = ctx.gateway();
    this.resourceKind = ctx.jobKind().resourceKind();
    this.status = status;
    this.record = new OutcomeRecord(ctx);
  }

  @Override
  public CancelResult cancel(ExecutionId id) {
    ctx.check(id);
    if (status.reportedTerminal(id).isPresent()) {
      LOG.debug("Job '{}' was already reported finished; cancel is a no-op", id);
      return CancelResult.ALREADY_FINISHED;
    }
    // This cancel's writer token; a patch whose answer was lost may have put it in an earlier
    // round.
    String token = ctx.writer().next();
    String uid = null;
    ApiUnavailableException markUnanswered = null;
    for (int round = 1; round <= MAX_ROUNDS; round++) {
      ResourceSnapshot app;
      try {
        app = read(id).orElseThrow(() -> gone(id));
      } catch (ApiUnavailableException e) {
        if (markUnanswered == null) {
          throw e;
        }
        // Our mark may be on the resource, with no delete to follow it: keep reading while rounds
        // are left, since only a read tells whether the mark landed, was refused because the job
        // was gone, or lost to a change.
        markUnanswered.addSuppressed(e);
        continue;
      }
      if (uid != null && !uid.equals(app.uid())) {
        // Replaced by another resource of that name since the first read: the job's own is gone.
        LOG.debug("Job '{}' was replaced while being cancelled; its resource is gone", id);
        status.forget(id);
        return CancelResult.REQUESTED;
      }
      uid = app.uid();
      requireManaged(id, app);
      if (app.isBeingDeleted()) {
        if (app.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).isEmpty()) {
          // Deleted without a cancel mark (the no-status timeout, or someone else): that deletion
          // ends the job as the status reader says (FAILED), and no cancel of ours is under way.
          JobExecutionInfo ending = status.decideForCancel(id, app);
          if (ending.status().isTerminal()) {
            LOG.debug("Job '{}' is being deleted unmarked, ending {}", id, ending.status());
            return CancelResult.ALREADY_FINISHED;
          }
        }
        LOG.debug("Job '{}' is already being deleted; nothing to cancel", id);
        return CancelResult.ALREADY_DELETING;
      }
      Optional<EndMark> ended = EndMark.of(app);
      if (ended.isPresent()) {
        // What the operator did wins: an end mark whose delete never came gives way to a status
        // the operator wrote after it, and the job is the operator's to run and to cancel.
        CancelDecisions.EndMarkCheck check = status.withdrawEndMarkIfTheOperatorActed(id, app);
        if (check instanceof CancelDecisions.EndMarkCheck.Changed) {
          LOG.debug("Job '{}' changed before its end mark was withdrawn; reading again", id);
          continue;
        }
        if (check instanceof CancelDecisions.EndMarkCheck.Withdrawn withdrawn) {
          app = withdrawn.unmarked();
          ended = Optional.empty();
        }
      }
      if (ended.isPresent()) {
        // A status read ended the job before this cancel (the no-status timeout): its end mark
        // decided the outcome, and its delete, or the next read's, removes the resource. Not
        // cancelled: a cancel mark here would claim a job that another outcome ended.
        LOG.debug("Job '{}' carries an end mark ({}); cancel is a no-op", id, ended.get().status());
        return CancelResult.ALREADY_FINISHED;
      }
      // The same full mapping as the status reader, on a copy read after the cancel was asked.
      JobExecutionInfo info = status.decideForCancel(id, app);
      if (info.status().isTerminal()) {
        LOG.debug("Job '{}' already finished as {}; cancel is a no-op", id, info.status());
        return CancelResult.ALREADY_FINISHED;
      }
      String existingMark = app.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).orElse(null);
      // A mark put by another cancel in flight is left to it; our own (lost answer) is ours.
      boolean markedNow =
          CancelMark.parse(existingMark).map(m -> m.writer().equals(token)).orElse(false);
      ResourceSnapshot marked = app;
      if (existingMark == null) {
        CancelMark mark =
            new CancelMark(
                ctx.clock().instant(), token, app.resourceVersion(), info.operatorState());
        try {
          marked = gateway.mergePatch(id, resourceKind, id.namespace(), id.name(), mark(app, mark));
          markedNow = true;
        } catch (ApiStatusException e) {
          if (e.isConflict()) {
            // Changed since the read (it may just have finished): read and decide again.
            LOG.debug(
                "Job '{}' changed before the cancel mark (round {}); reading again", id, round);
            continue;
          }
          if (e.isNotFound()) {
            throw gone(id);
          }
          throw e;
        } catch (ApiUnavailableException e) {
          if (!e.mayHaveBeenApplied()) {
            throw e;
          }
          // The mark may have landed with its answer lost: read again; a copy carrying this
          // cancel's token is ours to delete, one without it is marked again.
          LOG.debug("Job '{}': no answer to the cancel mark (round {}); reading again", id, round);
          markUnanswered =
              new ApiUnavailableException(
                  id,
                  "cancel of job "
                      + id
                      + " is unconfirmed: its cancel mark got no answer and the job could not be"
                      + " read again; the mark may stay without a delete, cancel again to finish ("
                      + e.getMessage()
                      + ")",
                  true,
                  e);
          continue;
        }
      }
      if (markedNow) {
        // A decision that read the driver pod is not covered by the lock on the application's
        // resourceVersion: a driver that exited between that read and the mark ended the job
        // before the cancel took effect. Decide again on the marked copy, with a fresh look at
        // the pod when the mapper asks for one (no request otherwise); nothing is deleted yet. A
        // job the pod shows finished has the mark withdrawn by the pipeline before it says so.
        JobExecutionInfo after = status.decideForCancel(id, marked);
        if (after.status().isTerminal()) {
          LOG.debug("Job '{}' finished as {} before its cancel mark", id, after.status());
          return CancelResult.ALREADY_FINISHED;
        }
      }
      Optional<CancelResult> result = delete(id, marked, markedNow);
      if (result.isPresent() && markedNow) {
        // This instance's mark landed and its delete is confirmed: it knows how the job ended,
        // whatever it reads later (the resource may be gone before the next poll).
        status.cancelledHere(id, marked.uid(), info);
      }
      if (result.isPresent()) {
        return result.get();
      }
      LOG.debug("Job '{}' changed after the cancel mark (round {}); deciding again", id, round);
    }
    if (markUnanswered != null) {
      throw markUnanswered;
    }
    throw new ApiUnavailableException(
        id,
        "cancel of job "
            + id
            + " gave up: its resource changed under each of "
            + MAX_ROUNDS
            + " attempts to mark and delete it; cancel again",
        false,
        null);
  }

  /** Cancel, like the sweep, touches only what kubejobs manages. */
  private static void requireManaged(ExecutionId id, ResourceSnapshot app) {
    if (!JobIdentity.MANAGED_BY_VALUE.equals(
        app.label(JobIdentity.LABEL_MANAGED_BY).orElse(null))) {
      throw new JobConflictException(
          id,
          JobConflictException.Reason.NOT_MANAGED,
          "cannot cancel "
              + id
              + ": the resource is not managed by kubejobs (it lacks the label "
              + JobIdentity.LABEL_MANAGED_BY
              + "="
              + JobIdentity.MANAGED_BY_VALUE
              + "), and kubejobs never changes or deletes what it does not manage; check the"
              + " execution id, or delete the resource yourself",
          null);
    }
  }

  /**
   * Deletes the job's resource, locked to the marked copy (uid and resourceVersion), so an outcome
   * the operator wrote after the mark is never deleted.
   *
   * @return the result, or empty when the resource changed since the marked copy (409): decide
   *     again
   */
  private Optional<CancelResult> delete(
      ExecutionId id, ResourceSnapshot marked, boolean markedNow) {
    String mark = marked.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).orElse(null);
    if (mark != null) {
      // The record first: a delete whose answers are all lost still reads CANCELLED on every node.
      record.ending(id, marked, mark, JobStatus.CANCELLED, "cancel requested");
    }
    try {
      gateway.delete(
          id, resourceKind, id.namespace(), id.name(), marked.uid(), marked.resourceVersion());
      // ACCEPTED, or GONE: a retried delete whose first answer was lost finds it gone.
      status.forget(id);
      LOG.info("Requested to cancel job '{}'", id);
      return Optional.of(CancelResult.REQUESTED);
    } catch (ApiStatusException e) {
      if (e.isConflict()) {
        // Changed since the marked copy (an outcome written after the mark, a retried delete that
        // was applied, another node's write) or replaced: read again and decide again. This
        // delete did not land (unless a read shows it being deleted: a retry of a delete that
        // landed meets 409 too), so its record is withdrawn.
        record.withdrawnAfterConflict(id, marked, mark);
        return Optional.empty();
      }
      throw failed(id, marked, markedNow, e);
    } catch (ApiUnavailableException e) {
      // The delete may have been applied with its answer lost: read again before undoing.
      Optional<ResourceSnapshot> now;
      try {
        now = readAgain(id, e);
      } catch (KubeJobsException readFailure) {
        e.addSuppressed(readFailure);
        throw new ApiUnavailableException(
            id,
            "cancel of job "
                + id
                + " is unconfirmed: the delete got no answer and the job could not be read"
                + " again; its cancel mark may stay, cancel again to finish ("
                + e.getMessage()
                + ")",
            true,
            e);
      }
      if (now.isEmpty() || now.get().isBeingDeleted() || !now.get().uid().equals(marked.uid())) {
        LOG.debug("Delete of '{}' was applied although its answer was lost", id);
        status.forget(id);
        return Optional.of(CancelResult.REQUESTED);
      }
      if (!now.get().resourceVersion().equals(marked.resourceVersion())) {
        // Not deleted, and changed since the mark: decide again on the new copy. A delete locked
        // to the marked copy can no longer land.
        record.withdrawn(id, marked, mark, marked.resourceVersion());
        return Optional.empty();
      }
      // Read back unchanged and not being deleted: the delete was not applied. The mark is
      // removed, so nothing this cancel sent stays applied: a scheduler must not take it as its
      // own cancel of the job.
      throw failed(
          id,
          now.get(),
          markedNow,
          new ApiUnavailableException(
              id,
              "cancel of job "
                  + id
                  + " failed: the delete got no answer and the job was read back unchanged (not"
                  + " deleted, still running); its cancel mark is removed, cancel again later ("
                  + e.getMessage()
                  + ")",
              false,
              e));
    } catch (KubeJobsException e) {
      throw failed(id, marked, markedNow, e);
    }
  }

  /** The delete truly failed: remove the mark this cancel put, unless it is being deleted. */
  private KubeJobsException failed(
      ExecutionId id, ResourceSnapshot current, boolean markedNow, KubeJobsException failure) {
    if (!markedNow) {
      return failure;
    }
    ResourceSnapshot snapshot = current;
    for (int attempt = 0; attempt < MAX_ROUNDS && snapshot != null; attempt++) {
      if (snapshot.isBeingDeleted()
          || snapshot.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).isEmpty()) {
        return failure;
      }
      try {
        gateway.mergePatch(id, resourceKind, id.namespace(), id.name(), unmark(snapshot));
        LOG.debug("Removed the cancel mark of '{}' after the delete failed", id);
        record.withdrawn(
            id,
            snapshot,
            snapshot.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).orElse(null),
            OutcomeRecord.ANY);
        return failure;
      } catch (ApiStatusException e) {
        if (!e.isConflict()) {
          return stillMarked(id, failure, e);
        }
        try {
          snapshot = read(id).orElse(null);
        } catch (KubeJobsException readFailure) {
          return stillMarked(id, failure, readFailure);
        }
      } catch (KubeJobsException e) {
        return stillMarked(id, failure, e);
      }
    }
    return failure;
  }

  /**
   * The mark could not be removed after the delete failed: it stays on the resource, so an
   * unavailable API server's exception must not say that nothing was applied.
   */
  private static KubeJobsException stillMarked(
      ExecutionId id, KubeJobsException failure, KubeJobsException unmarkFailure) {
    failure.addSuppressed(unmarkFailure);
    if (failure instanceof ApiUnavailableException unavailable
        && !unavailable.mayHaveBeenApplied()) {
      ApiUnavailableException marked =
          new ApiUnavailableException(
              id,
              unavailable.getMessage()
                  + "; its cancel mark could not be removed and stays on the job, which reads"
                  + " CANCELLING until it ends or is cancelled again",
              true,
              unavailable);
      return marked;
    }
    return failure;
  }

  /**
   * Reads the job after a request got no answer, trying a second time (each read has its own
   * retries) before giving up: only a read tells whether the request was applied.
   */
  private Optional<ResourceSnapshot> readAgain(ExecutionId id, ApiUnavailableException unanswered) {
    try {
      return read(id);
    } catch (ApiUnavailableException first) {
      unanswered.addSuppressed(first);
      return read(id);
    }
  }

  private Optional<ResourceSnapshot> read(ExecutionId id) {
    return gateway.get(id, resourceKind, id.namespace(), id.name());
  }

  private static JsonObject mark(ResourceSnapshot app, CancelMark mark) {
    return AnnotationPatch.put(
        app.resourceVersion(), JobIdentity.ANNOTATION_CANCEL_REQUESTED, mark.toString());
  }

  private static JsonObject unmark(ResourceSnapshot app) {
    return AnnotationPatch.remove(app.resourceVersion(), JobIdentity.ANNOTATION_CANCEL_REQUESTED);
  }

  private static NoSuchJobException gone(ExecutionId id) {
    return new NoSuchJobException(
        id, "the resource of job " + id + " does not exist (confirmed by a fresh read)", null);
  }
}
