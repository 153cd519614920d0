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
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.KubernetesNames;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.ResourceKind;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.internal.kube.DeleteResult;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.status.JobStatusReader;
import dev.kubejobs.core.status.JobStatusResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads job statuses through a per-namespace list cache, re-reading what would end a job, looking
 * up driver pods and carrying out the mapper's follow-ups. Not a published API; thread safe.
 *
 * <p>The cache lists with {@value #SELECTOR} only (not the deployment label), so a job of another
 * deployment of the caller can still be read by its id; a job missing from the list is read with a
 * GET. One LIST per namespace runs at a time: concurrent callers wait for it and share its result.
 *
 * @param <S> the job spec type
 */
public final class StatusOperation<S> implements JobStatusReader {
  private static final Logger LOG = LoggerFactory.getLogger(StatusOperation.class);

  /** How many times a status reads and decides again after its delete lost a 409 race. */
  static final int MAX_ROUNDS = 5;

  /** The label selector of the status LIST. */
  public static final String SELECTOR =
      JobIdentity.LABEL_MANAGED_BY + "=" + JobIdentity.MANAGED_BY_VALUE;

  private final KubeJobsContext<S> ctx;
  private final KubeGateway gateway;
  private final JobKind<S> kind;
  private final ResourceKind resourceKind;
  private final Duration ttl;
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();
  private final ReportedStatuses reported = new ReportedStatuses(ReportedStatuses.DEFAULT_CAPACITY);

  /**
   * Creates the operation.
   *
   * @param ctx the shared context
   * @param ttl how long a namespace's list serves reads; zero reads each job with a GET
   */
  public StatusOperation(KubeJobsContext<S> ctx, Duration ttl) {
    this.ctx = ctx;
    this.gateway = ctx.gateway();
    this.kind = ctx.jobKind();
    this.resourceKind = kind.resourceKind();
    this.ttl = ttl;
  }

  @Override
  public JobExecutionInfo get(ExecutionId id) {
    ctx.check(id);
    Optional<JobExecutionInfo> done = reported.terminal(id);
    if (done.isPresent()) {
      return done.get();
    }
    if (ttl.isZero()) {
      return report(id, () -> resolve(id, fresh(id), false));
    }
    Listing listing = listing(id.namespace(), id);
    return read(id, listing);
  }

  @Override
  public Map<ExecutionId, JobStatusResult> getAll(Collection<ExecutionId> ids) {
    if (ids == null) {
      throw new IllegalArgumentException("ids must not be null");
    }
    Set<ExecutionId> unique = new LinkedHashSet<>();
    for (ExecutionId id : ids) {
      unique.add(ctx.check(id));
    }
    Map<ExecutionId, JobStatusResult> out = new LinkedHashMap<>();
    Map<String, Listing> listings = new LinkedHashMap<>();
    Map<String, KubeJobsException> listFailures = new LinkedHashMap<>();
    for (ExecutionId id : unique) {
      Optional<JobExecutionInfo> done = reported.terminal(id);
      if (done.isPresent()) {
        out.put(id, JobStatusResult.of(done.get()));
        continue;
      }
      String ns = id.namespace();
      try {
        KubeJobsException listFailure = listFailures.get(ns);
        if (listFailure != null) {
          throw listFailure;
        }
        JobExecutionInfo info;
        if (ttl.isZero()) {
          info = report(id, () -> resolve(id, fresh(id), false));
        } else {
          Listing listing = listings.get(ns);
          if (listing == null) {
            try {
              listing = listing(ns, id);
            } catch (KubeJobsException e) {
              listFailures.put(ns, e);
              throw e;
            }
            listings.put(ns, listing);
          }
          info = read(id, listing);
        }
        out.put(id, JobStatusResult.of(info));
      } catch (KubeJobsException e) {
        LOG.debug("Job '{}' could not be read: {}", id, e.getMessage());
        out.put(id, JobStatusResult.failed(e));
      }
    }
    return out;
  }

  /** Reads one job from a namespace's list: the cached copy, or a GET when it is not listed. */
  private JobExecutionInfo read(ExecutionId id, Listing listing) {
    ResourceSnapshot cached = listing.forbidden ? null : listing.byName.get(id.name());
    if (cached == null) {
      return report(id, () -> resolve(id, fresh(id), false));
    }
    return report(id, () -> resolve(id, cached, true));
  }

  /**
   * Resolves a job and reports it through the per-job floor, so statuses never go backwards and a
   * terminal one never changes; a job confirmed gone after a terminal status keeps that status.
   */
  private JobExecutionInfo report(ExecutionId id, java.util.function.Supplier<JobExecutionInfo> r) {
    JobExecutionInfo info;
    try {
      info = r.get();
    } catch (NoSuchJobException gone) {
      Optional<JobExecutionInfo> done = reported.terminal(id);
      if (done.isPresent()) {
        LOG.debug("Job '{}' is gone after it ended {}; keeping that", id, done.get().status());
        return done.get();
      }
      throw gone;
    }
    return reported.raise(id, info);
  }

  /**
   * Returns the terminal status this reader reported for a job, if it remembers one.
   *
   * @param id the job
   * @return the terminal info reported, or empty
   */
  public Optional<JobExecutionInfo> reportedTerminal(ExecutionId id) {
    return reported.terminal(id);
  }

  /**
   * Decides a job's status for a cancel from a copy read after the cancel was asked for, with the
   * same full mapping as {@link #get(ExecutionId)}: the driver pod is looked up when the mapper
   * asks, and a live driver of a failed job is deleted before FAILED is reported. A no-status
   * deletion is left to the cancel (the job is cancelled, not failed).
   *
   * @param id the job
   * @param fresh the copy read by the cancel
   * @return the info, terminal when the job had already finished
   * @throws NoSuchJobException if the job's resource is gone on a re-read
   */
  public JobExecutionInfo decideForCancel(ExecutionId id, ResourceSnapshot fresh) {
    Optional<JobExecutionInfo> done = reported.terminal(id);
    if (done.isPresent()) {
      return done.get();
    }
    JobExecutionInfo info = resolveFrom(id, mapFully(id, fresh), true);
    return info.status().isTerminal() ? reported.raise(id, info) : info;
  }

  /**
   * Drops a job's cached copy, so the next read of it is a fresh GET (after a cancel). The status
   * reported for it is kept.
   *
   * @param id the job
   */
  public void forget(ExecutionId id) {
    Slot slot = slots.get(id.namespace());
    if (slot != null) {
      Listing listing = slot.listing;
      if (listing != null) {
        listing.byName.remove(id.name());
      }
    }
  }

  // ------------------------------------------------------------------ cache

  private Listing listing(String namespace, ExecutionId about) {
    Slot slot = slots.computeIfAbsent(namespace, ns -> new Slot());
    CompletableFuture<Listing> future;
    boolean mine = false;
    synchronized (slot) {
      Listing current = slot.listing;
      if (current != null && !isExpired(current)) {
        return current;
      }
      if (slot.inFlight == null) {
        slot.inFlight = new CompletableFuture<>();
        mine = true;
      }
      future = slot.inFlight;
    }
    if (mine) {
      try {
        Listing listed = list(namespace, about);
        synchronized (slot) {
          slot.listing = listed;
          slot.inFlight = null;
        }
        future.complete(listed);
        evictExpired(slot);
        return listed;
      } catch (RuntimeException | Error e) {
        synchronized (slot) {
          slot.inFlight = null;
        }
        future.completeExceptionally(e);
        throw e;
      }
    }
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiUnavailableException(
          about, "interrupted while waiting for the list of namespace " + namespace, e);
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new ApiUnavailableException(about, "listing namespace " + namespace + " failed", cause);
    }
  }

  /** Drops the lists of namespaces nobody read for a cache period, so they are not kept forever. */
  private void evictExpired(Slot keep) {
    for (Map.Entry<String, Slot> e : slots.entrySet()) {
      Slot slot = e.getValue();
      if (slot == keep) {
        continue;
      }
      synchronized (slot) {
        if (slot.inFlight == null && slot.listing != null && isExpired(slot.listing)) {
          slots.remove(e.getKey(), slot);
        }
      }
    }
  }

  private boolean isExpired(Listing listing) {
    return !ctx.clock().instant().isBefore(listing.at.plus(ttl));
  }

  private Listing list(String namespace, ExecutionId about) {
    Instant at = ctx.clock().instant();
    try {
      List<ResourceSnapshot> items = gateway.list(about, resourceKind, namespace, SELECTOR);
      Map<String, ResourceSnapshot> byName = new ConcurrentHashMap<>();
      for (ResourceSnapshot item : items) {
        byName.put(item.name(), item);
      }
      LOG.debug("Listed {} {} in namespace {}", items.size(), resourceKind.plural(), namespace);
      return new Listing(at, byName, false);
    } catch (JobRejectedException e) {
      if (e.reason() != JobRejectedException.Reason.FORBIDDEN) {
        throw e;
      }
      ctx.warnings()
          .warn(
              LOG,
              "missing permission: list "
                  + resourceKind.qualifiedPlural()
                  + " in namespace "
                  + namespace
                  + "; job statuses fall back to one GET per job. Grant it (see docs/rbac.yaml)"
                  + " to read many jobs with one LIST");
      return new Listing(at, new ConcurrentHashMap<>(), true);
    }
  }

  // ------------------------------------------------------------------ mapping

  private ResourceSnapshot fresh(ExecutionId id) {
    return gateway
        .get(id, resourceKind, id.namespace(), id.name())
        .orElseThrow(
            () ->
                new NoSuchJobException(
                    id,
                    "the resource of job "
                        + id
                        + " does not exist (confirmed by a fresh read): it was deleted, by a cancel"
                        + " or by someone else",
                    null));
  }

  private JobExecutionInfo resolve(ExecutionId id, ResourceSnapshot snapshot, boolean cached) {
    Mapped mapped = mapFully(id, snapshot);
    if (cached && endsJob(mapped.info)) {
      // A cached copy may be stale: never end a job on it. Gone now → NoSuchJobException.
      LOG.debug("Re-reading '{}' before reporting {}", id, mapped.info.status());
      mapped = mapFully(id, fresh(id));
    }
    return resolveFrom(id, mapped, false);
  }

  /**
   * Carries out the mapping's follow-up on the copy it was decided on; when that copy changed
   * before the delete (409), reads again and decides again.
   */
  private JobExecutionInfo resolveFrom(ExecutionId id, Mapped first, boolean forCancel) {
    Mapped mapped = first;
    for (int round = 1; ; round++) {
      warn(id, mapped);
      Optional<FollowUp> followUp = mapped.info.followUp();
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

  private static boolean endsJob(JobExecutionInfo info) {
    return info.status().isTerminal() || info.followUp().isPresent();
  }

  private Mapped mapFully(ExecutionId id, ResourceSnapshot app) {
    JobExecutionInfo info = map(id, app, DriverPod.notLookedUp());
    DriverPod pod = DriverPod.notLookedUp();
    if (info.driverPodWanted()) {
      pod = lookUpDriver(id, app);
      info = map(id, app, pod);
    }
    return new Mapped(app, pod, info);
  }

  /**
   * Maps with the job kind's mapper, which must not fail; if it does, that is a bug of the job
   * kind, reported as {@link JobStatusUnknownException} without failing the job.
   */
  JobExecutionInfo map(ExecutionId id, ResourceSnapshot app, DriverPod pod) {
    try {
      JobExecutionInfo info = kind.statusMapper().map(app, pod, ctx.clock().instant());
      if (info == null) {
        throw new IllegalStateException("the mapper returned null");
      }
      return info;
    } catch (RuntimeException e) {
      throw new JobStatusUnknownException(
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
  }

  private DriverPod lookUpDriver(ExecutionId id, ResourceSnapshot app) {
    Optional<String> name;
    String selector = null;
    try {
      name = kind.driverPodName(app).filter(n -> !n.isEmpty());
      if (name.isEmpty()) {
        selector = kind.driverPodSelector(app);
      }
    } catch (RuntimeException e) {
      return unusableDriverReference(id, "the job kind could not name its driver pod (" + e + ")");
    }
    if (name.isPresent() && !KubernetesNames.isDns1123Subdomain(name.get())) {
      // Server data (for example status.driverInfo.podName "x/../y"): never a path, never a throw.
      return unusableDriverReference(
          id, "the resource names an invalid driver pod '" + abbreviate(name.get()) + "'");
    }
    try {
      if (name.isPresent()) {
        return gateway
            .getPod(id, id.namespace(), name.get())
            .map(DriverPod::found)
            .orElse(DriverPod.absent());
      }
      List<ResourceSnapshot> pods = new ArrayList<>(gateway.listPods(id, id.namespace(), selector));
      // The latest attempt's pod wins.
      return pods.stream()
          .max(
              Comparator.comparing(
                      (ResourceSnapshot p) -> p.creationTimestamp().orElse(Instant.EPOCH))
                  .thenComparing(ResourceSnapshot::name))
          .map(DriverPod::found)
          .orElse(DriverPod.absent());
    } catch (JobRejectedException e) {
      if (e.reason() != JobRejectedException.Reason.FORBIDDEN) {
        throw e;
      }
      String reason =
          "missing permission: "
              + (name.isPresent() ? "get" : "list")
              + " pods in namespace "
              + id.namespace();
      ctx.warnings()
          .warn(
              LOG,
              "cannot look up driver pods: "
                  + reason
                  + "; finished jobs fall back to the application's own record. Grant it (see"
                  + " docs/rbac.yaml)");
      return DriverPod.unavailable(reason);
    }
  }

  /** A driver pod that cannot be looked up from what the resource says: decide without it. */
  private DriverPod unusableDriverReference(ExecutionId id, String reason) {
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

  /** A mapping with what it was made from. */
  private record Mapped(ResourceSnapshot app, DriverPod pod, JobExecutionInfo info) {}

  /** One namespace's list. */
  private record Listing(Instant at, Map<String, ResourceSnapshot> byName, boolean forbidden) {}

  /** The cache slot of one namespace: the last list and the list in flight. */
  private static final class Slot {
    private volatile Listing listing;
    private CompletableFuture<Listing> inFlight;
  }
}
