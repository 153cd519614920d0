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
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.diagnosis.Diagnoser;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.DiagnosisInput;
import dev.kubejobs.core.diagnosis.DiagnosisRule;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status pipeline's last step: explains why a job waits too long or why it just failed, with
 * the {@link Diagnoser} and the job kind's rules ({@link
 * dev.kubejobs.core.spi.JobStatusMapper#diagnosisRules()}), from the copy of the job's resource,
 * its driver pod (the one the mapping already looked up, else one lookup) and its namespace's
 * events (one LIST per namespace per read, shared by every job of that namespace it diagnoses, and
 * only when one needs it).
 *
 * <p>Bounded cost: only a job that is {@link JobStatus#FAILED} as it is first reported, {@link
 * JobStatus#QUEUED} longer than the threshold since its resource was created, or {@link
 * JobStatus#STARTED} with executors its operator's status shows waiting that long or failed, is
 * diagnosed; a healthy job costs no request. The executor pods of a diagnosed STARTED job, and of a
 * FAILED one whose operator status records failed or waiting executors, are read with one labelled
 * pod LIST per namespace per read, shared like the events. Events that may not be listed are not a
 * failure: the diagnosis says what it could not read. Not a published API; thread safe.
 */
final class DiagnosisStep {
  private static final Logger LOG = LoggerFactory.getLogger(DiagnosisStep.class);

  /** The label selector of Spark's executor pods (Spark's {@code SPARK_ROLE_LABEL}). */
  static final String EXECUTOR_PODS = "spark-role=executor";

  /**
   * The labels that name an executor pod's application: Spark's own, the Kubeflow operator's and
   * the Apache operator's.
   */
  private static final List<String> APP_NAME_LABELS =
      List.of("spark-app-name", "sparkoperator.k8s.io/app-name", "spark.operator/spark-app-name");

  /** core/v1 Events. */
  static final ResourceKind EVENT = new ResourceKind("", "v1", "events", "Event");

  private final KubeJobsContext<?> ctx;
  private final DriverPodLocator locator;
  private final Duration after;
  private final Diagnoser diagnoser;
  private final String applicationKind;

  /**
   * Creates the step.
   *
   * @param after how long a job may wait in QUEUED before it is diagnosed
   */
  DiagnosisStep(KubeJobsContext<?> ctx, DriverPodLocator locator, Duration after) {
    this.ctx = ctx;
    this.locator = locator;
    this.after = after;
    this.applicationKind = ctx.jobKind().resourceKind().kind();
    Diagnoser.Builder b = Diagnoser.builder().stuckAfter(after);
    List<DiagnosisRule> rules;
    try {
      rules = ctx.jobKind().statusMapper().diagnosisRules();
    } catch (RuntimeException e) {
      LOG.warn("The job kind's diagnosis rules could not be read; diagnosing without them", e);
      rules = List.of();
    }
    for (DiagnosisRule rule : rules == null ? List.<DiagnosisRule>of() : rules) {
      b.rule(rule);
    }
    this.diagnoser = b.build();
  }

  /**
   * Whether a decided status is to be diagnosed: FAILED (the reader reports it for the first time:
   * a job reported terminal before never reaches the pipeline again), or QUEUED for at least the
   * threshold since {@code app} was created.
   *
   * @param app the copy, or null when the cache no longer holds it (then only FAILED is)
   */
  boolean wanted(JobExecutionInfo info, ResourceSnapshot app, Instant now) {
    if (info.status() == JobStatus.FAILED) {
      return true;
    }
    if (info.status() == JobStatus.STARTED && app != null) {
      return executorsFailed(app) || executorsWaitingLong(info, app, now);
    }
    if (info.status() != JobStatus.QUEUED || app == null) {
      return false;
    }
    return app.creationTimestamp()
        .map(created -> Duration.between(created, now).compareTo(after) >= 0)
        .orElse(false);
  }

  /**
   * Whether a STARTED job's operator status records failed executors (the mapper's {@link
   * dev.kubejobs.core.spi.JobStatusMapper#executorsFailed}, no request).
   */
  private boolean executorsFailed(ResourceSnapshot app) {
    try {
      return ctx.jobKind().statusMapper().executorsFailed(app);
    } catch (RuntimeException e) {
      LOG.debug("The job kind could not tell whether executors failed: {}", e.toString());
      return false;
    }
  }

  private boolean executorsWaiting(ResourceSnapshot app) {
    try {
      return ctx.jobKind().statusMapper().executorsWaiting(app);
    } catch (RuntimeException e) {
      LOG.debug("The job kind could not tell whether executors wait: {}", e.toString());
      return false;
    }
  }

  /**
   * Whether a STARTED job's operator status shows waiting executors (the mapper's {@link
   * dev.kubejobs.core.spi.JobStatusMapper#executorsWaiting}, no request) for at least the threshold
   * since the driver started, else since the copy was created.
   */
  private boolean executorsWaitingLong(JobExecutionInfo info, ResourceSnapshot app, Instant now) {
    boolean waiting;
    try {
      waiting = ctx.jobKind().statusMapper().executorsWaiting(app);
    } catch (RuntimeException e) {
      LOG.debug("The job kind could not tell whether executors wait: {}", e.toString());
      return false;
    }
    if (!waiting) {
      return false;
    }
    Optional<Instant> since = info.startedAt().or(app::creationTimestamp);
    return since.map(t -> Duration.between(t, now).compareTo(after) >= 0).orElse(false);
  }

  /**
   * One namespace's events for one read: listed at the first job that needs them, then shared. Not
   * thread safe: one read of one namespace uses it, on one thread.
   */
  final class NamespaceEvents {
    private final String namespace;
    private List<JsonObject> events;
    private String notRead;
    private List<ResourceSnapshot> executorPods;

    /** Lists the namespace's executor pods once (one labelled pod LIST); none when unreadable. */
    private List<ResourceSnapshot> executorPods(ExecutionId about) {
      if (executorPods != null) {
        return executorPods;
      }
      executorPods = List.of();
      try {
        executorPods = ctx.gateway().listPods(about, namespace, EXECUTOR_PODS);
      } catch (KubeJobsException e) {
        LOG.debug("Diagnosing without the executor pods of namespace {}", namespace, e);
      }
      return executorPods;
    }

    NamespaceEvents(String namespace) {
      this.namespace = namespace;
    }

    private void read(ExecutionId about) {
      if (events != null) {
        return;
      }
      events = new ArrayList<>();
      try {
        for (ResourceSnapshot event : ctx.gateway().list(about, EVENT, namespace, null)) {
          if (!OutcomeRecord.isRecord(event.json())) {
            // kubejobs' own records of how it ended jobs say nothing of why a job waits or failed.
            events.add(event.json());
          }
        }
      } catch (JobRejectedException e) {
        notRead =
            e.reason() == JobRejectedException.Reason.FORBIDDEN
                ? "missing permission: list events in namespace " + namespace
                : "the events of namespace "
                    + namespace
                    + " could not be listed ("
                    + e.code()
                    + ")";
        LOG.debug("Diagnosing without events: {}", notRead);
      } catch (KubeJobsException e) {
        notRead = "the events of namespace " + namespace + " could not be read (API unavailable)";
        LOG.debug("Diagnosing without events of namespace {}", namespace, e);
      }
    }
  }

  /** Starts a read of one namespace's jobs: no request until a job needs the events. */
  NamespaceEvents eventsOf(String namespace) {
    return new NamespaceEvents(namespace);
  }

  /**
   * Diagnoses a job the step {@link #wanted}.
   *
   * @param app the copy the status was decided on
   * @param pod the driver pod as the mapping saw it; looked up here (once) when it was not
   * @return the info with its diagnosis, or as it was when nothing explains the job
   */
  JobExecutionInfo diagnose(
      ExecutionId id,
      JobExecutionInfo info,
      ResourceSnapshot app,
      DriverPod pod,
      NamespaceEvents events,
      Instant now) {
    DriverPod driver = pod;
    if (driver.lookup() == DriverPod.Lookup.NOT_LOOKED_UP) {
      try {
        driver = locator.locate(id, app);
      } catch (KubeJobsException e) {
        LOG.debug("Diagnosing job '{}' without its driver pod: {}", id, e.getMessage());
        driver = DriverPod.unavailable("the driver pod could not be read");
      }
    }
    events.read(id);
    Duration waited =
        app.creationTimestamp()
            .map(created -> Duration.between(created, now))
            .orElse(Duration.ZERO);
    DiagnosisInput.Builder input =
        DiagnosisInput.builder(id.namespace(), applicationKind, id.name(), info.status(), now)
            .waited(waited.isNegative() ? Duration.ZERO : waited)
            .events(events.events);
    if (info.status() == JobStatus.STARTED
        || info.status() == JobStatus.FAILED && (executorsFailed(app) || executorsWaiting(app))) {
      // A failed job whose operator status records executor trouble: its executor pods may say
      // why (an executor OOMKilled, executors stuck until the operator gave up on them). Other
      // failed jobs cost no executor LIST.
      input.executorPods(executorsOf(id, driver, events.executorPods(id)));
    }
    input.applicationLabels(app.labels());
    app.status().ifPresent(input::operatorStatus);
    driver.pod().ifPresent(p -> input.driverPod(p.json()));
    if (events.notRead != null) {
      input.eventsNotRead(events.notRead);
    }
    Optional<Diagnosis> diagnosis;
    try {
      diagnosis = diagnoser.diagnose(input.build());
    } catch (RuntimeException e) {
      // A bug of a rule must not fail the status read: report the status without a diagnosis.
      LOG.warn("Diagnosing job '{}' failed; its status is reported without a diagnosis", id, e);
      return info;
    }
    if (diagnosis.isEmpty()) {
      return info;
    }
    LOG.debug("Job '{}' is {}: {}", id, info.status(), diagnosis.get().cause());
    return info.toBuilder().diagnosis(diagnosis.get()).build();
  }

  /**
   * Keeps the executor pods of one application: labelled with its name (Spark's {@code
   * spark-app-name}, or an operator's app-name label), or owned by its driver pod (Spark makes the
   * driver pod the executors' owner).
   */
  private static List<JsonObject> executorsOf(
      ExecutionId id, DriverPod driver, List<ResourceSnapshot> pods) {
    String driverName = driver.pod().map(ResourceSnapshot::name).orElse(null);
    List<JsonObject> out = new ArrayList<>();
    for (ResourceSnapshot pod : pods) {
      boolean named = false;
      for (String label : APP_NAME_LABELS) {
        named |= pod.label(label).filter(id.name()::equals).isPresent();
      }
      if (named || (driverName != null && ownedBy(pod, driverName))) {
        out.add(pod.json());
      }
    }
    return out;
  }

  private static boolean ownedBy(ResourceSnapshot pod, String owner) {
    JsonElement refs =
        pod.json().has("metadata") && pod.json().get("metadata").isJsonObject()
            ? pod.json().getAsJsonObject("metadata").get("ownerReferences")
            : null;
    if (refs == null || !refs.isJsonArray()) {
      return false;
    }
    for (JsonElement ref : refs.getAsJsonArray()) {
      if (ref.isJsonObject()
          && "Pod".equals(str(ref.getAsJsonObject(), "kind"))
          && owner.equals(str(ref.getAsJsonObject(), "name"))) {
        return true;
      }
    }
    return false;
  }

  private static String str(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
  }
}
