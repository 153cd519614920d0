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
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.diagnosis.Messages;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.JsonTree;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable record of how kubejobs ended a job itself (a cancel, the no-status timeout's end
 * mark): a core/v1 Event about the job's resource, which outlives the resource for the API server's
 * event TTL, so that every node, not only the one that ended the job, reports the same outcome once
 * the resource is gone (docs/outcome-record.md).
 *
 * <p>Before a delete locked to a marked copy, the deleter writes an <em>intent</em> ({@value
 * #REASON_CANCELLED} or {@value #REASON_ENDED}) bound to the mark's value and the copy's
 * resourceVersion. A delete known not to have landed (409: the copy changed) is superseded by a
 * <em>withdrawal</em> ({@value #REASON_WITHDRAWN}) of that intent; a mark removed with a locked
 * patch is superseded by a withdrawal of every intent bound to it (no delete locked to an older
 * copy can land after it). A reader that finds the job gone reports the outcome of the intents not
 * withdrawn, when they agree. Names are derived from what they record, so a write sent again is the
 * same Event (409 {@code AlreadyExists}).
 *
 * <p>Optional: without {@code create events} (or {@code list events}) one warning names the
 * permission and kubejobs behaves as without a record (the ending instance remembers, another reads
 * the job gone). Stateless and thread safe.
 */
final class OutcomeRecord {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeRecord.class);

  /** The reason of the intent of a cancel's delete. */
  static final String REASON_CANCELLED = "KubejobsCancelled";

  /** The reason of the intent of an end mark's delete (the no-status timeout). */
  static final String REASON_ENDED = "KubejobsEnded";

  /** The reason of a withdrawal: the intent it names did not end the job. */
  static final String REASON_WITHDRAWN = "KubejobsWithdrawn";

  /** {@code source.component} of the records. */
  static final String COMPONENT = "kubejobs";

  /** The mark (its annotation's value) a record is bound to. */
  static final String ANNOTATION_MARK = "kubejobs.dev/record-mark";

  /** The resourceVersion the intent's delete is locked to; {@value #ANY} in a withdrawal: all. */
  static final String ANNOTATION_LOCKED = "kubejobs.dev/record-resource-version";

  /** The outcome an intent records. */
  static final String ANNOTATION_OUTCOME = "kubejobs.dev/record-outcome";

  /** When the writer decided, by its clock (UTC). */
  static final String ANNOTATION_AT = "kubejobs.dev/record-at";

  /** A withdrawal of every intent bound to a mark. */
  static final String ANY = "*";

  private final KubeJobsContext<?> ctx;
  private final ResourceKind kind;

  OutcomeRecord(KubeJobsContext<?> ctx) {
    this.ctx = ctx;
    this.kind = ctx.jobKind().resourceKind();
  }

  /**
   * Records, before a delete locked to {@code marked}, that the delete ends the job {@code
   * outcome}. Best effort: a failure is logged (a missing permission once) and the delete goes on.
   *
   * @param mark the value of the mark on {@code marked} that decided the outcome
   */
  void ending(
      ExecutionId id, ResourceSnapshot marked, String mark, JobStatus outcome, String message) {
    String reason = outcome == JobStatus.CANCELLED ? REASON_CANCELLED : REASON_ENDED;
    write(
        id,
        marked,
        mark,
        marked.resourceVersion(),
        reason,
        outcome,
        outcome == JobStatus.CANCELLED ? "Normal" : "Warning",
        (outcome == JobStatus.CANCELLED
                ? "cancelled by kubejobs"
                : "ended " + outcome + " by kubejobs")
            + (message == null || message.isEmpty() ? "" : ": " + message)
            + " (delete locked to resourceVersion "
            + marked.resourceVersion()
            + ")");
  }

  /**
   * Records that the intents bound to {@code mark} (those locked to {@code lockedVersion}, or all
   * with {@link #ANY}) did not end the job: their delete met a changed copy, or the mark was
   * removed with a locked patch.
   */
  void withdrawn(ExecutionId id, ResourceSnapshot app, String mark, String lockedVersion) {
    if (mark == null) {
      return;
    }
    write(
        id,
        app,
        mark,
        lockedVersion,
        REASON_WITHDRAWN,
        null,
        "Normal",
        "kubejobs' "
            + (ANY.equals(lockedVersion)
                ? "mark was withdrawn"
                : "delete locked to resourceVersion " + lockedVersion + " did not land")
            + ": it did not end the job");
  }

  /**
   * After a delete locked to {@code marked} met 409: withdraws its record unless a fresh read shows
   * the resource being deleted, gone or replaced. A retry of a delete that landed with its answer
   * lost also meets 409 while a finalizer holds the resource (kube-apiserver checks the
   * preconditions against the copy now carrying a {@code deletionTimestamp}), so the 409 alone does
   * not say the delete did not land. A read that fails withdraws nothing.
   */
  void withdrawnAfterConflict(ExecutionId id, ResourceSnapshot marked, String mark) {
    if (mark == null) {
      return;
    }
    java.util.Optional<ResourceSnapshot> now;
    try {
      now = ctx.gateway().get(id, kind, id.namespace(), id.name());
    } catch (KubeJobsException e) {
      LOG.debug(
          "Job '{}': not read after its delete met 409, its record stays: {}", id, e.getMessage());
      return;
    }
    if (now.isPresent() && now.get().uid().equals(marked.uid()) && !now.get().isBeingDeleted()) {
      withdrawn(id, marked, mark, marked.resourceVersion());
    }
  }

  private void write(
      ExecutionId id,
      ResourceSnapshot app,
      String mark,
      String locked,
      String reason,
      JobStatus outcome,
      String type,
      String message) {
    Instant now = ctx.clock().instant().truncatedTo(ChronoUnit.SECONDS);
    String name = id.name() + "." + digest(reason, app.uid(), mark, locked);
    JsonObject annotations = new JsonObject();
    annotations.addProperty(ANNOTATION_MARK, mark);
    annotations.addProperty(ANNOTATION_LOCKED, locked);
    annotations.addProperty(ANNOTATION_AT, now.toString());
    if (outcome != null) {
      annotations.addProperty(ANNOTATION_OUTCOME, outcome.name());
    }
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", name);
    metadata.addProperty("namespace", id.namespace());
    metadata.add("annotations", annotations);
    JsonObject involved = new JsonObject();
    involved.addProperty("apiVersion", kind.apiVersion());
    involved.addProperty("kind", kind.kind());
    involved.addProperty("namespace", id.namespace());
    involved.addProperty("name", id.name());
    involved.addProperty("uid", app.uid());
    involved.addProperty("resourceVersion", app.resourceVersion());
    JsonObject source = new JsonObject();
    source.addProperty("component", COMPONENT);
    JsonObject event = new JsonObject();
    event.addProperty("apiVersion", "v1");
    event.addProperty("kind", "Event");
    event.add("metadata", metadata);
    event.add("involvedObject", involved);
    event.addProperty("reason", reason);
    event.addProperty("message", message);
    event.addProperty("type", type);
    event.add("source", source);
    event.addProperty("firstTimestamp", now.toString());
    event.addProperty("lastTimestamp", now.toString());
    event.addProperty("count", 1);
    try {
      ctx.gateway().createEvent(id, id.namespace(), event);
      LOG.debug("Job '{}': recorded {} in Event {}", id, reason, name);
    } catch (JobRejectedException e) {
      ctx.warnings()
          .warn(
              LOG,
              "record-create:" + id.namespace(),
              "kubejobs cannot record how it ended a job ("
                  + (e.reason() == JobRejectedException.Reason.FORBIDDEN
                      ? "missing permission: create events in namespace " + id.namespace()
                      : e.getMessage())
                  + "): only the instance that ended a job knows its outcome once the resource is"
                  + " gone; others read it gone. Grant it (see docs/rbac.yaml)");
    } catch (KubeJobsException e) {
      LOG.warn(
          "Job '{}': {} could not be recorded in an Event ({}); other nodes may read the job gone",
          id,
          reason,
          e.getMessage());
    }
  }

  /**
   * Reads the records of the jobs of one namespace found gone: one LIST, by the job's uid (or name)
   * for one job, by the kind for several.
   *
   * @param uids per job, the uid of the resource last read, or null when never read
   * @return per job, the outcome recorded and not withdrawn; jobs without one are absent
   * @throws ApiUnavailableException when the records could not be read (the jobs' outcome is then
   *     unknown, not "gone")
   */
  Map<ExecutionId, JobExecutionInfo> read(String namespace, Map<ExecutionId, String> uids) {
    Map<ExecutionId, JobExecutionInfo> out = new LinkedHashMap<>();
    if (uids.isEmpty()) {
      return out;
    }
    String selector;
    if (uids.size() == 1) {
      Map.Entry<ExecutionId, String> only = uids.entrySet().iterator().next();
      selector =
          only.getValue() != null
              ? "involvedObject.uid=" + only.getValue()
              : "involvedObject.kind="
                  + kind.kind()
                  + ",involvedObject.name="
                  + only.getKey().name();
    } else {
      selector =
          "involvedObject.kind=" + kind.kind() + ",involvedObject.apiVersion=" + kind.apiVersion();
    }
    List<JsonTree.Obj> events;
    try {
      events = ctx.gateway().listEvents(uids.keySet().iterator().next(), namespace, selector);
    } catch (JobRejectedException e) {
      ctx.warnings()
          .warn(
              LOG,
              "record-list:" + namespace,
              "kubejobs cannot read how another instance ended a job ("
                  + (e.reason() == JobRejectedException.Reason.FORBIDDEN
                      ? "missing permission: list events in namespace " + namespace
                      : e.getMessage())
                  + "): a job found gone reads gone. Grant it (see docs/rbac.yaml)");
      return out;
    }
    List<Entry> entries = new ArrayList<>();
    for (JsonTree.Obj event : events) {
      Entry entry = Entry.of(event);
      if (entry != null) {
        entries.add(entry);
      }
    }
    for (Map.Entry<ExecutionId, String> job : uids.entrySet()) {
      JobExecutionInfo recorded = outcome(job.getKey(), job.getValue(), entries);
      if (recorded != null) {
        out.put(job.getKey(), recorded);
      }
    }
    return out;
  }

  /** The outcome the live intents of one job agree on, or null. */
  private static JobExecutionInfo outcome(ExecutionId id, String uid, List<Entry> entries) {
    Set<String> withdrawn = new HashSet<>();
    for (Entry e : entries) {
      if (e.withdrawal() && e.of(id, uid)) {
        withdrawn.add(e.mark() + "\n" + e.locked());
      }
    }
    Entry live = null;
    for (Entry e : entries) {
      if (e.withdrawal()
          || !e.of(id, uid)
          || withdrawn.contains(e.mark() + "\n" + ANY)
          || withdrawn.contains(e.mark() + "\n" + e.locked())) {
        continue;
      }
      if (live != null && (live.outcome() != e.outcome() || !live.uid().equals(e.uid()))) {
        // Two records that disagree (or two resources of that name, when no uid is known): no
        // record settles it.
        LOG.debug("Job '{}': its records disagree; reading it gone", id);
        return null;
      }
      if (live == null || e.at().isBefore(live.at())) {
        live = e;
      }
    }
    if (live == null) {
      return null;
    }
    return JobExecutionInfo.builder(live.outcome())
        .message(live.message() + " (recorded by kubejobs; the resource is gone)")
        .finishedAt(live.at())
        .build();
  }

  /** One of kubejobs' records, as read. */
  private record Entry(
      String name,
      String uid,
      String mark,
      String locked,
      JobStatus outcome,
      Instant at,
      String message) {

    boolean withdrawal() {
      return outcome == null;
    }

    boolean of(ExecutionId id, String knownUid) {
      return knownUid != null ? knownUid.equals(uid) : id.name().equals(name);
    }

    /** The record, or null for an event that is none of kubejobs' records. */
    static Entry of(JsonTree.Obj event) {
      JsonTree.Obj source = event.object("source");
      JsonTree.Obj involved = event.object("involvedObject");
      JsonTree.Obj metadata = event.object("metadata");
      JsonTree.Obj annotations = metadata == null ? null : metadata.object("annotations");
      String reason = event.text("reason");
      if (source == null
          || !COMPONENT.equals(source.text("component"))
          || involved == null
          || annotations == null
          || reason == null) {
        return null;
      }
      String uid = involved.text("uid");
      String mark = annotations.text(ANNOTATION_MARK);
      String locked = annotations.text(ANNOTATION_LOCKED);
      if (uid == null || mark == null || locked == null) {
        return null;
      }
      JobStatus outcome = null;
      if (!REASON_WITHDRAWN.equals(reason)) {
        if (!REASON_CANCELLED.equals(reason) && !REASON_ENDED.equals(reason)) {
          return null;
        }
        try {
          outcome = JobStatus.valueOf(String.valueOf(annotations.text(ANNOTATION_OUTCOME)));
        } catch (IllegalArgumentException e) {
          LOG.debug(
              "An Event of kubejobs with an unknown outcome is no record: {}", e.getMessage());
          return null;
        }
        if (!outcome.isTerminal()) {
          return null;
        }
      }
      Instant at;
      try {
        at = Instant.parse(String.valueOf(annotations.text(ANNOTATION_AT)));
      } catch (DateTimeParseException e) {
        // Still a record of how the job ended; only its time is unknown.
        LOG.debug(
            "A kubejobs Event's time is not readable, taken as the epoch: {}", e.getMessage());
        at = Instant.EPOCH;
      }
      String message = event.text("message");
      return new Entry(
          involved.text("name"),
          uid,
          mark,
          locked,
          outcome,
          at,
          message == null ? "" : Messages.cap(message));
    }
  }

  /** Whether an Event (as listed) is one of kubejobs' records: its {@code source.component}. */
  static boolean isRecord(JsonObject event) {
    return event.has("source")
        && event.get("source").isJsonObject()
        && event.getAsJsonObject("source").has("component")
        && COMPONENT.equals(event.getAsJsonObject("source").get("component").getAsString());
  }

  /** A short, stable name part for what a record is bound to. */
  private static String digest(String... parts) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        sha.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest(), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
