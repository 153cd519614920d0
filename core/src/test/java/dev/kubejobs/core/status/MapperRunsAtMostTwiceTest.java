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
package dev.kubejobs.core.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.JobStatusUnknownException;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKindVariant;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The status pipeline's step "map the copy alone, then with the driver pod if the mapper asks",
 * seen from a status read: the pod is looked up only when the mapper asks for it, once, and the
 * mapper runs at most twice per copy, whether the copy came from the namespace's list or from the
 * job's own GET. A mapper that asks again for the pod it was given breaks its contract: the job's
 * state is unknown, not failed.
 */
class MapperRunsAtMostTwiceTest {
  private static final String PODS = "/api/v1/namespaces/etl/pods.*";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().submit("job-1", TestJobSpec.in("etl")).clearJournal().build();

  private final FakeKubernetesApiServer server = KUBE.server();
  private final AtomicInteger mapped = new AtomicInteger();

  /** FAILED once the driver pod is known gone; asks for it before. */
  private final JobStatusMapper failedWhenThePodIsGone =
      (app, pod, now) -> {
        mapped.incrementAndGet();
        return switch (pod.lookup()) {
          case NOT_LOOKED_UP ->
              new MappingDecision.NeedDriverPod(
                  JobExecutionInfo.builder(JobStatus.STARTED).build(), List.of());
          case ABSENT -> MappingDecision.report(JobExecutionInfo.builder(JobStatus.FAILED).build());
          default -> MappingDecision.report(JobExecutionInfo.builder(JobStatus.STARTED).build());
        };
      };

  private KubeJobs<TestJobSpec> jobs(JobStatusMapper mapper, Duration cachePeriod) {
    return KUBE.track(
        Fixture.builder(server, KUBE.clock(), "gravitino-a", TestJobKindVariant.withMapper(mapper))
            .statusCacheTtl(cachePeriod)
            .build());
  }

  /**
   * With a cache period the copy comes from the namespace's list and is mapped alone as the page is
   * parsed (that list was sent after the question, so the copy is not read again before it ends the
   * job); without one it comes from the job's own GET.
   */
  @ParameterizedTest(name = "cache period {0}")
  @ValueSource(strings = {"PT5S", "PT0S"})
  void aMappingThatAsksForThePodGetsItOnceAndAnswersWithIt(Duration cachePeriod) {
    KubeJobs<TestJobSpec> jobs = jobs(failedWhenThePodIsGone, cachePeriod);

    JobExecutionInfo info = jobs.statusReader().get(KUBE.id());

    assertThat(info.status()).isEqualTo(JobStatus.FAILED);
    assertThat(server.journal().count("GET", PODS)).isEqualTo(1);
    assertThat(mapped).hasValue(2);
  }

  /**
   * Every decision the Spark mappers make of a copy alone ({@code StatusRules.decide} in the spark
   * module): a plain report of each status; the driver pod wanted while QUEUED (no status past its
   * timeout), STARTED or QUEUED (a failed attempt that may restart) and CANCELLING (the cancel mark
   * set, the driver still to be found); a follow-up (delete the driver that outlived a failure).
   * Given the pod, the mapper reports the same status.
   */
  static Stream<Arguments> decisionsAlone() {
    Stream.Builder<Arguments> cases = Stream.builder();
    for (JobStatus status : JobStatus.values()) {
      cases.add(Arguments.of("report " + status, MappingDecision.report(info(status))));
    }
    for (JobStatus status : List.of(JobStatus.QUEUED, JobStatus.STARTED, JobStatus.CANCELLING)) {
      cases.add(
          Arguments.of(
              "driver pod wanted, " + status,
              new MappingDecision.NeedDriverPod(info(status), List.of())));
    }
    for (JobStatus status : List.of(JobStatus.QUEUED, JobStatus.STARTED)) {
      cases.add(
          Arguments.of(
              "follow-up, " + status,
              new MappingDecision.ReportAfter(
                  new FollowUp(
                      FollowUp.Action.DELETE_DRIVER_POD, JobStatus.FAILED, "the driver outlived"),
                  info(status),
                  List.of())));
    }
    Stream<Arguments> decisions = cases.build();
    return decisions.flatMap(
        d ->
            Stream.of("PT5S", "PT0S")
                .map(period -> Arguments.of(d.get()[0], d.get()[1], Duration.parse(period))));
  }

  private static JobExecutionInfo info(JobStatus status) {
    return JobExecutionInfo.builder(status).build();
  }

  /**
   * Whatever the mapper decides of the copy alone, a read maps that copy at most twice: once alone
   * (as its list page arrives, or from the job's own GET) and once with the driver pod when asked
   * for. A QUEUED or CANCELLING answer, which may change with time, is made again for a later
   * question, not twice for one.
   */
  @ParameterizedTest(name = "{0}, cache period {2}")
  @MethodSource("decisionsAlone")
  void aReadMapsACopyAtMostTwiceWhateverTheMapperDecides(
      String name, MappingDecision alone, Duration cachePeriod) {
    JobStatusMapper mapper =
        (app, pod, now) -> {
          mapped.incrementAndGet();
          return pod.lookup() == dev.kubejobs.core.spi.DriverPod.Lookup.NOT_LOOKED_UP
              ? alone
              : MappingDecision.report(alone.info());
        };
    KubeJobs<TestJobSpec> jobs = jobs(mapper, cachePeriod);

    jobs.statusReader().get(KUBE.id());

    assertThat(mapped.get()).as(name).isBetween(1, 2);
  }

  @Test
  void aMappingThatDoesNotAskForThePodNeverLooksItUpNorMapsAgain() {
    JobStatusMapper queued =
        (app, pod, now) -> {
          mapped.incrementAndGet();
          return MappingDecision.report(JobExecutionInfo.builder(JobStatus.QUEUED).build());
        };
    KubeJobs<TestJobSpec> jobs = jobs(queued, Duration.ZERO);

    JobExecutionInfo info = jobs.statusReader().get(KUBE.id());

    assertThat(info.status()).isEqualTo(JobStatus.QUEUED);
    assertThat(server.journal().count("GET", PODS)).isZero();
    assertThat(mapped).hasValue(1);
  }

  @Test
  void aMapperThatAsksAgainForThePodItWasGivenLeavesTheJobUnknownNotFailed() {
    JobStatusMapper greedy =
        (app, pod, now) -> {
          mapped.incrementAndGet();
          return new MappingDecision.NeedDriverPod(
              JobExecutionInfo.builder(JobStatus.STARTED).build(), List.of());
        };
    KubeJobs<TestJobSpec> jobs = jobs(greedy, Duration.ZERO);

    assertThatThrownBy(() -> jobs.statusReader().get(KUBE.id()))
        .isInstanceOf(JobStatusUnknownException.class)
        .hasMessageContaining("asked again for the driver pod it was given (ABSENT)");
    assertThat(server.journal().count("GET", PODS)).isEqualTo(1);
    assertThat(mapped).hasValue(2);
  }
}
