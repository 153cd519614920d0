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
package dev.kubejobs.examples.gravitino;

import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.examples.Errors;
import dev.kubejobs.gravitino.GravitinoMapping;
import dev.kubejobs.gravitino.KubeJobsSparkExecutor;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.io.File;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.gravitino.connector.job.JobContext;
import org.apache.gravitino.connector.job.JobExecutionInfo;
import org.apache.gravitino.job.JobHandle;
import org.apache.gravitino.job.SparkJobTemplate;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The Gravitino example: a Gravitino {@link SparkJobTemplate} run through {@link
 * KubeJobsSparkExecutor} on the simulated cluster (fake API server, fake Apache Spark operator),
 * printing the spec it became and each Gravitino status until the job ends. Run it with {@code java
 * -jar examples/target/kubejobs-examples.jar gravitino}.
 */
public final class GravitinoExample {
  private GravitinoExample() {}

  /**
   * Returns the template the example runs: SparkPi as a Gravitino user would register it.
   *
   * @return the template
   */
  public static SparkJobTemplate sparkPiTemplate() {
    return SparkJobTemplate.builder()
        .withName("spark-pi")
        .withComment("Computes pi")
        .withExecutable("local:///opt/spark/examples/jars/spark-examples.jar")
        .withClassName("org.apache.spark.examples.SparkPi")
        .withArguments(List.of("1000"))
        .withEnvironments(Map.of("SPARK_LOG_LEVEL", "WARN"))
        .withConfigs(Map.of("spark.executor.instances", "2", "spark.sql.shuffle.partitions", "8"))
        .withCustomFields(Map.of("kubejobs.namespace", "gravitino-jobs"))
        .build();
  }

  /**
   * Runs the example.
   *
   * @param out where to print
   * @return 0 when the job succeeded
   */
  public static int run(PrintWriter out) {
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
        FakeSparkOperator operator = FakeSparkOperator.apache(server)) {
      out.println(
          "Gravitino example on a SIMULATED cluster (fake API server, fake Apache operator)");
      KubeJobs<SparkJobSpec> jobs =
          KubeJobs.builder(server.newClient(), SparkOperators.apache())
              .cluster("simulated")
              .deployment("gravitino")
              .statusCacheTtl(Duration.ZERO)
              .build();
      KubeJobsSparkExecutor executor =
          new KubeJobsSparkExecutor(
              jobs, new GravitinoMapping.Defaults("default", "4.0.1", "apache/spark:4.0.1"));
      SparkJobTemplate template = sparkPiTemplate();
      out.println("template:  " + template);
      out.println(
          "spec:      "
              + GravitinoMapping.toSpec(
                  template,
                  new GravitinoMapping.Defaults("default", "4.0.1", "apache/spark:4.0.1")));
      String handle =
          executor.submitJob(
              new JobContext(1, "demo", new File(System.getProperty("java.io.tmpdir"))), template);
      out.println("handle:    " + handle);
      JobHandle.Status last = null;
      for (int i = 0; i < 100; i++) {
        JobExecutionInfo info = executor.getJobExecutionInfo(handle);
        JobHandle.Status status = info.status();
        if (status != last) {
          out.println(
              "status:    "
                  + status
                  + (info.startedAt() != null ? " started " + info.startedAt() : "")
                  + (info.finishedAt() != null ? " finished " + info.finishedAt() : ""));
          last = status;
        }
        if (status == JobHandle.Status.SUCCEEDED
            || status == JobHandle.Status.FAILED
            || status == JobHandle.Status.CANCELLED) {
          break;
        }
        operator.step();
      }
      executor.getJobStdout(handle, 3, 1 << 20).forEach(l -> out.println("log:       " + l));
      return last == JobHandle.Status.SUCCEEDED ? 0 : Errors.FAILED;
    } catch (RuntimeException e) {
      out.println("gravitino example failed: " + Errors.describe(e));
      return Errors.FAILED;
    } finally {
      out.flush();
    }
  }

  /** The {@code gravitino} subcommand. */
  @picocli.CommandLine.Command(
      name = "gravitino",
      mixinStandardHelpOptions = true,
      description = "Runs a Gravitino SparkJobTemplate through kubejobs on a SIMULATED cluster.")
  public static final class Command implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      return run(spec.commandLine().getOut());
    }
  }
}
