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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.internal.kube.DeleteResult;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.internal.kube.UnconfirmedException;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.KubernetesNames;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.submit.JobSubmitter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits jobs: validate, build through the {@link JobKind}, create; on 409 adopt the resource only
 * if it is this job's; on a lost answer read back what landed. Not a published API; thread safe.
 *
 * @param <S> the job spec type
 */
public final class SubmitOperation<S> implements JobSubmitter<S> {
  private static final Logger LOG = LoggerFactory.getLogger(SubmitOperation.class);

  /** How many creates are tried when their answers are lost, each followed by a read. */
  static final int MAX_CREATE_ATTEMPTS = 3;

  private static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;

  private final KubeJobsContext<S> ctx;
  private final KubeGateway gateway;
  private final JobKind<S> kind;
  private final ResourceKind resourceKind;

  /**
   * Creates the operation.
   *
   * @param ctx the shared context
   */
  public SubmitOperation(KubeJobsContext<S> ctx) {
    this.ctx = ctx;
    this.gateway = ctx.gateway();
    this.kind = ctx.jobKind();
    this.resourceKind = kind.resourceKind();
  }

  /**
   * Returns the identity a job gets, validating the job id and the spec's namespace.
   *
   * @param jobId the job id
   * @param spec the spec
   * @return the identity
   * @throws InvalidJobSpecException naming the setting, the rule and the value
   */
  public JobIdentity identityOf(String jobId, S spec) {
    if (jobId == null || jobId.isBlank() || jobId.length() > 1024) {
      throw new InvalidJobSpecException(
          "jobId must be non-blank text of at most 1024 characters, but was "
              + (jobId == null ? "null" : "'" + abbreviate(jobId) + "'"));
    }
    if (spec == null) {
      throw new InvalidJobSpecException("spec of job '" + jobId + "' must not be null");
    }
    String namespace;
    try {
      namespace = kind.namespaceOf(spec);
    } catch (InvalidJobSpecException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new InvalidJobSpecException(
          "the namespace of job '" + jobId + "' could not be determined from its spec: " + e);
    }
    try {
      return JobIdentity.of(ctx.namePrefix(), ctx.deployment(), namespace, jobId);
    } catch (IllegalArgumentException e) {
      throw new InvalidJobSpecException(
          "job '" + abbreviate(jobId) + "' cannot be submitted: " + e.getMessage());
    }
  }

  @Override
  public ExecutionId submit(String jobId, S spec) {
    JobIdentity identity = identityOf(jobId, spec);
    String token = ctx.writer().next();
    JsonObject manifest = manifestOf(spec, identity, token);
    ExecutionId id =
        ExecutionId.of(ctx.cluster(), resourceKind, identity.namespace(), identity.name());
    Redactor redactor = Redactor.of(manifest);
    try {
      return create(id, identity, manifest, token, redactor);
    } catch (KubeJobsException e) {
      // The server's text may echo the manifest (an admission webhook quoting a Spark conf).
      throw redactor.scrub(e);
    }
  }

  private ExecutionId create(
      ExecutionId id, JobIdentity identity, JsonObject manifest, String token, Redactor redactor) {
    ApiUnavailableException unconfirmed = null;
    int attempts = 0;
    for (int attempt = 1; attempt <= MAX_CREATE_ATTEMPTS; attempt++) {
      attempts = attempt;
      try {
        gateway.create(id, resourceKind, identity.namespace(), manifest);
        LOG.debug("Submitted job '{}' as '{}'", identity.jobId(), id);
        return id;
      } catch (ApiStatusException e) {
        if (!e.isConflict()) {
          throw e;
        }
        // Created by an earlier submit of this job (or its lost answer), or a name clash.
        Optional<ResourceSnapshot> existing = read(id, identity);
        if (existing.isPresent() && adoptOrConflict(id, identity, existing.get(), token)) {
          return id;
        }
        LOG.debug("'{}' vanished after 409 AlreadyExists; creating it again", id);
      } catch (UnconfirmedException e) {
        // The create may have landed although its answer was lost: read before trying again.
        unconfirmed = e;
        LOG.debug(
            "Create of '{}' unconfirmed (attempt {}): {}",
            id,
            attempt,
            redactor.redact(e.getMessage()));
        try {
          Optional<ResourceSnapshot> landed = read(id, identity);
          if (landed.isPresent() && adoptOrConflict(id, identity, landed.get(), token)) {
            return id;
          }
        } catch (ApiUnavailableException readFailure) {
          e.addSuppressed(readFailure);
        }
      } catch (ApiUnavailableException e) {
        if (unconfirmed == null) {
          throw e; // Not sent (circuit open) and nothing sent before: nothing can have landed.
        }
        // An earlier create may have landed, and this one was not even sent (the circuit opened
        // on the lost answers): give up as for lost answers, so the caller learns about the
        // clean-up and the sweeper, not just "retry later".
        unconfirmed.addSuppressed(e);
        attempts = attempt - 1; // this one was not sent
        break;
      }
    }
    throw giveUp(id, identity, unconfirmed, attempts, token, redactor);
  }

  private Optional<ResourceSnapshot> read(ExecutionId id, JobIdentity identity) {
    return gateway.get(id, resourceKind, identity.namespace(), identity.name());
  }

  /**
   * Adopts an existing resource of this job: one this submit created (its lost answer), or one
   * another submit of the job created, which this submit claims with a resourceVersion-locked patch
   * of {@value JobIdentity#ANNOTATION_SUBMITTED_BY} so that submit's clean-up leaves it alone.
   *
   * @return true when adopted, false when the resource vanished meanwhile (create again)
   * @throws JobConflictException when the name is someone else's or being deleted
   */
  private boolean adoptOrConflict(
      ExecutionId id, JobIdentity identity, ResourceSnapshot first, String token) {
    ResourceSnapshot existing = first;
    String creator = first.annotation(JobIdentity.ANNOTATION_SUBMITTED_BY).orElse(null);
    for (int round = 1; round <= MAX_CREATE_ATTEMPTS; round++) {
      if (!identity.owns(existing) || existing.isBeingDeleted()) {
        throw conflict(id, identity, existing);
      }
      if (token.equals(existing.annotation(JobIdentity.ANNOTATION_SUBMITTED_BY).orElse(null))) {
        LOG.debug("Adopted '{}', created by this submit of job '{}'", id, identity.jobId());
        return true;
      }
      try {
        gateway.mergePatch(
            id, resourceKind, identity.namespace(), identity.name(), claim(existing, token));
        LOG.debug("Adopted '{}', created by another submit of job '{}'", id, identity.jobId());
        return true;
      } catch (ApiStatusException e) {
        if (e.isNotFound()) {
          return false;
        }
        if (!e.isConflict()) {
          throw e;
        }
        // Changed since the read (that submit's clean-up may be deleting it): decide again.
        Optional<ResourceSnapshot> now = read(id, identity);
        if (now.isEmpty()) {
          return false;
        }
        existing = now.get();
        if (identity.owns(existing)
            && !existing.isBeingDeleted()
            && !Objects.equals(
                creator, existing.annotation(JobIdentity.ANNOTATION_SUBMITTED_BY).orElse(null))) {
          // Another submit claimed it meanwhile: the creator's clean-up leaves it alone now.
          LOG.debug("Adopted '{}', claimed by another submit of job '{}'", id, identity.jobId());
          return true;
        }
      }
    }
    throw new ApiUnavailableException(
        id,
        "submit of job '"
            + abbreviate(identity.jobId())
            + "' could not adopt "
            + id
            + ": it changed under each of "
            + MAX_CREATE_ATTEMPTS
            + " attempts; submitting again is safe",
        false,
        null);
  }

  private static JsonObject claim(ResourceSnapshot existing, String token) {
    JsonObject annotations = new JsonObject();
    annotations.addProperty(JobIdentity.ANNOTATION_SUBMITTED_BY, token);
    JsonObject metadata = new JsonObject();
    metadata.addProperty("resourceVersion", existing.resourceVersion());
    metadata.add("annotations", annotations);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    return patch;
  }

  private JobConflictException conflict(
      ExecutionId id, JobIdentity identity, ResourceSnapshot existing) {
    String owner;
    JobConflictException.Reason reason;
    if (identity.owns(existing)) {
      reason = JobConflictException.Reason.BEING_DELETED;
      owner =
          "a resource of this very job that is being deleted (wait until it is gone, then submit"
              + " again)";
    } else if (!JobIdentity.MANAGED_BY_VALUE.equals(
        existing.label(JobIdentity.LABEL_MANAGED_BY).orElse(null))) {
      reason = JobConflictException.Reason.NOT_MANAGED;
      owner = "a resource not managed by kubejobs";
    } else if (!ctx.deployment()
        .equals(existing.label(JobIdentity.LABEL_DEPLOYMENT).orElse(null))) {
      reason = JobConflictException.Reason.OTHER_DEPLOYMENT;
      owner =
          "a resource of another deployment ('"
              + existing.labels().getOrDefault(JobIdentity.LABEL_DEPLOYMENT, "")
              + "')";
    } else {
      reason = JobConflictException.Reason.OTHER_JOB;
      owner =
          "another job ('"
              + abbreviate(existing.annotations().getOrDefault(JobIdentity.ANNOTATION_JOB_ID, ""))
              + "') of this deployment";
    }
    return new JobConflictException(
        id,
        reason,
        "cannot submit job '"
            + abbreviate(identity.jobId())
            + "': the name "
            + identity.namespace()
            + "/"
            + identity.name()
            + " is taken by "
            + owner
            + ". When two deployments share a namespace, give each its own 'deployment' setting"
            + " and 'namePrefix' (this instance: deployment='"
            + ctx.deployment()
            + "', namePrefix='"
            + ctx.namePrefix()
            + "')",
        null);
  }

  /**
   * Every create went unanswered: delete what landed if this submit created it and no other submit
   * adopted it since (the delete is locked to the copy read; 409 → read and decide again), then
   * give up.
   */
  private ApiUnavailableException giveUp(
      ExecutionId id,
      JobIdentity identity,
      ApiUnavailableException cause,
      int attempts,
      String token,
      Redactor redactor) {
    String cleanup = null;
    boolean mayExist = true;
    try {
      for (int round = 1; cleanup == null; round++) {
        Optional<ResourceSnapshot> landed = read(id, identity);
        if (landed.isEmpty()) {
          cleanup = "nothing landed";
          mayExist = false;
        } else if (!identity.owns(landed.get())) {
          cleanup = "the resource of that name is not this job's and was left alone";
        } else if (landed.get().isBeingDeleted()) {
          cleanup = "the resource that landed is being deleted";
          mayExist = false;
        } else if (!token.equals(
            landed.get().annotation(JobIdentity.ANNOTATION_SUBMITTED_BY).orElse(null))) {
          cleanup =
              "the job's resource was created or adopted by another submit of this job and was"
                  + " left alone";
        } else if (round > MAX_CREATE_ATTEMPTS) {
          cleanup = "the resource that landed changed under each attempt to delete it";
        } else {
          try {
            DeleteResult result =
                gateway.delete(
                    id,
                    resourceKind,
                    identity.namespace(),
                    identity.name(),
                    landed.get().uid(),
                    landed.get().resourceVersion());
            cleanup =
                result == DeleteResult.ACCEPTED
                    ? "the resource that landed was deleted"
                    : "the resource that landed is gone";
            mayExist = false;
          } catch (ApiStatusException e) {
            if (!e.isConflict()) {
              throw e;
            }
            // Changed since the read (another submit adopted it): read and decide again.
          }
        }
      }
    } catch (KubeJobsException e) {
      if (cause != null) {
        cause.addSuppressed(e);
      }
      cleanup = "whether it landed could not be checked (" + e.getMessage() + ")";
      mayExist = true;
    }
    LOG.debug("Gave up submitting '{}': {}", id, redactor.redact(cleanup));
    return new ApiUnavailableException(
        id,
        "submit of job '"
            + abbreviate(identity.jobId())
            + "' as "
            + id
            + " could not be confirmed after "
            + attempts
            + (attempts == 1 ? " attempt" : " attempts")
            + ": the API server's answers were lost; "
            + cleanup
            + ". The orphan sweeper reconciles anything left; submitting again is safe",
        mayExist,
        cause);
  }

  private JsonObject manifestOf(S spec, JobIdentity identity, String token) {
    JsonObject manifest;
    try {
      manifest = kind.manifest(spec, identity);
    } catch (InvalidJobSpecException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new InvalidJobSpecException(
          "the resource of job '"
              + abbreviate(identity.jobId())
              + "' could not be built from its spec: "
              + e.getMessage());
    }
    if (manifest == null) {
      throw new InvalidJobSpecException(
          "the job kind built no resource for job '" + abbreviate(identity.jobId()) + "'");
    }
    manifest = manifest.deepCopy();
    if (!manifest.has("apiVersion")) {
      manifest.addProperty("apiVersion", resourceKind.apiVersion());
    }
    if (!manifest.has("kind")) {
      manifest.addProperty("kind", resourceKind.kind());
    }
    JsonObject metadata = objectField(manifest, "metadata", identity);
    metadata.addProperty("name", identity.name());
    metadata.addProperty("namespace", identity.namespace());
    // kubejobs owns its labels and annotations: they decide adoption, sweeping and cancel.
    JsonObject labels = objectField(metadata, "labels", identity);
    identity.labels().forEach(labels::addProperty);
    JsonObject annotations = objectField(metadata, "annotations", identity);
    identity.annotations().forEach(annotations::addProperty);
    annotations.addProperty(JobIdentity.ANNOTATION_SUBMITTED_BY, token);
    annotations.remove(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    validateLabels(identity, labels);
    validateAnnotations(identity, annotations);
    return manifest;
  }

  private static JsonObject objectField(JsonObject parent, String field, JobIdentity identity) {
    JsonElement value = parent.get(field);
    if (value == null || value.isJsonNull()) {
      JsonObject created = new JsonObject();
      parent.add(field, created);
      return created;
    }
    if (!value.isJsonObject()) {
      throw new InvalidJobSpecException(
          "the resource of job '"
              + abbreviate(identity.jobId())
              + "' must have an object '"
              + field
              + "', but it was "
              + (value.isJsonArray() ? "an array" : "a value"));
    }
    return value.getAsJsonObject();
  }

  private static void validateLabels(JobIdentity identity, JsonObject labels) {
    for (Map.Entry<String, JsonElement> e : labels.entrySet()) {
      String key = e.getKey();
      String what = "label '" + key + "' of job '" + abbreviate(identity.jobId()) + "'";
      if (!KubernetesNames.isQualifiedName(key)) {
        throw new InvalidJobSpecException(
            what
                + ": a label key must be an optional DNS subdomain prefix and '/', then 1-63"
                + " letters, digits, '-', '_' or '.' starting and ending with a letter or digit");
      }
      JsonElement value = e.getValue();
      if (value == null || !value.isJsonPrimitive()) {
        throw new InvalidJobSpecException(what + " must have a string value");
      }
      String text = value.getAsString();
      if (!KubernetesNames.isLabelValue(text)) {
        throw new InvalidJobSpecException(
            what
                + " must have a value of at most 63 letters, digits, '-', '_' or '.' starting and"
                + " ending with a letter or digit, but was '"
                + abbreviate(text)
                + "'");
      }
    }
  }

  private static void validateAnnotations(JobIdentity identity, JsonObject annotations) {
    long size = 0;
    for (Map.Entry<String, JsonElement> e : annotations.entrySet()) {
      if (e.getValue() == null || !e.getValue().isJsonPrimitive()) {
        throw new InvalidJobSpecException(
            "annotation '"
                + e.getKey()
                + "' of job '"
                + abbreviate(identity.jobId())
                + "' must have a string value");
      }
      size += e.getKey().getBytes(StandardCharsets.UTF_8).length;
      size += e.getValue().getAsString().getBytes(StandardCharsets.UTF_8).length;
    }
    if (size > MAX_ANNOTATIONS_BYTES) {
      throw new InvalidJobSpecException(
          "the annotations of job '"
              + abbreviate(identity.jobId())
              + "' must total at most 256 KiB, but were "
              + size
              + " bytes");
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 100 ? text : text.substring(0, 100) + "…";
  }
}
