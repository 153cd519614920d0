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
package dev.kubejobs.core.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.ResourceKind;
import org.junit.jupiter.api.Test;

/** The per-instance floor of reported statuses, and its bound. */
class ReportedStatusesTest {
  private static final ResourceKind KIND = new ResourceKind("kubejobs.dev", "v1", "testjobs", "T");

  private static ExecutionId id(int n) {
    return ExecutionId.of("test", KIND, "etl", "kj-" + n);
  }

  private static JobExecutionInfo info(JobStatus status) {
    return JobExecutionInfo.builder(status).message(status.name()).build();
  }

  /** The info of a reading the floor reports (fails the test when it answered gone-before). */
  private static JobExecutionInfo report(ReportedStatuses.Raised raised) {
    assertThat(raised).isInstanceOf(ReportedStatuses.Raised.Report.class);
    return ((ReportedStatuses.Raised.Report) raised).info();
  }

  @Test
  void statusesNeverGoBackwardsAndATerminalOneNeverChanges() {
    ReportedStatuses reported = new ReportedStatuses(10);

    assertThat(report(reported.raise(id(1), info(JobStatus.STARTED), null)).status())
        .isEqualTo(JobStatus.STARTED);
    JobExecutionInfo back = report(reported.raise(id(1), info(JobStatus.QUEUED), null));
    assertThat(back.status()).isEqualTo(JobStatus.STARTED);
    assertThat(back.message()).isEqualTo("QUEUED");
    assertThat(report(reported.raise(id(1), info(JobStatus.CANCELLING), null)).status())
        .isEqualTo(JobStatus.CANCELLING);
    assertThat(report(reported.raise(id(1), info(JobStatus.STARTED), null)).status())
        .isEqualTo(JobStatus.CANCELLING);
    assertThat(reported.terminal(id(1))).isEmpty();

    JobExecutionInfo done = report(reported.raise(id(1), info(JobStatus.SUCCEEDED), null));
    assertThat(report(reported.raise(id(1), info(JobStatus.CANCELLED), null))).isSameAs(done);
    assertThat(report(reported.raise(id(1), info(JobStatus.QUEUED), null))).isSameAs(done);
    assertThat(reported.terminal(id(1))).containsSame(done);
  }

  @Test
  void theLeastRecentlyReadJobIsForgottenBeyondTheCapacity() {
    ReportedStatuses reported = new ReportedStatuses(2);
    report(reported.raise(id(1), info(JobStatus.FAILED), null));
    report(reported.raise(id(2), info(JobStatus.FAILED), null));
    reported.terminal(id(1)); // read: job 2 is now the least recently read
    report(reported.raise(id(3), info(JobStatus.FAILED), null));

    assertThat(reported.size()).isEqualTo(2);
    assertThat(reported.terminal(id(1))).isPresent();
    assertThat(reported.terminal(id(2))).isEmpty();
    assertThat(reported.terminal(id(3))).isPresent();
  }

  @Test
  void aResourceReportedGoneStaysGoneButAnotherUnderTheSameNameIsReported() {
    ReportedStatuses reported = new ReportedStatuses(10);
    report(reported.raise(id(1), info(JobStatus.STARTED), "uid-a"));
    reported.gone(id(1), null);

    // a late copy of the deleted resource (a watch lagging behind the read that found it gone)
    assertThat(reported.raise(id(1), info(JobStatus.CANCELLING), "uid-a"))
        .isInstanceOf(ReportedStatuses.Raised.GoneBefore.class);
    assertThat(reported.follows(id(1))).isFalse();
    // a new resource under the job's name (a submit made again) starts from scratch
    assertThat(report(reported.raise(id(1), info(JobStatus.QUEUED), "uid-b")).status())
        .isEqualTo(JobStatus.QUEUED);
    assertThat(reported.follows(id(1))).isTrue();
  }

  @Test
  void goneNamesTheUidGivenOrElseTheLastReportedAndKeepsAnEnding() {
    ReportedStatuses reported = new ReportedStatuses(10);
    reported.gone(id(1), "uid-a");
    assertThat(reported.raise(id(1), info(JobStatus.STARTED), "uid-a"))
        .isInstanceOf(ReportedStatuses.Raised.GoneBefore.class);

    // nothing known of the resource: a later copy cannot be told apart, so it is reported
    reported.gone(id(2), null);
    assertThat(report(reported.raise(id(2), info(JobStatus.STARTED), "uid-x")).status())
        .isEqualTo(JobStatus.STARTED);

    JobExecutionInfo done = report(reported.raise(id(3), info(JobStatus.SUCCEEDED), "uid-c"));
    reported.gone(id(3), null);
    assertThat(report(reported.raise(id(3), info(JobStatus.STARTED), "uid-c"))).isSameAs(done);
  }

  @Test
  void theResourceReportedGoneIsTheLastOneReadEvenWhenItsStatusDidNotChange() {
    ReportedStatuses reported = new ReportedStatuses(10);
    report(reported.raise(id(1), info(JobStatus.STARTED), "uid-a"));
    report(reported.raise(id(1), info(JobStatus.STARTED), "uid-b"));

    reported.gone(id(1), null);

    // a late copy of the resource found gone stays gone; the one replaced before is not that one
    assertThat(reported.raise(id(1), info(JobStatus.STARTED), "uid-b"))
        .isInstanceOf(ReportedStatuses.Raised.GoneBefore.class);
    assertThat(report(reported.raise(id(1), info(JobStatus.STARTED), "uid-a")).status())
        .isEqualTo(JobStatus.STARTED);
  }

  @Test
  void aReadingHeldUnchangedIsOneOfTheSameResourceAndStatusUnfinishedAndNotGone() {
    ReportedStatuses reported = new ReportedStatuses(10);
    assertThat(reported.seen(id(1))).isNull();

    report(reported.raise(id(1), info(JobStatus.STARTED), "uid-1"));
    ReportedStatuses.Seen seen = reported.seen(id(1));

    assertThat(seen.holds(JobStatus.STARTED, "uid-1")).isTrue();
    assertThat(seen.holds(JobStatus.QUEUED, "uid-1")).isFalse(); // raise would lift it
    assertThat(seen.holds(JobStatus.CANCELLING, "uid-1")).isFalse(); // a change to remember
    assertThat(seen.holds(JobStatus.STARTED, "uid-2")).isFalse(); // another resource
    assertThat(seen.holds(JobStatus.STARTED, null)).isFalse();
    assertThat(seen.goneWithoutUid()).isFalse();
    // What raise does with such a reading: reports it as it is and keeps what it had.
    assertThat(report(reported.raise(id(1), info(JobStatus.STARTED), "uid-1")).status())
        .isEqualTo(JobStatus.STARTED);
    assertThat(reported.seen(id(1))).isSameAs(seen);

    reported.gone(id(1), null);
    assertThat(reported.seen(id(1)).holds(JobStatus.STARTED, "uid-1")).isFalse();

    report(reported.raise(id(2), info(JobStatus.SUCCEEDED), "uid-3"));
    assertThat(reported.seen(id(2)).holds(JobStatus.SUCCEEDED, "uid-3")).isFalse();
    assertThat(reported.seen(id(2)).terminal()).isNotNull();

    reported.gone(id(3), null);
    assertThat(reported.seen(id(3)).goneWithoutUid()).isTrue();
  }

  @Test
  void aJobThisInstanceCancelledIsCancelledOnceGoneWithinTheBoundOfItsMemory() {
    ReportedStatuses reported = new ReportedStatuses(2);
    JobExecutionInfo cancelled = info(JobStatus.CANCELLED);
    reported.raise(id(1), info(JobStatus.CANCELLING), "uid-1");
    reported.cancelledHere(id(1), "uid-1", cancelled);

    assertThat(reported.goneAfterCancel(id(1))).contains(cancelled);
    assertThat(reported.terminal(id(1))).contains(cancelled);

    reported.cancelledHere(id(2), "uid-2", cancelled);
    reported.raise(id(3), info(JobStatus.STARTED), "uid-3");
    reported.raise(id(4), info(JobStatus.STARTED), "uid-4");

    // Evicted by more recently read jobs: it is read as the cluster shows it.
    assertThat(reported.goneAfterCancel(id(2))).isEmpty();
  }

  @Test
  void aTerminalReadingOfAResourceThisInstanceCancelledIsItsCancel() {
    ReportedStatuses reported = new ReportedStatuses(10);
    JobExecutionInfo cancelled = info(JobStatus.CANCELLED);
    reported.cancelledHere(id(1), "uid-1", cancelled);

    assertThat(report(reported.raise(id(1), info(JobStatus.FAILED), "uid-1"))).isEqualTo(cancelled);
    // A new resource under the job's name (submitted again) is its own.
    reported.cancelledHere(id(2), "uid-2", cancelled);
    assertThat(report(reported.raise(id(2), info(JobStatus.SUCCEEDED), "uid-2b")).status())
        .isEqualTo(JobStatus.SUCCEEDED);
  }
}
