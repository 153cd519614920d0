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
package dev.kubejobs.gravitino;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.logs.DriverLog;
import dev.kubejobs.core.resilience.Resilience4jPolicy;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.sweep.SweepReport;
import dev.kubejobs.core.sweep.SweepRequest;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.RetryConfig;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.OkHttpClient;
import org.apache.gravitino.connector.job.JobContext;
import org.apache.gravitino.connector.job.JobExecutionInfo;
import org.apache.gravitino.connector.job.JobExecutor;
import org.apache.gravitino.exceptions.NoSuchJobException;
import org.apache.gravitino.job.JobHandle;
import org.apache.gravitino.job.JobTemplate;
import org.apache.gravitino.job.SparkJobTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Gravitino job executor that runs Gravitino's Spark job templates on Kubernetes as Spark
 * operator {@code SparkApplication}s through kubejobs: Gravitino's job system can submit, track,
 * cancel and read the driver log of Spark jobs on a cluster without its own Kubernetes code.
 *
 * <p><b>SPI.</b> It implements Gravitino's {@code org.apache.gravitino.connector.job.JobExecutor}
 * as on Gravitino's {@code main} branch after 1.3.0 (with {@code JobContext}, {@code
 * getJobExecutionInfo}, {@code ownsJob}, {@code isJobStateNodeLocal}, {@code getJobStdout}/{@code
 * getJobStderr}; commits in {@link org.apache.gravitino.connector.job}), and also every method of
 * Gravitino 1.3.0's smaller interface. It is compiled against stand-ins of the three {@code
 * gravitino-core} types in their real package (module {@code gravitino-stubs}, never shipped), so a
 * Gravitino server of the main line loads it by name from its {@code libs/}: put the {@code
 * kubejobs-gravitino-<version>-shaded.jar} there and set the {@code gravitino.conf} lines of {@code
 * docs/gravitino.md}.
 *
 * <p><b>Contract.</b>
 *
 * <ul>
 *   <li>The job execution id is the kubejobs {@link ExecutionId} ({@code
 *       <cluster>/<plural>.<group>/<namespace>/<name>}); the resource is named after Gravitino's
 *       job id, so a retried submit of the same job lands on the same SparkApplication.
 *   <li>Any node can track and cancel any job (the cluster is shared): {@link #ownsJob} is true and
 *       {@link #isJobStateNodeLocal} false; this executor keeps no per-job state a node needs (only
 *       bounded memories: the jobs it cancelled, the diagnoses it logged).
 *   <li>{@link #getJobExecutionInfo} reports when the job started and finished as the operator (or
 *       the driver container) recorded them, in every later state, on every node.
 *   <li>{@link NoSuchJobException} only when a fresh read confirms the SparkApplication is gone —
 *       never for a cache miss or an unreachable API server (those throw kubejobs' {@code
 *       ApiUnavailableException}, which Gravitino logs, keeping the job's status). A job cancelled
 *       through this executor is deleted. A pull that sees it being deleted with the cancel mark
 *       reads CANCELLED; this executor reads a job it cancelled and then finds gone as CANCELLED
 *       too (it remembers the last {@value #CANCELS_REMEMBERED} it cancelled), also while the
 *       cancel is on its way, because Gravitino records the job CANCELLING only after {@link
 *       #cancelJob} returns and would turn a {@code NoSuchJobException} read before that into
 *       FAILED. Another node finding the job gone gets the {@code NoSuchJobException}, which
 *       Gravitino turns into CANCELLED once the job is recorded CANCELLING — and into FAILED when
 *       that node's pull read the job's record before: an application without a finalizer (the
 *       Kubeflow operator's) is gone as soon as it is deleted, so a pull on another node in that
 *       window cannot tell a cancel from any other deletion. The Apache operator's finalizer keeps
 *       the deleted application, with its cancel mark, until the operator releases it.
 *   <li>{@link #cancelJob} of a job that has already ended changes nothing: it keeps its outcome.
 *   <li>No {@link Error} leaves {@link #getJobExecutionInfo}, {@link #getJobStatus}, {@link
 *       #cancelJob}, {@link #getJobStdout} or {@link #getJobStderr}: Gravitino's status pull
 *       survives exceptions only, and an error would end it for good, silently. A {@link
 *       LinkageError} (a server whose SPI classes do not match this jar) becomes an {@link
 *       IllegalStateException} naming the Gravitino versions this jar needs, logged at ERROR once;
 *       any other error an {@link IllegalStateException} naming the method and the job. The two
 *       output methods return an empty list instead.
 *   <li>An execution id of another cluster than {@code gravitino.jobExecutor.kubejobs.cluster} (a
 *       node configured with another value) is first looked for in the configured cluster: when the
 *       SparkApplication it names is there and is that job's (kubejobs' labels, this deployment,
 *       the job id its name derives from), the executor tracks, cancels and reads it there, and
 *       warns once per other value, naming both values and the setting. An id whose resource is not
 *       found there, or is not the job's, or that is not a kubejobs id at all, is a {@link
 *       NoSuchJobException} naming the cluster or the id, as Gravitino's own Kubernetes executor
 *       does for another cluster's id: Gravitino fails the job once (CANCELLED if it was
 *       CANCELLING) instead of pulling an error for it forever.
 *   <li>With {@code driverPodRetentionMs} above 0 (set through {@link #initialize}), the
 *       SparkApplications of jobs that ended longer ago than that are deleted: at most once per
 *       {@code endedJobsSweepIntervalMs}, the first such interval after {@code initialize}, a call
 *       of {@link #getJobExecutionInfo} or {@link #submitJob(JobContext, JobTemplate)} first runs
 *       kubejobs' sweep for ended jobs (never for orphans: the executor does not know all of
 *       Gravitino's job ids) over the namespaces it has seen. A failing sweep is logged at WARN and
 *       never fails the call. Gravitino records a job's outcome when its pull sees it end, long
 *       before; {@link #getJobStdout} of a removed job says why there is no output.
 * </ul>
 *
 * <p>Thread safe. Gravitino creates it with the no-argument constructor and calls {@link
 * #initialize} once; an embedding program can instead hand in a ready {@link KubeJobs}.
 */
public final class KubeJobsSparkExecutor implements JobExecutor {
  /** The annotation carrying the Gravitino metalake of the job. */
  public static final String METALAKE_ANNOTATION = "gravitino.apache.org/metalake";

  private static final Logger LOG = LoggerFactory.getLogger(KubeJobsSparkExecutor.class);

  private volatile KubeJobs<SparkJobSpec> jobs;
  private volatile GravitinoMapping.Defaults defaults;
  private volatile String gonePodReason;
  private volatile ApiClient ownedClient;
  private volatile boolean closed;
  private final Clock clock;
  private volatile Duration endedJobsKeptFor = Duration.ZERO;
  private volatile Duration sweepInterval;
  private final AtomicReference<Instant> nextSweep = new AtomicReference<>();
  private final Set<String> namespaces = ConcurrentHashMap.newKeySet();

  /**
   * The sentence naming the Gravitino versions this jar runs in, in the messages of a server that
   * lacks its SPI: {@value}.
   */
  static final String NEEDS_GRAVITINO =
      "This kubejobs-gravitino jar needs a Gravitino server of the main line after 1.3.0 (the"
          + " unreleased 2.0 line), whose job executor SPI has"
          + " org.apache.gravitino.connector.job.JobContext and JobExecutionInfo; Gravitino 1.3.0"
          + " and earlier cannot run it";

  /** Whether a server whose classes do not match this jar has been logged. */
  private final AtomicBoolean mismatchLogged = new AtomicBoolean();

  /** The most jobs cancelled through this executor that are remembered: {@value}. */
  static final int CANCELS_REMEMBERED = 10_000;

  /**
   * The jobs this executor's {@link #cancelJob} deleted (or is deleting), the least recently
   * cancelled going first: one of them found gone is CANCELLED, not a {@link NoSuchJobException}.
   */
  private final Set<String> cancelledHere =
      Collections.newSetFromMap(bounded(CANCELS_REMEMBERED, false));

  /**
   * The jobs of another cluster value found in the configured cluster, by the id Gravitino holds:
   * looked up once each.
   */
  private final Map<String, ExecutionId> adopted = bounded(CANCELS_REMEMBERED, true);

  /** The other cluster values a warning was logged for. */
  private final Set<String> warnedClusters = ConcurrentHashMap.newKeySet();

  /** The most jobs whose last logged diagnosis cause is remembered: {@value}. */
  static final int DIAGNOSES_REMEMBERED = 1024;

  /** The cause last logged per job, so each is logged once; the least recently used go first. */
  private final Map<String, Cause> loggedCauses = bounded(DIAGNOSES_REMEMBERED, true);

  /**
   * A thread-safe map of at most {@code max} entries that drops its eldest first: the least
   * recently used with {@code accessOrder}, else the least recently put.
   */
  private static <K, V> Map<K, V> bounded(int max, boolean accessOrder) {
    return Collections.synchronizedMap(
        new LinkedHashMap<>(16, 0.75f, accessOrder) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > max;
          }
        });
  }

  /** Creates an executor that {@link #initialize} configures; what Gravitino calls. */
  public KubeJobsSparkExecutor() {
    this(Clock.systemUTC());
  }

  /** Creates an executor whose kubejobs instance and ended-jobs sweep run on a clock, for tests. */
  KubeJobsSparkExecutor(Clock clock) {
    this.clock = clock;
  }

  /**
   * Creates a ready executor over a kubejobs instance the caller built (and keeps owning: {@link
   * #close()} does not release its client).
   *
   * @param jobs the instance, for one cluster and Spark operator
   * @param defaults what a template that does not say runs with
   * @throws IllegalArgumentException if an argument is null
   */
  public KubeJobsSparkExecutor(KubeJobs<SparkJobSpec> jobs, GravitinoMapping.Defaults defaults) {
    if (jobs == null || defaults == null) {
      throw new IllegalArgumentException("jobs and defaults must not be null");
    }
    this.clock = Clock.systemUTC();
    this.jobs = jobs;
    this.defaults = defaults;
    this.gonePodReason = "The Spark operator released it after the job ended.";
  }

  /**
   * Configures the executor from its {@code gravitino.jobExecutor.kubejobs.*} settings (keys in
   * {@link ExecutorSettings}): builds the API client from the kubeconfig file or the in-cluster
   * configuration, and a kubejobs instance over it. Nothing is sent to the cluster.
   *
   * @param configs the settings, prefix stripped
   * @throws IllegalArgumentException naming the {@code gravitino.conf} key, the rule and the value;
   *     nothing was created
   * @throws IllegalStateException if already initialized
   */
  @Override
  public synchronized void initialize(Map<String, String> configs) {
    if (jobs != null || closed) {
      throw new IllegalStateException("the kubejobs executor is already initialized");
    }
    requireMainLineSpi(KubeJobsSparkExecutor.class.getClassLoader());
    ExecutorSettings s = ExecutorSettings.parse(configs);
    if (!s.unknownKeys().isEmpty()) {
      LOG.warn(
          "Ignoring unknown settings {} of the kubejobs job executor; the known keys after '{}' are"
              + " {}",
          s.unknownKeys(),
          ExecutorSettings.PREFIX,
          ExecutorSettings.KEYS);
    }
    KubeJobs.Builder<SparkJobSpec> b;
    ApiClient client = apiClient(s);
    try {
      b =
          KubeJobs.builder(
              client,
              s.operator().equals("kubeflow")
                  ? SparkOperators.kubeflow()
                  : SparkOperators.apache(apacheOptions(s.driverPodRetention())));
      set(() -> b.cluster(s.cluster()), ExecutorSettings.CLUSTER, s.cluster());
      set(() -> b.deployment(s.deployment()), ExecutorSettings.DEPLOYMENT, s.deployment());
      b.clock(clock)
          .statusCacheTtl(s.statusCachePeriod())
          .requestTimeout(s.requestTimeout())
          .retry(
              RetryConfig.from(Resilience4jPolicy.defaultRetryConfig())
                  .maxAttempts(s.retryMaxAttempts())
                  .build())
          .circuitBreaker(
              CircuitBreakerConfig.from(
                      Resilience4jPolicy.defaultCircuitBreakerConfig(Clock.systemUTC()))
                  .waitDurationInOpenState(s.breakerOpen())
                  .build());
      this.defaults = s.defaults();
      this.gonePodReason = gonePodReason(s);
      this.endedJobsKeptFor = s.driverPodRetention();
      this.sweepInterval = s.endedJobsSweepInterval();
      this.namespaces.add(s.defaults().namespace());
      // Not at once: after a restart, Gravitino's pull first records the outcome of jobs that
      // ended while it was down.
      this.nextSweep.set(clock.instant().plus(s.endedJobsSweepInterval()));
      this.jobs = b.build();
      this.ownedClient = client;
    } catch (RuntimeException e) {
      release(client);
      throw e;
    }
    LOG.info(
        "kubejobs job executor ready: cluster '{}', deployment '{}', {} operator, default"
            + " namespace '{}', API server {}",
        s.cluster(),
        s.deployment(),
        s.operator(),
        s.defaults().namespace(),
        client.getBasePath());
  }

  /**
   * Checks that the server's classes have the job executor SPI this jar links to: {@code
   * JobContext}, {@code JobExecutionInfo} and the members of it and of its builder the executor
   * calls. A Gravitino 1.3.0 server loads this class and would call it, but has neither type: every
   * status pull would then die with a {@link NoClassDefFoundError}.
   *
   * @param server the class loader the executor's SPI types resolve from
   * @throws IllegalStateException with one sentence naming the Gravitino versions that work
   */
  static void requireMainLineSpi(ClassLoader server) {
    String pkg = "org.apache.gravitino.connector.job.";
    try {
      Class.forName(pkg + "JobContext", false, server)
          .getConstructor(long.class, String.class, java.io.File.class);
      Class<?> info = Class.forName(pkg + "JobExecutionInfo", false, server);
      Class<?> builder =
          Class.forName(pkg + "JobExecutionInfo$JobExecutionInfoBuilder", false, server);
      returning(info, info.getMethod("of", JobHandle.Status.class));
      returning(info, info.getMethod("started", Instant.class));
      returning(info, info.getMethod("finished", JobHandle.Status.class, Instant.class));
      returning(builder, info.getMethod("toBuilder"));
      returning(builder, builder.getMethod("withStatus", JobHandle.Status.class));
      returning(info, builder.getMethod("build"));
      returning(JobHandle.Status.class, info.getMethod("status"));
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new IllegalStateException(
          NEEDS_GRAVITINO + ", but this server has no " + e.getMessage() + ".", e);
    }
  }

  private static void returning(Class<?> type, java.lang.reflect.Method m)
      throws NoSuchMethodException {
    if (m.getReturnType() != type) {
      throw new NoSuchMethodException(m + " returning " + type.getName());
    }
  }

  /**
   * Submits a Spark job template as the SparkApplication of Gravitino's job {@code context.jobId()}
   * (named {@code <prefix>-job-<id>}, annotated with the template name and the metalake).
   * Idempotent for the same Gravitino job id.
   *
   * @param context Gravitino's job id, metalake and staging directory (not used: the cluster cannot
   *     read the Gravitino server's disk, so the template's files must be URIs the cluster reaches)
   * @param jobTemplate the template, placeholders replaced; must be a {@link SparkJobTemplate}
   * @return the execution id
   * @throws IllegalArgumentException if the template is not a Spark template
   * @throws dev.kubejobs.core.InvalidJobSpecException naming the template field, rule and value
   * @throws dev.kubejobs.core.KubeJobsException if the cluster refuses or cannot be reached (see
   *     {@link dev.kubejobs.core.submit.JobSubmitter}: retrying is safe)
   */
  @Override
  public String submitJob(JobContext context, JobTemplate jobTemplate) {
    return submit(JobHandle.JOB_ID_PREFIX + context.jobId(), context.metalake(), jobTemplate);
  }

  /**
   * Submits a Spark job template under a fresh random job id: Gravitino 1.3.0's method, which has
   * no Gravitino job id, so a retried call starts a second run (the {@link #submitJob(JobContext,
   * JobTemplate)} Gravitino calls since {@code JobContext} exists does not).
   *
   * @param jobTemplate the template, placeholders replaced; must be a {@link SparkJobTemplate}
   * @return the execution id
   * @throws IllegalArgumentException if the template is not a Spark template
   * @throws dev.kubejobs.core.KubeJobsException if the cluster refuses or cannot be reached
   * @deprecated Gravitino calls {@link #submitJob(JobContext, JobTemplate)}.
   */
  @Deprecated
  @Override
  public String submitJob(JobTemplate jobTemplate) {
    return submit("run-" + UUID.randomUUID(), null, jobTemplate);
  }

  private String submit(String jobId, String metalake, JobTemplate template) {
    if (!(template instanceof SparkJobTemplate spark)) {
      throw new IllegalArgumentException(
          "the kubejobs job executor runs Spark job templates only, but template '"
              + (template == null ? null : template.name())
              + "' is a "
              + (template == null ? null : template.jobType())
              + " template");
    }
    KubeJobs<SparkJobSpec> j = jobs();
    SparkJobSpec spec = GravitinoMapping.toSpec(spark, defaults);
    if (metalake != null) {
      spec = spec.toBuilder().annotation(METALAKE_ANNOTATION, metalake).build();
    }
    ExecutionId id = j.submitter().submit(jobId, spec);
    LOG.debug("Submitted Gravitino job '{}' as '{}'", jobId, id);
    namespaces.add(id.namespace());
    sweepEndedJobsIfDue();
    return id.toString();
  }

  /**
   * Returns a job's Gravitino status and the times it started and finished. The start time is
   * reported in every state after the job started, the finish time in the terminal ones.
   *
   * @param jobId the execution id {@link #submitJob(JobContext, JobTemplate)} returned
   * @return the snapshot
   * @throws NoSuchJobException if a fresh read confirms the job's SparkApplication is gone, or if
   *     {@code jobId} is of another cluster or not a kubejobs execution id (this executor can never
   *     track it)
   * @throws dev.kubejobs.core.ApiUnavailableException if the API server cannot be reached (the
   *     status is unknown, not failed; the next pull tries again)
   */
  @Override
  public JobExecutionInfo getJobExecutionInfo(String jobId) throws NoSuchJobException {
    try {
      return executionInfo(jobId);
    } catch (Error e) {
      throw notAnError("getJobExecutionInfo", jobId, e);
    }
  }

  private JobExecutionInfo executionInfo(String jobId) throws NoSuchJobException {
    dev.kubejobs.core.JobExecutionInfo info;
    ExecutionId id = trackable(jobId);
    namespaces.add(id.namespace());
    try {
      info = jobs().statusReader().get(id);
    } catch (dev.kubejobs.core.NoSuchJobException e) {
      if (cancelledHere.contains(jobId)) {
        // Deleted by this executor's cancel: CANCELLED, whether or not Gravitino has recorded the
        // job CANCELLING yet (it does so only after cancelJob returns; a pull in between would
        // otherwise turn the NoSuchJobException into FAILED).
        return JobExecutionInfo.of(JobHandle.Status.CANCELLED);
      }
      throw new NoSuchJobException(e, "%s", e.getMessage());
    } finally {
      sweepEndedJobsIfDue();
    }
    info.diagnosis().ifPresent(d -> logOnce(jobId, d));
    JobStatus status = info.status();
    boolean ended =
        status == JobStatus.SUCCEEDED
            || status == JobStatus.FAILED
            || status == JobStatus.CANCELLED;
    return snapshot(
        GravitinoMapping.toGravitino(status),
        info.startedAt().orElse(null),
        ended ? info.finishedAt().orElse(null) : null);
  }

  /**
   * Returns Gravitino's snapshot of a job: its status, with the start time once known and the
   * finish time of a finished job. Uses only members Gravitino's {@code JobExecutionInfo} has
   * ({@code of}, {@code started}, {@code finished}, and its builder for a job being cancelled after
   * it started).
   */
  private static JobExecutionInfo snapshot(
      JobHandle.Status status, Instant startedAt, Instant finishedAt) {
    JobExecutionInfo queued = JobExecutionInfo.of(status);
    if (startedAt == null) {
      return finishedAt == null ? queued : queued.finished(status, finishedAt);
    }
    JobExecutionInfo started = queued.started(startedAt);
    if (finishedAt != null) {
      return started.finished(status, finishedAt);
    }
    return status == JobHandle.Status.STARTED
        ? started
        : started.toBuilder().withStatus(status).build();
  }

  /**
   * Logs a job's diagnosis at WARN the first time its cause is seen for the job: Gravitino's {@code
   * JobExecutionInfo} has no message field, so the server log and {@link #getJobStderr} are where
   * its users read why the job is stuck or failed.
   */
  private void logOnce(String jobId, Diagnosis d) {
    if (loggedCauses.put(jobId, d.cause()) != d.cause()) {
      LOG.warn("Job '{}': {}: {}", jobId, d.cause(), d.summary());
    }
  }

  /**
   * Returns a job's Gravitino status: the status of {@link #getJobExecutionInfo(String)} (Gravitino
   * 1.3.0 calls this one).
   *
   * @param jobId the execution id
   * @return the status
   * @throws NoSuchJobException if a fresh read confirms the job's SparkApplication is gone
   * @throws dev.kubejobs.core.ApiUnavailableException if the API server cannot be reached
   */
  @Override
  public JobHandle.Status getJobStatus(String jobId) throws NoSuchJobException {
    try {
      return executionInfo(jobId).status();
    } catch (Error e) {
      throw notAnError("getJobStatus", jobId, e);
    }
  }

  /**
   * Cancels a job: marks its SparkApplication cancelled and deletes it; does not wait for the job
   * to stop. A job that has already ended is left as it is and keeps its outcome; cancelling twice
   * is safe.
   *
   * @param jobId the execution id
   * @throws NoSuchJobException if a fresh read confirms the job's SparkApplication is gone, or if
   *     {@code jobId} is of another cluster or not a kubejobs execution id
   * @throws dev.kubejobs.core.ApiUnavailableException if the API server cannot be reached; the
   *     cancel may have been applied, cancelling again is safe
   * @throws dev.kubejobs.core.JobRejectedException if the service account may not patch or delete
   *     SparkApplications
   */
  @Override
  public void cancelJob(String jobId) throws NoSuchJobException {
    try {
      cancel(jobId);
    } catch (Error e) {
      throw notAnError("cancelJob", jobId, e);
    }
  }

  private void cancel(String jobId) throws NoSuchJobException {
    ExecutionId id = trackable(jobId);
    // Remembered before the delete is sent: a pull that finds the job gone while the cancel is
    // still on its way reports it CANCELLED too.
    cancelledHere.add(jobId);
    CancelResult result;
    try {
      result = jobs().canceller().cancel(id);
    } catch (dev.kubejobs.core.NoSuchJobException e) {
      cancelledHere.remove(jobId); // gone before this cancel: not its doing
      throw new NoSuchJobException(e, "%s", e.getMessage());
    } catch (RuntimeException e) {
      if (!(e instanceof ApiUnavailableException u && u.mayHaveBeenApplied())) {
        cancelledHere.remove(jobId); // refused, or nothing sent: the job was not deleted by it
      }
      throw e;
    }
    if (result == CancelResult.ALREADY_FINISHED) {
      cancelledHere.remove(jobId); // it keeps its own outcome
    }
    LOG.debug("Cancel of '{}': {}", jobId, result);
  }

  /**
   * Returns true: the jobs live on the shared cluster, so every Gravitino node can track and cancel
   * every job.
   *
   * @param jobId the execution id
   * @return true
   */
  @Override
  public boolean ownsJob(String jobId) {
    return true;
  }

  /**
   * Returns false: no job state is kept on a node.
   *
   * @return false
   */
  @Override
  public boolean isJobStateNodeLocal() {
    return false;
  }

  /**
   * Returns the tail of the job's driver log: at most {@code maxLines} lines of at most {@code
   * maxBytes} bytes in all, newest last, from the driver container of the latest attempt. This is
   * the container's whole output — Kubernetes' pod log API ({@code GET .../pods/{name}/log}) serves
   * a container's standard output and standard error as one interleaved stream (Spark's own log
   * lines go to standard error). Never throws: an unknown or malformed id, a job without a driver
   * pod yet, a job whose resource is gone or an unreachable API server give an empty list (logged).
   *
   * <p>A job that ended and whose driver pod is gone gets one line saying why instead of its log:
   * the Apache operator keeps the pod for {@code driverPodRetentionMs} after the job ended (see
   * {@link ExecutorSettings}), the Kubeflow operator as long as the SparkApplication. The line is
   * cut to {@code maxBytes}.
   *
   * @param jobId the execution id
   * @param maxLines the most lines
   * @param maxBytes the most bytes
   * @return the lines, or an empty list
   */
  @Override
  public List<String> getJobStdout(String jobId, int maxLines, int maxBytes) {
    try {
      return stdout(jobId, maxLines, maxBytes);
    } catch (Error e) {
      LOG.debug(
          "No driver log for '{}': {}", jobId, notAnError("getJobStdout", jobId, e).toString());
      return List.of();
    }
  }

  private List<String> stdout(String jobId, int maxLines, int maxBytes) {
    if (maxLines <= 0 || maxBytes <= 0) {
      return List.of();
    }
    try {
      KubeJobs<SparkJobSpec> j = jobs();
      ExecutionId id = resolve(jobId);
      DriverLog log = j.driverLogs().tail(id, maxLines, maxBytes);
      if (!log.isEmpty() || log.pod().isPresent()) {
        return log.lines();
      }
      JobStatus status;
      try {
        status = j.statusReader().get(id).status();
      } catch (dev.kubejobs.core.NoSuchJobException e) {
        if (endedJobsKeptFor.isZero()) {
          throw e;
        }
        String why =
            "[kubejobs] No output: the SparkApplication of job "
                + jobId
                + " is gone. kubejobs deletes the SparkApplications of jobs that ended more than "
                + ExecutorSettings.PREFIX
                + ExecutorSettings.DRIVER_POD_RETENTION_MS
                + " = "
                + endedJobsKeptFor.toMillis()
                + " ms ago, or it was deleted by hand.";
        return List.of(why.length() > maxBytes ? why.substring(0, maxBytes) : why);
      }
      if (status != JobStatus.SUCCEEDED
          && status != JobStatus.FAILED
          && status != JobStatus.CANCELLED) {
        return List.of(); // no driver pod yet
      }
      String why =
          "[kubejobs] No output: the driver pod of job " + jobId + " is gone. " + gonePodReason;
      return List.of(why.length() > maxBytes ? why.substring(0, maxBytes) : why);
    } catch (RuntimeException e) {
      LOG.debug("No driver log for '{}': {}", jobId, e.toString());
      return List.of();
    }
  }

  /**
   * Runs the sweep for jobs ended past retention when it is due; only one caller runs it, the
   * others go on at once. Never throws: a failure is logged at WARN and tried again an interval
   * later.
   */
  private void sweepEndedJobsIfDue() {
    KubeJobs<SparkJobSpec> j = jobs;
    Instant due = nextSweep.get();
    Duration retention = endedJobsKeptFor;
    if (j == null || due == null || retention.isZero()) {
      return;
    }
    Instant now = clock.instant();
    if (now.isBefore(due) || !nextSweep.compareAndSet(due, now.plus(sweepInterval))) {
      return;
    }
    try {
      SweepReport report =
          j.sweeper()
              .sweep(
                  SweepRequest.builder()
                      .namespaces(List.copyOf(namespaces))
                      // Every job counts as known: the executor does not know all of Gravitino's
                      // job ids, so it never removes orphans, only jobs ended past retention.
                      .knownJobs(jobId -> true)
                      .endedJobsKeptFor(retention)
                      .build());
      LOG.debug("Ended-jobs sweep: {}", report.summary());
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not delete the SparkApplications of jobs ended more than {} ms ago (tried again"
              + " in {} ms): {}",
          retention.toMillis(),
          sweepInterval.toMillis(),
          e.toString());
    }
  }

  private static ApacheOptions apacheOptions(Duration retention) {
    if (retention.isZero()) {
      return ApacheOptions.ofDefaults(); // released as soon as the job ends
    }
    return ApacheOptions.builder()
        .resourceRetainPolicy(ApacheOptions.ResourceRetainPolicy.ALWAYS)
        .resourceRetainDuration(retention)
        .build();
  }

  private static String gonePodReason(ExecutorSettings s) {
    String key = ExecutorSettings.PREFIX + ExecutorSettings.DRIVER_POD_RETENTION_MS;
    if (s.operator().equals("kubeflow")) {
      return "The Kubeflow Spark operator keeps it as long as the SparkApplication, "
          + (s.driverPodRetention().isZero()
              ? ""
              : "which kubejobs deletes once the job ended more than "
                  + key
                  + " = "
                  + s.driverPodRetention().toMillis()
                  + " ms ago; else ")
          + "it was deleted by someone else or by the cluster (node lost, eviction).";
    }
    if (s.driverPodRetention().isZero()) {
      return "The Apache Spark operator released it when the job ended because "
          + key
          + " = 0; set it to keep the output readable for a while.";
    }
    return "The Apache Spark operator keeps it for "
        + key
        + " = "
        + s.driverPodRetention().toMillis()
        + " ms after the job ended, then releases it, and kubejobs deletes the SparkApplication;"
        + " raise the setting to keep output longer.";
  }

  /**
   * Returns why the job is stuck or failed when kubejobs diagnosed it, else an empty list. The
   * driver's own output, standard error included, is what {@link #getJobStdout} returns:
   * Kubernetes' pod log API cannot serve standard error apart from standard output (one interleaved
   * stream per container; a split by stream exists only behind an alpha feature gate). So this
   * channel carries what the driver could not write: for a job whose driver never ran (image not
   * pulled, pod not scheduled, a missing Secret) or was killed (OOMKilled, evicted), and for one
   * waiting too long, the {@link dev.kubejobs.core.JobExecutionInfo#diagnosis() diagnosis}: {@code
   * "[kubejobs] Job <id>: <CAUSE>: <sentence>"} and one line per piece of evidence (the pod's
   * condition or container state, the events with their count and times), capped to {@code
   * maxLines} and {@code maxBytes}. Never throws: an unknown or malformed id, a job whose resource
   * is gone or an unreachable API server give an empty list (logged at DEBUG).
   *
   * @param jobId the execution id
   * @param maxLines the most lines
   * @param maxBytes the most bytes (UTF-8)
   * @return the diagnosis lines, or an empty list
   */
  @Override
  public List<String> getJobStderr(String jobId, int maxLines, int maxBytes) {
    try {
      return stderr(jobId, maxLines, maxBytes);
    } catch (Error e) {
      LOG.debug(
          "No diagnosis for '{}': {}", jobId, notAnError("getJobStderr", jobId, e).toString());
      return List.of();
    }
  }

  private List<String> stderr(String jobId, int maxLines, int maxBytes) {
    if (maxLines <= 0 || maxBytes <= 0) {
      return List.of();
    }
    try {
      ExecutionId id = resolve(jobId);
      return jobs()
          .statusReader()
          .get(id)
          .diagnosis()
          .map(d -> DiagnosisLines.of(jobId, d, maxLines, maxBytes))
          .orElse(List.of());
    } catch (RuntimeException e) {
      LOG.debug("No diagnosis for '{}': {}", jobId, e.toString());
      return List.of();
    }
  }

  /**
   * Releases what the executor holds: when {@link #initialize} built the API client, its HTTP
   * connections and threads (kubejobs' derived client shares them). A client handed in through the
   * constructor is the caller's and left open. Every later call but {@code close} throws {@link
   * IllegalStateException}. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    jobs = null;
    ApiClient client = ownedClient;
    ownedClient = null;
    if (client != null) {
      release(client);
    }
    LOG.debug("kubejobs job executor closed");
  }

  /**
   * Returns the API client {@link #initialize} built, for tests; null when handed in or closed.
   *
   * @return the client, or null
   */
  ApiClient ownedClient() {
    return ownedClient;
  }

  /**
   * Turns an {@link Error} out of an SPI method into the {@link RuntimeException} to throw instead:
   * Gravitino's status pull survives exceptions only, and an {@code Error} would end it for good,
   * silently, leaving every active job in its last status. A {@link LinkageError} means the
   * server's classes are not the ones this jar was built against: the returned exception says which
   * Gravitino versions it needs, logged at ERROR the first time only. Any other error is wrapped
   * and logged at ERROR each time.
   */
  RuntimeException notAnError(String method, String jobId, Error e) {
    if (e instanceof LinkageError) {
      IllegalStateException mismatch =
          new IllegalStateException(
              "The kubejobs job executor cannot run in this Gravitino server: "
                  + method
                  + " failed with "
                  + e
                  + ". "
                  + NEEDS_GRAVITINO
                  + "; this server's classes do not match it.",
              e);
      if (mismatchLogged.compareAndSet(false, true)) {
        LOG.error("{}", mismatch.getMessage(), e);
      }
      return mismatch;
    }
    IllegalStateException failed =
        new IllegalStateException(
            "The kubejobs job executor failed in " + method + " of job '" + jobId + "': " + e, e);
    LOG.error("{}", failed.getMessage(), e);
    return failed;
  }

  /**
   * Returns the execution id if this executor can track it; else a {@link NoSuchJobException} that
   * says why, logged once at WARN (Gravitino ends the job on it and stops asking).
   */
  private ExecutionId trackable(String jobId) throws NoSuchJobException {
    try {
      return resolve(jobId);
    } catch (NoSuchJobException gone) {
      LOG.warn("{}", gone.getMessage());
      throw gone;
    }
  }

  /**
   * Returns the execution id in this executor's cluster of the job {@code jobId} names: the id
   * itself, or for an id of another cluster the id of the same resource in the configured cluster
   * when that resource is there and is the job's (see {@link #inThisCluster}).
   */
  private ExecutionId resolve(String jobId) throws NoSuchJobException {
    KubeJobs<SparkJobSpec> j = jobs();
    ExecutionId id;
    try {
      id = ExecutionId.parse(jobId);
    } catch (IllegalArgumentException e) {
      throw new NoSuchJobException(
          e,
          "Job %s is not a kubejobs execution id (<cluster>/<plural>.<group>/<namespace>/<name>):"
              + " it was not submitted through the kubejobs executor, which cannot track it",
          jobId);
    }
    if (id.cluster().equals(j.cluster())) {
      return id;
    }
    ExecutionId here = adopted.get(jobId);
    if (here == null) {
      here = inThisCluster(j, id);
    }
    if (here == null) {
      throw new NoSuchJobException(
          "Job %s runs in cluster '%s', but this kubejobs executor is connected to cluster '%s'"
              + " (%s%s), where it has no SparkApplication %s/%s: it cannot track the job; run it"
              + " again on this cluster",
          jobId,
          id.cluster(),
          j.cluster(),
          ExecutorSettings.PREFIX,
          ExecutorSettings.CLUSTER,
          id.namespace(),
          id.name());
    }
    adopted.put(jobId, here);
    if (warnedClusters.add(id.cluster())) {
      LOG.warn(
          "Job {} was submitted with cluster '{}', but this kubejobs executor is configured with"
              + " {}{} = '{}'. Its SparkApplication {}/{} is in the configured cluster, so the"
              + " executor tracks it there, and every job of cluster '{}' whose resource it finds;"
              + " set {}{} to the same value on every Gravitino node.",
          jobId,
          id.cluster(),
          ExecutorSettings.PREFIX,
          ExecutorSettings.CLUSTER,
          j.cluster(),
          id.namespace(),
          id.name(),
          id.cluster(),
          ExecutorSettings.PREFIX,
          ExecutorSettings.CLUSTER);
    }
    return here;
  }

  /**
   * Looks in the configured cluster for the resource an id of another cluster names: returns its id
   * in this cluster when it exists, is of this executor's resource kind and is the job's — the
   * kubejobs labels ({@code app.kubernetes.io/managed-by=kubejobs}, this deployment) and a job id
   * annotation from which kubejobs derives the resource's name. Null when it is not found or not
   * the job's, or when the executor has no API client of its own (built over a caller's kubejobs
   * instance).
   *
   * @throws ApiUnavailableException if the API server cannot answer (the job's state is unknown)
   */
  private ExecutionId inThisCluster(KubeJobs<SparkJobSpec> j, ExecutionId id) {
    ApiClient client = ownedClient;
    ResourceKind kind = j.jobKind().resourceKind();
    if (client == null || !id.isOf(kind)) {
      return null;
    }
    ExecutionId here = ExecutionId.of(j.cluster(), kind, id.namespace(), id.name());
    Object found;
    try {
      found =
          new CustomObjectsApi(client)
              .getNamespacedCustomObject(
                  kind.group(), kind.version(), id.namespace(), kind.plural(), id.name())
              .execute();
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return null;
      }
      throw new ApiUnavailableException(
          here,
          "Could not look for job "
              + id
              + " in cluster '"
              + j.cluster()
              + "': "
              + (e.getCode() == 0 ? e.getMessage() : "HTTP " + e.getCode()),
          false,
          e);
    }
    if (!(found instanceof Map<?, ?> resource)
        || !(resource.get("metadata") instanceof Map<?, ?> metadata)) {
      return null;
    }
    Map<?, ?> labels = metadata.get("labels") instanceof Map<?, ?> l ? l : Map.of();
    Map<?, ?> annotations = metadata.get("annotations") instanceof Map<?, ?> a ? a : Map.of();
    if (!JobIdentity.MANAGED_BY_VALUE.equals(labels.get(JobIdentity.LABEL_MANAGED_BY))
        || !j.deployment().equals(labels.get(JobIdentity.LABEL_DEPLOYMENT))
        || !(annotations.get(JobIdentity.ANNOTATION_JOB_ID) instanceof String jobId)) {
      return null;
    }
    try {
      JobIdentity identity = JobIdentity.of(j.namePrefix(), j.deployment(), id.namespace(), jobId);
      return identity.name().equals(id.name()) ? here : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private KubeJobs<SparkJobSpec> jobs() {
    KubeJobs<SparkJobSpec> j = jobs;
    if (j == null) {
      throw new IllegalStateException(
          closed
              ? "the kubejobs job executor is closed"
              : "the kubejobs job executor is not initialized: call initialize(configs) first");
    }
    return j;
  }

  private static void set(Runnable setter, String key, String value) {
    try {
      setter.run();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          ExecutorSettings.PREFIX + key + " = '" + value + "' is refused: " + e.getMessage(), e);
    }
  }

  private static ApiClient apiClient(ExecutorSettings s) {
    if (s.kubeconfig() == null) {
      try {
        return ClientBuilder.cluster().build();
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException(
            ExecutorSettings.PREFIX
                + ExecutorSettings.KUBECONFIG
                + " is not set and the in-cluster configuration cannot be used ("
                + e.getMessage()
                + "): set it to a kubeconfig file, or run the Gravitino server in a pod with a"
                + " service account",
            e);
      }
    }
    try (Reader reader = Files.newBufferedReader(s.kubeconfig())) {
      KubeConfig config = KubeConfig.loadKubeConfig(reader);
      config.setFile(s.kubeconfig().toAbsolutePath().toFile()); // certificate paths relative to it
      // Like ClientBuilder.standard(false): refreshed credentials are never written back.
      return ClientBuilder.kubeconfig(config).build();
    } catch (IOException | RuntimeException e) {
      throw ExecutorSettings.bad(
          ExecutorSettings.KUBECONFIG,
          "must be a readable kubeconfig file (" + e.getMessage() + ")",
          s.kubeconfig().toString());
    }
  }

  private static void release(ApiClient client) {
    OkHttpClient http = client.getHttpClient();
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }
}
