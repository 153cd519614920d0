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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The settings of a {@link KubeJobsSparkExecutor}, read from the {@code
 * gravitino.jobExecutor.kubejobs.*} lines of {@code gravitino.conf} (Gravitino passes them to
 * {@code initialize} with the prefix stripped). Every bad value fails with one message naming the
 * {@code gravitino.conf} key, the rule and the value.
 *
 * <table>
 *   <caption>Keys (after {@code gravitino.jobExecutor.kubejobs.})</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@value #KUBECONFIG}</td><td>path of a kubeconfig file (its current context)</td>
 *       <td>the in-cluster service account of the Gravitino pod</td></tr>
 *   <tr><td>{@value #CLUSTER}</td><td>cluster name written into execution ids</td>
 *       <td>required</td></tr>
 *   <tr><td>{@value #DEPLOYMENT}</td><td>label separating schedulers sharing a namespace</td>
 *       <td>{@code gravitino}</td></tr>
 *   <tr><td>{@value #OPERATOR}</td><td>{@code apache} or {@code kubeflow}</td>
 *       <td>{@code apache}</td></tr>
 *   <tr><td>{@value #NAMESPACE}</td><td>namespace of a job whose template names none</td>
 *       <td>{@code default}</td></tr>
 *   <tr><td>{@value #IMAGE}</td><td>container image of a job whose template names none</td>
 *       <td>the operator's</td></tr>
 *   <tr><td>{@value #SERVICE_ACCOUNT}</td><td>driver service account of a job whose template names
 *       none</td><td>the operator's</td></tr>
 *   <tr><td>{@value #SPARK_VERSION}</td><td>Spark version of a job whose template names none</td>
 *       <td>{@code 4.0.1}</td></tr>
 *   <tr><td>{@value #STATUS_CACHE_PERIOD_MS}</td><td>how long one LIST per namespace serves status
 *       reads, 0 to 600000</td><td>5000</td></tr>
 *   <tr><td>{@value #REQUEST_TIMEOUT_MS}</td><td>read and write timeout of each request, 1 to
 *       600000</td><td>30000</td></tr>
 *   <tr><td>{@value #RETRY_MAX_ATTEMPTS}</td><td>attempts of a call failing transiently, 1 to
 *       10</td><td>3</td></tr>
 *   <tr><td>{@value #BREAKER_OPEN_MS}</td><td>how long calls fail fast once the API server was
 *       unreachable, 1 to 600000</td><td>10000</td></tr>
 *   <tr><td>{@value #DRIVER_POD_RETENTION_MS}</td><td>Apache operator: how long the driver pod (and
 *       so the job's output) is kept after the job ended, 0 (released at once) to 2592000000 (30
 *       days); the Kubeflow operator keeps it as long as the SparkApplication. Above 0, the
 *       SparkApplication of a job that ended longer ago than this is deleted (both operators);
 *       0 keeps SparkApplications until deleted by hand</td>
 *       <td>86400000 (one day)</td></tr>
 *   <tr><td>{@value #ENDED_JOBS_SWEEP_INTERVAL_MS}</td><td>how often, at most, a call of the
 *       executor first deletes the SparkApplications of jobs ended longer ago than {@value
 *       #DRIVER_POD_RETENTION_MS}, 1000 to 86400000</td><td>600000 (ten minutes)</td></tr>
 * </table>
 *
 * <p>The {@code class} key (Gravitino's own) is ignored; any other key is logged at WARN as
 * unknown, naming the known keys, and ignored. Immutable.
 *
 * @param kubeconfig the kubeconfig file, or null for the in-cluster configuration
 * @param cluster the cluster name
 * @param deployment the deployment name
 * @param operator {@code apache} or {@code kubeflow}
 * @param defaults the namespace, Spark version, image and service account of templates naming none
 * @param statusCachePeriod the status cache period
 * @param requestTimeout the request timeout
 * @param retryMaxAttempts the retry attempts
 * @param breakerOpen the circuit breaker's open period
 * @param driverPodRetention how long the Apache operator keeps the driver pod after the job ended,
 *     and after which the SparkApplication of an ended job is deleted (zero: never)
 * @param endedJobsSweepInterval how often, at most, ended jobs past retention are looked for
 * @param unknownKeys the keys that were not understood
 */
public record ExecutorSettings(
    Path kubeconfig,
    String cluster,
    String deployment,
    String operator,
    GravitinoMapping.Defaults defaults,
    Duration statusCachePeriod,
    Duration requestTimeout,
    int retryMaxAttempts,
    Duration breakerOpen,
    Duration driverPodRetention,
    Duration endedJobsSweepInterval,
    Set<String> unknownKeys) {

  /** The {@code gravitino.conf} prefix of the keys, for executor name {@code kubejobs}. */
  public static final String PREFIX = "gravitino.jobExecutor.kubejobs.";

  /** Key: kubeconfig path. */
  public static final String KUBECONFIG = "kubeconfig";

  /** Key: cluster name. */
  public static final String CLUSTER = "cluster";

  /** Key: deployment name. */
  public static final String DEPLOYMENT = "deployment";

  /** Key: Spark operator. */
  public static final String OPERATOR = "operator";

  /** Key: default namespace. */
  public static final String NAMESPACE = "namespace";

  /** Key: default image. */
  public static final String IMAGE = "image";

  /** Key: default driver service account. */
  public static final String SERVICE_ACCOUNT = "serviceAccount";

  /** Key: default Spark version. */
  public static final String SPARK_VERSION = "sparkVersion";

  /** Key: status cache period in milliseconds. */
  public static final String STATUS_CACHE_PERIOD_MS = "statusCachePeriodMs";

  /** Key: request timeout in milliseconds. */
  public static final String REQUEST_TIMEOUT_MS = "requestTimeoutMs";

  /** Key: retry attempts. */
  public static final String RETRY_MAX_ATTEMPTS = "retry.maxAttempts";

  /** Key: circuit breaker open period in milliseconds. */
  public static final String BREAKER_OPEN_MS = "circuitBreaker.openMs";

  /** Key: how long the Apache operator keeps the driver pod after the job ended, milliseconds. */
  public static final String DRIVER_POD_RETENTION_MS = "driverPodRetentionMs";

  /**
   * Key: how often, at most, the SparkApplications of jobs ended past {@link
   * #DRIVER_POD_RETENTION_MS} are deleted, milliseconds.
   */
  public static final String ENDED_JOBS_SWEEP_INTERVAL_MS = "endedJobsSweepIntervalMs";

  /** Every key this executor reads. */
  public static final List<String> KEYS =
      List.of(
          KUBECONFIG,
          CLUSTER,
          DEPLOYMENT,
          OPERATOR,
          NAMESPACE,
          IMAGE,
          SERVICE_ACCOUNT,
          SPARK_VERSION,
          STATUS_CACHE_PERIOD_MS,
          REQUEST_TIMEOUT_MS,
          RETRY_MAX_ATTEMPTS,
          BREAKER_OPEN_MS,
          DRIVER_POD_RETENTION_MS,
          ENDED_JOBS_SWEEP_INTERVAL_MS);

  private static final long MAX_MS = 600_000;
  private static final long MAX_RETENTION_MS = Duration.ofDays(30).toMillis();

  /** Copies the unknown keys. */
  public ExecutorSettings {
    unknownKeys = Set.copyOf(unknownKeys);
  }

  /**
   * Reads the settings.
   *
   * @param configs what Gravitino passes to {@code initialize}
   * @return the settings
   * @throws IllegalArgumentException naming the {@code gravitino.conf} key, the rule and the value
   */
  public static ExecutorSettings parse(Map<String, String> configs) {
    if (configs == null) {
      throw new IllegalArgumentException("configs must not be null");
    }
    Map<String, String> c = new LinkedHashMap<>();
    configs.forEach((k, v) -> c.put(k, v == null ? null : v.strip()));
    Set<String> unknown = new TreeSet<>(c.keySet());
    unknown.removeAll(KEYS);
    unknown.remove("class");

    Path kubeconfig = null;
    String path = text(c, KUBECONFIG, null);
    if (path != null) {
      kubeconfig =
          Path.of(
              path.startsWith("~/") ? System.getProperty("user.home") + path.substring(1) : path);
      if (!Files.isRegularFile(kubeconfig)) {
        throw bad(
            KUBECONFIG,
            "must be the path of a readable kubeconfig file"
                + (Files.isDirectory(kubeconfig) ? " (it is a directory)" : " (no such file)"),
            path);
      }
    }
    String cluster = text(c, CLUSTER, null);
    if (cluster == null) {
      throw new IllegalArgumentException(
          PREFIX
              + CLUSTER
              + " must be set: the cluster name written into every job's execution id, for"
              + " example "
              + PREFIX
              + CLUSTER
              + " = prod");
    }
    String operator = text(c, OPERATOR, "apache");
    if (!operator.equals("apache") && !operator.equals("kubeflow")) {
      throw bad(OPERATOR, "must be apache or kubeflow", operator);
    }
    GravitinoMapping.Defaults defaults =
        new GravitinoMapping.Defaults(
            text(c, NAMESPACE, "default"),
            text(c, SPARK_VERSION, "4.0.1"),
            text(c, IMAGE, null),
            text(c, SERVICE_ACCOUNT, null));
    return new ExecutorSettings(
        kubeconfig,
        cluster,
        text(c, DEPLOYMENT, "gravitino"),
        operator,
        defaults,
        Duration.ofMillis(number(c, STATUS_CACHE_PERIOD_MS, 5_000, 0, MAX_MS)),
        Duration.ofMillis(number(c, REQUEST_TIMEOUT_MS, 30_000, 1, MAX_MS)),
        (int) number(c, RETRY_MAX_ATTEMPTS, 3, 1, 10),
        Duration.ofMillis(number(c, BREAKER_OPEN_MS, 10_000, 1, MAX_MS)),
        Duration.ofMillis(
            number(c, DRIVER_POD_RETENTION_MS, Duration.ofDays(1).toMillis(), 0, MAX_RETENTION_MS)),
        Duration.ofMillis(
            number(
                c,
                ENDED_JOBS_SWEEP_INTERVAL_MS,
                Duration.ofMinutes(10).toMillis(),
                1_000,
                Duration.ofDays(1).toMillis())),
        unknown);
  }

  /**
   * Returns the exception for a bad value, naming the {@code gravitino.conf} key.
   *
   * @param key the key after the prefix
   * @param rule what the value must be
   * @param value the value
   * @return the exception
   */
  static IllegalArgumentException bad(String key, String rule, String value) {
    return new IllegalArgumentException(PREFIX + key + " " + rule + ", but was '" + value + "'");
  }

  private static String text(Map<String, String> c, String key, String fallback) {
    String v = c.get(key);
    return v == null || v.isEmpty() ? fallback : v;
  }

  private static long number(Map<String, String> c, String key, long fallback, long min, long max) {
    String v = text(c, key, null);
    if (v == null) {
      return fallback;
    }
    long n;
    try {
      n = Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw bad(key, "must be a whole number from " + min + " to " + max, v);
    }
    if (n < min || n > max) {
      throw bad(key, "must be a whole number from " + min + " to " + max, v);
    }
    return n;
  }
}
