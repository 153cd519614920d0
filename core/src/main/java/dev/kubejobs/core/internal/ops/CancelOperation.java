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

import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.DriverPod;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.ResourceKind;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.cancel.JobCanceller;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.internal.kube.KubeGateway;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels jobs: fresh read; finished → no-op; being deleted → done; otherwise put the cancel mark
 * with a resourceVersion-locked merge patch (409 → read and decide again) and delete with a uid
 * precondition. A delete whose answer was lost is confirmed by a read (being deleted or gone →
 * done, the mark stays); a delete that truly failed removes the mark again, only while the resource
 * is not being deleted. Not a published API; thread safe.
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
  private final StatusOperation<S> status;

  /**
   * Creates the operation.
   *
   * @param ctx the shared context
   * @param status the status reader, whose mapping decides "finished" and whose cache is updated
   */
  public CancelOperation(KubeJobsContext<S> ctx, StatusOperation<S> status) {
    this.ctx = ctx;
    this.gateway = ctx.gateway();
    this.resourceKind = ctx.jobKind().resourceKind();
    this.status = status;
  }

  @Override
  public CancelResult cancel(ExecutionId id) {
    ctx.check(id);
    // The mark's value; a patch whose answer was lost may have put it in an earlier round.
    String ourMark = DateTimeFormatter.ISO_INSTANT.format(ctx.clock().instant());
    for (int round = 1; round <= MAX_ROUNDS; round++) {
      ResourceSnapshot app = read(id).orElseThrow(() -> gone(id));
      if (app.isBeingDeleted()) {
        LOG.debug("Job '{}' is already being deleted; nothing to cancel", id);
        return CancelResult.ALREADY_DELETING;
      }
      JobExecutionInfo info = status.map(id, app, DriverPod.notLookedUp());
      if (info.status().isTerminal()) {
        LOG.debug("Job '{}' already finished as {}; cancel is a no-op", id, info.status());
        return CancelResult.ALREADY_FINISHED;
      }
      String existingMark = app.annotations().get(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
      // A mark put by another cancel in flight is left to it; our own (lost answer) is ours.
      boolean markedNow = ourMark.equals(existingMark);
      ResourceSnapshot marked = app;
      if (existingMark == null) {
        try {
          marked =
              gateway.mergePatch(id, resourceKind, id.namespace(), id.name(), mark(app, ourMark));
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
        }
      }
      return delete(id, marked, markedNow);
    }
    throw new ApiUnavailableException(
        id,
        "cancel of job "
            + id
            + " gave up: its resource changed under each of "
            + MAX_ROUNDS
            + " attempts to mark it; cancel again",
        null);
  }

  private CancelResult delete(ExecutionId id, ResourceSnapshot marked, boolean markedNow) {
    try {
      gateway.delete(id, resourceKind, id.namespace(), id.name(), marked.uid());
      // ACCEPTED, or GONE: a retried delete whose first answer was lost finds it gone.
      status.forget(id);
      LOG.info("Requested to cancel job '{}'", id);
      return CancelResult.REQUESTED;
    } catch (ApiStatusException e) {
      if (e.isConflict()) {
        // Another resource now has the name: the job's own is gone.
        status.forget(id);
        return CancelResult.REQUESTED;
      }
      throw failed(id, marked, markedNow, e);
    } catch (ApiUnavailableException e) {
      // The delete may have been applied with its answer lost: read again before undoing.
      Optional<ResourceSnapshot> now;
      try {
        now = read(id);
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
            e);
      }
      if (now.isEmpty() || now.get().isBeingDeleted() || !now.get().uid().equals(marked.uid())) {
        LOG.debug("Delete of '{}' was applied although its answer was lost", id);
        status.forget(id);
        return CancelResult.REQUESTED;
      }
      throw failed(id, now.get(), markedNow, e);
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
          || !snapshot.annotations().containsKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED)) {
        return failure;
      }
      try {
        gateway.mergePatch(id, resourceKind, id.namespace(), id.name(), unmark(snapshot));
        LOG.debug("Removed the cancel mark of '{}' after the delete failed", id);
        return failure;
      } catch (ApiStatusException e) {
        if (!e.isConflict()) {
          failure.addSuppressed(e);
          return failure;
        }
        try {
          snapshot = read(id).orElse(null);
        } catch (KubeJobsException readFailure) {
          failure.addSuppressed(readFailure);
          return failure;
        }
      } catch (KubeJobsException e) {
        failure.addSuppressed(e);
        return failure;
      }
    }
    return failure;
  }

  private Optional<ResourceSnapshot> read(ExecutionId id) {
    return gateway.get(id, resourceKind, id.namespace(), id.name());
  }

  private static JsonObject mark(ResourceSnapshot app, String value) {
    JsonObject annotations = new JsonObject();
    annotations.addProperty(JobIdentity.ANNOTATION_CANCEL_REQUESTED, value);
    return metadataPatch(app.resourceVersion(), annotations);
  }

  private static JsonObject unmark(ResourceSnapshot app) {
    JsonObject annotations = new JsonObject();
    annotations.add(JobIdentity.ANNOTATION_CANCEL_REQUESTED, JsonNull.INSTANCE);
    return metadataPatch(app.resourceVersion(), annotations);
  }

  private static JsonObject metadataPatch(String resourceVersion, JsonObject annotations) {
    JsonObject metadata = new JsonObject();
    // The resourceVersion makes the patch fail with 409 if anything changed since the read.
    metadata.addProperty("resourceVersion", resourceVersion);
    metadata.add("annotations", annotations);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    return patch;
  }

  private static NoSuchJobException gone(ExecutionId id) {
    return new NoSuchJobException(
        id, "the resource of job " + id + " does not exist (confirmed by a fresh read)", null);
  }
}
