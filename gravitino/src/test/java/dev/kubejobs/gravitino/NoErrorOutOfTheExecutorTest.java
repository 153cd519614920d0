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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import io.kubernetes.client.openapi.ApiClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.gravitino.connector.job.JobContext;
import org.apache.gravitino.job.JobHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * No {@link Error} leaves the executor's SPI methods: Gravitino's job manager catches {@link
 * Exception} in its scheduled status pull, so an error (a {@link LinkageError} of a server whose
 * classes do not match the jar, above all) would end the pull for good, silently. The error here is
 * thrown inside the executor's call by an interceptor of the API client's HTTP client, as a
 * mismatched class would be.
 */
class NoErrorOutOfTheExecutorTest {
  static final String NS = "gravitino-jobs";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE = FakeKubernetesExtension.builder().build();

  @TempDir Path dir;

  private final AtomicReference<Error> thrown = new AtomicReference<>();
  private KubeJobsSparkExecutor executor;
  private String id;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();
  private PrintStream stderr;

  @BeforeEach
  void aRunningJobAndAnExecutorWhoseCallsCanMeetAnError() {
    FakeSparkOperator.builder(FakeSparkOperator.Flavor.APACHE, KUBE.server()).build();
    ApiClient client = KUBE.server().newClient();
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .addInterceptor(
                chain -> {
                  Error e = thrown.get();
                  if (e != null) {
                    throw e;
                  }
                  return chain.proceed(chain.request());
                })
            .build());
    executor =
        new KubeJobsSparkExecutor(
            KubeJobs.builder(client, SparkOperators.apache())
                .cluster("prod")
                .deployment("gravitino")
                .statusCacheTtl(Duration.ZERO)
                .build(),
            new GravitinoMapping.Defaults(NS, "4.0.1", null));
    id = executor.submitJob(new JobContext(7, "lake", dir.toFile()), Templates.sparkPi());
    // slf4j-simple writes to System.err as it is at each call
    stderr = System.err;
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setErr(stderr);
    executor.close();
  }

  @Test
  void aLinkageErrorIsOneRuntimeExceptionNamingTheGravitinoVersionsLoggedOnce() throws Exception {
    thrown.set(
        new NoSuchMethodError(
            "'org.apache.gravitino.connector.job.JobExecutionInfo$Builder"
                + " org.apache.gravitino.connector.job.JobExecutionInfo.builder()'"));

    List<ThrowingCall> calls =
        List.of(
            () -> executor.getJobExecutionInfo(id),
            () -> executor.getJobStatus(id),
            () -> executor.cancelJob(id),
            () -> executor.getJobExecutionInfo(id));

    for (ThrowingCall call : calls) {
      assertThatThrownBy(call::run)
          .isExactlyInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("The kubejobs job executor cannot run in this Gravitino server")
          .hasMessageContaining("NoSuchMethodError")
          .hasMessageContaining("Gravitino server of the main line after 1.3.0")
          .hasMessageContaining("Gravitino 1.3.0 and earlier cannot run it")
          .hasCauseInstanceOf(NoSuchMethodError.class);
    }
    assertThat(executor.getJobStdout(id, 10, 1000)).isEmpty();
    assertThat(executor.getJobStderr(id, 10, 1000)).isEmpty();
    String logged = log.toString(StandardCharsets.UTF_8);
    assertThat(logged.split("cannot run in this Gravitino server", -1))
        .as("logged once: %s", logged)
        .hasSize(2);

    // and the executor works again once the calls link
    thrown.set(null);
    assertThat(executor.getJobStatus(id)).isEqualTo(JobHandle.Status.QUEUED);
  }

  @Test
  void anotherErrorIsARuntimeExceptionNamingTheMethodAndJob() {
    thrown.set(new StackOverflowError("deep"));

    assertThatThrownBy(() -> executor.getJobExecutionInfo(id))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage(
            "The kubejobs job executor failed in getJobExecutionInfo of job '"
                + id
                + "': java.lang.StackOverflowError: deep")
        .hasCauseInstanceOf(StackOverflowError.class);
    assertThatThrownBy(() -> executor.cancelJob(id)).isInstanceOf(RuntimeException.class);
    assertThat(executor.getJobStdout(id, 10, 1000)).isEmpty();
    assertThat(executor.getJobStderr(id, 10, 1000)).isEmpty();
  }

  /** An SPI call. */
  @FunctionalInterface
  interface ThrowingCall {
    void run() throws Exception;
  }
}
