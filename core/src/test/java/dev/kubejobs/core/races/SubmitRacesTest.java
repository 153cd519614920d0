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
package dev.kubejobs.core.races;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.ClientHooks;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.MutableClock;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Submit under races with another node (its clean-up never deletes what the other adopted), job ids
 * at their edges, and exceptions that carry their fields.
 */
class SubmitRacesTest {
  private static final String COLLECTION = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs";
  private static final String OBJECT = COLLECTION + "/kj-job-1";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs().deployment("gravitino").build();

  private static final MutableClock CLOCK = KUBE.clock();

  private KubeJobs<TestJobSpec> node(ClientHooks hooks) {
    return Fixture.scripted(KUBE.server(), hooks, CLOCK, "gravitino").build();
  }

  @Test
  void submitCleanUpNeverDeletesWhatAnotherNodesSubmitOfTheSameJobAdopted() {
    // Item 5: all three creates of node A lose their answers and A's reads fail meanwhile
    // (3 reads x 3 attempts), so A gives up and reads what landed to clean it up; right before
    // A's DELETE, node B submits the same job and adopts the resource.
    AtomicReference<ExecutionId> adopted = new AtomicReference<>();
    ClientHooks hooks =
        new ClientHooks()
            .loseAnswer("POST", COLLECTION, 3)
            .notSent("GET", OBJECT, 9)
            .before(
                "DELETE",
                OBJECT,
                () -> adopted.set(KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"))));
    KubeJobs<TestJobSpec> nodeA = node(hooks);

    assertThatThrownBy(() -> nodeA.submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            ApiUnavailableException.class, e -> assertThat(e.mayHaveBeenApplied()).isTrue())
        .hasMessageContaining("adopted by another submit");

    assertThat(adopted.get()).isNotNull();
    assertThat(KUBE.server().store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();
    assertThat(KUBE.jobs().statusReader().get(adopted.get()).status()).isEqualTo(JobStatus.QUEUED);
  }

  @Test
  void submitCleanUpDeletesWhatItsOwnLostCreateLeftLockedToTheCopyRead() {
    ClientHooks hooks =
        new ClientHooks().loseAnswer("POST", COLLECTION, 3).notSent("GET", OBJECT, 9);
    KubeJobs<TestJobSpec> nodeA = node(hooks);

    assertThatThrownBy(() -> nodeA.submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            ApiUnavailableException.class, e -> assertThat(e.mayHaveBeenApplied()).isFalse())
        .hasMessageContaining("the resource that landed was deleted");

    assertThat(KUBE.server().store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
    assertThat(KUBE.server().journal().requests("DELETE", OBJECT).get(0).body())
        .contains("\"resourceVersion\"");
  }

  @Test
  void jobIdsWithUnpairedSurrogatesAreRejectedAndPairedOnesSubmitIdempotently() {
    // Item 10: "job-\uD800" would be stored as "job-?", so a second submit would not match.
    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-\uD800", TestJobSpec.in("etl")))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("unpaired surrogate")
        .hasMessageContaining("index 4");
    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("\uDC00job", TestJobSpec.in("etl")))
        .isInstanceOf(InvalidJobSpecException.class);

    String emoji = "job-\uD83D\uDE00";
    ExecutionId first = KUBE.jobs().submitter().submit(emoji, TestJobSpec.in("etl"));
    ExecutionId second = KUBE.jobs().submitter().submit(emoji, TestJobSpec.in("etl"));

    assertThat(second).isEqualTo(first);
    assertThat(Fixture.annotations(KUBE.server(), "etl", first.name()))
        .containsEntry(JobIdentity.ANNOTATION_JOB_ID, emoji);
  }

  @Test
  void conflictsSayWhyInAField() {
    // Item 11: another deployment's resource, then this job's own resource being deleted.
    KUBE.server()
        .store()
        .create(TestJobKind.TYPE, "etl", Fixture.testJob("kj-job-1", "other", "job-1", null));
    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            JobConflictException.class,
            e -> assertThat(e.reason()).isEqualTo(JobConflictException.Reason.OTHER_DEPLOYMENT));

    KUBE.server()
        .store()
        .create(TestJobKind.TYPE, "etl", Fixture.testJob("kj-job-2", "gravitino", "job-9", null));
    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-2", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            JobConflictException.class,
            e -> assertThat(e.reason()).isEqualTo(JobConflictException.Reason.OTHER_JOB));
  }

  @Test
  void anUnsentRequestSaysNothingWasApplied() {
    // Item 11: a create never sent (connection refused) cannot have landed.
    KubeJobs<TestJobSpec> nodeA = node(new ClientHooks().notSent("POST", COLLECTION, 1));

    assertThatThrownBy(() -> nodeA.submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            ApiUnavailableException.class, e -> assertThat(e.mayHaveBeenApplied()).isFalse());
    assertThat(KUBE.server().store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isEmpty();
  }
}
