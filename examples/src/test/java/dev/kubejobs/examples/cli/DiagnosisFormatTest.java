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

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.diagnosis.Cause;
import dev.kubejobs.core.diagnosis.Diagnoser;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.DiagnosisInput;
import dev.kubejobs.core.diagnosis.Evidence;
import dev.kubejobs.spark.diagnosis.SparkDiagnosisRules;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.ApacheStatuses;
import dev.kubejobs.testkit.operator.DriverTrouble;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the {@code status} and {@code watch} commands print a diagnosis: from a status built with one
 * (the status pipeline fills it on {@code get()}), here the diagnosis kubejobs' diagnoser makes of
 * a fake Apache operator's job whose driver image cannot be pulled.
 */
class DiagnosisFormatTest {

  private static final ExecutionId ID =
      ExecutionId.parse("default/sparkapplications.spark.apache.org/spark-jobs/kj-nightly-etl");

  @Test
  void statusPrintsTheCauseTheSentenceAndTheKeyEvidenceAfterTheMessage() {
    JobExecutionInfo info =
        JobExecutionInfo.builder(JobStatus.QUEUED)
            .operatorState("DriverRequested")
            .message(ApacheStatuses.defaultMessage("DriverRequested"))
            .driverPod("kj-nightly-etl-0-driver")
            .diagnosis(imagePullDiagnosis())
            .build();

    List<String> lines = status(info);

    assertThat(lines.get(7)).isEqualTo("message:   Requested driver from resource scheduler.");
    assertThat(lines.get(8))
        .startsWith("diagnosis: IMAGE_PULL_FAILED: ")
        .contains("apache/spark:4.0.1-typo");
    assertThat(lines.get(9)).startsWith("evidence:  ");
    assertThat(lines.subList(9, lines.size()))
        .anySatisfy(l -> assertThat(l).contains("Failed to pull image").contains("not found"))
        .allSatisfy(l -> assertThat(l).hasSizeLessThanOrEqualTo(DiagnosisFormat.MAX_LINE_CHARS));
    assertThat(lines.subList(10, lines.size()))
        .allSatisfy(l -> assertThat(l).startsWith("           "));
  }

  @Test
  void statusOfAJobWithoutADiagnosisPrintsNoDiagnosisLines() {
    List<String> lines = status(JobExecutionInfo.builder(JobStatus.STARTED).build());

    assertThat(lines).hasSize(8).noneMatch(l -> l.startsWith("diagnosis:"));
  }

  @Test
  void evidenceBeyondTheFirstFourIsCountedNotPrinted() {
    List<Evidence> evidence = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      evidence.add(
          Evidence.builder(Evidence.Source.EVENT, "Pod jobs/p")
              .type("Warning")
              .reason("R" + i)
              .message("m" + i)
              .build());
    }
    Diagnosis d = Diagnosis.of(Cause.UNSCHEDULABLE, "Pod jobs/p cannot be scheduled.", evidence);

    assertThat(DiagnosisFormat.lines(d))
        .containsExactly(
            "diagnosis: UNSCHEDULABLE: Pod jobs/p cannot be scheduled.",
            "evidence:  EVENT Warning R1 Pod jobs/p: m1",
            "           EVENT Warning R2 Pod jobs/p: m2",
            "           EVENT Warning R3 Pod jobs/p: m3",
            "           EVENT Warning R4 Pod jobs/p: m4",
            "           (+2 more)");
  }

  @Test
  void aMultiLineMegabyteMessageIsPrintedAsOneCappedLineKeepingHeadAndTail() {
    String stderr =
        "Exception in thread \"main\" io.fabric8.kubernetes.client.KubernetesClientException:"
            + " exceeded quota: team-a, requested: limits.cpu=4\n"
            + "\tat x.y.Z.call(Z.java:1)\n".repeat(40_000)
            + "the last line";
    Diagnosis d =
        Diagnosis.of(
            Cause.SUBMISSION_FAILED,
            "The operator could not submit jobs/app.",
            List.of(
                Evidence.builder(Evidence.Source.OPERATOR_STATUS, "SparkApplication jobs/app")
                    .reason("FAILED")
                    .message(stderr)
                    .build()));

    List<String> lines = DiagnosisFormat.lines(d);

    assertThat(lines).hasSize(2);
    assertThat(lines.get(1))
        .hasSizeLessThanOrEqualTo(DiagnosisFormat.MAX_LINE_CHARS)
        .contains("exceeded quota: team-a", " | ", "chars cut")
        .endsWith("the last line")
        .doesNotContain("\n");
  }

  @Test
  void watchPrintsTheDiagnosisWhenItAppearsAndAgainOnlyWhenItChanges() {
    StringWriter buffer = new StringWriter();
    Commands.WatchPrinter printer = new Commands.WatchPrinter(new PrintWriter(buffer));
    JobExecutionInfo.Builder queued =
        JobExecutionInfo.builder(JobStatus.QUEUED)
            .operatorState("DriverRequested")
            .message("Requested driver from resource scheduler.");
    Diagnosis stuck = imagePullDiagnosis();

    printer.print(1.0, queued.build());
    printer.print(61.0, queued.diagnosis(stuck).build());
    printer.print(91.0, queued.diagnosis(stuck).build());
    printer.print(
        301.0,
        JobExecutionInfo.builder(JobStatus.FAILED)
            .operatorState("DriverStartTimedOut")
            .message(ApacheStatuses.defaultMessage("DriverStartTimedOut"))
            .diagnosis(stuck)
            .build());

    List<String> lines = buffer.toString().lines().toList();
    assertThat(lines.get(0)).startsWith("   +1.0s  QUEUED     DriverRequested");
    assertThat(lines.get(1)).startsWith("          diagnosis: IMAGE_PULL_FAILED: ");
    assertThat(lines).filteredOn(l -> l.contains("diagnosis:")).hasSize(1);
    assertThat(lines.get(lines.size() - 1)).startsWith(" +301.0s  FAILED     DriverStartTimedOut");
  }

  private static List<String> status(JobExecutionInfo info) {
    StringWriter buffer = new StringWriter();
    PrintWriter out = new PrintWriter(buffer);
    Commands.Status.print(out, ID, info);
    out.flush();
    return buffer.toString().lines().toList();
  }

  /**
   * The diagnosis of a job whose driver image does not exist, made by kubejobs' diagnoser from what
   * the fake Apache operator, kubelet and scheduler leave after two minutes in DriverRequested.
   */
  private static Diagnosis imagePullDiagnosis() {
    Instant start = Instant.parse("2026-03-01T10:00:00Z");
    MutableClock clock = MutableClock.at(start);
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.builder().clock(clock).build();
        FakeSparkOperator operator = FakeSparkOperator.apache(server)) {
      String ns = "spark-jobs";
      operator.driverTrouble(ns, "kj-nightly-etl", DriverTrouble.imagePull());
      server
          .store()
          .create(
              operator.resourceType(),
              ns,
              ApacheFixtures.noStatus().name("kj-nightly-etl").namespace(ns).build());
      operator.moveTo(ns, "kj-nightly-etl", "DriverRequested");
      clock.advance(Duration.ofMinutes(2));
      operator.advance(ns, "kj-nightly-etl");
      JsonObject app = server.store().get(operator.resourceType(), ns, "kj-nightly-etl").get();
      DiagnosisInput input =
          DiagnosisInput.builder(
                  ns, "SparkApplication", "kj-nightly-etl", JobStatus.QUEUED, clock.instant())
              .waited(Duration.ofMinutes(2))
              .operatorStatus(app.getAsJsonObject("status"))
              .driverPod(server.store().get(ResourceType.POD, ns, "kj-nightly-etl-0-driver").get())
              .events(server.store().list(ResourceType.EVENT, ns))
              .build();
      return Diagnoser.builder()
          .rule(SparkDiagnosisRules.apache())
          .build()
          .diagnose(input)
          .orElseThrow();
    }
  }
}
