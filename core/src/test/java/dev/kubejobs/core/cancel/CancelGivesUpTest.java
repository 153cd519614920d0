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
package dev.kubejobs.core.cancel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.Fault;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a cancel gives up: its mark and its un-mark each stop after five rounds refused by a
 * conflict, and the exception it throws keeps the failures met on the way (suppressed, or as the
 * cause of an unconfirmed delete).
 */
class CancelGivesUpTest {
  private static final String OBJECT = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";
  private static final Duration TTL = Duration.ofSeconds(30);

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .settings(b -> b.statusCacheTtl(TTL))
          .submit("job-1", TestJobSpec.in("etl"))
          .running()
          .build();

  private final FakeKubernetesApiServer server = KUBE.server();

  @Test
  void aMarkRefusedByAConflictInEveryRoundGivesUpAfterFiveRounds() {
    server
        .faults()
        .add(Fault.on("PATCH", OBJECT).forever().status(409, "Conflict", "object was modified"));

    assertThatThrownBy(() -> KUBE.jobs().canceller().cancel(KUBE.id()))
        .isInstanceOfSatisfying(
            ApiUnavailableException.class, e -> assertThat(e.mayHaveBeenApplied()).isFalse())
        .hasMessageContaining("gave up")
        .hasMessageContaining("each of 5 attempts");

    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(5);
    assertThat(server.journal().count("GET", OBJECT)).isEqualTo(5);
    assertThat(server.journal().count("DELETE", OBJECT)).isZero();
  }

  @Test
  void aDeleteWithoutAnswerOfAJobThatCannotBeReadAgainIsUnconfirmedAndKeepsTheReadFailure() {
    server.faults().add(Fault.on("DELETE", OBJECT).forever().connectionReset());
    // The cancel's own read passes; the read after the unanswered delete does not.
    server.faults().add(Fault.on("GET", OBJECT).skip(1).forever().connectionReset());

    assertThatThrownBy(() -> KUBE.jobs().canceller().cancel(KUBE.id()))
        .isInstanceOfSatisfying(
            ApiUnavailableException.class,
            e -> {
              assertThat(e.mayHaveBeenApplied()).isTrue();
              assertThat(e.getCause()).isInstanceOf(ApiUnavailableException.class);
              // Read back twice (each with its retries) before calling the cancel unconfirmed.
              assertThat(e.getCause().getSuppressed())
                  .hasSize(2)
                  .allSatisfy(t -> assertThat(t).isInstanceOf(KubeJobsException.class));
            })
        .hasMessageContaining("is unconfirmed");
  }

  @Test
  void anUnmarkRefusedByAConflictEachTimeStopsAfterFiveAttemptsAndThrowsTheDeleteFailure() {
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");
    server
        .faults()
        .add(
            Fault.on("PATCH", OBJECT)
                .skip(1)
                .forever()
                .status(409, "Conflict", "object was modified"));

    assertThatThrownBy(() -> KUBE.jobs().canceller().cancel(KUBE.id()))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.FORBIDDEN));

    // One mark, five un-marks, each un-mark after a read.
    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(6);
    assertThat(Fixture.annotations(server, "etl", "kj-job-1"))
        .containsKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
  }

  @Test
  void anUnmarkOfAJobDeletedMeanwhileIsNotRetriedAndIsSuppressedOnTheDeleteFailure() {
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");
    KubeJobs<TestJobSpec> b =
        node("PATCH", 2, () -> server.store().delete(TestJobKind.TYPE, "etl", "kj-job-1"));

    assertThatThrownBy(() -> b.canceller().cancel(KUBE.id()))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e ->
                assertThat(e.getSuppressed())
                    .singleElement()
                    .satisfies(s -> assertThat(s).hasMessageContaining("404")));

    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(2);
  }

  @Test
  void anUnmarkThatCannotBeSentIsSuppressedOnTheDeleteFailure() {
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");
    server.faults().add(Fault.on("PATCH", OBJECT).skip(1).forever().connectionReset());

    assertTheDeleteFailureKeepsSuppressed(ApiUnavailableException.class);
  }

  @Test
  void anUnmarkConflictFollowedByAFailedReadKeepsTheReadFailure() {
    server.rbac().deny("delete", "kubejobs.dev", "testjobs");
    server
        .faults()
        .add(Fault.on("PATCH", OBJECT).skip(1).status(409, "Conflict", "object was modified"));
    server.faults().add(Fault.on("GET", OBJECT).skip(1).forever().connectionReset());

    assertTheDeleteFailureKeepsSuppressed(ApiUnavailableException.class);

    assertThat(server.journal().count("PATCH", OBJECT)).isEqualTo(2);
  }

  /** Cancel throws the forbidden delete's error, with one {@code type} suppressed on it. */
  private void assertTheDeleteFailureKeepsSuppressed(Class<? extends Throwable> type) {
    assertThatThrownBy(() -> KUBE.jobs().canceller().cancel(KUBE.id()))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> assertThat(e.getSuppressed()).singleElement().isInstanceOf(type));
  }

  /** Another node, whose {@code nth} request of {@code method} is preceded by {@code action}. */
  private KubeJobs<TestJobSpec> node(String method, int nth, Runnable action) {
    ApiClient client = new ClientHooks().before(method, OBJECT, nth, action).client(server);
    return KUBE.track(KUBE.builder(client, "gravitino-a").build());
  }
}
