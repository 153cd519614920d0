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

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatusUnknownException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.ops.DriverPodLocator.Located;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one status pipeline: decides one job's status from a copy of its resource, for every reader
 * of statuses ({@code get}, {@code getAll}, the watched reads and a cancel's "already finished?").
 * Where the copy comes from (a GET, a namespace's list, a watch) and whether it is fresh is the
 * caller's business; from the copy on, every status takes the same steps:
 *
 * <ol>
 *   <li>map the copy alone ({@link #mapAlone}; the caller may keep this per resourceVersion);
 *   <li>when the mapper answers {@link MappingDecision.NeedDriverPod}, take the driver pod from the
 *       {@link DriverPodLocator} (or the lookup the caller already made for several jobs at once)
 *       and map once more: the mapper runs at most twice per copy;
 *   <li>log the decision's warnings once each;
 *   <li>for {@link MappingDecision.ReportAfter}, have the {@link FollowUpExecutor} carry out the
 *       follow-up, unless the {@link Purpose} leaves it to its caller;
 *   <li>a job the driver pod shows ended, on a copy still carrying a cancel mark (the driver exited
 *       after the mark), has the mark withdrawn before the end is reported, so a cancel's delete on
 *       its way meets 409 instead of deleting a job reported finished;
 *   <li>when the copy changed before a write of steps 4 or 5, read the job again and start over (at
 *       most {@value #MAX_ROUNDS} rounds).
 * </ol>
 *
 * <p>The calls of one cold-cache polling {@code get} of a job whose mapper asks for its driver pod
 * run straight down: each call returns its result to its caller, and nothing below calls back into
 * the reader, the cache or a job kind's code. {@code StatusOperation.get} -> {@code
 * KubeJobsContext.check}, {@code StatusCache.ask}, {@code NamespaceRead.readNamespace} -> {@code
 * ReportedStatuses.seen}; {@code StatusCache.listing} -> {@code SingleFlight.join}, {@code
 * KubeGateway.listPages}, {@code ListConsumer.consume}, then per page {@code ListPages.next} ->
 * {@code KubeTransport.send} -> {@code ListPageParser.read} -> {@code FieldProjection.read}, which
 * returns the page's copies (and the names of the copies held unchanged, skipped unbuilt), after
 * which the consumer maps each copy of the page: {@code JobMemo.mapAhead} -> {@link #mapAlone} ->
 * {@code JobStatusMapper.map}, {@code EndMark.of}; {@code SingleFlight.landed}; {@code
 * Listing.copy} -> {@code JobMemo.alone} (the mapping made as the page arrived); {@code Copy.held};
 * {@link #decide} -> {@code DriverPodLocator.locate} -> {@code JobKind.driverPodName}, {@code
 * KubernetesNames.isDns1123Subdomain}, {@code KubeGateway.getPod}; {@code JobStatusMapper.map},
 * {@code EndMark.of}; {@code DiagnosisStep.wanted} -> {@code JobStatusMapper.executorsWaiting};
 * {@code ReportedFloor.floor} -> {@code ReportedStatuses.raise}; (back in {@code
 * StatusOperation.get}) {@code StatusCache.evictExpired} -> {@code ListEviction.evictExpired}. The
 * mapper runs twice: alone as the page arrived, and with the driver pod. No user code runs inside
 * the transport or its retry policy: a page read again after a failed attempt is parsed again, not
 * mapped again ({@code StraightDownTest} checks that the transport package names nothing of this
 * one).
 *
 * <p>Not a published API; thread safe.
 */
public final class StatusPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(StatusPipeline.class);

  /** How many times a status reads and decides again after its delete lost a 409 race. */
  static final int MAX_ROUNDS = 5;

  private static final String WITHDRAW = "withdraw the cancel mark of a job that ended";

  private static final String WITHDRAW_END_MARK =
      "withdraw the end mark of a job the operator acted on";

  /** Who asks for the decision, which decides whether a follow-up is carried out here. */
  enum Purpose {
    /** A status read: every follow-up is carried out before its outcome is reported. */
    READ,
    /**
     * A cancel deciding whether the job already finished: a delete of the application is left to
     * the cancel (the job is then cancelled, not failed); a live driver of a failed job is deleted.
     */
    CANCEL
  }

  private final KubeJobsContext<?> ctx;
  private final JobKind<?> kind;
  private final ResourceKind resourceKind;
  private final DriverPodLocator locator;
  private final FollowUpExecutor followUps;

  StatusPipeline(KubeJobsContext<?> ctx) {
    this.ctx = ctx;
    this.kind = ctx.jobKind();
    this.resourceKind = kind.resourceKind();
    this.locator = new DriverPodLocator(ctx);
    this.followUps = new FollowUpExecutor(ctx, locator);
  }

  /** The driver-pod locator, for callers that look up several jobs' pods at once. */
  DriverPodLocator locator() {
    return locator;
  }

  /** Reads a job's resource fresh; gone is {@link NoSuchJobException}. */
  ResourceSnapshot fresh(ExecutionId id) {
    return ctx.gateway()
        .get(id, resourceKind, id.namespace(), id.name())
        .orElseThrow(() -> gone(id));
  }

  static NoSuchJobException gone(ExecutionId id) {
    return new NoSuchJobException(
        id,
        "the resource of job "
            + id
            + " does not exist (confirmed by a fresh read): it was deleted, by a cancel"
            + " or by someone else",
        null);
  }

  /**
   * The answer for a copy of a resource this reader already reported gone: the copy is older than
   * the read that found the resource deleted (a watch event still on its way), so it stays gone.
   */
  static NoSuchJobException goneBefore(ExecutionId id) {
    return new NoSuchJobException(
        id,
        "the resource of job "
            + id
            + " does not exist: an earlier read confirmed it deleted, and the copy seen since is"
            + " older than that read",
        null);
  }

  /**
   * Step 1: maps a copy without its driver pod; what a cache keeps per resourceVersion.
   *
   * @throws JobStatusUnknownException if the mapper fails
   */
  MappingDecision mapAlone(ExecutionId id, ResourceSnapshot app) {
    return map(id, app, DriverPod.notLookedUp());
  }

  /**
   * Whether the job kind's mapper sees waiting or failed executors in a copy ({@link
   * dev.kubejobs.core.spi.JobStatusMapper#executorsWaiting}, {@link
   * dev.kubejobs.core.spi.JobStatusMapper#executorsFailed}): a cache then keeps the copy of a
   * STARTED job for its diagnosis. A mapper that fails here answers false.
   */
  boolean executorsWaiting(ResourceSnapshot app) {
    try {
      return app != null
          && (ctx.jobKind().statusMapper().executorsWaiting(app)
              || ctx.jobKind().statusMapper().executorsFailed(app));
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Decides a job's status from a copy, steps 2 to 4.
   *
   * @param app the copy; may be null when {@code alone} is a {@link MappingDecision.Report} (a
   *     cache drops the copy of those)
   * @param alone the copy's mapping without the driver pod, from {@link #mapAlone}
   * @param pod the driver pod when the caller already looked it up with other jobs' (or null:
   *     looked up here when the mapper asks)
   * @param purpose who asks
   * @return the status to report (before the reader's floor), with the copy and the driver pod it
   *     was decided on
   * @throws dev.kubejobs.core.KubeJobsException when a lookup, a follow-up or the mapper failed
   */
  Decided decide(
      ExecutionId id, ResourceSnapshot app, MappingDecision alone, Located pod, Purpose purpose) {
    ResourceSnapshot copy = app;
    MappingDecision decision = alone;
    for (int round = 1; ; round++) {
      Completed completed = withDriverPod(id, copy, decision, pod);
      decision = completed.decision();
      DriverPod driver = completed.pod();
      warn(id, decision, driver);
      JobExecutionInfo info = decision.info();
      String changedBefore = null;
      if (decision instanceof MappingDecision.ReportAfter after) {
        boolean deletesApplication =
            after.followUp().action() == FollowUp.Action.DELETE_APPLICATION;
        if (purpose == Purpose.CANCEL && deletesApplication) {
          return new Decided(after.info(), copy, driver);
        }
        FollowUpExecutor.Outcome outcome =
            followUps.carryOut(id, copy, driver, after.followUp(), after.info());
        changedBefore = FollowUpExecutor.describe(after.followUp());
        info = outcome instanceof FollowUpExecutor.Outcome.Report report ? report.info() : null;
        if (info != null && deletesApplication) {
          // The delete, locked to the copy, is what made the outcome: nothing can undo it.
          return new Decided(info, copy, driver);
        }
      }
      if (info != null && givesWayToTheOperator(copy, decision)) {
        // The operator wrote a status after kubejobs' end mark, whose delete was not confirmed:
        // what the operator did wins. Withdraw the mark (locked to this copy) and decide on the
        // copy without it.
        Optional<ResourceSnapshot> unmarked = followUps.withdrawEndMark(id, copy);
        if (unmarked.isPresent() && round < MAX_ROUNDS) {
          copy = unmarked.get();
          decision = mapAlone(id, copy);
          pod = null;
          continue;
        }
        info = null;
        changedBefore = WITHDRAW_END_MARK;
      }
      if (info != null) {
        if (!endsMarkedCopy(copy, driver, info)) {
          return new Decided(info, copy, driver);
        }
        Optional<ResourceSnapshot> unmarked = followUps.withdrawCancelMark(id, copy);
        if (unmarked.isPresent()) {
          return new Decided(info, unmarked.get(), driver);
        }
        changedBefore = WITHDRAW;
      }
      if (round >= MAX_ROUNDS) {
        throw new ApiUnavailableException(
            id,
            "the status of job "
                + id
                + " could not be decided: its resource or driver pod changed under each of "
                + MAX_ROUNDS
                + " attempts to "
                + changedBefore
                + "; read it again",
            false,
            null);
      }
      LOG.debug("Job '{}' changed before {} (round {}); deciding again", id, changedBefore, round);
      copy = fresh(id);
      decision = mapAlone(id, copy);
      pod = null;
    }
  }

  /**
   * Whether {@code info} ends a job, decided with the driver pod, from a copy that still carries a
   * cancel mark and is not being deleted: the mark must then be withdrawn before the end is
   * reported ({@link FollowUpExecutor#withdrawCancelMark}). The copy's resourceVersion does not
   * cover the pod (a driver that exits changes its pod, not the application), so a cancel's delete,
   * locked to the marked copy, could still succeed after this end is reported. A decision from the
   * copy alone needs no such step: whatever ended the job changed the copy, and the cancel's delete
   * meets 409.
   */
  private static boolean endsMarkedCopy(
      ResourceSnapshot copy, DriverPod driver, JobExecutionInfo info) {
    return info.status().isTerminal()
        && driver.lookup() != DriverPod.Lookup.NOT_LOOKED_UP
        && copy != null
        && !copy.isBeingDeleted()
        && copy.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).isPresent();
  }

  /**
   * What the pipeline decided for a job, and what from.
   *
   * @param info the status to report
   * @param app the copy it was decided on; null when the caller gave none (a plain report)
   * @param pod the driver pod as the mapping saw it
   */
  record Decided(JobExecutionInfo info, ResourceSnapshot app, DriverPod pod) {}

  /**
   * Steps 1 and 2 alone, for a decision made outside a status read (the orphan sweep's "has this
   * job ended?"): maps the copy, and once more with its driver pod when the mapper asks for it. No
   * follow-up is carried out, none of the mapping's warnings logged, nothing remembered.
   *
   * @throws dev.kubejobs.core.KubeJobsException when the pod lookup or the mapper failed
   */
  MappingDecision mapWithDriverPod(ExecutionId id, ResourceSnapshot app) {
    return withDriverPod(id, app, mapAlone(id, app), null).decision();
  }

  /**
   * A mapping made with the driver pod when the first one asked for it.
   *
   * @param decision the mapper's final decision
   * @param pod the driver pod it was made with ({@link DriverPod#notLookedUp()} when not asked)
   */
  private record Completed(MappingDecision decision, DriverPod pod) {}

  /**
   * Step 2: when {@code alone} asks for the driver pod, takes the pod the caller looked up with
   * other jobs' ({@code known}) or looks it up with the {@link DriverPodLocator}, and maps once
   * more; otherwise keeps {@code alone}. So the pod is looked up only when asked for, and the
   * mapper runs at most twice per copy.
   *
   * @throws JobStatusUnknownException if the mapper fails, or asks again for the pod it was given
   */
  private Completed withDriverPod(
      ExecutionId id, ResourceSnapshot app, MappingDecision alone, Located known) {
    if (!(alone instanceof MappingDecision.NeedDriverPod)) {
      return new Completed(alone, DriverPod.notLookedUp());
    }
    DriverPod pod = known != null ? known.orElseThrow() : locator.locate(id, app);
    MappingDecision decision = map(id, app, pod);
    if (decision instanceof MappingDecision.NeedDriverPod) {
      throw mapperFailed(
          id,
          new IllegalStateException(
              "the mapper asked again for the driver pod it was given (" + pod.lookup() + ")"));
    }
    return new Completed(decision, pod);
  }

  /**
   * Maps with the job kind's mapper, which must not fail; if it does, that is a bug of the job
   * kind, reported as {@link JobStatusUnknownException} without failing the job.
   */
  private MappingDecision map(ExecutionId id, ResourceSnapshot app, DriverPod pod) {
    MappingDecision decision;
    try {
      decision = kind.statusMapper().map(app, pod, ctx.clock().instant());
    } catch (RuntimeException e) {
      throw mapperFailed(id, e);
    }
    if (decision == null) {
      throw mapperFailed(id, new IllegalStateException("the mapper returned null"));
    }
    // A copy carrying an end mark was decided when the mark was put, while the operator has not
    // acted since: a status it wrote after the mark wins, and the mark is withdrawn (decide).
    Optional<EndMark> mark = EndMark.of(app);
    if (mark.isEmpty() || (!app.isBeingDeleted() && operatorActed(id, app))) {
      return decision;
    }
    return mark.get().decide(app, decision);
  }

  /**
   * Whether the operator wrote a status to a copy: the job kind's mapper, asked long after any
   * no-status timeout, would not end it by deleting it (it only does so for a copy without a
   * status). Told by the mapper, never by the clock, so two readers whose clocks differ agree.
   */
  boolean operatorActed(ExecutionId id, ResourceSnapshot app) {
    try {
      return EndMark.operatorActed(kind.statusMapper(), app, ctx.clock().instant());
    } catch (RuntimeException e) {
      throw mapperFailed(id, e);
    }
  }

  private static boolean deletesApplication(MappingDecision decision) {
    return decision instanceof MappingDecision.ReportAfter after
        && after.followUp().action() == FollowUp.Action.DELETE_APPLICATION;
  }

  /**
   * Whether a decision made on an end-marked copy that is not being deleted is the operator's, not
   * the mark's (the mapping, {@link #map}, left the mark aside because the operator acted): the
   * mark must then be withdrawn before anything is reported.
   */
  private static boolean givesWayToTheOperator(ResourceSnapshot copy, MappingDecision decision) {
    return copy != null
        && !copy.isBeingDeleted()
        && EndMark.of(copy).isPresent()
        && !deletesApplication(decision);
  }

  /**
   * For a cancel that found an end mark on a copy the operator acted on: withdraws the mark (locked
   * to the copy), so the cancel goes on with the operator's job.
   *
   * @return the copy without the mark, or empty when the copy changed before (409): read again
   */
  Optional<ResourceSnapshot> withdrawEndMark(ExecutionId id, ResourceSnapshot app) {
    return followUps.withdrawEndMark(id, app);
  }

  private JobStatusUnknownException mapperFailed(ExecutionId id, RuntimeException e) {
    return new JobStatusUnknownException(
        id,
        "the status mapper of "
            + resourceKind.qualifiedPlural()
            + " failed on job "
            + id
            + " (a bug of the job kind, or data it cannot handle; the job's state is unknown, not"
            + " failed: keep it as it was and read again later): "
            + e,
        e);
  }

  private void warn(ExecutionId id, MappingDecision decision, DriverPod pod) {
    for (String warning : decision.warnings()) {
      if (pod.lookup() == DriverPod.Lookup.UNAVAILABLE && warning.contains(pod.reason())) {
        // Already warned once, naming the missing permission, when the lookup failed.
        LOG.debug("Job '{}': {}", id, warning);
        continue;
      }
      // Each distinct text once, whichever job shows it first (the text names no job).
      ctx.warnings().warn(LOG, warning, "job '" + id + "': " + warning);
    }
  }
}
