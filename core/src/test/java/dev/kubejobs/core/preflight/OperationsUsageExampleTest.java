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
package dev.kubejobs.core.preflight;

import static dev.kubejobs.core.testing.FakeApps.driverPod;
import static dev.kubejobs.core.testing.FakeApps.managedApp;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.logs.DriverLog;
import dev.kubejobs.core.sweep.SweepReport;
import dev.kubejobs.core.sweep.SweepRequest;
import dev.kubejobs.core.testing.FakeAppKind;
import dev.kubejobs.core.testing.FakeApps;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The preflight, sweep and driver log snippet quoted in {@code core/README.md}. */
class OperationsUsageExampleTest {
  private static final Logger LOG = LoggerFactory.getLogger(OperationsUsageExampleTest.class);
  private static final MutableClock CLOCK = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(FakeAppKind.TYPE).clock(CLOCK).build();

  // --- quoted in core/README.md
  static List<String> usage(KubeJobs<?> jobs, Set<String> knownJobIds, ExecutionId id) {
    // At start-up: every missing permission and whether the CRD is served, before any job fails.
    PreflightReport preflight = jobs.preflight().check("etl", "ml");
    if (!preflight.isOk()) {
      LOG.warn(preflight.summary()); // names each missing verb/resource/namespace and the fix
    }

    // Every few minutes, from any node: delete this deployment's resources of unknown jobs.
    SweepReport swept =
        jobs.sweeper()
            .sweep(
                SweepRequest.builder()
                    .namespaces("etl", "ml")
                    .knownJobs(knownJobIds::contains) // the scheduler's own job store
                    .gracePeriod(Duration.ofHours(1)) // longer than submit-to-recorded
                    .dryRun(false)
                    .build());
    LOG.info(swept.summary()); // deleted, kept, and each failure with its reason

    // For a UI: the last 100 lines, at most 64 KiB, of the driver container; never throws.
    DriverLog log = jobs.driverLogs().tail(id, 100, 64 * 1024);
    return log.lines();
  }

  // ---

  @Test
  void snippetChecksSweepsAndReadsTheDriverLog() {
    KUBE.server().store().create(FakeAppKind.TYPE, "etl", managedApp("kj-old", "old", "prod"));
    KUBE.server().store().create(FakeAppKind.TYPE, "etl", managedApp("kj-live", "live", "prod"));
    KUBE.server()
        .store()
        .create(ResourceType.POD, "etl", driverPod("kj-live-driver", "kj-live", "driver"));
    KUBE.server().store().setPodLog("etl", "kj-live-driver", "driver", "Pi is roughly 3.14\n");
    CLOCK.advance(Duration.ofHours(2));
    KubeJobs<String> jobs = FakeApps.jobs(KUBE.client(), CLOCK, "prod");
    ExecutionId live = ExecutionId.of(Fixture.CLUSTER, FakeAppKind.KIND, "etl", "kj-live");

    List<String> lines = usage(jobs, Set.of("live"), live);

    assertThat(lines).containsExactly("Pi is roughly 3.14");
    assertThat(KUBE.server().store().get(FakeAppKind.TYPE, "etl", "kj-old")).isEmpty();
    assertThat(KUBE.server().store().get(FakeAppKind.TYPE, "etl", "kj-live")).isPresent();
  }
}
