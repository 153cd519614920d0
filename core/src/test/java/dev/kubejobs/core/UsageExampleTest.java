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
package dev.kubejobs.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.status.JobStatusResult;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The usage snippet quoted in core/README.md, compiled and run on the fake server. */
class UsageExampleTest {
  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).build();

  @Test
  void theReadmeSnippetRuns() {
    assertThat(usage(KUBE.client(), new TestJobKind(), TestJobSpec.in("etl")))
        .isEqualTo(CancelResult.REQUESTED);
  }

  // --8<-- [start:usage]
  static <S> CancelResult usage(ApiClient apiClient, JobKind<S> jobKind, S spec) {
    KubeJobs<S> jobs =
        KubeJobs.builder(apiClient, jobKind) // your ApiClient: kubeconfig, in-cluster, token
            .cluster("prod") // written into every ExecutionId; same on every node
            .deployment("gravitino-a") // separates deployments sharing a namespace
            .statusCacheTtl(Duration.ofSeconds(5)) // one LIST per namespace per 5 s
            .build();

    // Idempotent per job id: a retry after a lost answer returns the same id.
    ExecutionId id = jobs.submitter().submit("job-42", spec);
    String stored = id.toString(); // keep it; any node of the cluster can use it

    JobExecutionInfo info = jobs.statusReader().get(stored);
    System.out.println(info.status() + " " + info.message());
    // One result per job: its info, or that job's own typed error.
    Map<ExecutionId, JobStatusResult> many = jobs.statusReader().getAll(List.of(id));

    // Never waits for the job's end; a finished job keeps its outcome.
    return many.get(id).isGone() ? CancelResult.ALREADY_FINISHED : jobs.canceller().cancel(id);
  }
  // --8<-- [end:usage]
}
