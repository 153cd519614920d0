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
package dev.kubejobs.spark.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.spark.SparkOperators;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import io.github.resilience4j.retry.RetryConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server (an admission webhook, say) that quotes a secret Spark conf or environment value in its
 * refusal: the value never reaches the caller's exception or kubejobs' log lines.
 */
class SecretsInServerTextTest {
  private static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
  private static final String APPS = "/apis/spark.apache.org/v1/namespaces/etl/sparkapplications";

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().clock(CLOCK).build();

  private FakeKubernetesApiServer server;
  private KubeJobs<SparkJobSpec> jobs;
  private FakeSparkOperator operator;

  @BeforeEach
  void setUp() {
    server = KUBE.server();
    operator = FakeSparkOperator.apache(server); // serves the CRD the read-back asks for
    jobs =
        KubeJobs.builder(server.newClient(), SparkOperators.apache())
            .cluster("prod")
            .deployment("gravitino-a")
            .clock(CLOCK)
            .retry(RetryConfig.custom().maxAttempts(2).waitDuration(Duration.ofMillis(1)).build())
            .build();
  }

  @AfterEach
  void tearDown() {
    operator.close();
  }

  private static SparkJobSpec spec() {
    return SparkJobSpec.builder()
        .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
        .mainClass("org.apache.spark.examples.SparkPi")
        .sparkVersion("4.0.1")
        .namespace("etl")
        .sparkConf("spark.hadoop.fs.s3a.secret.key", "hunter2")
        .environment("DB_PASSWORD", "correct-horse")
        .build();
  }

  @Test
  void aRejectionQuotingASecretSparkConfValueNeverShowsIt() {
    server
        .faults()
        .add(
            Fault.on("POST", APPS)
                .status(
                    422,
                    "Invalid",
                    "spec.sparkConf: Invalid value: \"hunter2\"; env DB_PASSWORD=correct-horse"));

    String logs;
    JobRejectedException e;
    try (Capture capture = new Capture()) {
      e =
          catchThrowableOfType(
              JobRejectedException.class, () -> jobs.submitter().submit("job-1", spec()));
      logs = capture.text();
    }

    assertThat(e).isNotNull();
    assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.INVALID);
    assertThat(e.getMessage()).contains("spec.sparkConf: Invalid value: \"****\"");
    assertThat(everything(e)).doesNotContain("hunter2").doesNotContain("correct-horse");
    assertThat(logs).doesNotContain("hunter2").doesNotContain("correct-horse");
  }

  @Test
  void anUnconfirmedCreateWhoseServerErrorQuotesASecretNeverShowsIt() {
    server
        .faults()
        .add(
            Fault.on("POST", APPS)
                .forever()
                .status(503, "ServiceUnavailable", "webhook down while checking \"hunter2\""));

    ApiUnavailableException e;
    String logs;
    try (Capture capture = new Capture()) {
      e =
          catchThrowableOfType(
              ApiUnavailableException.class, () -> jobs.submitter().submit("job-1", spec()));
      logs = capture.text();
    }

    assertThat(e).isNotNull();
    assertThat(everything(e)).contains("****").doesNotContain("hunter2");
    assertThat(logs).doesNotContain("hunter2");
  }

  /** The exception as a caller's log would print it: messages, causes and suppressed ones. */
  private static String everything(Throwable e) {
    StringWriter out = new StringWriter();
    e.printStackTrace(new PrintWriter(out));
    return out.toString();
  }

  /** What slf4j-simple writes to System.err (it looks the stream up on each write). */
  private static final class Capture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

    Capture() {
      System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    }

    String text() {
      return buffer.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
      System.setErr(original);
    }
  }
}
