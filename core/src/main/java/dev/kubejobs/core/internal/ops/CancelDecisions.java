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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.util.Optional;

/**
 * What a cancel needs of the status reader: whether a job already finished, decided by the same
 * status pipeline as a read, and dropping the reader's copy of a job it deleted. Not a published
 * API; implementations are thread safe.
 */
public interface CancelDecisions {
  /**
   * Returns the terminal status the reader reported for a job, if it remembers one.
   *
   * @param id the job
   * @return the terminal info reported, or empty
   */
  Optional<JobExecutionInfo> reportedTerminal(ExecutionId id);

  /**
   * Decides a job's status for a cancel from a copy read after the cancel was asked for, with the
   * same pipeline as a status read: the driver pod is looked up when the mapper asks, and a live
   * driver of a failed job is deleted before FAILED is reported. A no-status deletion is left to
   * the cancel (the job is cancelled, not failed). A job its driver pod shows finished, on a copy
   * that carries a cancel mark and is not being deleted, has the mark withdrawn (locked to the
   * copy's resourceVersion) before it is reported, so no cancel's delete on its way can still
   * succeed; if the copy changed meanwhile, the job is read again and decided again.
   *
   * @param id the job
   * @param fresh the copy read by the cancel
   * @return the info, terminal when the job had already finished
   * @throws NoSuchJobException if the job's resource is gone on a re-read
   */
  JobExecutionInfo decideForCancel(ExecutionId id, ResourceSnapshot fresh);

  /**
   * Remembers that this instance cancelled the resource {@code uid} of a job: its cancel mark
   * landed and its delete was confirmed. The reader then reports CANCELLED for the job whatever it
   * reads later, the resource gone included, within the bounds of its memory (the most recently
   * read jobs of this instance).
   *
   * @param id the job
   * @param uid the uid of the resource cancelled
   * @param before the job's status as the cancel decided it (not finished)
   */
  void cancelledHere(ExecutionId id, String uid, JobExecutionInfo before);

  /**
   * For a copy carrying an end mark and not being deleted: whether the operator wrote a status to
   * it after the mark, and if so, the copy without the mark, withdrawn with a patch locked to the
   * copy's resourceVersion (what the operator did wins; the job is the operator's to run, and to
   * cancel).
   *
   * @param id the job
   * @param app the end-marked copy read by the cancel
   * @return what was found and done
   * @throws NoSuchJobException if the job's resource is gone before the withdrawal
   */
  EndMarkCheck withdrawEndMarkIfTheOperatorActed(ExecutionId id, ResourceSnapshot app);

  /** What {@link #withdrawEndMarkIfTheOperatorActed} found. */
  sealed interface EndMarkCheck {
    /** The operator has not acted since the mark: it decided the job. */
    record Stands() implements EndMarkCheck {}

    /** The mark was withdrawn: cancel the job as the operator runs it, from this copy. */
    record Withdrawn(ResourceSnapshot unmarked) implements EndMarkCheck {}

    /** The copy changed before the withdrawal (409): read again and decide again. */
    record Changed() implements EndMarkCheck {}
  }

  /**
   * Drops a job's cached copy, so the next read of it is a fresh GET (after a cancel). The status
   * reported for it is kept.
   *
   * @param id the job
   */
  void forget(ExecutionId id);
}
