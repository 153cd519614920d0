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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input gets a typed exception saying what to fix; no NullPointerException or
 * ClassCastException escapes.
 */
class BadInputTest {
  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE = KubeJobsHarness.testJobs().build();

  private static final MutableClock CLOCK = KUBE.clock();

  @Test
  void nullOrBlankJobIdsAreInvalidSpecsAndNothingIsSent() {
    for (String jobId : Arrays.asList(null, "", "   ")) {
      assertThatThrownBy(() -> KUBE.jobs().submitter().submit(jobId, TestJobSpec.in("etl")))
          .isInstanceOf(InvalidJobSpecException.class)
          .hasMessageContaining("jobId must be non-blank");
    }
    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", null))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("spec of job 'job-1' must not be null");
    assertThat(KUBE.server().journal().requests()).isEmpty();
  }

  @Test
  void aNamespaceOrLabelKubernetesWouldRejectIsAnInvalidSpec() {
    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("Bad_NS")))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("namespace must be a lower-case DNS-1123 label")
        .hasMessageContaining("'Bad_NS'");
    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in(null)))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("namespace");
    TestJobSpec badLabel = new TestJobSpec("etl", "busybox", Map.of("team", "data science!"));
    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", badLabel))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("label 'team'")
        .hasMessageContaining("'data science!'");
    assertThat(KUBE.server().journal().requests()).isEmpty();
  }

  @Test
  void malformedOrNullExecutionIdsAreIllegalArgumentsSayingWhichPart() {
    assertThatThrownBy(() -> KUBE.jobs().statusReader().get((String) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be blank");
    assertThatThrownBy(() -> KUBE.jobs().statusReader().get("   "))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KUBE.jobs().statusReader().get("test/testjobs/etl"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("<cluster>/<plural>.<group>/<namespace>/<name>");
    assertThatThrownBy(
            () -> KUBE.jobs().canceller().cancel("test/testjobs.kubejobs.dev/etl/Bad_Name"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name must be");
    assertThatThrownBy(() -> KUBE.jobs().statusReader().get((ExecutionId) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("execution id must not be null");
    assertThatThrownBy(() -> KUBE.jobs().canceller().cancel((ExecutionId) null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KUBE.jobs().statusReader().getAll(null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KUBE.jobs().statusReader().getAll(Arrays.asList((ExecutionId) null)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                KUBE.jobs().statusReader().get("test/sparkapplications.spark.apache.org/etl/kj-1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("manages testjobs.kubejobs.dev");
    assertThat(KUBE.server().journal().requests()).isEmpty();
  }

  @Test
  void aNonJsonAnswerFromAProxyIsUnavailableSayingSo() {
    ExecutionId id = KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"));
    String object = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/kj-job-1";
    KubeJobs<TestJobSpec> uncached =
        KUBE.builder("gravitino-a").statusCacheTtl(Duration.ZERO).build();

    KUBE.server().faults().add(Fault.on("GET", object).nonJson(200));
    assertThatThrownBy(() -> uncached.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("non-JSON answer (200")
        .hasMessageContaining("base path");

    KUBE.server().faults().add(Fault.on("GET", object).forever().nonJson(502));
    assertThatThrownBy(() -> uncached.statusReader().get(id))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("502")
        .hasMessageContaining("non-JSON");
  }

  @Test
  void builderSettingsAreValidatedNamingSettingRuleAndValue() {
    var b = KubeJobs.builder(KUBE.server().newClient(), new TestJobKind());
    assertThatThrownBy(() -> b.cluster("bad cluster"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cluster must be")
        .hasMessageContaining("'bad cluster'");
    assertThatThrownBy(() -> b.deployment(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deployment must be");
    assertThatThrownBy(() -> b.namePrefix("Kj"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namePrefix must be")
        .hasMessageContaining("'Kj'");
    assertThatThrownBy(() -> b.statusCacheTtl(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("statusCacheTtl must be from 0 to 10 minutes, but was PT-1S");
    assertThatThrownBy(() -> b.diagnoseAfter(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("diagnoseAfter must be from 0 to 1 day")
        .hasMessageContaining("but was PT-1S");
    assertThatThrownBy(() -> b.diagnoseAfter(Duration.ofDays(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was PT48H");
    assertThatThrownBy(() -> b.diagnoseAfter(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("diagnoseAfter must be");
    assertThatThrownBy(() -> b.requestTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("requestTimeout must be more than 0");
    assertThatThrownBy(() -> b.build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cluster must be set");
    assertThatThrownBy(() -> KubeJobs.builder(null, new TestJobKind()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("client must not be null");
  }

  @Test
  void theCallersApiClientIsNotModified() {
    var client = KUBE.server().newClient();
    var http = client.getHttpClient();
    String basePath = client.getBasePath();

    KubeJobs<TestJobSpec> built = Fixture.builder(client, CLOCK, "gravitino-a").build();
    built.submitter().submit("job-1", TestJobSpec.in("etl"));

    assertThat(client.getHttpClient()).isSameAs(http);
    assertThat(client.getBasePath()).isEqualTo(basePath);
    assertThat(http.retryOnConnectionFailure()).isTrue();
    assertThat(List.of(built.cluster(), built.deployment(), built.namePrefix()))
        .containsExactly("test", "gravitino-a", "kj");
  }
}
