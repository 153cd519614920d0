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
package dev.kubejobs.core.logs;

import static dev.kubejobs.core.testing.FakeApps.driverPod;
import static dev.kubejobs.core.testing.FakeApps.managedApp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.testing.FakeAppKind;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import dev.kubejobs.testkit.ResourceType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DriverLogReaderTest {
  @RegisterExtension static final KubeJobsHarness<String> KUBE = KubeJobsHarness.fakeApps().build();

  private static final MutableClock CLOCK = KUBE.clock();

  private static final String NS = "etl";
  private static final String APP = "kj-job-1";
  private static final ExecutionId ID = ExecutionId.of(Fixture.CLUSTER, FakeAppKind.KIND, NS, APP);
  private static final String LOG_PATH = "/api/v1/namespaces/etl/pods/[^/]+/log";

  private void app(String driverPod) {
    JsonObject app = managedApp(APP, "job-1", "prod");
    if (driverPod != null) {
      JsonObject status = new JsonObject();
      status.addProperty("driverPod", driverPod);
      app.add("status", status);
    }
    KUBE.store().create(FakeAppKind.TYPE, NS, app);
  }

  private void pod(String name, String... containers) {
    KUBE.store().create(ResourceType.POD, NS, driverPod(name, APP, containers));
  }

  private RecordedRequest onlyLogRequest() {
    List<RecordedRequest> reads = KUBE.server().journal().requests("GET", LOG_PATH);
    assertThat(reads).hasSize(1);
    return reads.get(0);
  }

  /** The log names {@code container}, the one its only request asked for. */
  private void assertReadFrom(DriverLog log, String container) {
    assertThat(log.container()).contains(container);
    assertThat(onlyLogRequest().queryParameter("container")).isEqualTo(container);
  }

  @Test
  void readsTheDriverContainerOfAPodWithSidecars() {
    app(null);
    pod("driver-1", "istio-proxy", "driver", "log-shipper");
    KUBE.store().setPodLog(NS, "driver-1", "istio-proxy", "envoy says hi\n");
    KUBE.store().setPodLog(NS, "driver-1", "driver", "spark line 1\nspark line 2\n");

    DriverLog log = KUBE.jobs().driverLogs().tail(ID, 10, 10_000);

    assertThat(log.lines()).containsExactly("spark line 1", "spark line 2");
    assertThat(log.pod()).contains("driver-1");
    assertReadFrom(log, "driver");
  }

  @Test
  void readsThePodsOnlyContainerWhenAPodTemplateRenamedTheDriverContainer() {
    app(null);
    pod("driver-1", "spark-main");
    KUBE.store().setPodLog(NS, "driver-1", "spark-main", "renamed, still the driver\n");

    DriverLog log = KUBE.jobs().driverLogs().tail(ID, 10, 10_000);

    assertThat(log.lines()).containsExactly("renamed, still the driver");
    assertReadFrom(log, "spark-main");
  }

  @Test
  void asksForTheDriverContainerByItsNameWhenSeveralContainersHaveOtherNames() {
    app(null);
    pod("driver-1", "spark-main", "log-shipper");

    DriverLog log = KUBE.jobs().driverLogs().tail(ID, 10, 10_000);

    // Which of two unknown containers is the driver cannot be told: the kind's name is asked for,
    // and the server's refusal leaves the log empty.
    assertThat(log.isEmpty()).isTrue();
    assertThat(onlyLogRequest().queryParameter("container"))
        .isEqualTo(FakeAppKind.DRIVER_CONTAINER);
  }

  @Test
  void readsTheNewestDriverPodWhenTheResourceNamesNone() {
    app(null);
    pod("zz-attempt-1", "driver");
    KUBE.store().setPodLog(NS, "zz-attempt-1", "driver", "first attempt\n");
    CLOCK.advance(Duration.ofMinutes(5));
    pod("aa-attempt-2", "driver");
    KUBE.store().setPodLog(NS, "aa-attempt-2", "driver", "second attempt\n");

    DriverLog log = KUBE.jobs().driverLogs().tail(ID, 10, 10_000);

    assertThat(log.lines()).containsExactly("second attempt");
    assertThat(log.pod()).contains("aa-attempt-2");
  }

  @Test
  void readsThePodTheResourceNames() {
    app("named-driver");
    JsonObject unlabelled = driverPod("named-driver", "someone-else", "driver");
    KUBE.store().create(ResourceType.POD, NS, unlabelled);
    KUBE.store().setPodLog(NS, "named-driver", "driver", "from the named pod\n");

    DriverLog log = KUBE.jobs().driverLogs().tail(ID, 10, 10_000);

    assertThat(log.lines()).containsExactly("from the named pod");
    assertThat(KUBE.server().journal().count("GET", "/api/v1/namespaces/etl/pods")).isZero();
  }

  @Test
  void readsTheDriverPodByLabelAfterTheResourceIsGone() {
    pod("driver-1", "driver", "sidecar");
    KUBE.store().setPodLog(NS, "driver-1", "driver", "still here\n");

    DriverLog log = KUBE.jobs().driverLogs().tail(ID, 10, 10_000);

    assertThat(log.lines()).containsExactly("still here");
  }

  @Test
  void multiMegabyteLogReturnsOnlyItsTailAndAsksTheServerForTailLinesNotLimitBytes() {
    app(null);
    pod("driver-1", "driver");
    StringBuilder big = new StringBuilder();
    int n = 0;
    while (big.length() < 5 * 1024 * 1024) {
      big.append("line ").append(n++).append(" of a chatty Spark driver\n");
    }
    KUBE.store().setPodLog(NS, "driver-1", "driver", big.toString());

    DriverLog log = KUBE.jobs().driverLogs().tail(ID, 20, 200);

    // the last whole lines within 200 bytes, newest last
    assertThat(log.lines()).isNotEmpty().hasSizeLessThanOrEqualTo(20);
    assertThat(log.lines().get(log.lines().size() - 1))
        .isEqualTo("line " + (n - 1) + " of a chatty Spark driver");
    assertThat(log.lines().get(0)).startsWith("line " + (n - log.lines().size()) + " ");
    int bytes = 0;
    for (String line : log.lines()) {
      bytes += line.getBytes(StandardCharsets.UTF_8).length + 1;
    }
    assertThat(bytes).isLessThanOrEqualTo(200);
    assertThat(log.truncated()).isTrue();
    RecordedRequest read = onlyLogRequest();
    assertThat(read.queryParameter("tailLines")).isEqualTo("20");
    assertThat(read.queryParameter("limitBytes")).isNull();
  }

  @Test
  void multiMegabyteSingleLineIsCutToItsTailEnd() {
    app(null);
    pod("driver-1", "driver");
    String line = "0123456789".repeat(500_000) + "END";
    KUBE.store().setPodLog(NS, "driver-1", "driver", "head\n" + line);

    DriverLog log = KUBE.jobs().driverLogs().tail(ID, 5, 1000);

    assertThat(log.lines()).hasSize(1);
    assertThat(log.lines().get(0)).hasSize(999).endsWith("789END");
    assertThat(line).endsWith(log.lines().get(0));
    assertThat(log.truncated()).isTrue();
  }

  @Test
  void noDriverPodYetGivesAnEmptyLog() {
    app(null);

    assertThat(KUBE.jobs().driverLogs().tail(ID, 10, 1000).isEmpty()).isTrue();
    assertThat(KUBE.server().journal().count("GET", LOG_PATH)).isZero();
  }

  /**
   * The answers the kubelet gives (through the API server) for a log that cannot be read yet or any
   * more (a container not started, a pod gone between its lookup and the read) are expected: an
   * empty log, no warning. Any other refusal is warned of.
   */
  @ParameterizedTest(name = "{0} {1} warned: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "404|pods \"driver-1\" not found|false",
        "400|container \"driver\" in pod \"driver-1\" is waiting to start: ContainerCreating|false",
        "400|container \"driver\" in pod \"driver-1\" is waiting to start: image can't be pulled"
            + "|false",
        "400|the pod is ContainerCreating|false",
        "400|container \"driver\" in pod \"driver-1\" is waiting to start: PodInitializing|false",
        "400|PodInitializing|false",
        "400|container foo is not valid for pod driver-1|true",
      })
  void aLogThatCannotBeReadGivesAnEmptyLogWarnedOfOnlyWhenUnexpected(
      int code, String message, boolean warned) {
    app(null);
    pod("driver-1", "driver");
    KUBE.server()
        .faults()
        .add(
            Fault.on("GET", LOG_PATH)
                .status(code, code == 404 ? "NotFound" : "BadRequest", message));

    try (LogCapture logs = LogCapture.start()) {
      DriverLog log = KUBE.jobs().driverLogs().tail(ID, 10, 1000);

      assertThat(log.isEmpty()).isTrue();
      assertThat(log).isSameAs(DriverLog.empty());
      assertThat(logs.warnings()).hasSize(warned ? 1 : 0);
      assertThat(logs.warnings()).allMatch(w -> w.contains("Could not read the driver log"));
    }
  }

  @Test
  void forbiddenLogGivesAnEmptyLog() {
    app(null);
    pod("driver-1", "driver");
    KUBE.store().setPodLog(NS, "driver-1", "driver", "secret stuff\n");
    KUBE.server().rbac().deny("get", "", "pods/log");

    assertThat(KUBE.jobs().driverLogs().tail(ID, 10, 1000).isEmpty()).isTrue();
  }

  @Test
  void forbiddenPodLookupGivesAnEmptyLog() {
    app(null);
    pod("driver-1", "driver");
    KUBE.server().rbac().deny("list", "", "pods");

    assertThat(KUBE.jobs().driverLogs().tail(ID, 10, 1000).isEmpty()).isTrue();
  }

  @Test
  void unreachableApiServerGivesAnEmptyLog() {
    app(null);
    pod("driver-1", "driver");
    KUBE.server().faults().add(Fault.on("*", ".*").forever().connectionReset());

    assertThat(KUBE.jobs().driverLogs().tail(ID, 10, 1000).isEmpty()).isTrue();
  }

  @Test
  void idOfAnotherClusterGivesAnEmptyLogWithoutARequest() {
    ExecutionId other = ExecutionId.of("elsewhere", FakeAppKind.KIND, NS, APP);

    assertThat(KUBE.jobs().driverLogs().tail(other, 10, 1000).isEmpty()).isTrue();
    assertThat(KUBE.server().journal().requests()).isEmpty();
  }

  @Test
  void zeroCapsGiveAnEmptyLogAndBadArgumentsAreRejected() {
    assertThat(KUBE.jobs().driverLogs().tail(ID, 0, 1000).isEmpty()).isTrue();
    assertThat(KUBE.jobs().driverLogs().tail(ID, 10, 0).isEmpty()).isTrue();
    assertThat(KUBE.server().journal().requests()).isEmpty();
    assertThatThrownBy(() -> KUBE.jobs().driverLogs().tail(null, 10, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("execution id");
    assertThatThrownBy(() -> KUBE.jobs().driverLogs().tail(ID, -1, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxLines");
  }
}
