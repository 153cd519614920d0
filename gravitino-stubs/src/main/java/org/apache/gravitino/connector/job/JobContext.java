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
package org.apache.gravitino.connector.job;

import java.io.File;

/**
 * Stand-in for Gravitino's {@code org.apache.gravitino.connector.job.JobContext}: the context of a
 * job run that Gravitino passes to {@link JobExecutor#submitJob(JobContext,
 * org.apache.gravitino.job.JobTemplate)} with the runtime template. Same constructor and accessors;
 * see the {@linkplain org.apache.gravitino.connector.job package} for the commit it mirrors.
 * Immutable; like the original, it does not override {@code equals} nor {@code hashCode}.
 */
public final class JobContext {
  private final long jobId;
  private final String metalake;
  private final File stagingDir;

  /**
   * Creates the context of a job run.
   *
   * @param jobId the Gravitino job id, unique across metalakes
   * @param metalake the metalake the job belongs to, not blank
   * @param stagingDir the job's staging directory on the Gravitino server, not null
   * @throws IllegalArgumentException if {@code metalake} is blank or {@code stagingDir} null
   */
  public JobContext(long jobId, String metalake, File stagingDir) {
    if (metalake == null || metalake.isBlank()) {
      throw new IllegalArgumentException("metalake must not be blank");
    }
    if (stagingDir == null) {
      throw new IllegalArgumentException("stagingDir must not be null");
    }
    this.jobId = jobId;
    this.metalake = metalake;
    this.stagingDir = stagingDir;
  }

  /**
   * Returns the Gravitino job id (not the execution id the executor returns).
   *
   * @return the job id
   */
  public long jobId() {
    return jobId;
  }

  /**
   * Returns the metalake the job belongs to.
   *
   * @return the metalake name
   */
  public String metalake() {
    return metalake;
  }

  /**
   * Returns the job's staging directory on the Gravitino server.
   *
   * @return the directory
   */
  public File stagingDir() {
    return stagingDir;
  }

  @Override
  public String toString() {
    return "JobContext{jobId="
        + jobId
        + ", metalake="
        + metalake
        + ", stagingDir="
        + stagingDir
        + "}";
  }
}
