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
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.MutableClock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The status cache drops the lists of namespaces nobody listed for {@link
 * ListEviction#KEPT_UNREAD}, so a long-running instance that read jobs in many namespaces does not
 * keep every list; it keeps them that long (past the cache period) so that a scheduler pulling one
 * job at a time still finds the other namespaces' jobs unchanged on the next pull. Nothing but
 * memory shows it, so this test looks at the cache's namespaces (white box).
 */
class StatusCacheEvictionTest {
  private static final Duration TTL = Duration.ofSeconds(30);

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE =
      KubeJobsHarness.testJobs()
          .deployment("gravitino")
          .settings(b -> b.statusCacheTtl(TTL))
          .build();

  private static final MutableClock CLOCK = KUBE.clock();

  private KubeJobs<TestJobSpec> jobs;
  private ExecutionId inA;
  private ExecutionId inB;
  private ExecutionId inC;

  @BeforeEach
  void setUp() {
    jobs = KUBE.jobs();
    inA = jobs.submitter().submit("job-a", TestJobSpec.in("ns-a"));
    inB = jobs.submitter().submit("job-b", TestJobSpec.in("ns-b"));
    inC = jobs.submitter().submit("job-c", TestJobSpec.in("ns-c"));
  }

  @Test
  void aReadDropsTheListsOfOtherNamespacesNobodyListedForTenMinutes() {
    jobs.statusReader().get(inA);
    CLOCK.advance(ListEviction.KEPT_UNREAD.minusSeconds(20));
    jobs.statusReader().get(inB);
    // ns-a's list is past its cache period but kept: the next pull may find its jobs unchanged.
    assertThat(cachedNamespaces()).containsExactlyInAnyOrder("ns-a", "ns-b");
    CLOCK.advance(Duration.ofSeconds(40));

    // ns-a's list is 10 min 20 s old, ns-b's 40 s: reading ns-c drops only ns-a's.
    jobs.statusReader().get(inC);

    assertThat(cachedNamespaces()).containsExactlyInAnyOrder("ns-b", "ns-c");
  }

  private Set<String> cachedNamespaces() {
    return ((StatusOperation<?>) jobs.statusReader()).cache().cachedNamespaces();
  }
}
