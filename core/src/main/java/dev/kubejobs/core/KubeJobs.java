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
package dev.kubejobs.core;

import dev.kubejobs.core.cancel.JobCanceller;
import dev.kubejobs.core.diagnosis.Diagnoser;
import dev.kubejobs.core.internal.DaemonThreads;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.WarnOnce;
import dev.kubejobs.core.internal.WriterId;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.internal.ops.CancelOperation;
import dev.kubejobs.core.internal.ops.DefaultDriverLogReader;
import dev.kubejobs.core.internal.ops.DefaultOrphanSweeper;
import dev.kubejobs.core.internal.ops.DefaultPreflight;
import dev.kubejobs.core.internal.ops.StatusOperation;
import dev.kubejobs.core.internal.ops.SubmitOperation;
import dev.kubejobs.core.logs.DriverLogReader;
import dev.kubejobs.core.preflight.Preflight;
import dev.kubejobs.core.resilience.Resilience4jPolicy;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.KubernetesNames;
import dev.kubejobs.core.status.JobStatusListener;
import dev.kubejobs.core.status.JobStatusReader;
import dev.kubejobs.core.status.StatusSource;
import dev.kubejobs.core.submit.JobSubmitter;
import dev.kubejobs.core.sweep.OrphanSweeper;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The entry point of kubejobs: submits, tells the status of and cancels jobs of one kind (for
 * example Spark operator SparkApplications) on one cluster, for one deployment of the caller.
 *
 * <pre>{@code
 * KubeJobs<SparkJobSpec> jobs =
 *     KubeJobs.builder(apiClient, SparkOperators.apache())
 *         .cluster("prod")
 *         .deployment("gravitino-a")
 *         .build();
 * ExecutionId id = jobs.submitter().submit("job-42", spec);
 * JobExecutionInfo info = jobs.statusReader().get(id);
 * jobs.canceller().cancel(id);
 * }</pre>
 *
 * <p>Built from the caller's own {@link ApiClient} (kubeconfig, in-cluster, token: any auth), which
 * is never modified: kubejobs derives its own HTTP client from it (same TLS and authentication,
 * OkHttp's silent re-sending of writes turned off, a read timeout set). kubejobs keeps no global
 * state; several instances (one per cluster, or per scheduler node) can live in one JVM.
 *
 * <p>Instances are immutable and thread safe; the operations they hand out are too, and are meant
 * to be shared. Every request goes through the {@link ResiliencePolicy} (see {@link
 * Resilience4jPolicy} for the defaults and the wrap order).
 *
 * @param <S> the job spec type of the job kind
 */
public final class KubeJobs<S> implements AutoCloseable {
  /** The default name prefix, {@value}. */
  public static final String DEFAULT_NAME_PREFIX = "kj";

  /** The default status cache period: 5 seconds. */
  public static final Duration DEFAULT_STATUS_CACHE_TTL = Duration.ofSeconds(5);

  /** The default request (read and write) timeout: 30 seconds. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private static final Duration MAX_STATUS_CACHE_TTL = Duration.ofMinutes(10);
  private static final Duration MAX_REQUEST_TIMEOUT = Duration.ofMinutes(10);
  private static final int MAX_STATUS_PARALLELISM = 64;

  /**
   * The default {@link Builder#statusParallelism(int)}: up to 4 namespaces of one {@code getAll}
   * read at once.
   */
  public static final int DEFAULT_STATUS_PARALLELISM = 4;

  private final KubeJobsContext<S> context;
  private final ResiliencePolicy policy;
  private final Duration statusCacheTtl;
  private final Duration requestTimeout;
  private final SubmitOperation<S> submitter;
  private final StatusOperation<S> statusReader;
  private final CancelOperation<S> canceller;
  private final DaemonThreads.Pool ownExecutor;

  private KubeJobs(Builder<S> b) {
    this.policy = policyOf(b);
    this.statusCacheTtl = b.statusCacheTtl;
    this.requestTimeout = b.requestTimeout;
    KubeGateway gateway = KubeGateway.create(b.client, b.requestTimeout, policy, b.clock);
    this.context =
        new KubeJobsContext<>(
            b.cluster,
            b.deployment,
            b.namePrefix,
            b.jobKind,
            gateway,
            b.clock,
            new WarnOnce(),
            WriterId.random());
    this.submitter = new SubmitOperation<>(context);
    this.ownExecutor =
        b.statusExecutor == null && b.statusParallelism > 1
            // The calling thread reads one namespace itself: the pool reads the others.
            ? DaemonThreads.pool(
                "kubejobs-status-" + b.cluster, b.statusParallelism - 1, Duration.ofSeconds(30))
            : null;
    this.statusReader =
        new StatusOperation<>(
            context,
            b.statusCacheTtl,
            b.statusExecutor != null ? b.statusExecutor : ownExecutor,
            b.statusListener,
            b.statusSource,
            b.requestTimeout,
            b.diagnoseAfter);
    this.canceller = new CancelOperation<>(context, statusReader.cancelDecisions());
  }

  /**
   * Releases what this instance started and waits for it to end: the watches of {@link
   * StatusSource#watch()} and their threads, the status threads of {@link
   * Builder#statusParallelism(int)} and the thread of the {@link Builder#statusListener} (after it
   * delivered what was queued). Each thread gets up to 10 seconds to finish what it was given (a
   * read in flight, a listener being told) before it is interrupted; when this returns, no thread
   * this instance started runs, except one still in a request after that (it ends with the request
   * timeout) or the listener's own thread when the listener called this. An executor passed to
   * {@link Builder#statusExecutor} is the caller's and left alone. Operations used after close
   * still work, reading namespaces one after another on the calling thread. Idempotent.
   */
  @Override
  public void close() {
    statusReader.close();
    DaemonThreads.shutdownAndAwait(StatusOperation.CLOSE_WAIT, ownExecutor);
  }

  private static ResiliencePolicy policyOf(Builder<?> b) {
    if (b.policy != null) {
      return b.policy;
    }
    // Instances kubejobs creates log their retries and transitions; the caller's are used as is.
    Resilience4jPolicy own =
        Resilience4jPolicy.of(
            "kubejobs-" + b.cluster,
            b.retryConfig != null ? b.retryConfig : Resilience4jPolicy.defaultRetryConfig(),
            b.circuitBreakerConfig != null
                ? b.circuitBreakerConfig
                : Resilience4jPolicy.defaultCircuitBreakerConfig(b.clock));
    return Resilience4jPolicy.of(
        b.retry != null ? b.retry : own.retry(),
        b.circuitBreaker != null ? b.circuitBreaker : own.circuitBreaker());
  }

  /**
   * Returns a builder for an instance over the caller's client and a job kind.
   *
   * @param client the caller's API client; kubejobs never modifies it
   * @param jobKind the kind of job resources, for example one of the Spark module's operators
   * @param <S> the job spec type
   * @return a new builder
   * @throws IllegalArgumentException if an argument is null
   */
  public static <S> Builder<S> builder(ApiClient client, JobKind<S> jobKind) {
    if (client == null) {
      throw new IllegalArgumentException("client must not be null");
    }
    if (jobKind == null) {
      throw new IllegalArgumentException("jobKind must not be null");
    }
    return new Builder<>(client, jobKind);
  }

  /**
   * Returns the submitter.
   *
   * @return the shared, thread-safe submitter
   */
  public JobSubmitter<S> submitter() {
    return submitter;
  }

  /**
   * Returns the status reader; its cache is shared by all callers of this instance.
   *
   * @return the shared, thread-safe status reader
   */
  public JobStatusReader statusReader() {
    return statusReader;
  }

  /**
   * Returns the canceller.
   *
   * @return the shared, thread-safe canceller
   */
  public JobCanceller canceller() {
    return canceller;
  }

  /**
   * Returns the orphan sweeper, which deletes this deployment's resources of jobs the caller no
   * longer knows.
   *
   * @return a thread-safe, stateless sweeper over this instance's gateway and clock
   */
  public OrphanSweeper sweeper() {
    return new DefaultOrphanSweeper(context, statusReader.pipeline());
  }

  /**
   * Returns the driver log reader, which reads the end of a job's driver log and never throws.
   *
   * @return a thread-safe, stateless reader over this instance's gateway
   */
  public DriverLogReader driverLogs() {
    return new DefaultDriverLogReader(context);
  }

  /**
   * Returns the preflight check, which reports missing permissions and whether the CRD is served.
   *
   * @return a thread-safe, stateless check over this instance's gateway
   */
  public Preflight preflight() {
    return new DefaultPreflight(context);
  }

  /**
   * Returns the cluster name execution ids of this instance carry.
   *
   * @return the cluster name
   */
  public String cluster() {
    return context.cluster();
  }

  /**
   * Returns the deployment name that labels this instance's resources.
   *
   * @return the deployment name
   */
  public String deployment() {
    return context.deployment();
  }

  /**
   * Returns the resource name prefix.
   *
   * @return the prefix
   */
  public String namePrefix() {
    return context.namePrefix();
  }

  /**
   * Returns the job kind.
   *
   * @return the job kind
   */
  public JobKind<S> jobKind() {
    return context.jobKind();
  }

  /**
   * Returns the resilience policy every request goes through.
   *
   * @return the policy; a {@link Resilience4jPolicy} unless one was configured
   */
  public ResiliencePolicy resiliencePolicy() {
    return policy;
  }

  /**
   * Returns the status cache period.
   *
   * @return the period; zero means no caching
   */
  public Duration statusCacheTtl() {
    return statusCacheTtl;
  }

  /**
   * Returns the request timeout.
   *
   * @return the timeout
   */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /**
   * Returns the identity a job would get from this instance, without sending anything.
   *
   * @param jobId the job id
   * @param spec the job spec
   * @return the identity (name, labels, annotations)
   * @throws InvalidJobSpecException if the job id or the spec's namespace is invalid
   */
  public JobIdentity identityOf(String jobId, S spec) {
    return submitter.identityOf(jobId, spec);
  }

  @Override
  public String toString() {
    return "KubeJobs{cluster="
        + context.cluster()
        + ", deployment="
        + context.deployment()
        + ", namePrefix="
        + context.namePrefix()
        + ", kind="
        + context.jobKind().resourceKind().qualifiedPlural()
        + "}";
  }

  /**
   * Builds a {@link KubeJobs}. Each setter validates its value and names the setting, the rule and
   * the value when it is wrong. Not thread safe.
   *
   * @param <S> the job spec type
   */
  public static final class Builder<S> {
    private final ApiClient client;
    private final JobKind<S> jobKind;
    private String cluster;
    private String deployment;
    private String namePrefix = DEFAULT_NAME_PREFIX;
    private Clock clock = Clock.systemUTC();
    private Duration statusCacheTtl = DEFAULT_STATUS_CACHE_TTL;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Retry retry;
    private RetryConfig retryConfig;
    private CircuitBreaker circuitBreaker;
    private CircuitBreakerConfig circuitBreakerConfig;
    private ResiliencePolicy policy;
    private Executor statusExecutor;
    private int statusParallelism = DEFAULT_STATUS_PARALLELISM;
    private JobStatusListener statusListener;
    private StatusSource statusSource = StatusSource.polling();
    private Duration diagnoseAfter = Diagnoser.DEFAULT_STUCK_AFTER;

    private Builder(ApiClient client, JobKind<S> jobKind) {
      this.client = client;
      this.jobKind = jobKind;
    }

    /**
     * Sets the cluster name (required). It is written into every execution id and must be the same
     * on every scheduler node talking to this cluster; do not rename it while jobs run.
     *
     * @param cluster 1-253 letters, digits, '-', '_' or '.', starting and ending with a letter or
     *     digit, for example {@code prod}
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder<S> cluster(String cluster) {
      if (!ExecutionId.isClusterName(cluster)) {
        throw new IllegalArgumentException(
            "cluster must be 1-253 letters, digits, '-', '_' or '.', starting and ending with a"
                + " letter or digit, but was "
                + quote(cluster));
      }
      this.cluster = cluster;
      return this;
    }

    /**
     * Sets the deployment name (required). It labels every resource this instance creates, so two
     * deployments of the caller (say a staging and a production scheduler) can share a namespace
     * without adopting each other's resources.
     *
     * @param deployment a label value of 1-63 characters, for example {@code gravitino-a}
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder<S> deployment(String deployment) {
      this.deployment = JobIdentity.requireDeployment(deployment);
      return this;
    }

    /**
     * Sets the resource name prefix; default {@value KubeJobs#DEFAULT_NAME_PREFIX}. Names are
     * {@code <prefix>-<job id made DNS-safe>}; give two deployments sharing a namespace different
     * prefixes so their job ids never collide on names.
     *
     * @param namePrefix a lower-case DNS-1035 label of at most 20 characters
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder<S> namePrefix(String namePrefix) {
      if (namePrefix == null
          || namePrefix.length() > 20
          || !KubernetesNames.isDns1035Label(namePrefix)) {
        throw new IllegalArgumentException(
            "namePrefix must be a lower-case DNS-1035 label of at most 20 characters (a letter,"
                + " then letters, digits or '-'), but was "
                + quote(namePrefix));
      }
      this.namePrefix = namePrefix;
      return this;
    }

    /**
     * Sets the clock used for status timeouts, the status cache, cancel marks and the default
     * circuit breaker; default {@link Clock#systemUTC()}.
     *
     * @param clock the clock
     * @return this builder
     * @throws IllegalArgumentException if null
     */
    public Builder<S> clock(Clock clock) {
      if (clock == null) {
        throw new IllegalArgumentException("clock must not be null");
      }
      this.clock = clock;
      return this;
    }

    /**
     * Sets how long a namespace's LIST serves status reads; default 5 s. Zero lists on every read.
     * A cached copy that would end a job is always re-read before it is reported.
     *
     * @param statusCacheTtl from zero to 10 minutes
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder<S> statusCacheTtl(Duration statusCacheTtl) {
      if (statusCacheTtl == null
          || statusCacheTtl.isNegative()
          || statusCacheTtl.compareTo(MAX_STATUS_CACHE_TTL) > 0) {
        throw new IllegalArgumentException(
            "statusCacheTtl must be from 0 to 10 minutes, but was " + statusCacheTtl);
      }
      this.statusCacheTtl = statusCacheTtl;
      return this;
    }

    /**
     * Reads up to {@code threads} namespaces of one {@link JobStatusReader#getAll} at once: the
     * calling thread reads one, and up to {@code threads - 1} threads this instance starts when
     * first needed (and ends after 30 s without work and on {@link KubeJobs#close()}) read the
     * others. Default {@value KubeJobs#DEFAULT_STATUS_PARALLELISM}: a read of 4 or more namespaces
     * takes about the time of its slowest quarter instead of the sum, which matters when each
     * request waits on a remote API server. The cost: up to 3 more threads and as many more LISTs
     * (and connections) in flight at once against the API server, and the list pages of that many
     * namespaces in memory at once (up to 500 objects each). A read of one namespace, and {@link
     * JobStatusReader#get}, stay on the calling thread; 1 reads namespaces one after another on the
     * calling thread and starts no thread. Each namespace is still read by one LIST at a time.
     *
     * @param threads from 1 to 64
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder<S> statusParallelism(int threads) {
      if (threads < 1 || threads > MAX_STATUS_PARALLELISM) {
        throw new IllegalArgumentException(
            "statusParallelism must be from 1 to "
                + MAX_STATUS_PARALLELISM
                + ", but was "
                + threads);
      }
      this.statusParallelism = threads;
      return this;
    }

    /**
     * Reads the namespaces of one {@link JobStatusReader#getAll} in parallel on the caller's
     * executor, which bounds the parallelism; the caller owns it ({@link KubeJobs#close()} leaves
     * it alone). A task the executor rejects runs on the calling thread. Replaces {@link
     * #statusParallelism(int)}.
     *
     * @param executor the executor
     * @return this builder
     * @throws IllegalArgumentException if it is null
     */
    public Builder<S> statusExecutor(Executor executor) {
      if (executor == null) {
        throw new IllegalArgumentException("statusExecutor must not be null");
      }
      this.statusExecutor = executor;
      return this;
    }

    /**
     * Sets how long a job may wait in {@link JobStatus#QUEUED} (counted from its resource's
     * creation) before the status reader explains why, in {@link JobExecutionInfo#diagnosis()};
     * default {@link Diagnoser#DEFAULT_STUCK_AFTER} (60 s). A job that fails is explained as it is
     * first reported FAILED, whatever this is. Diagnosing costs the job's driver pod (unless its
     * mapping looked it up already) and at most one events LIST per namespace per read; a job that
     * neither waits that long nor failed costs nothing more.
     *
     * @param after from 0 (a waiting job is explained at once) to 1 day
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder<S> diagnoseAfter(Duration after) {
      if (after == null || after.isNegative() || after.compareTo(Duration.ofDays(1)) > 0) {
        throw new IllegalArgumentException(
            "diagnoseAfter must be from 0 to 1 day (for example Duration.ofSeconds(60)), but was "
                + after);
      }
      this.diagnoseAfter = after;
      return this;
    }

    /**
     * Sets where the status reader gets its copies: {@link StatusSource#polling()} (the default,
     * one LIST per namespace per status cache period) or {@link StatusSource#watch()} (per
     * namespace one LIST, then a WATCH; reads cost no request while it is open). Both give the same
     * answers; see {@link StatusSource}. Watches end with {@link KubeJobs#close()}.
     *
     * @param source the source
     * @return this builder
     * @throws IllegalArgumentException if it is null
     */
    public Builder<S> statusSource(StatusSource source) {
      if (source == null) {
        throw new IllegalArgumentException("statusSource must not be null");
      }
      this.statusSource = source;
      return this;
    }

    /**
     * Sets a listener told each time the status reported for a job changes (see {@link
     * JobStatusListener} for the guarantees); none by default.
     *
     * @param listener the listener
     * @return this builder
     * @throws IllegalArgumentException if it is null
     */
    public Builder<S> statusListener(JobStatusListener listener) {
      if (listener == null) {
        throw new IllegalArgumentException("statusListener must not be null");
      }
      this.statusListener = listener;
      return this;
    }

    /**
     * Sets the read and write timeout of each request (and the connect timeout when the caller's
     * client has none); default 30 s. client-java's own read timeout is infinite.
     *
     * @param requestTimeout more than zero, at most 10 minutes
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder<S> requestTimeout(Duration requestTimeout) {
      if (requestTimeout == null
          || requestTimeout.isNegative()
          || requestTimeout.isZero()
          || requestTimeout.compareTo(MAX_REQUEST_TIMEOUT) > 0) {
        throw new IllegalArgumentException(
            "requestTimeout must be more than 0 and at most 10 minutes, but was " + requestTimeout);
      }
      this.requestTimeout = requestTimeout;
      return this;
    }

    /**
     * Uses the caller's retry for transient failures (it only ever sees them; a create is never
     * retried). Default: {@link Resilience4jPolicy#defaultRetryConfig()}.
     *
     * @param retry the retry
     * @return this builder
     * @throws IllegalArgumentException if null
     */
    public Builder<S> retry(Retry retry) {
      if (retry == null) {
        throw new IllegalArgumentException("retry must not be null");
      }
      this.retry = retry;
      this.retryConfig = null;
      return this;
    }

    /**
     * Builds the retry from the caller's config. Use {@link Resilience4jPolicy#retryAfterAware} as
     * its interval function to honour {@code Retry-After}.
     *
     * @param retryConfig the config
     * @return this builder
     * @throws IllegalArgumentException if null
     */
    public Builder<S> retry(RetryConfig retryConfig) {
      if (retryConfig == null) {
        throw new IllegalArgumentException("retryConfig must not be null");
      }
      this.retryConfig = retryConfig;
      this.retry = null;
      return this;
    }

    /**
     * Uses the caller's circuit breaker (it only ever sees unreachable failures). Default: {@link
     * Resilience4jPolicy#defaultCircuitBreakerConfig(Clock)} with this builder's clock.
     *
     * @param circuitBreaker the breaker
     * @return this builder
     * @throws IllegalArgumentException if null
     */
    public Builder<S> circuitBreaker(CircuitBreaker circuitBreaker) {
      if (circuitBreaker == null) {
        throw new IllegalArgumentException("circuitBreaker must not be null");
      }
      this.circuitBreaker = circuitBreaker;
      this.circuitBreakerConfig = null;
      return this;
    }

    /**
     * Builds the circuit breaker from the caller's config.
     *
     * @param circuitBreakerConfig the config
     * @return this builder
     * @throws IllegalArgumentException if null
     */
    public Builder<S> circuitBreaker(CircuitBreakerConfig circuitBreakerConfig) {
      if (circuitBreakerConfig == null) {
        throw new IllegalArgumentException("circuitBreakerConfig must not be null");
      }
      this.circuitBreakerConfig = circuitBreakerConfig;
      this.circuitBreaker = null;
      return this;
    }

    /**
     * Replaces the whole resilience policy (the retry and breaker settings are then ignored), for
     * example {@link ResiliencePolicy#none()} or a policy of the caller's own.
     *
     * @param policy the policy
     * @return this builder
     * @throws IllegalArgumentException if null
     */
    public Builder<S> resiliencePolicy(ResiliencePolicy policy) {
      if (policy == null) {
        throw new IllegalArgumentException("resiliencePolicy must not be null");
      }
      this.policy = policy;
      return this;
    }

    /**
     * Builds the instance.
     *
     * @return the instance
     * @throws IllegalStateException if cluster or deployment was not set
     */
    public KubeJobs<S> build() {
      if (cluster == null) {
        throw new IllegalStateException(
            "cluster must be set: the name execution ids carry, for example cluster(\"prod\")");
      }
      if (deployment == null) {
        throw new IllegalStateException(
            "deployment must be set: the name separating this deployment's resources, for"
                + " example deployment(\"gravitino-a\")");
      }
      Objects.requireNonNull(jobKind.resourceKind(), "jobKind.resourceKind()");
      return new KubeJobs<>(this);
    }

    private static String quote(String value) {
      return value == null ? "null" : "'" + value + "'";
    }
  }
}
