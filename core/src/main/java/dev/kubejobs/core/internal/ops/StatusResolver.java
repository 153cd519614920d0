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
import dev.kubejobs.core.DriverPod;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.FollowUp;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobKind;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.JobStatusUnknownException;
import dev.kubejobs.core.KubernetesNames;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.ResourceKind;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.internal.kube.DeleteResult;
import dev.kubejobs.core.internal.kube.KubeGateway;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides one job's status from a copy of its resource: maps it with {@link
 * dev.kubejobs.core.JobStatusMapper#resolve} (looking up the driver pod when the mapper asks) and
 * carries out the follow-up the mapping asks for, reporting its outcome only once it is confirmed.
 * Where the copies come from, and whether they are fresh, is the {@link StatusOperation}'s
 * business. Not a published API; thread safe.
 *
 * @param <S> the job spec type
 */
final class StatusResolver<S> {
  private static final Logger LOG = LoggerFactory.getLogger(StatusResolver.class);

  /** How many times a status reads and decides again after its delete lost a 409 race. */
  static final int MAX_ROUNDS = 5;

  private final KubeJobsContext<S> ctx;
  private final KubeGateway gateway;
  private final JobKind<S> kind;
  private final ResourceKind resourceKind;

  StatusResolver(KubeJobsContext<S> ctx) {
    this.ctx = ctx;
    this.gateway = ctx.gateway();
    this.kind = ctx.jobKind();
    this.resourceKind = kind.resourceKind();
  }

  /** A mapping with what it was made from. */
  record Mapped(ResourceSnapshot app, DriverPod pod, JobExecutionInfo info) {
    /** Whether the mapping would end the job: a terminal status or a follow-up to that end. */
    boolean endsJob() {
      return info.status().isTerminal() || info.followUp().isPresent();
    }
  }

  /** Reads a job's resource fresh; gone is {@link NoSuchJobException}. */
  ResourceSnapshot fresh(ExecutionId id) {
    return gateway.get(id, resourceKind, id.namespace(), id.name()).orElseThrow(() -> gone(id));
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
   * Maps a copy without its driver pod: the first step of every mapping, and what a cache keeps.
   *
   * @throws JobStatusUnknownException if the mapper fails
   */
  JobExecutionInfo mapAlone(ExecutionId id, ResourceSnapshot app) {
    return map(id, app, DriverPod.notLookedUp());
  }

  /** Maps a copy, looking its driver pod up one request at a time when the mapper asks. */
  Mapped mapFully(ExecutionId id, ResourceSnapshot app) {
    return mapFully(id, app, a -> lookUpDriver(id, a));
  }

  /**
   * Maps a copy through {@link dev.kubejobs.core.JobStatusMapper#resolve}, with {@code pods}
   * consulted when the mapper asks for the driver pod. A failure of the lookup propagates as it is;
   * a failure of the mapper is a {@link JobStatusUnknownException}.
   */
  Mapped mapFully(
      ExecutionId id, ResourceSnapshot app, Function<ResourceSnapshot, DriverPod> pods) {
    DriverPod[] looked = {DriverPod.notLookedUp()};
    RuntimeException[] lookupFailure = {null};
    Function<ResourceSnapshot, DriverPod> recording =
        a -> {
          try {
            looked[0] = pods.apply(a);
            return looked[0];
          } catch (RuntimeException e) {
            lookupFailure[0] = e;
            throw e;
          }
        };
    JobExecutionInfo info;
    try {
      info = kind.statusMapper().resolve(app, recording, ctx.clock().instant());
    } catch (RuntimeException e) {
      if (e == lookupFailure[0]) {
        throw e;
      }
      throw mapperFailed(id, e);
    }
    if (info == null) {
      throw mapperFailed(id, new IllegalStateException("the mapper returned null"));
    }
    return new Mapped(app, looked[0], info);
  }

  /**
   * Maps with the job kind's mapper, which must not fail; if it does, that is a bug of the job
   * kind, reported as {@link JobStatusUnknownException} without failing the job.
   */
  JobExecutionInfo map(ExecutionId id, ResourceSnapshot app, DriverPod pod) {
    JobExecutionInfo info;
    try {
      info = kind.statusMapper().map(app, pod, ctx.clock().instant());
    } catch (RuntimeException e) {
      throw mapperFailed(id, e);
    }
    if (info == null) {
      throw mapperFailed(id, new IllegalStateException("the mapper returned null"));
    }
    return info;
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

  /**
   * Carries out the mapping's follow-up on the copy it was decided on; when that copy changed
   * before the delete (409), reads again and decides again.
   *
   * @param forCancel true when a cancel decides: a delete of the application is left to it
   */
  JobExecutionInfo resolveFrom(ExecutionId id, Mapped first, boolean forCancel) {
    Mapped mapped = first;
    for (int round = 1; ; round++) {
      warn(id, mapped);
      Optional<FollowUp> followUp = mapped.info.followUp();
      if (followUp.isEmpty() && !mapped.info.driverPodWanted()) {
        return mapped.info; // nothing to strip: the cache's shared mapping as it is
      }
      if (followUp.isEmpty()
          || (forCancel && followUp.get().action() == FollowUp.Action.DELETE_APPLICATION)) {
        return mapped.info.toBuilder().followUp(null).driverPodWanted(false).build();
      }
      JobExecutionInfo done = carryOut(id, mapped);
      if (done != null) {
        return done;
      }
      if (round >= MAX_ROUNDS) {
        throw new ApiUnavailableException(
            id,
            "the status of job "
                + id
                + " could not be decided: its resource or driver pod changed under each of "
                + MAX_ROUNDS
                + " attempts to "
                + describe(followUp.get())
                + "; read it again",
            false,
            null);
      }
      LOG.debug(
          "Job '{}' changed before {} (round {}); deciding again",
          id,
          describe(followUp.get()),
          round);
      mapped = mapFully(id, fresh(id));
    }
  }

  private void warn(ExecutionId id, Mapped mapped) {
    for (String warning : mapped.info.warnings()) {
      if (mapped.pod.lookup() == DriverPod.Lookup.UNAVAILABLE
          && warning.contains(mapped.pod.reason())) {
        // Already warned once, naming the missing permission, when the lookup failed.
        LOG.debug("Job '{}': {}", id, warning);
        continue;
      }
      // Each distinct text once, whichever job shows it first (the text names no job).
      ctx.warnings().warn(LOG, warning, "job '" + id + "': " + warning);
    }
  }

  /**
   * Looks up one job's driver pod: by the name the resource tells, else by the kind's selector (the
   * newest pod wins).
   */
  DriverPod lookUpDriver(ExecutionId id, ResourceSnapshot app) {
    DriverRef ref = driverRef(id, app);
    if (ref.unusable() != null) {
      return ref.unusable();
    }
    try {
      if (ref.name() != null) {
        return gateway
            .getPod(id, id.namespace(), ref.name())
            .map(DriverPod::found)
            .orElse(DriverPod.absent());
      }
      return newest(gateway.listPods(id, id.namespace(), ref.selector()));
    } catch (JobRejectedException e) {
      if (e.reason() != JobRejectedException.Reason.FORBIDDEN) {
        throw e;
      }
      return podsForbidden(id.namespace(), ref.name() != null ? "get" : "list");
    }
  }

  /**
   * What a job's resource tells of its driver pod: exactly one of a valid pod name, the selector
   * that finds it, or a pod that cannot be looked up (decide without it).
   */
  record DriverRef(String name, String selector, DriverPod unusable) {}

  /** Reads what a job's resource tells of its driver pod, never throwing on server data. */
  DriverRef driverRef(ExecutionId id, ResourceSnapshot app) {
    try {
      Optional<String> name = kind.driverPodName(app).filter(n -> !n.isEmpty());
      if (name.isEmpty()) {
        return new DriverRef(null, kind.driverPodSelector(app), null);
      }
      if (!KubernetesNames.isDns1123Subdomain(name.get())) {
        // Server data (for example status.driverInfo.podName "x/../y"): never a path, never a
        // throw.
        return new DriverRef(
            null,
            null,
            unusableDriverReference(
                id, "the resource names an invalid driver pod '" + abbreviate(name.get()) + "'"));
      }
      return new DriverRef(name.get(), null, null);
    } catch (RuntimeException e) {
      return new DriverRef(
          null,
          null,
          unusableDriverReference(id, "the job kind could not name its driver pod (" + e + ")"));
    }
  }

  /** The latest attempt's pod, or absent. */
  static DriverPod newest(List<ResourceSnapshot> pods) {
    return pods.stream()
        .max(
            Comparator.comparing(
                    (ResourceSnapshot p) -> p.creationTimestamp().orElse(Instant.EPOCH))
                .thenComparing(ResourceSnapshot::name))
        .map(DriverPod::found)
        .orElse(DriverPod.absent());
  }

  /** Pods may not be read: warn once, decide from the application alone. */
  DriverPod podsForbidden(String namespace, String verb) {
    String reason = "missing permission: " + verb + " pods in namespace " + namespace;
    ctx.warnings()
        .warn(
            LOG,
            "cannot look up driver pods: "
                + reason
                + "; finished jobs fall back to the application's own record. Grant it (see"
                + " docs/rbac.yaml)");
    return DriverPod.unavailable(reason);
  }

  /** A driver pod that cannot be looked up from what the resource says: decide without it. */
  DriverPod unusableDriverReference(ExecutionId id, String reason) {
    ctx.warnings()
        .warn(
            LOG,
            reason + "; its status is decided from the resource alone",
            "job '" + id + "': " + reason + "; its status is decided from the resource alone");
    return DriverPod.unavailable(reason);
  }

  private static String abbreviate(String text) {
    return text.length() <= 100 ? text : text.substring(0, 100) + "…";
  }

  /**
   * Carries out the mapper's follow-up on the copy it was decided on; the outcome is reported only
   * once it is confirmed.
   *
   * @return the info to report, or null when the copy changed before the delete (decide again)
   */
  private JobExecutionInfo carryOut(ExecutionId id, Mapped mapped) {
    JobExecutionInfo info = mapped.info;
    FollowUp followUp = info.followUp().orElseThrow();
    try {
      boolean done =
          switch (followUp.action()) {
            case DELETE_APPLICATION -> deleteApplication(id, mapped.app);
            case DELETE_DRIVER_POD -> deleteDriverPod(id, mapped);
          };
      if (!done) {
        return null;
      }
    } catch (JobRejectedException e) {
      if (followUp.action() == FollowUp.Action.DELETE_DRIVER_POD
          && e.reason() == JobRejectedException.Reason.FORBIDDEN
          && e.code() == 403) {
        // A permanent refusal must not keep a finished job unfinished (DESIGN rule 6): report the
        // outcome and tell the operator, once, which permission would clean the pod up.
        return outcomeWithoutDriverPodDelete(id, info, followUp, missingPermission(e));
      }
      // For example no permission to delete the resource: no outcome until the delete is
      // confirmed, or the operator could still run the job (DESIGN rule 1).
      ctx.warnings()
          .warn(
              LOG,
              "job '"
                  + id
                  + "' stays "
                  + info.status()
                  + " until "
                  + describe(followUp)
                  + " succeeds: "
                  + e.getMessage());
      return info.toBuilder()
          .followUp(null)
          .driverPodWanted(false)
          .message(
              (info.message().isEmpty() ? "" : info.message() + "; ")
                  + "waiting to "
                  + describe(followUp)
                  + " before reporting "
                  + followUp.outcome()
                  + (e.reason() == JobRejectedException.Reason.FORBIDDEN
                      ? " (" + missingPermission(e) + ")"
                      : ""))
          .build();
    }
    JobStatus outcome = followUp.outcome();
    String message = followUp.message();
    if (followUp.action() == FollowUp.Action.DELETE_APPLICATION
        && mapped.app.annotations().containsKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED)) {
      // The copy deleted carried a cancel mark: the job was being cancelled, and the node that
      // marked it reports it cancelled; every node must agree.
      outcome = JobStatus.CANCELLED;
      message = "cancelled by kubejobs before the operator wrote a status";
    }
    LOG.debug("Job '{}': {} confirmed, reporting {}", id, describe(followUp), outcome);
    return info.toBuilder()
        .status(outcome)
        .message(message)
        .finishedAt(info.finishedAt().orElse(ctx.clock().instant()))
        .followUp(null)
        .driverPodWanted(false)
        .build();
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
        .followUp(null)
        .driverPodWanted(false)
        .build();
  }

  /** What a forbidden follow-up lacks ("missing permission: ..."), without the server's text. */
  private static String missingPermission(JobRejectedException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    int cut = message.indexOf(" (server said:");
    return cut > 0 ? message.substring(0, cut) : message;
  }

  /**
   * Deletes the job's resource, locked to the copy the decision was made on.
   *
   * @return true when deleted, false when the copy changed before the delete (409)
   */
  private boolean deleteApplication(ExecutionId id, ResourceSnapshot app) {
    if (app.isBeingDeleted()) {
      return true;
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
  private boolean deleteDriverPod(ExecutionId id, Mapped mapped) {
    DriverPod pod = mapped.pod;
    if (pod.lookup() == DriverPod.Lookup.NOT_LOOKED_UP) {
      pod = lookUpDriver(id, mapped.app);
    }
    Optional<ResourceSnapshot> found = pod.pod();
    if (found.isEmpty() || found.get().isBeingDeleted()) {
      if (pod.lookup() == DriverPod.Lookup.UNAVAILABLE) {
        throw new JobRejectedException(
            id, JobRejectedException.Reason.FORBIDDEN, 403, pod.reason(), null);
      }
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

  private static String describe(FollowUp followUp) {
    return switch (followUp.action()) {
      case DELETE_APPLICATION -> "delete the job's resource";
      case DELETE_DRIVER_POD -> "delete the driver pod that still runs";
    };
  }
}
