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
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.status.StatusSource;
import dev.kubejobs.examples.Errors;
import dev.kubejobs.examples.Errors.CliException;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * The options every real-cluster command shares: where the cluster is and which jobs are ours.
 * Builds the caller's {@link ApiClient} the way a scheduler would, and a {@link KubeJobs} over it.
 */
public final class ClusterOptions {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterOptions.class);

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
      description =
          "Namespace of the jobs (default: the kubeconfig context's namespace, else default).")
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

  private Kubeconfigs.Loaded loaded;
  private boolean looked;

  /** The execution id a command was given, once taken apart; null for a job id. */
  private ExecutionId givenId;

  /**
   * Takes the operator, cluster and namespace from a command's argument when it is an execution id
   * ({@code CLUSTER/PLURAL.GROUP/NAMESPACE/NAME}, as {@code submit} prints it): an id says which
   * operator's resource it names and which cluster name it was written with, so {@code --operator}
   * and {@code --cluster} need not be passed for it. A job id (no {@code /}) changes nothing.
   *
   * @param idOrJobId the command's argument
   * @param given whether an option was given on the command line, by its long name
   * @throws CliException with exit code {@link Errors#CONFIGURATION} if the id is malformed, names
   *     a resource no operator of this program runs, or contradicts an option given explicitly
   */
  public void takeFromId(String idOrJobId, Predicate<String> given) {
    if (!idOrJobId.contains("/")) {
      return;
    }
    ExecutionId id;
    try {
      id = ExecutionId.parse(idOrJobId);
    } catch (IllegalArgumentException e) {
      throw new CliException(
          Errors.CONFIGURATION,
          "'"
              + idOrJobId
              + "' is not an execution id: "
              + message(e)
              + " (an execution id is CLUSTER/PLURAL.GROUP/NAMESPACE/NAME as submit prints it;"
              + " a job id has no '/')");
    }
    Operator of = null;
    for (Operator o : Operator.values()) {
      if (id.isOf(o.jobKind().resourceKind())) {
        of = o;
      }
    }
    if (of == null) {
      throw new CliException(
          Errors.CONFIGURATION,
          "execution id "
              + id
              + " names "
              + id.plural()
              + "."
              + id.group()
              + ", which neither operator runs (apache: "
              + Operator.apache.jobKind().resourceKind().qualifiedPlural()
              + ", kubeflow: "
              + Operator.kubeflow.jobKind().resourceKind().qualifiedPlural()
              + ")");
    }
    refuseContradiction(given.test("--operator"), "--operator", operator.name(), of.name(), id);
    refuseContradiction(given.test("--cluster"), "--cluster", cluster, id.cluster(), id);
    refuseContradiction(given.test("--namespace"), "--namespace", namespace, id.namespace(), id);
    operator = of;
    cluster = id.cluster();
    namespace = id.namespace();
    givenId = id;
  }

  private static void refuseContradiction(
      boolean given, String option, String value, String fromId, ExecutionId id) {
    if (given && !fromId.equals(value)) {
      throw new CliException(
          Errors.CONFIGURATION,
          "execution id "
              + id
              + " says "
              + option
              + " "
              + fromId
              + ", but "
              + option
              + " "
              + value
              + " was given: drop "
              + option
              + " (an execution id names its operator, cluster and namespace)");
    }
  }

  /**
   * Returns the namespace of the jobs: {@code -n} when given, else the namespace of the
   * kubeconfig's current context (as kubectl does), else the pod's own namespace inside a pod, else
   * {@code default}.
   *
   * @return the namespace
   * @throws CliException if the kubeconfig must be read and cannot be
   */
  public String namespace() {
    if (namespace != null) {
      return namespace;
    }
    Kubeconfigs.Loaded config = kubeconfig();
    String fromContext = config == null ? null : config.config().getNamespace();
    if (fromContext != null && !fromContext.isBlank()) {
      return fromContext;
    }
    if (config == null) {
      try {
        return Files.readString(IN_CLUSTER_NAMESPACE).strip();
      } catch (IOException | RuntimeException e) {
        return "default";
      }
    }
    return "default";
  }

  private static final Path IN_CLUSTER_NAMESPACE =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

  private synchronized Kubeconfigs.Loaded kubeconfig() {
    if (!looked) {
      loaded =
          Kubeconfigs.load(kubeconfig, System.getenv(), Path.of(System.getProperty("user.home")));
      looked = true;
    }
    return loaded;
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
    Kubeconfigs.Loaded config = kubeconfig();
    if (config == null) {
      try {
        return ClientBuilder.cluster().build();
      } catch (IOException | RuntimeException e) {
        throw new CliException(
            Errors.CONFIGURATION, "cannot use the in-cluster configuration: " + e.getMessage());
      }
    }
    try {
      // Like ClientBuilder.standard(false): no persister, refreshed tokens are never written back.
      return ClientBuilder.kubeconfig(config.config()).build();
    } catch (IOException | RuntimeException e) {
      throw new CliException(
          Errors.CONFIGURATION,
          "cannot use kubeconfig "
              + config.files()
              + " (from "
              + config.source()
              + "): "
              + message(e));
    }
  }

  /**
   * Builds a kubejobs instance over {@link #apiClient()} for the chosen operator. The status cache
   * is off: a command reads once.
   *
   * @return the instance
   */
  public KubeJobs<SparkJobSpec> kubeJobs() {
    return kubeJobs(StatusSource.polling());
  }

  /**
   * Builds the kubejobs instance for these options, reading statuses from the given source.
   *
   * @param source polling (every read asks the server) or watch (reads look at the watch's view)
   * @return the instance; close it to end its watches
   */
  public KubeJobs<SparkJobSpec> kubeJobs(StatusSource source) {
    return KubeJobs.builder(apiClient(), operator.jobKind())
        .cluster(cluster)
        .deployment(deployment)
        .statusCacheTtl(Duration.ZERO)
        .statusSource(source)
        .build();
  }

  /**
   * Resolves a command argument to an execution id: an id as {@code submit} prints it, or a job id
   * of this deployment in the namespace.
   *
   * @param jobs the instance
   * @param idOrJobId the argument
   * @return the execution id
   * @throws CliException with exit code {@link Errors#CONFIGURATION} if it is neither
   */
  public ExecutionId executionId(KubeJobs<SparkJobSpec> jobs, String idOrJobId) {
    if (idOrJobId.contains("/")) {
      takeFromId(idOrJobId, option -> false);
      return givenId;
    }
    String ns = namespace();
    String name;
    try {
      name = JobIdentity.of(jobs.namePrefix(), deployment, ns, idOrJobId).name();
    } catch (IllegalArgumentException e) {
      throw new CliException(
          Errors.CONFIGURATION, "'" + idOrJobId + "' is not a job id: " + message(e));
    }
    return ExecutionId.of(cluster, jobs.jobKind().resourceKind(), ns, name);
  }

  /**
   * Returns the error to report for a job that is not there. Given by its job id, it is looked for
   * under the other operator in the same namespace: found there, the error says to pass {@code
   * --operator}; otherwise (or for a full execution id, which names its operator) it is {@code e}.
   *
   * @param e the job's absence under this operator
   * @param idOrJobId the command's argument
   * @return the exception to throw
   */
  public RuntimeException notFound(NoSuchJobException e, String idOrJobId) {
    if (idOrJobId.contains("/")) {
      return e;
    }
    Operator other = operator == Operator.apache ? Operator.kubeflow : Operator.apache;
    try (KubeJobs<SparkJobSpec> jobs =
        KubeJobs.builder(apiClient(), other.jobKind())
            .cluster(cluster)
            .deployment(deployment)
            .statusCacheTtl(Duration.ZERO)
            .build()) {
      ExecutionId there = executionId(jobs, idOrJobId);
      jobs.statusReader().get(there);
      return new CliException(
          Errors.COMMAND_FAILED,
          "no job "
              + idOrJobId
              + " of the "
              + operator
              + " operator in namespace "
              + namespace()
              + ", but the "
              + other
              + " operator has one ("
              + there
              + "): add --operator "
              + other);
    } catch (KubeJobsException | IllegalArgumentException notThereEither) {
      LOG.debug("Job {} is not under the {} operator either", idOrJobId, other, notThereEither);
      return e;
    }
  }

  private static String message(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }
}
