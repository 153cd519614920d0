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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The resilience rules: what is retried, how long a throttled request waits, when the breaker
 * opens.
 */
@Tag("slow")
class ResilienceTest {
  private static final String ANY = "/apis/kubejobs.dev/.*";
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .settings(b -> b.statusCacheTtl(Duration.ZERO))
          .submit("job-1", TestJobSpec.in("etl"))
          .build();

  private static final MutableClock CLOCK = KUBE.clock();

  @BeforeEach
  void setUp() {
    KUBE.server().journal().clear();
  }

  @Test
  void unreachableApiServerOpensTheBreakerThenTenThousandQueriesFailFastAndRecover() {
    KUBE.server().faults().add(Fault.on("*", ANY).forever().connectionReset());
    CircuitBreaker breaker = ((Resilience4jPolicy) KUBE.jobs().resiliencePolicy()).circuitBreaker();

    // 5 unreachable attempts open the breaker (3 of the first query, 2 of the second). An attempt
    // whose GET failed on a pooled connection is sent again by OkHttp on a fresh one
    // (retryOnConnectionFailure), which the server sees, but the breaker counts attempts.
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> KUBE.jobs().statusReader().get(KUBE.id()))
          .isInstanceOf(ApiUnavailableException.class);
    }
    assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(5);
    int sentBefore = KUBE.server().journal().requests().size();
    assertThat(sentBefore).isBetween(5, 15);

    for (int i = 0; i < 10_000; i++) {
      assertThatThrownBy(() -> KUBE.jobs().statusReader().get(KUBE.id()))
          .isInstanceOf(ApiUnavailableException.class)
          .hasMessageContaining("circuit breaker");
    }
    assertThat(KUBE.server().journal().requests()).hasSize(sentBefore);

    // The server is back; once the open period is over one probe closes the breaker again.
    KUBE.server().faults().clear();
    CLOCK.advance(Duration.ofSeconds(11));
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.QUEUED);
    assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(KUBE.server().journal().requests()).hasSize(sentBefore + 1);
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.QUEUED);
  }

  @Test
  void serverErrorsAreRetriedAndDoNotOpenTheBreaker() {
    KUBE.server()
        .faults()
        .add(Fault.on("GET", OBJECT).times(2).status(503, "ServiceUnavailable", "etcd busy"));

    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.QUEUED);

    assertThat(KUBE.server().journal().count("GET", OBJECT)).isEqualTo(3);
    CircuitBreaker breaker = ((Resilience4jPolicy) KUBE.jobs().resiliencePolicy()).circuitBreaker();
    assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
  }

  @Test
  void clientErrorsAreNeverRetried() {
    KUBE.server().rbac().deny("get", "kubejobs.dev", "testjobs");

    assertThatThrownBy(() -> KUBE.jobs().statusReader().get(KUBE.id()))
        .isInstanceOf(JobRejectedException.class)
        .hasMessageContaining("missing permission: get testjobs.kubejobs.dev in namespace etl");

    assertThat(KUBE.server().journal().count("GET", OBJECT)).isEqualTo(1);
  }

  @Test
  void throttledRequestsWaitAsLongAsRetryAfterSays() {
    KUBE.server().faults().add(Fault.on("GET", OBJECT).times(1).tooManyRequests(1));

    Instant before = Instant.now();
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.QUEUED);

    assertThat(Duration.between(before, Instant.now()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    assertThat(KUBE.server().journal().count("GET", OBJECT)).isEqualTo(2);
  }

  /**
   * Priority and fairness answers 429 in plain text, not as a {@code Status} ({@code
   * tooManyRequests} in apiserver's {@code server/filters/maxinflight.go}); it is throttling all
   * the same.
   */
  @Test
  void plainTextThrottlingIsRetriedAfterItsRetryAfter() {
    KUBE.server().faults().add(Fault.on("GET", OBJECT).times(1).tooManyRequestsAsText("1"));

    Instant before = Instant.now();
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.QUEUED);

    assertThat(Duration.between(before, Instant.now()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    assertThat(KUBE.server().journal().count("GET", OBJECT)).isEqualTo(2);
  }

  @Test
  void aRetryAfterGivenAsAnHttpDateIsWaitedFor() {
    String inTwoSeconds =
        java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
            CLOCK.instant().plusSeconds(2).atZone(java.time.ZoneOffset.UTC));
    KUBE.server()
        .faults()
        .add(Fault.on("GET", OBJECT).times(1).tooManyRequestsAsText(inTwoSeconds));

    Instant before = Instant.now();
    assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.QUEUED);

    assertThat(Duration.between(before, Instant.now()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    assertThat(KUBE.server().journal().count("GET", OBJECT)).isEqualTo(2);
  }

  @Test
  void aCreateIsNeverSentTwiceBlindly() {
    KUBE.server()
        .faults()
        .add(
            Fault.on("POST", "/apis/kubejobs.dev/v1/namespaces/etl/testjobs")
                .times(1)
                .status(500, "InternalError", "boom"));

    // 500 may have applied the create: kubejobs reads before creating again.
    ExecutionId second = KUBE.jobs().submitter().submit("job-2", TestJobSpec.in("etl"));

    assertThat(second.name()).isEqualTo("kj-job-2");
    assertThat(KUBE.server().journal().requests())
        .extracting(r -> r.verb() + " " + r.path())
        .containsExactly(
            "POST /apis/kubejobs.dev/v1/namespaces/etl/testjobs",
            "GET /apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-2",
            "POST /apis/kubejobs.dev/v1/namespaces/etl/testjobs");
  }

  @Test
  void aHungApiServerTimesOutAsUnavailable() {
    KubeJobs<TestJobSpec> impatient =
        Fixture.builder(KUBE.server(), CLOCK, "gravitino-a")
            .statusCacheTtl(Duration.ZERO)
            .requestTimeout(Duration.ofMillis(200))
            .build();
    // Each answer would come only after 5 s; three attempts would wait 15 s without the timeout
    // (the bound below leaves room for a loaded machine: 3 × 200 ms is what it takes when idle).
    KUBE.server().faults().add(Fault.on("GET", OBJECT).times(3).delay(Duration.ofSeconds(5)));

    long start = System.nanoTime();
    assertThatThrownBy(() -> impatient.statusReader().get(KUBE.id()))
        .isInstanceOf(ApiUnavailableException.class);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(took).isLessThan(Duration.ofSeconds(5));
    assertThat(KUBE.server().journal().count("GET", OBJECT)).isEqualTo(3);
  }

  @Test
  void aCreateWhoseAnswerTimesOutIsReadBackAndAdopted() {
    KubeJobs<TestJobSpec> impatient =
        Fixture.builder(KUBE.server(), CLOCK, "gravitino-a")
            .requestTimeout(Duration.ofMillis(200))
            .build();
    // The create is applied, but its answer comes after the request timeout.
    KUBE.server()
        .faults()
        .add(
            Fault.on("POST", "/apis/kubejobs.dev/v1/namespaces/etl/testjobs")
                .times(1)
                .delay(Duration.ofSeconds(1)));

    ExecutionId second = impatient.submitter().submit("job-2", TestJobSpec.in("etl"));

    assertThat(second.name()).isEqualTo("kj-job-2");
    // One create, then reads only: the read-back may itself be retried when a loaded machine
    // answers it after the 200 ms timeout (seen once in 20 runs), but the create is never re-sent.
    List<String> requests =
        KUBE.server().journal().requests().stream().map(r -> r.verb() + " " + r.path()).toList();
    assertThat(requests).first().isEqualTo("POST /apis/kubejobs.dev/v1/namespaces/etl/testjobs");
    assertThat(requests.subList(1, requests.size()))
        .isNotEmpty()
        .containsOnly("GET /apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-2");
    assertThat(KUBE.server().store().list(TestJobKind.TYPE, "etl")).hasSize(2);
  }
}
