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
package dev.kubejobs.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.Diagnoser;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.DiagnosisInput;
import dev.kubejobs.spark.diagnosis.SparkDiagnosisRules;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import dev.kubejobs.testkit.operator.DriverTrouble;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a testkit user gets from {@link DriverTrouble}: the pods, Events and statuses the fake
 * operators leave are diagnosed by kubejobs' {@link Diagnoser} as the cause they stand for, for
 * both operators. (How the fakes mirror the real operators, kubelet and scheduler, with the sources
 * read, is in the testkit's {@code DriverTroubleTest}; the status pipeline that runs the diagnoser
 * on {@code get()} is core's.)
 */
class StuckDriverDiagnosisTest {

  private static final String NS = "jobs";
  private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
  private static final Diagnoser DIAGNOSER =
      Diagnoser.builder()
          .rule(SparkDiagnosisRules.apache())
          .rule(SparkDiagnosisRules.kubeflow())
          .build();

  private final MutableClock clock = MutableClock.at(START);
  private final FakeKubernetesApiServer server =
      FakeKubernetesApiServer.builder().clock(clock).build();
  private FakeSparkOperator operator;

  @AfterEach
  void tearDown() {
    operator.close();
    server.close();
  }

  /** The three kinds of a driver that cannot start. */
  enum Stuck {
    IMAGE_PULL(DriverTrouble.imagePull(), Cause.IMAGE_PULL_FAILED, "apache/spark:4.0.1-typo"),
    UNSCHEDULABLE(DriverTrouble.unschedulable(), Cause.UNSCHEDULABLE, "Insufficient cpu"),
    CONFIG_ERROR(DriverTrouble.configError(), Cause.CONFIG_ERROR, "spark-secrets");

    final DriverTrouble trouble;
    final Cause cause;
    final String named;

    Stuck(DriverTrouble trouble, Cause cause, String named) {
      this.trouble = trouble;
      this.cause = cause;
      this.named = named;
    }
  }

  @ParameterizedTest
  @EnumSource(Stuck.class)
  void apacheDriverWaitingPastTheThresholdIsDiagnosedWithItsCause(Stuck stuck) {
    operator = FakeSparkOperator.apache(server);
    operator.driverTrouble(NS, "kj-app", stuck.trouble);
    submit(ApacheFixtures.noStatus().name("kj-app").namespace(NS).build());
    operator.moveTo(NS, "kj-app", "DriverRequested");
    clock.advance(Duration.ofMinutes(2));
    operator.advance(NS, "kj-app"); // the kubelet or the scheduler tries again

    Optional<Diagnosis> d =
        diagnose(JobStatus.QUEUED, Duration.ofMinutes(2), Optional.of("kj-app-0-driver"));

    assertThat(d).isPresent();
    assertThat(d.get().cause()).isEqualTo(stuck.cause);
    assertThat(d.get().toString()).contains(stuck.named);
  }

  @ParameterizedTest
  @EnumSource(Stuck.class)
  void apacheDriverStartTimedOutIsDiagnosedFromTheObservedDriverEvenAfterItsPodIsReleased(
      Stuck stuck) {
    operator = FakeSparkOperator.apache(server);
    operator.driverTrouble(NS, "kj-app", stuck.trouble);
    submit(ApacheFixtures.noStatus().name("kj-app").namespace(NS).build());
    operator.runToEnd(NS, "kj-app"); // DriverStartTimedOut, ResourceReleased: the pod is gone

    Optional<Diagnosis> d = diagnose(JobStatus.FAILED, Duration.ZERO, Optional.empty());

    assertThat(d).isPresent();
    assertThat(d.get().cause()).isEqualTo(stuck.cause);
  }

  @ParameterizedTest
  @EnumSource(Stuck.class)
  void kubeflowDriverWaitingInSubmittedIsDiagnosedWithItsCause(Stuck stuck) {
    operator = FakeSparkOperator.kubeflow(server);
    operator.driverTrouble(NS, "app", stuck.trouble);
    submit(KubeflowFixtures.noStatus().name("app").namespace(NS).build());
    clock.advance(Duration.ofMinutes(2));
    operator.stepUntilSettled();

    Optional<Diagnosis> d =
        diagnose(JobStatus.QUEUED, Duration.ofMinutes(2), Optional.of("app-driver"));

    assertThat(d).isPresent();
    assertThat(d.get().cause()).isEqualTo(stuck.cause);
    assertThat(d.get().toString()).contains(stuck.named);
  }

  @Test
  void aStuckDriverWaitingLessThanTheThresholdIsNotDiagnosed() {
    operator = FakeSparkOperator.kubeflow(server);
    operator.driverTrouble(NS, "app", DriverTrouble.imagePull());
    submit(KubeflowFixtures.noStatus().name("app").namespace(NS).build());
    operator.stepUntilSettled();

    assertThat(diagnose(JobStatus.QUEUED, Duration.ofSeconds(59), Optional.of("app-driver")))
        .isEmpty();
  }

  @Test
  void apacheOomKilledDriverIsDiagnosedOomKilled() {
    operator = FakeSparkOperator.apache(server);
    operator.driverTrouble(NS, "kj-app", DriverTrouble.oomKilled());
    submit(ApacheFixtures.noStatus().name("kj-app").namespace(NS).build());
    operator.runToEnd(NS, "kj-app");

    Optional<Diagnosis> d = diagnose(JobStatus.FAILED, Duration.ZERO, Optional.empty());

    assertThat(d).map(Diagnosis::cause).contains(Cause.OOM_KILLED);
  }

  @Test
  void kubeflowOomKilledDriverIsDiagnosedOomKilled() {
    operator = FakeSparkOperator.kubeflow(server);
    operator.driverTrouble(NS, "app", DriverTrouble.oomKilled());
    submit(KubeflowFixtures.noStatus().name("app").namespace(NS).build());
    operator.runToEnd(NS, "app");

    Optional<Diagnosis> d = diagnose(JobStatus.FAILED, Duration.ZERO, Optional.of("app-driver"));

    assertThat(d).map(Diagnosis::cause).contains(Cause.OOM_KILLED);
  }

  private void submit(JsonObject app) {
    server.store().create(operator.resourceType(), NS, app);
  }

  /** Runs the diagnoser on what the fake server holds, as the status pipeline reads it. */
  private Optional<Diagnosis> diagnose(
      JobStatus status, Duration waited, Optional<String> driverPod) {
    JsonObject app =
        server.store().list(operator.resourceType(), NS).stream().findFirst().orElseThrow();
    DiagnosisInput.Builder input =
        DiagnosisInput.builder(
                NS,
                "SparkApplication",
                app.getAsJsonObject("metadata").get("name").getAsString(),
                status,
                clock.instant())
            .waited(waited)
            .events(server.store().list(ResourceType.EVENT, NS));
    if (app.has("status") && app.get("status").isJsonObject()) {
      input.operatorStatus(app.getAsJsonObject("status"));
    }
    driverPod.flatMap(p -> server.store().get(ResourceType.POD, NS, p)).ifPresent(input::driverPod);
    return DIAGNOSER.diagnose(input.build());
  }
}
