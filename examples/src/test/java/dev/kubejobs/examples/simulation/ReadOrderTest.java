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
package dev.kubejobs.examples.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.JobStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invariant (b) judges a node's reads in the order they happened: a read is held against the reads
 * that returned before it began, not against reads it overlapped (two threads of one node polling
 * at once may get their answers back in either order, as with any API called concurrently).
 */
class ReadOrderTest {
  private final ScenarioJob job = new ScenarioJob("job-0", null, false);
  private final Invariants invariants =
      new Invariants(new ScenarioPlan(1, true, Feature.all()), new EventLog());

  private void read(long begun, JobStatus status) {
    synchronized (job) {
      List<JobStatus> before = job.returned("B", begun, status);
      invariants.neverBackwards("B", job, before, status, "");
    }
  }

  @Test
  void overlappingReadsMayReturnInEitherOrder() {
    long first = job.readBegins();
    long second = job.readBegins();
    read(second, JobStatus.CANCELLED);
    read(first, JobStatus.CANCELLING); // began before CANCELLED was returned

    assertThat(invariants.violations()).isEmpty();
    assertThat(job.seenBy("B")).containsExactly(JobStatus.CANCELLED, JobStatus.CANCELLING);
  }

  @Test
  void aReadBegunAfterATerminalOneReturnedMustKeepIt() {
    read(job.readBegins(), JobStatus.CANCELLED);
    read(job.readBegins(), JobStatus.CANCELLING);

    assertThat(invariants.violations())
        .singleElement()
        .asString()
        .contains("B saw job-0 CANCELLED then CANCELLING: a terminal status changed");
  }

  @Test
  void aReadBegunAfterOthersReturnedIsHeldAgainstAllOfThem() {
    long overlapped = job.readBegins();
    read(job.readBegins(), JobStatus.STARTED);
    read(overlapped, JobStatus.QUEUED); // overlapped the STARTED read: no violation
    read(job.readBegins(), JobStatus.QUEUED); // after both: behind STARTED

    assertThat(invariants.violations())
        .singleElement()
        .asString()
        .contains("B saw job-0 STARTED then QUEUED: backwards");
  }

  @Test
  void readsOfTheOtherNodeDoNotCount() {
    synchronized (job) {
      job.returned("A", job.readBegins(), JobStatus.CANCELLED);
    }
    read(job.readBegins(), JobStatus.STARTED);

    assertThat(invariants.violations()).isEmpty();
  }
}
