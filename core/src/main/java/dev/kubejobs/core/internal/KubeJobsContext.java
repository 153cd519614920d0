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
package dev.kubejobs.core.internal;

import dev.kubejobs.core.ClusterMismatchException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.spi.JobKind;
import java.time.Clock;
import java.util.Objects;

/**
 * What every operation of one {@code KubeJobs} instance shares: its settings, the gateway, the
 * clock and the warn-once log. Operations (submit, status, cancel, and the sweeper, driver log and
 * preflight) are built from it inside {@code KubeJobs}. Not a published API. Immutable, thread
 * safe.
 *
 * @param cluster the cluster name ids carry
 * @param deployment the deployment name labels carry
 * @param namePrefix the resource name prefix
 * @param jobKind the kind of job resources
 * @param gateway the gateway to the API server
 * @param clock the clock for mapping, caches and marks
 * @param warnings the warn-once log
 * @param writer names this instance's writes (cancel marks, submits)
 * @param <S> the job spec type
 */
public record KubeJobsContext<S>(
    String cluster,
    String deployment,
    String namePrefix,
    JobKind<S> jobKind,
    KubeGateway gateway,
    Clock clock,
    WarnOnce warnings,
    WriterId writer) {

  /** Checks every part. */
  public KubeJobsContext {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(deployment, "deployment");
    Objects.requireNonNull(namePrefix, "namePrefix");
    Objects.requireNonNull(jobKind, "jobKind");
    Objects.requireNonNull(gateway, "gateway");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(warnings, "warnings");
    Objects.requireNonNull(writer, "writer");
  }

  /**
   * Checks that an id is of this instance's cluster and resource kind.
   *
   * @param id the id
   * @return the id
   * @throws IllegalArgumentException if the id is null or of another resource kind
   * @throws ClusterMismatchException if the id names another cluster (never a reason to fail the
   *     job)
   */
  public ExecutionId check(ExecutionId id) {
    if (id == null) {
      throw new IllegalArgumentException("execution id must not be null");
    }
    if (!cluster.equals(id.cluster())) {
      throw new ClusterMismatchException(
          id,
          "execution id "
              + id
              + " is of cluster '"
              + id.cluster()
              + "', but this kubejobs instance talks to cluster '"
              + cluster
              + "': route it to an instance of that cluster, or check the cluster setting (it must"
              + " be the same on every scheduler node and must not be renamed while jobs run);"
              + " the job was not touched",
          null);
    }
    if (!id.isOf(jobKind.resourceKind())) {
      throw new IllegalArgumentException(
          "execution id "
              + id
              + " addresses "
              + id.plural()
              + "."
              + id.group()
              + ", but this kubejobs instance manages "
              + jobKind.resourceKind().qualifiedPlural()
              + ": use the instance built for that job kind");
    }
    return id;
  }
}
