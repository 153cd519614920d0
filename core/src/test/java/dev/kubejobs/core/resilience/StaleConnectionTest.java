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
package dev.kubejobs.core.resilience;

import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Connections the API server closed while they sat idle in the client's pool.
 *
 * <p>Assumed of the real server: kube-apiserver closes a connection idle for 90 seconds ({@code
 * IdleTimeout} in {@code k8s.io/apiserver/pkg/server/secure_serving.go}) while OkHttp keeps idle
 * connections for 5 minutes, so a client that polls less often than every 90 seconds over HTTP/1.1
 * finds its pooled connections closed. The fake server here closes them when the test says ({@code
 * closeConnections()}), after the client's calls returned, and the test waits (Awaitility) until
 * the server has seen every one closed. Not with a short idle timeout: Jetty's idle timeout also
 * runs between accepting a connection and reading its first request, so on a loaded machine a new
 * connection (the one a retry takes) could be closed before the client wrote its GET, a failure on
 * a fresh connection that no client should retry; kube-apiserver's 90 s leaves no such race.
 */
class StaleConnectionTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final String LISTS = "/apis/kubejobs.dev/v1/namespaces/[^/]+/testjobs";

  private FakeKubernetesApiServer server;

  @BeforeEach
  void setUp() {
    CLOCK.set(T0);
    server =
        FakeKubernetesApiServer.builder().clock(CLOCK).build().registerResource(TestJobKind.TYPE);
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  private void awaitEveryConnectionClosedByTheServer() {
    assertThat(server.closeConnections()).isPositive();
    await().atMost(Duration.ofSeconds(10)).until(() -> server.openConnections() == 0);
  }

  /** A gateway without retries that read job kj-a once, after the server closed its connection. */
  private KubeGateway gatewayWhoseConnectionTheServerClosed() {
    server
        .store()
        .create(TestJobKind.TYPE, "etl", Fixture.testJob("kj-a", "gravitino-a", "job-a", null));
    KubeGateway gateway =
        KubeGateway.create(server.newClient(), Duration.ofSeconds(5), ResiliencePolicy.none());
    assertThat(gateway.get(null, TestJobKind.KIND, "etl", "kj-a")).isPresent();
    awaitEveryConnectionClosedByTheServer();
    return gateway;
  }

  @Test
  void aParallelPollAfterTheServerClosedIdleConnectionsAnswersEveryJobWithOneListEach() {
    List<ExecutionId> ids = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      String namespace = "ns-" + i;
      server
          .store()
          .create(
              TestJobKind.TYPE,
              namespace,
              Fixture.testJob("kj-job-" + i, "gravitino-a", "job-" + i, "RUNNING"));
      ids.add(ExecutionId.of(Fixture.CLUSTER, TestJobKind.KIND, namespace, "kj-job-" + i));
    }
    // No retry by the policy: a GET lost to a stale connection would show as an error.
    try (KubeJobs<TestJobSpec> jobs =
        Fixture.builder(server, CLOCK, "gravitino-a")
            .retry(RetryConfig.custom().maxAttempts(1).build())
            .statusParallelism(10)
            .build()) {
      assertThat(jobs.statusReader().getAll(ids).values()).allMatch(r -> r.info().isPresent());
      assertThat(server.openConnections()).isPositive();
      awaitEveryConnectionClosedByTheServer();
      CLOCK.advance(jobs.statusCacheTtl().plusSeconds(1));
      server.journal().clear();

      Map<ExecutionId, JobStatusResult> again = jobs.statusReader().getAll(ids);

      assertThat(again.values())
          .allSatisfy(r -> assertThat(r.error()).as("error of %s", r).isEmpty())
          .allMatch(r -> r.info().isPresent());
      // the attempts on closed connections never reached the server
      assertThat(server.journal().count("GET", LISTS)).isEqualTo(10);
    }
  }

  @Test
  void aWriteOnAConnectionTheServerClosedIsNotSentAgainByTheGateway() {
    KubeGateway gateway = gatewayWhoseConnectionTheServerClosed();
    JsonObject patch = new JsonObject();
    JsonObject metadata = new JsonObject();
    JsonObject labels = new JsonObject();
    labels.addProperty("touched", "yes");
    metadata.add("labels", labels);
    patch.add("metadata", metadata);

    // OkHttp checks a pooled socket before a write only after 10 s idle, so the PATCH meets the
    // closed connection; whether to send it again is the policy's call, not the connection's.
    assertThatThrownBy(() -> gateway.mergePatch(null, TestJobKind.KIND, "etl", "kj-a", patch))
        .isInstanceOf(ApiUnavailableException.class);
    assertThat(server.journal().count("PATCH", ".*")).isZero();
    // the next GET takes a new connection
    assertThat(gateway.get(null, TestJobKind.KIND, "etl", "kj-a")).isPresent();
  }

  @Test
  void aGetOnAClosedConnectionIsSentAgainOnceAndReachesTheServerOnce() {
    KubeGateway gateway = gatewayWhoseConnectionTheServerClosed();
    server.journal().clear();

    assertThat(gateway.get(null, TestJobKind.KIND, "etl", "kj-a")).isPresent();

    assertThat(server.journal().count("GET", ".*")).isEqualTo(1);
  }
}
