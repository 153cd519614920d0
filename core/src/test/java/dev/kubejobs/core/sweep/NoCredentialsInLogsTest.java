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
package dev.kubejobs.core.sweep;

import static dev.kubejobs.core.testing.FakeApps.driverPod;
import static dev.kubejobs.core.testing.FakeApps.managedApp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.FakeAppKind;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import io.kubernetes.client.openapi.ApiClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Submit, status, cancel, the sweep, driver log and preflight log failures (DEBUG lines included)
 * without the caller's bearer token.
 */
class NoCredentialsInLogsTest {
  private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXRva2Vu.sig";
  @RegisterExtension static final KubeJobsHarness<String> KUBE = KubeJobsHarness.fakeApps().build();

  private static final MutableClock CLOCK = KUBE.clock();

  @Test
  void failuresOfSweepDriverLogAndPreflightNeverLogTheBearerToken() {
    ApiClient client = KUBE.server().newClient();
    client.setApiKeyPrefix("Bearer");
    client.setApiKey(TOKEN);
    KubeJobs<String> jobs = KUBE.track(KUBE.builder(client, "prod").build());
    KUBE.server().store().create(FakeAppKind.TYPE, "etl", managedApp("kj-a", "a", "prod"));
    KUBE.server()
        .store()
        .create(ResourceType.POD, "etl", driverPod("driver-a", "kj-a", "driver", "sidecar"));
    CLOCK.advance(Duration.ofHours(2));
    KUBE.server().rbac().deny("delete", "*", "*").deny("get", "", "pods/log").deny("*", "", "pods");
    ExecutionId id = ExecutionId.of(Fixture.CLUSTER, FakeAppKind.KIND, "etl", "kj-a");

    Throwable unreachable;
    try (LogCapture logs = LogCapture.start()) {
      SweepReport report =
          jobs.sweeper()
              .sweep(SweepRequest.builder().namespaces("etl").knownJobIds(Set.of()).build());
      jobs.driverLogs().tail(id, 10, 1000);
      jobs.preflight().check("etl");
      KUBE.server().faults().add(Fault.on("*", ".*").forever().connectionReset());
      jobs.driverLogs().tail(id, 10, 1000);
      unreachable =
          catchThrowable(
              () ->
                  jobs.sweeper()
                      .sweep(
                          SweepRequest.builder().namespaces("etl").knownJobIds(Set.of()).build()));

      assertThat(report.failed()).hasSize(1);
      assertThat(report.summary()).doesNotContain(TOKEN).doesNotContain("c2VjcmV0");
      assertThat(logs.warnings()).hasSizeGreaterThanOrEqualTo(3);
      assertThat(logs.lines()).noneMatch(l -> l.contains(TOKEN) || l.contains("c2VjcmV0"));
    }
    assertThat(unreachable).isInstanceOf(SweepUnavailableException.class);
    assertThat(unreachable.getMessage()).doesNotContain(TOKEN);
  }

  @Test
  void submitStatusAndCancelNeverLogTheBearerTokenEvenAtDebug() {
    ApiClient client = KUBE.server().newClient();
    client.setApiKeyPrefix("Bearer");
    client.setApiKey(TOKEN);
    KubeJobs<String> jobs = KUBE.track(KUBE.builder(client, "prod").build());

    List<Throwable> failures = new ArrayList<>();
    try (LogCapture logs = LogCapture.start()) {
      ExecutionId id = jobs.submitter().submit("job-1", "etl");
      jobs.statusReader().get(id);
      // One rejected call: the cancel's delete is forbidden.
      KUBE.server().rbac().deny("delete", "*", "*");
      failures.add(catchThrowable(() -> jobs.canceller().cancel(id)));
      KUBE.server().rbac().reset();
      // One unreachable call (past the status cache period, so the read is sent).
      CLOCK.advance(Duration.ofMinutes(1));
      KUBE.server().faults().add(Fault.on("*", ".*").forever().connectionReset());
      failures.add(catchThrowable(() -> jobs.statusReader().get(id)));
      KUBE.server().faults().clear();
      jobs.canceller().cancel(id);

      // DEBUG lines are captured too, so none of them carried the token either.
      assertThat(logs.lines()).anyMatch(l -> l.contains("DEBUG"));
      assertThat(logs.lines()).noneMatch(l -> l.contains(TOKEN) || l.contains("c2VjcmV0"));
    }
    assertThat(failures.get(0)).isInstanceOf(JobRejectedException.class);
    assertThat(failures.get(1)).isInstanceOf(ApiUnavailableException.class);
    for (Throwable t : failures) {
      StringWriter printed = new StringWriter();
      t.printStackTrace(new PrintWriter(printed));
      assertThat(printed.toString()).doesNotContain(TOKEN).doesNotContain("c2VjcmV0");
    }
  }
}
