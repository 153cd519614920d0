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

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.status.JobStatusResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs a namespace's read found gone: each is settled by kubejobs' record of how it ended it
 * ({@link OutcomeRecord}, one events LIST per namespace and read), or, without a record, reported
 * gone once. One job: the gone bookkeeping of a read, after {@link NamespaceRead} read the copies.
 *
 * <p>Not a published API; thread safe.
 */
final class GoneJobs {
  private static final Logger LOG = LoggerFactory.getLogger(GoneJobs.class);

  private final ReportedStatuses reported;
  private final OutcomeRecord record;

  /**
   * Creates the step.
   *
   * @param reported what the reader reported of each job
   * @param record the outcome record the jobs' ends are read from
   */
  GoneJobs(ReportedStatuses reported, OutcomeRecord record) {
    this.reported = reported;
    this.record = record;
  }

  /**
   * The jobs a read found gone, that this reader neither saw end nor reported gone before: their
   * outcome is kubejobs' record of how it ended them (another node's cancel, an end mark's delete),
   * read with one events LIST for the namespace, or, without a record, gone.
   */
  JobStatusResult[] settleGone(String ns, List<ExecutionId> ids, JobStatusResult[] out) {
    Map<ExecutionId, String> unsettled = new LinkedHashMap<>();
    for (int i = 0; i < out.length; i++) {
      if (out[i] == null || !out[i].isGone()) {
        continue;
      }
      ExecutionId id = ids.get(i);
      ReportedStatuses.Seen s = reported.seen(id);
      if (s != null && s.gone()) {
        continue;
      }
      unsettled.put(id, s == null ? null : s.uid());
    }
    if (unsettled.isEmpty()) {
      return out;
    }
    Map<ExecutionId, JobExecutionInfo> recorded;
    try {
      recorded = record.read(ns, unsettled);
    } catch (KubeJobsException e) {
      // Not "gone": the record may say how the job ended, so the read fails and is asked again.
      for (int i = 0; i < out.length; i++) {
        ExecutionId id = ids.get(i);
        if (unsettled.containsKey(id) && out[i].isGone()) {
          out[i] =
              JobStatusResult.failed(
                  new ApiUnavailableException(
                      id,
                      "the resource of job "
                          + id
                          + " is gone and kubejobs' record of how it ended could not be read ("
                          + e.getMessage()
                          + "); read it again",
                      false,
                      e));
        }
      }
      return out;
    }
    for (int i = 0; i < out.length; i++) {
      ExecutionId id = ids.get(i);
      if (!unsettled.containsKey(id) || !out[i].isGone()) {
        continue;
      }
      JobExecutionInfo info = recorded.get(id);
      if (info != null
          && reported.raise(id, info, unsettled.get(id))
              instanceof ReportedStatuses.Raised.Report report) {
        LOG.debug("Job '{}' is gone; its record says {}", id, report.info().status());
        out[i] = JobStatusResult.of(report.info());
      } else {
        reported.gone(id, null);
      }
    }
    return out;
  }
}
