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
import dev.kubejobs.core.internal.DaemonThreads;
import dev.kubejobs.core.status.JobStatusReader;
import dev.kubejobs.core.status.JobStatusResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread of a watching reader with a listener that reads again the jobs its watches saw change,
 * so the listener hears of their new status without anyone polling. Thread safe.
 */
final class WatchRefresher {
  private static final Logger LOG = LoggerFactory.getLogger(WatchRefresher.class);

  private final ReportedStatuses reported;
  private final JobStatusReader reader;
  private final DaemonThreads.Pool refresher;

  /**
   * Starts the thread.
   *
   * @param cluster the cluster's name, in the thread's name
   * @param changes the jobs the watches saw change
   * @param reported what the reader reported, to read again only the jobs it follows
   * @param reader reads the changed jobs (its {@code getAll}), telling the listener of changes
   */
  WatchRefresher(
      String cluster, ChangedJobs changes, ReportedStatuses reported, JobStatusReader reader) {
    this.reported = reported;
    this.reader = reader;
    this.refresher =
        DaemonThreads.pool("kubejobs-status-refresh-" + cluster, 1, Duration.ofMinutes(1));
    refresher.execute(() -> refreshUntilClosed(changes));
  }

  /**
   * Reads again the followed jobs a watch saw change, on the refresher's own thread, so that the
   * listener hears of their new status without anyone polling; until the watch closes. Only jobs
   * this reader reported and that did not end.
   */
  private void refreshUntilClosed(ChangedJobs changes) {
    try {
      for (Optional<List<ExecutionId>> taken = changes.take();
          taken.isPresent();
          taken = changes.take()) {
        List<ExecutionId> ids = new ArrayList<>();
        for (ExecutionId id : taken.get()) {
          if (reported.follows(id)) {
            ids.add(id);
          }
        }
        if (!ids.isEmpty()) {
          refresh(ids);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.debug("Stopped reading jobs after watch events: interrupted");
    }
  }

  private void refresh(List<ExecutionId> ids) {
    Map<ExecutionId, JobStatusResult> results;
    try {
      results = reader.getAll(ids);
    } catch (RuntimeException e) {
      LOG.warn("Reading {} job(s) after their watch events failed", ids.size(), e);
      return;
    }
    results.forEach(
        (id, result) ->
            result
                .error()
                .ifPresent(
                    e ->
                        LOG.debug(
                            "Job '{}' could not be read after its watch event: {}",
                            id,
                            e.getMessage())));
  }

  /**
   * Ends the thread once it read what it was given (the watches closed first, so it is given
   * nothing more), waiting up to {@code wait} before interrupting it. Idempotent.
   */
  void close(Duration wait) {
    DaemonThreads.shutdownAndAwait(wait, refresher);
  }
}
