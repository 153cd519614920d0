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
package dev.kubejobs.examples.cli;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobKind;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.examples.Errors;
import dev.kubejobs.examples.Errors.CliException;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options every real-cluster command shares: where the cluster is and which jobs are ours.
 * Builds the caller's {@link ApiClient} the way a scheduler would, and a {@link KubeJobs} over it.
 */
public final class ClusterOptions {
  /** Which Spark operator runs the jobs. */
  public enum Operator {
    /** The Apache Spark Kubernetes Operator, {@code spark.apache.org/v1}. */
    apache,
    /** The Kubeflow Spark operator, {@code sparkoperator.k8s.io/v1beta2}. */
    kubeflow;

    /**
     * Returns the kubejobs job kind of this operator.
     *
     * @return the job kind with default options
     */
    public JobKind<SparkJobSpec> jobKind() {
      return this == apache ? SparkOperators.apache() : SparkOperators.kubeflow();
    }
  }

  @Option(
      names = "--kubeconfig",
      paramLabel = "PATH",
      description =
          "kubeconfig file. Default: $KUBECONFIG, else the in-cluster configuration inside a pod,"
              + " else ~/.kube/config.")
  Path kubeconfig;

  @Option(
      names = {"-n", "--namespace"},
      defaultValue = "default",
      description = "Namespace of the jobs (default: ${DEFAULT-VALUE}).")
  String namespace;

  @Option(
      names = "--cluster",
      defaultValue = "default",
      description = "Cluster name written into execution ids (default: ${DEFAULT-VALUE}).")
  String cluster;

  @Option(
      names = "--deployment",
      defaultValue = "kubejobs-cli",
      description =
          "Deployment label separating schedulers in a namespace (default: ${DEFAULT-VALUE}).")
  String deployment;

  @Option(
      names = "--operator",
      defaultValue = "apache",
      description = "Spark operator: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  Operator operator;

  /**
   * Returns the namespace option.
   *
   * @return the namespace
   */
  public String namespace() {
    return namespace;
  }

  /**
   * Returns the operator option.
   *
   * @return the operator
   */
  public Operator operator() {
    return operator;
  }

  /**
   * Returns the deployment option.
   *
   * @return the deployment name
   */
  public String deployment() {
    return deployment;
  }

  /**
   * Builds the {@link ApiClient} from the kubeconfig or the in-cluster configuration. Refreshed
   * credentials are never written back to the kubeconfig file.
   *
   * @return a new client
   * @throws CliException if there is no kubeconfig or it cannot be read
   */
  public ApiClient apiClient() {
    if (kubeconfig != null) {
      return fromKubeconfig(kubeconfig, "--kubeconfig");
    }
    String env = System.getenv("KUBECONFIG");
    if (env != null && !env.isBlank()) {
      return fromKubeconfig(Path.of(env.split(File.pathSeparator)[0]), "$KUBECONFIG");
    }
    if (System.getenv("KUBERNETES_SERVICE_HOST") != null) {
      try {
        return ClientBuilder.cluster().build();
      } catch (IOException | RuntimeException e) {
        throw new CliException(
            Errors.CONFIGURATION, "cannot use the in-cluster configuration: " + e.getMessage());
      }
    }
    Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
    if (Files.isRegularFile(home)) {
      return fromKubeconfig(home, "~/.kube/config");
    }
    throw new CliException(
        Errors.CONFIGURATION,
        "no kubeconfig: give --kubeconfig PATH, set KUBECONFIG, or run inside a pod for the"
            + " in-cluster configuration");
  }

  /**
   * Builds a kubejobs instance over {@link #apiClient()} for the chosen operator. The status cache
   * is off: a command reads once.
   *
   * @return the instance
   */
  public KubeJobs<SparkJobSpec> kubeJobs() {
    return KubeJobs.builder(apiClient(), operator.jobKind())
        .cluster(cluster)
        .deployment(deployment)
        .statusCacheTtl(Duration.ZERO)
        .build();
  }

  /**
   * Resolves a command argument to an execution id: an id as {@code submit} prints it, or a job id
   * of this deployment in the namespace.
   *
   * @param jobs the instance
   * @param idOrJobId the argument
   * @return the execution id
   * @throws IllegalArgumentException if it is neither
   */
  public ExecutionId executionId(KubeJobs<SparkJobSpec> jobs, String idOrJobId) {
    if (idOrJobId.contains("/")) {
      return ExecutionId.parse(idOrJobId);
    }
    String name = JobIdentity.of(jobs.namePrefix(), deployment, namespace, idOrJobId).name();
    return ExecutionId.of(cluster, jobs.jobKind().resourceKind(), namespace, name);
  }

  private static ApiClient fromKubeconfig(Path path, String source) {
    if (!Files.isRegularFile(path)) {
      throw new CliException(
          Errors.CONFIGURATION,
          "kubeconfig "
              + path
              + " (from "
              + source
              + ") not found: give --kubeconfig PATH of an existing file");
    }
    try (Reader reader = Files.newBufferedReader(path)) {
      KubeConfig config = KubeConfig.loadKubeConfig(reader);
      config.setFile(path.toAbsolutePath().toFile()); // certificate paths relative to the file
      // Like ClientBuilder.standard(false): no persister, refreshed tokens are never written back.
      return ClientBuilder.kubeconfig(config).build();
    } catch (IOException | RuntimeException e) {
      throw new CliException(
          Errors.CONFIGURATION, "cannot read kubeconfig " + path + ": " + message(e));
    }
  }

  private static String message(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }
}
