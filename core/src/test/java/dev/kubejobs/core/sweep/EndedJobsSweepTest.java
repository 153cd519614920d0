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
package dev.kubejobs.core.sweep;

import static dev.kubejobs.core.testing.FakeApps.managedApp;
import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.testing.FakeAppKind;
import dev.kubejobs.core.testing.FakeApps;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import dev.kubejobs.testkit.ResourceType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sweep's second duty, {@link SweepRequest.Builder#endedJobsKeptFor}: removing the resources of
 * jobs that ended longer ago than a retention period, known jobs included, decided by the job
 * kind's own status mapper (with its driver pod when the mapper asks, as the status reader does).
 * The operators' own mappings are exercised through the Gravitino executor's test
 * (KubeJobsSparkExecutorTest); here a small kind whose mapper reads {@code status.state} and {@code
 * status.endedAt} pins the sweep's rules.
 */
class EndedJobsSweepTest {
  private static final Duration RETENTION = Duration.ofDays(1);

  @RegisterExtension
  static final KubeJobsHarness<String> KUBE =
      KubeJobsHarness.fakeApps().kind(StateKind::new).build();

  private static final MutableClock CLOCK = KUBE.clock();

  private static final String APPS = "/apis/apps.kubejobs.dev/v1/namespaces/";

  /**
   * FakeApp with a mapper of its own: {@code status.state} RUNNING is STARTED; COMPLETED is
   * SUCCEEDED at {@code status.endedAt}; FAILED asks for the driver pod and is FAILED only once the
   * pod is known not to run (as the Spark mappers do); no state is QUEUED.
   */
  static final class StateKind implements JobKind<String> {
    private final FakeAppKind fake = new FakeAppKind();

    @Override
    public ResourceKind resourceKind() {
      return fake.resourceKind();
    }

    @Override
    public String namespaceOf(String spec) {
      return fake.namespaceOf(spec);
    }

    @Override
    public JsonObject manifest(String spec, JobIdentity identity) {
      return fake.manifest(spec, identity);
    }

    @Override
    public JobStatusMapper statusMapper() {
      return (app, pod, now) -> {
        JsonObject status = app.status().orElse(new JsonObject());
        String state = status.has("state") ? status.get("state").getAsString() : "";
        Instant ended =
            status.has("endedAt") ? Instant.parse(status.get("endedAt").getAsString()) : null;
        switch (state) {
          case "RUNNING":
            return MappingDecision.report(JobExecutionInfo.builder(JobStatus.STARTED).build());
          case "BROKEN":
            throw new IllegalStateException("cannot read state BROKEN");
          case "COMPLETED":
            return MappingDecision.report(
                JobExecutionInfo.builder(JobStatus.SUCCEEDED).finishedAt(ended).build());
          case "FAILED":
            if (pod.lookup() == DriverPod.Lookup.NOT_LOOKED_UP) {
              return new MappingDecision.NeedDriverPod(
                  JobExecutionInfo.builder(JobStatus.STARTED).build(), List.of());
            }
            boolean runs =
                pod.pod()
                    .flatMap(p -> p.status())
                    .map(s -> "Running".equals(s.get("phase").getAsString()))
                    .orElse(false);
            return MappingDecision.report(
                runs
                    ? JobExecutionInfo.builder(JobStatus.STARTED).build()
                    : JobExecutionInfo.builder(JobStatus.FAILED).finishedAt(ended).build());
          default:
            return MappingDecision.report(JobExecutionInfo.builder(JobStatus.QUEUED).build());
        }
      };
    }

    @Override
    public Optional<String> driverPodName(ResourceSnapshot application) {
      return fake.driverPodName(application);
    }

    @Override
    public String driverPodSelector(ResourceSnapshot application) {
      return fake.driverPodSelector(application);
    }

    @Override
    public String driverContainerName(ResourceSnapshot application) {
      return fake.driverContainerName(application);
    }
  }

  private void create(String name, String jobId, String deployment, String state, Instant ended) {
    JsonObject app = managedApp(name, jobId, deployment);
    JsonObject status = new JsonObject();
    if (state != null) {
      status.addProperty("state", state);
    }
    if (ended != null) {
      status.addProperty("endedAt", ended.toString());
    }
    app.add("status", status);
    KUBE.store().create(FakeAppKind.TYPE, "etl", app);
  }

  private void driverPod(String app, String phase) {
    JsonObject pod = FakeApps.driverPod(app + "-driver", app, FakeAppKind.DRIVER_CONTAINER);
    JsonObject status = new JsonObject();
    status.addProperty("phase", phase);
    pod.add("status", status);
    KUBE.store().create(ResourceType.POD, "etl", pod);
  }

  private boolean exists(String name) {
    return KUBE.store().get(FakeAppKind.TYPE, "etl", name).isPresent();
  }

  private static SweepRequest.Builder request() {
    return SweepRequest.builder()
        .namespaces("etl")
        .knownJobIds(Set.of("done-old", "done-young", "running", "failed-old", "no-end", "other"))
        .gracePeriod(Duration.ofHours(1))
        .endedJobsKeptFor(RETENTION);
  }

  @Test
  void removesKnownJobsEndedPastRetentionAndKeepsRunningYoungAndForeignOnes() {
    // given: all created at T0; two days later one job ended 25 h ago, one 23 h ago, one still
    // runs, a failed one whose driver pod has stopped ended 30 h ago, and another deployment's
    // job ended long ago
    create("kj-done-old", "done-old", "prod", null, null);
    create("kj-done-young", "done-young", "prod", null, null);
    create("kj-running", "running", "prod", "RUNNING", null);
    create("kj-failed-old", "failed-old", "prod", null, null);
    create("kj-other", "other", "staging", "COMPLETED", T0);
    driverPod("kj-failed-old", "Failed");
    Instant now = T0.plus(Duration.ofDays(2));
    CLOCK.set(now);
    setStatus("kj-done-old", "COMPLETED", now.minus(Duration.ofHours(25)));
    setStatus("kj-done-young", "COMPLETED", now.minus(Duration.ofHours(23)));
    setStatus("kj-failed-old", "FAILED", now.minus(Duration.ofHours(30)));

    // when
    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    // then: the two ended past retention are deleted, as such, with their uid precondition
    assertThat(report.deleted())
        .extracting(SweepEntry::name, SweepEntry::cause)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "kj-done-old", SweepEntry.Cause.ENDED_PAST_RETENTION),
            org.assertj.core.groups.Tuple.tuple(
                "kj-failed-old", SweepEntry.Cause.ENDED_PAST_RETENTION));
    assertThat(report.entries(SweepEntry.Cause.ORPHAN)).isEmpty();
    assertThat(report.deleted().get(0).detail()).contains("longer ago than endedJobsKeptFor");
    assertThat(report.summary()).contains("2 of them of jobs ended past retention");
    assertThat(exists("kj-done-old")).isFalse();
    assertThat(exists("kj-failed-old")).isFalse();
    assertThat(exists("kj-done-young")).as("ended 23 h ago, inside retention").isTrue();
    assertThat(exists("kj-running")).as("running, created two days ago").isTrue();
    assertThat(exists("kj-other")).as("another deployment's").isTrue();
    assertThat(report.keptKnown()).isEqualTo(2);
    assertThat(KUBE.server().journal().requests("DELETE", APPS + ".*"))
        .extracting(RecordedRequest::path)
        .containsExactlyInAnyOrder(
            APPS + "etl/fakeapps/kj-done-old", APPS + "etl/fakeapps/kj-failed-old");
  }

  @Test
  void aJobEndedExactlyTheRetentionAgoIsKeptAndOneASecondLongerIsDeleted() {
    create("kj-done-old", "done-old", "prod", null, null);
    create("kj-done-young", "done-young", "prod", null, null);
    Instant now = T0.plus(Duration.ofDays(2));
    CLOCK.set(now);
    setStatus("kj-done-young", "COMPLETED", now.minus(RETENTION));
    setStatus("kj-done-old", "COMPLETED", now.minus(RETENTION).minusSeconds(1));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    assertThat(report.deleted()).extracting(SweepEntry::name).containsExactly("kj-done-old");
    assertThat(exists("kj-done-young")).as("ended exactly endedJobsKeptFor ago").isTrue();
    assertThat(report.keptKnown()).isEqualTo(1);
  }

  @Test
  void failedJobWhoseDriverPodStillRunsIsNotTakenForEnded() {
    // given: the resource says FAILED long ago but its driver pod still runs: the mapper (as the
    // Spark ones, rule 5 of spark's StatusRules) does not report FAILED yet
    create("kj-failed-old", "failed-old", "prod", null, null);
    driverPod("kj-failed-old", "Running");
    CLOCK.set(T0.plus(Duration.ofDays(3)));
    setStatus("kj-failed-old", "FAILED", T0);

    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    assertThat(report.deleted()).isEmpty();
    assertThat(exists("kj-failed-old")).isTrue();
    assertThat(report.keptKnown()).isEqualTo(1);
  }

  @Test
  void knownJobsWhoseMapperFailsAreKeptEachWithItsReasonAndWarnedOfOnce() {
    create("kj-broken-1", "done-old", "prod", "BROKEN", null);
    create("kj-broken-2", "done-young", "prod", "BROKEN", null);
    create("kj-broken-3", "running", "prod", "BROKEN", null);
    CLOCK.set(T0.plus(Duration.ofDays(3)));

    SweepReport report;
    List<String> warnings;
    try (LogCapture logs = LogCapture.start()) {
      report = KUBE.jobs().sweeper().sweep(request().build());
      warnings = logs.warnings();
    }

    assertThat(report.failed())
        .extracting(SweepEntry::name)
        .containsExactlyInAnyOrder("kj-broken-1", "kj-broken-2", "kj-broken-3");
    assertThat(report.failed())
        .allSatisfy(
            e ->
                assertThat(e.detail())
                    .contains("its status could not be decided, kept")
                    .contains("cannot read state BROKEN")
                    .contains(e.name()));
    assertThat(report.deleted()).isEmpty();
    assertThat(exists("kj-broken-1") && exists("kj-broken-2") && exists("kj-broken-3")).isTrue();
    // The reasons name their jobs; the log says it once for the three.
    assertThat(warnings)
        .filteredOn(l -> l.contains("Sweep could not decide whether a job ended"))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("cannot read state BROKEN");
  }

  @Test
  void
      aDriverPodLookupTheServerFailsKeepsAKnownJobWithTheReasonAndLeavesAnUnknownOneToTheOrphanRule() {
    // given: two jobs whose resources say FAILED long ago (the mapper asks for the driver pod),
    // one known and one unknown, and a server that answers every pod read with 500
    create("kj-failed-old", "failed-old", "prod", "FAILED", T0);
    create("kj-stranger", "stranger", "prod", "FAILED", T0);
    CLOCK.set(T0.plus(Duration.ofDays(3)));
    KUBE.server()
        .faults()
        .add(
            Fault.on("GET", "/api/v1/namespaces/etl/pods.*")
                .forever()
                .status(500, "InternalError", "etcd is sad"));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    // then: the known job is kept, its entry naming the server's answer; the unknown one is old
    // enough to be an orphan whatever its status
    assertThat(report.failed())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.name()).isEqualTo("kj-failed-old");
              assertThat(e.cause()).isEqualTo(SweepEntry.Cause.ENDED_PAST_RETENTION);
              assertThat(e.detail())
                  .contains("its status could not be decided, kept")
                  .contains("etcd is sad");
            });
    assertThat(report.deleted())
        .extracting(SweepEntry::name, SweepEntry::cause)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("kj-stranger", SweepEntry.Cause.ORPHAN));
    assertThat(exists("kj-failed-old")).isTrue();
  }

  @Test
  void aDriverPodLookupThatCannotReachTheServerStopsTheSweepWithWhatItDid() {
    create("kj-failed-old", "failed-old", "prod", "FAILED", T0);
    CLOCK.set(T0.plus(Duration.ofDays(3)));
    KUBE.server()
        .faults()
        .add(Fault.on("GET", "/api/v1/namespaces/etl/pods.*").forever().connectionReset());

    assertThatThrownBy(() -> KUBE.jobs().sweeper().sweep(request().build()))
        .isInstanceOf(SweepUnavailableException.class);
    assertThat(exists("kj-failed-old")).isTrue();
  }

  @Test
  void endedJobWithoutEndTimeIsKeptAndReported() {
    create("kj-no-end", "no-end", "prod", "COMPLETED", null);
    CLOCK.set(T0.plus(Duration.ofDays(3)));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    assertThat(report.deleted()).isEmpty();
    assertThat(exists("kj-no-end")).isTrue();
    assertThat(report.entries(SweepEntry.Outcome.KEPT))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.cause()).isEqualTo(SweepEntry.Cause.ENDED_PAST_RETENTION);
              assertThat(e.detail()).contains("tells no end time");
            });
    assertThat(report.isComplete()).isTrue();
  }

  @Test
  void dryRunReportsEndedJobsWithoutDeleting() {
    create("kj-done-old", "done-old", "prod", "COMPLETED", T0);
    CLOCK.set(T0.plus(Duration.ofDays(2)));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().dryRun(true).build());

    assertThat(report.wouldDelete())
        .extracting(SweepEntry::name, SweepEntry::cause)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "kj-done-old", SweepEntry.Cause.ENDED_PAST_RETENTION));
    assertThat(exists("kj-done-old")).isTrue();
    assertThat(KUBE.server().journal().requests("DELETE", APPS + ".*")).isEmpty();
  }

  @Test
  void withoutEndedJobsKeptForKnownEndedJobsStay() {
    create("kj-done-old", "done-old", "prod", "COMPLETED", T0);
    CLOCK.set(T0.plus(Duration.ofDays(30)));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().endedJobsKeptFor(null).build());

    assertThat(report.deleted()).isEmpty();
    assertThat(report.keptKnown()).isEqualTo(1);
    assertThat(exists("kj-done-old")).isTrue();
  }

  @Test
  void unknownRunningJobOlderThanGraceIsStillAnOrphan() {
    // given: the retention rule adds deletions, it never protects an orphan
    create("kj-lost", "lost", "prod", "RUNNING", null);
    CLOCK.set(T0.plus(Duration.ofHours(2)));

    SweepReport report = KUBE.jobs().sweeper().sweep(request().build());

    assertThat(report.deleted())
        .extracting(SweepEntry::name, SweepEntry::cause)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("kj-lost", SweepEntry.Cause.ORPHAN));
  }

  @Test
  void endedJobsKeptForMustNotBeNegative() {
    assertThatThrownBy(() -> SweepRequest.builder().endedJobsKeptFor(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("endedJobsKeptFor must be zero or more")
        .hasMessageContaining("PT-1S");
  }

  private void setStatus(String name, String state, Instant ended) {
    KUBE.store()
        .update(
            FakeAppKind.TYPE,
            "etl",
            name,
            app -> {
              JsonObject status = new JsonObject();
              status.addProperty("state", state);
              status.addProperty("endedAt", ended.toString());
              app.add("status", status);
              return app;
            });
  }
}
