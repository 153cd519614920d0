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

import dev.kubejobs.examples.Errors;
import dev.kubejobs.examples.Errors.CliException;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A simulated Kubernetes cluster anyone can talk to: the testkit's fake API server on a localhost
 * port with a fake Apache and a fake Kubeflow Spark operator moving every job one step per tick,
 * and a kubeconfig file pointing at it. Closing it stops the operators and the server; the
 * kubeconfig file is left for the user to delete. Not thread safe: one owner starts and closes it.
 */
public final class FakeCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FakeCluster.class);

  /** The namespace the written kubeconfig's context names, so commands default to it. */
  public static final String NAMESPACE = "spark-jobs";

  /** The context the written kubeconfig names. */
  public static final String CONTEXT = "kubejobs-fake";

  private final FakeKubernetesApiServer server;
  private final FakeSparkOperator apache;
  private final FakeSparkOperator kubeflow;
  private final Path kubeconfig;

  private FakeCluster(
      FakeKubernetesApiServer server,
      FakeSparkOperator apache,
      FakeSparkOperator kubeflow,
      Path kubeconfig) {
    this.server = server;
    this.apache = apache;
    this.kubeflow = kubeflow;
    this.kubeconfig = kubeconfig;
  }

  /**
   * Starts the fake API server on a localhost port, both fake operators ticking every {@code step},
   * and writes a kubeconfig for it.
   *
   * @param port the port, 0 for a free one
   * @param step the time between two steps of every job, positive
   * @param kubeconfig the kubeconfig file to write (replaced if it exists)
   * @return the running cluster
   * @throws UncheckedIOException if the kubeconfig cannot be written (nothing is left running)
   * @throws IllegalArgumentException if the port is out of range or the step not positive
   */
  public static FakeCluster start(int port, Duration step, Path kubeconfig) {
    FakeKubernetesApiServer server = FakeKubernetesApiServer.builder().port(port).build();
    FakeSparkOperator apache = null;
    FakeSparkOperator kubeflow = null;
    try {
      for (String crd : CRDS) {
        server.registerCrd(crd(crd));
      }
      apache = FakeSparkOperator.apache(server).start(step);
      kubeflow = FakeSparkOperator.kubeflow(server).start(step);
      Path parent = kubeconfig.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(kubeconfig, kubeconfigYaml(server.url()));
      return new FakeCluster(server, apache, kubeflow, kubeconfig);
    } catch (IOException | RuntimeException e) {
      closeAll(apache, kubeflow, server);
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot write the kubeconfig " + kubeconfig, io);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * The operators' real SparkApplication CRDs, resources of this program's jar: registered, they
   * give the fake server each version's schema (validation, {@code kubectl explain}) and printer
   * columns, as on a cluster where the operators are installed.
   */
  static final List<String> CRDS =
      List.of(
          "apache-sparkapplications.spark.apache.org.yaml",
          "kubeflow-sparkoperator.k8s.io_sparkapplications.yaml");

  /**
   * Reads one of {@link #CRDS} from the class path.
   *
   * @throws IllegalStateException if the jar lacks it (a broken build)
   */
  static String crd(String file) {
    String resource = "/dev/kubejobs/examples/crds/" + file;
    try (InputStream in = FakeCluster.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the CRD " + resource + " is not in this program's jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the CRD " + resource, e);
    }
  }

  /**
   * Returns the fake API server's URL.
   *
   * @return the URL, {@code http://localhost:PORT}
   */
  public String url() {
    return server.url();
  }

  /**
   * Returns the kubeconfig file written for the cluster.
   *
   * @return the file
   */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /**
   * Returns the fake API server, for tests that look at its store or journal.
   *
   * @return the server
   */
  public FakeKubernetesApiServer server() {
    return server;
  }

  /** Stops both operators and the server. */
  @Override
  public void close() {
    closeAll(apache, kubeflow, server);
  }

  private static void closeAll(AutoCloseable... all) {
    for (AutoCloseable c : all) {
      if (c == null) {
        continue;
      }
      try {
        c.close();
      } catch (Exception e) {
        LOG.warn("Could not stop {} of the fake cluster cleanly", c, e);
      }
    }
  }

  /**
   * Returns a kubeconfig for a cluster at {@code url} with one context whose namespace is {@link
   * #NAMESPACE}. The fake server checks no credentials; the token is a placeholder.
   *
   * @param url the API server URL
   * @return the YAML
   */
  static String kubeconfigYaml(String url) {
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - name: kubejobs-fake
          cluster:
            server: %s
        contexts:
        - name: %s
          context:
            cluster: kubejobs-fake
            namespace: %s
            user: kubejobs-fake
        current-context: %s
        users:
        - name: kubejobs-fake
          user:
            token: placeholder-the-fake-checks-no-credentials
        """
        .formatted(url, CONTEXT, NAMESPACE, CONTEXT);
  }

  /**
   * The {@code fake-cluster} command: starts the cluster, prints how to use it, runs until stopped.
   */
  @Command(
      name = "fake-cluster",
      mixinStandardHelpOptions = true,
      description = {
        "Serves a SIMULATED cluster on a localhost port until stopped (Ctrl-C): the fake"
            + " Kubernetes API server with a fake Apache and a fake Kubeflow Spark operator, and"
            + " writes a kubeconfig for it, which the other commands, kubectl and your own code"
            + " can use."
      })
  public static final class Serve implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--kubeconfig",
        paramLabel = "PATH",
        defaultValue = "kubejobs-fake.yaml",
        description = "The kubeconfig file to write (default: ${DEFAULT-VALUE}).")
    Path kubeconfig;

    @Option(
        names = "--port",
        defaultValue = "0",
        description = "Port on localhost (default: a free one).")
    int port;

    @Option(
        names = "--step",
        defaultValue = "2s",
        converter = Commands.DurationConverter.class,
        description = "Time between two operator steps of every job (default: ${DEFAULT-VALUE}).")
    Duration step;

    private final CountDownLatch stopped = new CountDownLatch(1);

    @Override
    public Integer call() {
      if (step.isZero() || step.isNegative()) {
        throw new CliException(Errors.CONFIGURATION, "--step must be positive, but was " + step);
      }
      FakeCluster cluster;
      try {
        cluster = start(port, step, kubeconfig);
      } catch (UncheckedIOException e) {
        throw new CliException(Errors.CONFIGURATION, e.getMessage() + ": " + e.getCause());
      }
      Thread hook = new Thread(cluster::close, "fake-cluster-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try (cluster) {
        printHowToUse(cluster);
        stopped.await();
        return 0;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 0;
      } finally {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          LOG.debug("The JVM is shutting down; its hook stops the fake cluster", shuttingDown);
        }
      }
    }

    /** Ends a running {@link #call()}, as Ctrl-C does for the program. */
    void stop() {
      stopped.countDown();
    }

    private void printHowToUse(FakeCluster cluster) {
      String config = cluster.kubeconfig().toAbsolutePath().toString();
      PrintWriter out = spec.commandLine().getOut();
      out.println("Simulated Kubernetes cluster at " + cluster.url());
      out.println("  a fake API server with a fake Apache and a fake Kubeflow Spark operator;");
      out.println("  every job moves one operator step each " + step.toMillis() + " ms.");
      out.println("kubeconfig: " + config);
      out.println("  context " + CONTEXT + ", namespace " + NAMESPACE);
      out.println();
      String java = Launch.command();
      out.println("In another terminal:");
      out.println("  " + java + " --kubeconfig " + config + " submit job-1");
      out.println("  " + java + " --kubeconfig " + config + " watch job-1");
      out.println("  " + java + " --kubeconfig " + config + " list");
      out.println("  kubectl --kubeconfig " + config + " get sparkapplications");
      out.println("  kubectl --kubeconfig " + config + " explain sparkapplication.spec");
      out.println("A driver whose image cannot be pulled (the job fails with its diagnosis):");
      out.println(
          "  "
              + java
              + " --kubeconfig "
              + config
              + " submit stuck-1 --label "
              + FakeSparkOperator.TROUBLE_LABEL
              + "=image-pull");
      out.println("  in Java: ApiClient client = io.kubernetes.client.util.Config.fromConfig(");
      out.println("      \"" + config + "\");");
      out.println();
      out.println("Everything is in memory and lost when this stops. Stop with Ctrl-C.");
      out.flush();
    }
  }
}
