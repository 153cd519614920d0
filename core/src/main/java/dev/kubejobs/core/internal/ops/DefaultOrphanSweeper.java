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
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.internal.kube.DeleteResult;
import dev.kubejobs.core.resilience.ApiCallFailure;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.sweep.OrphanSweeper;
import dev.kubejobs.core.sweep.SweepEntry;
import dev.kubejobs.core.sweep.SweepReport;
import dev.kubejobs.core.sweep.SweepRequest;
import dev.kubejobs.core.sweep.SweepUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link OrphanSweeper} of a {@code KubeJobs} instance: one labelled LIST per namespace, then
 * one DELETE with a {@code uid} precondition per orphan (and, when the request asks, per resource
 * of a job ended past retention), all through the instance's gateway. Not a published API. Thread
 * safe (stateless).
 */
public final class DefaultOrphanSweeper implements OrphanSweeper {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultOrphanSweeper.class);

  private final KubeJobsContext<?> context;
  private final StatusPipeline pipeline;

  /**
   * Creates the sweeper of an instance.
   *
   * @param context the instance's settings and gateway
   * @param pipeline the instance's status pipeline, which decides whether a job ended
   */
  public DefaultOrphanSweeper(KubeJobsContext<?> context, StatusPipeline pipeline) {
    this.context = Objects.requireNonNull(context, "context");
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
  }

  @Override
  public SweepReport sweep(SweepRequest request) {
    if (request == null) {
      throw new IllegalArgumentException("request must not be null");
    }
    ResourceKind kind = context.jobKind().resourceKind();
    String selector =
        JobIdentity.LABEL_MANAGED_BY
            + "="
            + JobIdentity.MANAGED_BY_VALUE
            + ","
            + JobIdentity.LABEL_DEPLOYMENT
            + "="
            + context.deployment();
    Instant now = context.clock().instant();
    SweepReport.Builder report = SweepReport.builder(request.dryRun());
    try {
      for (String namespace : request.namespaces()) {
        List<ResourceSnapshot> resources;
        try {
          resources = context.gateway().list(null, kind, namespace, selector);
        } catch (ApiUnavailableException e) {
          if (!answeredWithServerError(e)) {
            throw e;
          }
          report.failedNamespace(namespace, e.getMessage());
          continue;
        } catch (RuntimeException e) {
          // For example a forbidden LIST in this namespace: the others are still swept.
          String why = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
          context
              .warnings()
              .warn(LOG, "Orphan sweep could not list " + kind.qualifiedPlural() + ": " + why);
          report.failedNamespace(namespace, why);
          continue;
        }
        for (ResourceSnapshot resource : resources) {
          if (!isOurs(resource)) {
            // A server that ignored the selector: never touch another deployment's resources.
            continue;
          }
          report.scanned();
          consider(kind, resource, request, now, report);
        }
      }
    } catch (ApiUnavailableException e) {
      throw new SweepUnavailableException(report.build(), e);
    }
    SweepReport done = report.build();
    if (done.entries().isEmpty() && done.failedNamespaces().isEmpty()) {
      LOG.debug("{}", done.summary());
    } else {
      LOG.info("{}", done.summary());
    }
    return done;
  }

  private boolean isOurs(ResourceSnapshot resource) {
    return JobIdentity.MANAGED_BY_VALUE.equals(
            resource.label(JobIdentity.LABEL_MANAGED_BY).orElse(null))
        && context.deployment().equals(resource.label(JobIdentity.LABEL_DEPLOYMENT).orElse(null));
  }

  private void consider(
      ResourceKind kind,
      ResourceSnapshot resource,
      SweepRequest request,
      Instant now,
      SweepReport.Builder report) {
    String jobId = resource.annotations().getOrDefault(JobIdentity.ANNOTATION_JOB_ID, "");
    Instant created = resource.creationTimestamp().orElse(null);
    if (jobId.isEmpty()) {
      // Without the raw id the caller cannot be asked; keep it and say so, never guess.
      report.add(
          entry(
              resource,
              jobId,
              created,
              SweepEntry.Outcome.FAILED,
              "no " + JobIdentity.ANNOTATION_JOB_ID + " annotation: kept; delete it by hand"));
      return;
    }
    boolean known;
    try {
      known = request.isKnown(jobId);
    } catch (RuntimeException e) {
      report.add(
          entry(
              resource,
              jobId,
              created,
              SweepEntry.Outcome.FAILED,
              "the knownJobs predicate threw " + e + ": kept"));
      return;
    }
    Optional<Duration> retention = request.endedJobsKeptFor();
    if (retention.isPresent()) {
      JobExecutionInfo info;
      try {
        info = endedStatus(kind, resource);
      } catch (ApiUnavailableException e) {
        if (!answeredWithServerError(e)) {
          throw e;
        }
        info = null;
        if (known) {
          report.add(statusFailed(resource, jobId, created, e));
          return;
        }
      } catch (RuntimeException e) {
        // A mapper bug, or a pod lookup refused other than for a missing permission (without the
        // permission the job is decided from its resource alone, as a status read decides it):
        // never delete on a guess.
        info = null;
        if (known) {
          report.add(statusFailed(resource, jobId, created, e));
          return;
        }
      }
      if (info != null) {
        Instant finished = info.finishedAt().orElse(null);
        if (finished == null) {
          if (known) {
            report.add(
                entry(
                    resource,
                    jobId,
                    created,
                    SweepEntry.Outcome.KEPT,
                    "the job ended ("
                        + info.status()
                        + ") but its status tells no end time, so its retention cannot be"
                        + " judged: kept; delete it by hand",
                    SweepEntry.Cause.ENDED_PAST_RETENTION));
            return;
          }
        } else if (Duration.between(finished, now).compareTo(retention.get()) > 0) {
          removeEnded(
              kind, resource, request, jobId, created, info.status() + " at " + finished, report);
          return;
        }
      }
    }
    if (known) {
      report.keptKnown();
      return;
    }
    if (created == null || Duration.between(created, now).compareTo(request.gracePeriod()) <= 0) {
      report.keptYoung();
      return;
    }
    if (resource.isBeingDeleted()) {
      report.add(
          entry(
              resource,
              jobId,
              created,
              SweepEntry.Outcome.ALREADY_DELETING,
              "already being deleted since " + resource.deletionTimestamp().orElse(null)));
      return;
    }
    if (request.dryRun()) {
      report.add(
          entry(
              resource,
              jobId,
              created,
              SweepEntry.Outcome.WOULD_DELETE,
              "unknown job, created " + created));
      return;
    }
    report.add(delete(kind, resource, jobId, created, SweepEntry.Cause.ORPHAN, "unknown job"));
  }

  /** Deletes (or for a dry run reports) the resource of a job that ended past retention. */
  private void removeEnded(
      ResourceKind kind,
      ResourceSnapshot resource,
      SweepRequest request,
      String jobId,
      Instant created,
      String ended,
      SweepReport.Builder report) {
    SweepEntry.Cause cause = SweepEntry.Cause.ENDED_PAST_RETENTION;
    String why =
        "job ended "
            + ended
            + ", longer ago than endedJobsKeptFor "
            + request.endedJobsKeptFor().orElseThrow();
    if (resource.isBeingDeleted()) {
      report.add(
          entry(
              resource,
              jobId,
              created,
              SweepEntry.Outcome.ALREADY_DELETING,
              "already being deleted since " + resource.deletionTimestamp().orElse(null),
              cause));
      return;
    }
    if (request.dryRun()) {
      report.add(entry(resource, jobId, created, SweepEntry.Outcome.WOULD_DELETE, why, cause));
      return;
    }
    report.add(delete(kind, resource, jobId, created, cause, why));
  }

  /**
   * Decides a job's status as the status reader does, through its {@link StatusPipeline}: the
   * kind's mapper without the driver pod, then with it when the mapper asks (the same locator, the
   * same end mark), but no follow-up carried out. Returns null unless the job has ended for good (a
   * terminal status and no follow-up still to carry out).
   */
  private JobExecutionInfo endedStatus(ResourceKind kind, ResourceSnapshot resource) {
    ExecutionId id = ExecutionId.of(context.cluster(), kind, resource.namespace(), resource.name());
    MappingDecision decision = pipeline.mapWithDriverPod(id, resource);
    if (!(decision instanceof MappingDecision.Report) || !decision.info().status().isTerminal()) {
      return null;
    }
    return decision.info();
  }

  private SweepEntry statusFailed(
      ResourceSnapshot resource, String jobId, Instant created, RuntimeException e) {
    String why = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    // Once per kind of failure, not per job: the status pipeline's exceptions name their job.
    String kindOfFailure =
        "sweep: " + e.getClass().getName() + (e.getCause() == null ? "" : ": " + e.getCause());
    context
        .warnings()
        .warn(LOG, kindOfFailure, "Sweep could not decide whether a job ended: " + why);
    return entry(
        resource,
        jobId,
        created,
        SweepEntry.Outcome.FAILED,
        "its status could not be decided, kept: " + why,
        SweepEntry.Cause.ENDED_PAST_RETENTION);
  }

  private SweepEntry delete(
      ResourceKind kind,
      ResourceSnapshot resource,
      String jobId,
      Instant created,
      SweepEntry.Cause cause,
      String why) {
    try {
      DeleteResult result =
          context
              .gateway()
              .delete(null, kind, resource.namespace(), resource.name(), resource.uid());
      if (result == DeleteResult.GONE) {
        LOG.debug(
            "Orphan {}/{} of job '{}' was gone already",
            resource.namespace(),
            resource.name(),
            jobId);
        return entry(resource, jobId, created, SweepEntry.Outcome.ALREADY_GONE, "404: gone", cause);
      }
      LOG.info(
          "Deleted {} {} {}/{} (uid {}) of job '{}', created {}: {}",
          cause == SweepEntry.Cause.ORPHAN ? "orphan" : "ended",
          kind.qualifiedPlural(),
          resource.namespace(),
          resource.name(),
          resource.uid(),
          jobId,
          created,
          why);
      return entry(resource, jobId, created, SweepEntry.Outcome.DELETED, why, cause);
    } catch (ApiUnavailableException e) {
      if (answeredWithServerError(e)) {
        // The server answered (5xx) for this resource: report it and go on with the others.
        return failed(resource, jobId, created, e, cause);
      }
      // No answer, throttled, breaker open: stop the sweep.
      throw e;
    } catch (ApiStatusException e) {
      if (e.isConflict()) {
        LOG.debug(
            "Orphan {}/{} was replaced since it was listed: left alone",
            resource.namespace(),
            resource.name());
        return entry(
            resource,
            jobId,
            created,
            SweepEntry.Outcome.REPLACED,
            "409: the name now belongs to another resource (uid precondition failed), left alone: "
                + e.serverMessage(),
            cause);
      }
      return failed(resource, jobId, created, e, cause);
    } catch (RuntimeException e) {
      return failed(resource, jobId, created, e, cause);
    }
  }

  /** A 5xx answer: the server is there, this one request failed; anything else means it is not. */
  private static boolean answeredWithServerError(ApiUnavailableException e) {
    return e.getCause() instanceof ApiCallFailure f && f.kind() == ApiCallFailure.Kind.SERVER_ERROR;
  }

  private SweepEntry failed(
      ResourceSnapshot resource,
      String jobId,
      Instant created,
      RuntimeException e,
      SweepEntry.Cause cause) {
    String why = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    context.warnings().warn(LOG, "Orphan sweep could not delete: " + why);
    return entry(resource, jobId, created, SweepEntry.Outcome.FAILED, why, cause);
  }

  private static SweepEntry entry(
      ResourceSnapshot resource,
      String jobId,
      Instant created,
      SweepEntry.Outcome outcome,
      String detail) {
    return entry(resource, jobId, created, outcome, detail, SweepEntry.Cause.ORPHAN);
  }

  private static SweepEntry entry(
      ResourceSnapshot resource,
      String jobId,
      Instant created,
      SweepEntry.Outcome outcome,
      String detail,
      SweepEntry.Cause cause) {
    return new SweepEntry(
        resource.namespace(),
        resource.name(),
        resource.uid(),
        jobId,
        created,
        outcome,
        detail,
        cause);
  }
}
