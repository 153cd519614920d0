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
package dev.kubejobs.core.submit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a submit adopts a resource another submit of the job created (the claim, its bounds, a
 * resource vanishing meanwhile), how its clean-up after lost answers is bounded and what it keeps
 * of the failures, and the manifest checks at their edges.
 */
class SubmitAdoptionAndCleanUpTest {
  private static final String COLLECTION = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs";
  private static final String OBJECT = COLLECTION + "/kj-job-1";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().deployment("gravitino").build();

  private static final MutableClock CLOCK = KUBE.clock();

  private KubeJobs<TestJobSpec> node(ClientHooks hooks) {
    return Fixture.scripted(KUBE.server(), hooks, CLOCK, "gravitino").build();
  }

  private String submittedBy() {
    return Fixture.annotations(KUBE.server(), "etl", "kj-job-1")
        .get(JobIdentity.ANNOTATION_SUBMITTED_BY);
  }

  @Test
  void aSecondNodeAdoptsTheJobWithOneCreateAndOneResourceVersionLockedClaim() {
    ExecutionId first = KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"));
    String creator = submittedBy();
    KubeJobs<TestJobSpec> nodeB = KUBE.builder("gravitino").build();
    KUBE.server().journal().clear();

    assertThat(nodeB.submitter().submit("job-1", TestJobSpec.in("etl"))).isEqualTo(first);

    assertThat(KUBE.server().journal().count("POST", COLLECTION)).isEqualTo(1);
    assertThat(KUBE.server().journal().requests("PATCH", OBJECT))
        .singleElement()
        .satisfies(
            p ->
                assertThat(p.body())
                    .contains("\"resourceVersion\"")
                    .contains(JobIdentity.ANNOTATION_SUBMITTED_BY));
    assertThat(submittedBy()).isNotEqualTo(creator);
  }

  @Test
  void aClaimRefusedByAConflictEachTimeGivesUpAfterThreeAttemptsSayingSubmitAgain() {
    KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"));
    KubeJobs<TestJobSpec> nodeB = KUBE.builder("gravitino").build();
    KUBE.server()
        .faults()
        .add(Fault.on("PATCH", OBJECT).forever().status(409, "Conflict", "object was modified"));
    KUBE.server().journal().clear();

    assertThatThrownBy(() -> nodeB.submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("could not adopt")
        .hasMessageContaining("each of 3 attempts");

    assertThat(KUBE.server().journal().count("PATCH", OBJECT)).isEqualTo(3);
  }

  @Test
  void aResourceDeletedJustBeforeTheClaimIsCreatedAgain() {
    submitsAgainWhenTheResourceVanishes(
        new ClientHooks().before("PATCH", OBJECT, this::deleteTheResource));
  }

  @Test
  void aResourceChangedBeforeTheClaimAndGoneOnTheReadIsCreatedAgain() {
    // The claim finds the resource changed (409); the read after it finds it gone.
    submitsAgainWhenTheResourceVanishes(
        new ClientHooks()
            .before("PATCH", OBJECT, () -> Fixture.touch(KUBE.server(), "etl", "kj-job-1"))
            .before("GET", OBJECT, 2, this::deleteTheResource));
  }

  /** Node B submits job-1 over node A's resource, which vanishes as {@code hooks} script. */
  private void submitsAgainWhenTheResourceVanishes(ClientHooks hooks) {
    KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"));
    String creator = submittedBy();
    KubeJobs<TestJobSpec> nodeB = node(hooks);
    KUBE.server().journal().clear();

    nodeB.submitter().submit("job-1", TestJobSpec.in("etl"));

    assertThat(KUBE.server().journal().count("POST", COLLECTION)).isEqualTo(2);
    assertThat(submittedBy()).isNotNull().isNotEqualTo(creator);
  }

  private void deleteTheResource() {
    KUBE.server().store().delete(TestJobKind.TYPE, "etl", "kj-job-1");
  }

  @Test
  void aClaimLostToAThirdSubmitsClaimLeavesTheResourceToThatSubmit() {
    KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"));
    KubeJobs<TestJobSpec> nodeC = KUBE.builder("gravitino").build();
    AtomicReference<String> claimedByC = new AtomicReference<>();
    // Right before node B's claim, node C submits the job too and claims the resource first.
    KubeJobs<TestJobSpec> nodeB =
        node(
            new ClientHooks()
                .before(
                    "PATCH",
                    OBJECT,
                    () -> {
                      nodeC.submitter().submit("job-1", TestJobSpec.in("etl"));
                      claimedByC.set(submittedBy());
                    }));
    KUBE.server().journal().clear();

    nodeB.submitter().submit("job-1", TestJobSpec.in("etl"));

    // B's claim answers 409, the read shows C's claim: B adopts without a claim or create of its
    // own, so C's claim stands.
    assertThat(submittedBy()).isEqualTo(claimedByC.get());
    assertThat(KUBE.server().journal().count("POST", COLLECTION)).isEqualTo(2);
    assertThat(KUBE.server().journal().count("PATCH", OBJECT)).isEqualTo(2);
  }

  @Test
  void theCleanUpOfALostCreateStopsAfterThreeDeletesRefusedByAConflict() {
    KubeJobs<TestJobSpec> lost =
        node(new ClientHooks().loseAnswer("POST", COLLECTION, 3).notSent("GET", OBJECT, 9));
    KUBE.server()
        .faults()
        .add(Fault.on("DELETE", OBJECT).forever().status(409, "Conflict", "object was modified"));

    assertThatThrownBy(() -> lost.submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            ApiUnavailableException.class, e -> assertThat(e.mayHaveBeenApplied()).isTrue())
        .hasMessageContaining("changed under each attempt to delete it");

    assertThat(KUBE.server().journal().count("DELETE", OBJECT)).isEqualTo(3);
  }

  @Test
  void aCleanUpThatCannotReadKeepsEachReadFailureOnTheLostCreate() {
    // Three creates lose their answers, their reads fail (3 × 3 tries), and so does the final one.
    KubeJobs<TestJobSpec> lost =
        node(new ClientHooks().loseAnswer("POST", COLLECTION, 3).notSent("GET", OBJECT, 12));

    assertThatThrownBy(() -> lost.submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            ApiUnavailableException.class,
            e -> {
              assertThat(e.mayHaveBeenApplied()).isTrue();
              // The last create's own read-back failure, then the clean-up's.
              assertThat(e.getCause().getSuppressed())
                  .hasSize(2)
                  .allSatisfy(s -> assertThat(s).isInstanceOf(ApiUnavailableException.class));
            })
        .hasMessageContaining("whether it landed could not be checked");
  }

  @Test
  void aCreateNotSentBecauseTheBreakerOpenedIsKeptOnTheLostCreate() {
    KUBE.server().faults().add(Fault.on("POST", COLLECTION).forever().appliedThenLost());
    KUBE.server().faults().add(Fault.on("GET", OBJECT).forever().connectionReset());

    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            ApiUnavailableException.class,
            e ->
                assertThat(e.getCause().getSuppressed())
                    .anySatisfy(s -> assertThat(s).hasMessageContaining("create testjobs")))
        .hasMessageContaining("could not be confirmed after 2 attempts");
  }

  @Test
  void aJobIdOf1024CharactersIsSubmitted() {
    String jobId = "j".repeat(1024);

    ExecutionId id = KUBE.jobs().submitter().submit(jobId, TestJobSpec.in("etl"));

    assertThat(Fixture.annotations(KUBE.server(), "etl", id.name()))
        .containsEntry(JobIdentity.ANNOTATION_JOB_ID, jobId);
  }

  @Test
  void aConflictQuotesAJobIdOf100CharactersWhole() {
    String jobId = "j".repeat(100);
    KUBE.builder("other").build().submitter().submit(jobId, TestJobSpec.in("etl"));

    assertThatThrownBy(() -> KUBE.jobs().submitter().submit(jobId, TestJobSpec.in("etl")))
        .isInstanceOf(JobConflictException.class)
        .hasMessageContaining("cannot submit job '" + jobId + "'");
  }
}
