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
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.internal.kube.DeleteResult;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.internal.kube.Permission;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the follow-up a mapping asked for ({@link
 * dev.kubejobs.core.spi.MappingDecision.ReportAfter}) on the copy it was decided on, and says what
 * to report: the outcome once the action is confirmed, the waiting status with the reason while a
 * refusal keeps it from being confirmed, or that the copy changed before the delete (409) and the
 * job must be decided again. It never reads or maps the job again itself: that is the {@link
 * StatusPipeline}'s.
 *
 * <p>A delete of the application that is not a cancel's (the copy carries no cancel mark) first
 * puts an {@link EndMark} with a merge patch locked to the copy's resourceVersion, then deletes
 * locked to the uid and resourceVersion of the marked copy: a change since, such as the operator's
 * first status, makes the delete meet 409, and what the operator did wins (the mark is then
 * withdrawn, {@link #withdrawEndMark}). The kube-apiserver answers both with 409 when the resource
 * changed since (the patch) or was replaced (the delete): a PATCH whose {@code
 * metadata.resourceVersion} is stale fails in {@code Store.Update} ({@code
 * staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go}: "the object has been
 * modified"), and a DELETE whose preconditions do not match fails in {@code rest.BeforeDelete}
 * ({@code staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go}); the testkit's {@code
 * DeleteTest} and {@code ConformanceTest} hold the fake to both. So the end mark and a cancel mark
 * exclude each other, and the mark decides the outcome for every instance until the operator acts.
 * FAILED is reported only on a delete seen confirmed: a delete whose answer was lost, then the job
 * found gone, is gone (the operator may have acted after the mark, and another node withdrawn it
 * and cancelled the job). Not a published API; thread safe.
 */
final class FollowUpExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(FollowUpExecutor.class);

  private final KubeJobsContext<?> ctx;
  private final KubeGateway gateway;
  private final ResourceKind resourceKind;
  private final DriverPodLocator locator;
  private final OutcomeRecord record;

  FollowUpExecutor(KubeJobsContext<?> ctx, DriverPodLocator locator) {
    this.ctx = ctx;
    this.gateway = ctx.gateway();
    this.resourceKind = ctx.jobKind().resourceKind();
    this.locator = locator;
    this.record = new OutcomeRecord(ctx);
  }

  /** What carrying out a follow-up came to. */
  sealed interface Outcome permits Outcome.Report, Outcome.CopyChanged {
    /** Report this info. */
    record Report(JobExecutionInfo info) implements Outcome {}

    /** The copy changed before the delete (409): read the job again and decide again. */
    record CopyChanged() implements Outcome {}
  }

  /**
   * Carries out {@code followUp} for a job decided on {@code app} (and {@code pod}, as the mapping
   * saw it).
   *
   * @param waiting the status the job keeps until the follow-up is confirmed
   */
  Outcome carryOut(
      ExecutionId id,
      ResourceSnapshot app,
      DriverPod pod,
      FollowUp followUp,
      JobExecutionInfo waiting) {
    DriverPod driver = pod;
    if (followUp.action() == FollowUp.Action.DELETE_DRIVER_POD
        && driver.lookup() == DriverPod.Lookup.NOT_LOOKED_UP) {
      driver = locator.locate(id, app);
    }
    if (driver.lookup() == DriverPod.Lookup.UNAVAILABLE
        && followUp.action() == FollowUp.Action.DELETE_DRIVER_POD) {
      // The pod cannot be read, so it cannot be deleted either: as a refused delete (rule 6).
      return new Outcome.Report(
          outcomeWithoutDriverPodDelete(id, waiting, followUp, driver.reason()));
    }
    Optional<EndMark> ended = Optional.empty();
    // The verb of the request under way, which a refusal names: the end mark's patch, else a
    // delete.
    String verb = "delete";
    try {
      boolean done;
      if (followUp.action() == FollowUp.Action.DELETE_DRIVER_POD) {
        done = deleteDriverPod(id, driver);
      } else if (app.isBeingDeleted()
          || app.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).isPresent()) {
        done = deleteMarked(id, app);
      } else {
        verb = "patch";
        Optional<ResourceSnapshot> marked = endMark(id, app, followUp, waiting);
        ended = marked.flatMap(EndMark::of);
        verb = "delete";
        done = marked.isPresent() && deleteEnded(id, marked.get(), ended.get());
      }
      if (!done) {
        return new Outcome.CopyChanged();
      }
    } catch (JobRejectedException e) {
      if (followUp.action() == FollowUp.Action.DELETE_DRIVER_POD
          && e.reason() == JobRejectedException.Reason.FORBIDDEN
          && e.code() == 403) {
        // A permanent refusal must not keep a finished job unfinished (DESIGN rule 6): report the
        // outcome and tell the operator, once, which permission would clean the pod up.
        return new Outcome.Report(
            outcomeWithoutDriverPodDelete(
                id, waiting, followUp, missingPermission(id, followUp, verb, e)));
      }
      // For example no permission to delete the resource: no outcome until the delete is
      // confirmed, or the operator could still run the job (DESIGN rule 1).
      ctx.warnings()
          .warn(
              LOG,
              "job '"
                  + id
                  + "' stays "
                  + waiting.status()
                  + " until "
                  + describe(followUp)
                  + " succeeds: "
                  + e.getMessage());
      return new Outcome.Report(
          waiting.toBuilder()
              .message(
                  (waiting.message().isEmpty() ? "" : waiting.message() + "; ")
                      + "waiting to "
                      + describe(followUp)
                      + " before reporting "
                      + followUp.outcome()
                      + (e.reason() == JobRejectedException.Reason.FORBIDDEN
                          ? " (" + missingPermission(id, followUp, verb, e) + ")"
                          : ""))
              .build());
    }
    JobStatus outcome = followUp.outcome();
    String message = followUp.message();
    if (followUp.action() == FollowUp.Action.DELETE_APPLICATION
        && app.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).isPresent()) {
      // The copy deleted carried a cancel mark: the job was being cancelled, and the node that
      // marked it reports it cancelled; every node must agree.
      outcome = JobStatus.CANCELLED;
      message = "cancelled by kubejobs before the operator wrote a status";
    }
    if (ended.isPresent()) {
      LOG.debug("Job '{}': end mark and delete confirmed, reporting {}", id, ended.get().status());
      return new Outcome.Report(ended.get().outcome(waiting));
    }
    LOG.debug("Job '{}': {} confirmed, reporting {}", id, describe(followUp), outcome);
    return new Outcome.Report(
        waiting.toBuilder()
            .status(outcome)
            .message(message)
            .finishedAt(waiting.finishedAt().orElse(ctx.clock().instant()))
            .build());
  }

  private JobExecutionInfo outcomeWithoutDriverPodDelete(
      ExecutionId id, JobExecutionInfo info, FollowUp followUp, String missing) {
    ctx.warnings()
        .warn(
            LOG,
            "cannot delete the still running driver pods of failed jobs: "
                + missing
                + "; such jobs are reported "
                + followUp.outcome()
                + " while their driver pod may keep running. Grant it (see docs/rbac.yaml)");
    LOG.debug("Job '{}': reporting {} without deleting its driver pod", id, followUp.outcome());
    return info.toBuilder()
        .status(followUp.outcome())
        .message(
            (info.message().isEmpty() ? "" : info.message() + "; ")
                + "its driver pod may still run and could not be deleted ("
                + missing
                + ")")
        .finishedAt(info.finishedAt().orElse(ctx.clock().instant()))
        .build();
  }

  /**
   * What a forbidden follow-up lacks, from what the refusal carries (its code) and what was sent
   * (the end mark's patch or the follow-up's delete, {@code verb}): never from the server's text.
   */
  private String missingPermission(
      ExecutionId id, FollowUp followUp, String verb, JobRejectedException e) {
    String what =
        followUp.action() == FollowUp.Action.DELETE_DRIVER_POD
            ? "pods"
            : resourceKind.qualifiedPlural();
    return new Permission(verb, what, id.namespace()).refusal(e.code());
  }

  /**
   * The copy carrying the end mark: the copy itself when it has one, else the answer of the merge
   * patch that puts this reader's, locked to the copy's resourceVersion.
   *
   * @return the marked copy, or empty when the copy changed before the patch (409): decide again
   * @throws NoSuchJobException if the resource is gone before the mark
   * @throws dev.kubejobs.core.ApiUnavailableException if the patch got no answer: the mark may have
   *     landed, which the next read shows
   */
  private Optional<ResourceSnapshot> endMark(
      ExecutionId id, ResourceSnapshot app, FollowUp followUp, JobExecutionInfo waiting) {
    if (EndMark.of(app).isPresent()) {
      return Optional.of(app);
    }
    EndMark mine =
        new EndMark(
            ctx.clock().instant(), ctx.writer().next(), followUp.outcome(), followUp.message());
    ResourceSnapshot marked;
    try {
      marked =
          gateway.mergePatch(
              id, resourceKind, id.namespace(), id.name(), mine.patch(app.resourceVersion()));
    } catch (ApiStatusException e) {
      if (e.isConflict()) {
        // Changed since the copy: a cancel mark, the operator's first status, another reader's
        // end mark. Read again and decide again.
        return Optional.empty();
      }
      if (e.isNotFound()) {
        throw new NoSuchJobException(
            id,
            "the resource of job " + id + " disappeared before kubejobs could end the job",
            null);
      }
      throw e;
    }
    LOG.debug("Job '{}': end mark put ({})", id, mine.status());
    if (EndMark.of(marked).isEmpty()) {
      // An answer without the mark it put (a server that does not echo annotations): decide on
      // the next read, which shows the mark.
      return Optional.empty();
    }
    return Optional.of(marked);
  }

  /**
   * Withdraws the end mark from a copy the operator wrote a status to after the mark, with a merge
   * patch locked to the copy's resourceVersion: what the operator did wins over kubejobs' own
   * decision, and the mark's delete, locked to the marked copy, can no longer land.
   *
   * @return the copy without the mark, or empty when the copy changed before the patch (409):
   *     decide again
   * @throws NoSuchJobException if the resource is gone before the patch
   */
  Optional<ResourceSnapshot> withdrawEndMark(ExecutionId id, ResourceSnapshot app) {
    Optional<ResourceSnapshot> unmarked = withdraw(id, app, JobIdentity.ANNOTATION_ENDED);
    if (unmarked.isPresent()) {
      LOG.info(
          "Job '{}': the operator wrote a status after kubejobs' end mark, whose delete had not"
              + " been confirmed; end mark withdrawn, the operator's outcome stands",
          id);
    }
    return unmarked;
  }

  /**
   * Withdraws the cancel mark from a copy whose job the driver pod shows ended, with a merge patch
   * locked to the copy's resourceVersion, before that end is reported. A cancel's delete is locked
   * to the resourceVersion of the copy it marked, and a driver that exits changes its pod, not the
   * application: without this write, a cancel whose delete is on its way when the driver exits
   * deletes a job that a read had already reported finished (and another node, finding it deleted
   * after a cancel, says CANCELLED). With it, the two writes exclude each other: the mark's removal
   * first makes the delete meet 409 (the cancel reads again and finds the job finished), the delete
   * first makes this patch meet 409 (the read decides again on the copy being deleted, as every
   * other reader of that copy does). A cancel that finds the job so after marking it goes through
   * this same step.
   *
   * @return the copy without the mark, or empty when the copy changed before the patch (409):
   *     decide again
   * @throws NoSuchJobException if the resource is gone before the patch
   */
  Optional<ResourceSnapshot> withdrawCancelMark(ExecutionId id, ResourceSnapshot app) {
    // Empty on 409: changed since the copy (the cancel's delete, or another reader's withdrawal).
    Optional<ResourceSnapshot> unmarked =
        withdraw(id, app, JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    if (unmarked.isPresent()) {
      LOG.debug("Job '{}' ended before its cancel took effect; cancel mark withdrawn", id);
    }
    return unmarked;
  }

  /**
   * Removes one of kubejobs' marks with a merge patch locked to the copy's resourceVersion.
   *
   * @return the copy without the mark, or empty when the copy changed before the patch (409)
   * @throws NoSuchJobException if the resource is gone before the patch
   */
  private Optional<ResourceSnapshot> withdraw(
      ExecutionId id, ResourceSnapshot app, String annotation) {
    try {
      ResourceSnapshot unmarked =
          gateway.mergePatch(
              id,
              resourceKind,
              id.namespace(),
              id.name(),
              AnnotationPatch.remove(app.resourceVersion(), annotation));
      // The patch, locked to the copy, landed: no delete locked to a marked copy can land any more,
      // so no record of one (this node's or another's) ended the job.
      record.withdrawn(id, app, app.annotation(annotation).orElse(null), OutcomeRecord.ANY);
      return Optional.of(unmarked);
    } catch (ApiStatusException e) {
      if (e.isConflict()) {
        return Optional.empty();
      }
      if (e.isNotFound()) {
        throw new NoSuchJobException(
            id, "the resource of job " + id + " disappeared before kubejobs could read it", null);
      }
      throw e;
    }
  }

  /**
   * Deletes an end-marked job's resource, locked to the uid and resourceVersion of the marked copy:
   * a copy the operator changed since (its first status) is not deleted (409), so the operator's
   * outcome can win.
   *
   * @return true when deleted or gone since the mark (the deletion the mark announced); false on
   *     409 (changed since the mark, or replaced): read again and decide again
   */
  private boolean deleteEnded(ExecutionId id, ResourceSnapshot marked, EndMark mark) {
    String markValue = marked.annotation(JobIdentity.ANNOTATION_ENDED).orElse(mark.toString());
    // The record first: a delete whose answers are all lost still ends the job on every node.
    record.ending(id, marked, markValue, mark.status(), mark.message());
    try {
      DeleteResult result =
          gateway.delete(
              id, resourceKind, id.namespace(), id.name(), marked.uid(), marked.resourceVersion());
      if (result == DeleteResult.GONE) {
        // A retried delete whose first answer was lost, or another reader's delete.
        LOG.debug("Job '{}' was gone after its end mark; {} holds", id, mark.status());
      }
    } catch (ApiStatusException e) {
      if (!e.isConflict()) {
        throw e;
      }
      LOG.debug("Job '{}': the delete after its end mark met 409; reading again", id);
      record.withdrawnAfterConflict(id, marked, markValue);
      return false;
    }
    return true;
  }

  /**
   * Deletes the job's resource, locked to the copy the decision was made on: a copy carrying a
   * cancel mark (the cancel's delete never came) or one already being deleted.
   *
   * @return true when deleted, false when the copy changed before the delete (409)
   */
  private boolean deleteMarked(ExecutionId id, ResourceSnapshot app) {
    if (app.isBeingDeleted()) {
      return true;
    }
    String cancelMark = app.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).orElse(null);
    if (cancelMark != null) {
      record.ending(
          id,
          app,
          cancelMark,
          JobStatus.CANCELLED,
          "cancelled by kubejobs before the operator wrote a status");
    }
    DeleteResult result;
    try {
      result =
          gateway.delete(
              id, resourceKind, id.namespace(), id.name(), app.uid(), app.resourceVersion());
    } catch (ApiStatusException e) {
      if (!e.isConflict()) {
        throw e;
      }
      // Changed since the copy the decision was made on (the operator's first status write, a
      // cancel mark of another node) or replaced: read again and decide again.
      record.withdrawnAfterConflict(id, app, cancelMark);
      return false;
    }
    if (result == DeleteResult.GONE) {
      // Someone else deleted it between the fresh read and the delete (a cancel, most likely):
      // the job is gone, never report the outcome that was about to be decided.
      throw new NoSuchJobException(
          id, "the resource of job " + id + " disappeared before kubejobs could end the job", null);
    }
    return true;
  }

  /**
   * Deletes the live driver pod of an ended job, locked to the pod copy the mapping saw.
   *
   * @return true when deleted or gone, false when the pod changed before the delete (409)
   */
  private boolean deleteDriverPod(ExecutionId id, DriverPod pod) {
    Optional<ResourceSnapshot> found = pod.pod();
    if (found.isEmpty() || found.get().isBeingDeleted()) {
      return true;
    }
    try {
      gateway.deletePod(
          id, id.namespace(), found.get().name(), found.get().uid(), found.get().resourceVersion());
      LOG.info(
          "Deleted driver pod {} of job '{}', which still ran after the job ended",
          found.get().name(),
          id);
      return true;
    } catch (ApiStatusException e) {
      if (!e.isConflict()) {
        throw e;
      }
      // The pod changed since it was looked up (it may have just exited): decide again.
      return false;
    }
  }

  static String describe(FollowUp followUp) {
    return switch (followUp.action()) {
      case DELETE_APPLICATION -> "delete the job's resource";
      case DELETE_DRIVER_POD -> "delete the driver pod that still runs";
    };
  }
}
