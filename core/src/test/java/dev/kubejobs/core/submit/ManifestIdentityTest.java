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
package dev.kubejobs.core.submit;

import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobKind;
import dev.kubejobs.core.JobStatusMapper;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.ResourceKind;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.MutableClock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 8, test strength: kubejobs owns its identity labels and annotations whatever manifest the
 * {@link JobKind} returns, and checks the annotation size limit at its boundary (256 KiB in total,
 * as kube-apiserver's {@code ValidateAnnotations} in
 * staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go counts keys plus values).
 */
class ManifestIdentityTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final int LIMIT = 256 * 1024;

  /** The writer token of an instance's first submit: 16 hex digits, '-', '1'. */
  private static final int FIRST_TOKEN = 18;

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).clock(CLOCK).build();

  private FakeKubernetesApiServer server;

  @BeforeEach
  void setUp() {
    CLOCK.set(T0);
    server = KUBE.server();
  }

  private KubeJobs<TestJobSpec> jobs(Function<JobIdentity, JsonObject> manifest) {
    JobKind<TestJobSpec> kind =
        new JobKind<>() {
          private final TestJobKind delegate = new TestJobKind();

          @Override
          public ResourceKind resourceKind() {
            return TestJobKind.KIND;
          }

          @Override
          public String namespaceOf(TestJobSpec spec) {
            return spec.namespace();
          }

          @Override
          public JsonObject manifest(TestJobSpec spec, JobIdentity identity) {
            return manifest.apply(identity);
          }

          @Override
          public JobStatusMapper statusMapper() {
            return delegate.statusMapper();
          }

          @Override
          public Optional<String> driverPodName(ResourceSnapshot application) {
            return delegate.driverPodName(application);
          }

          @Override
          public String driverPodSelector(ResourceSnapshot application) {
            return delegate.driverPodSelector(application);
          }

          @Override
          public String driverContainerName(ResourceSnapshot application) {
            return delegate.driverContainerName(application);
          }
        };
    return KubeJobs.builder(server.newClient(), kind)
        .cluster(Fixture.CLUSTER)
        .deployment("gravitino")
        .clock(CLOCK)
        .retry(Fixture.fastRetry())
        .build();
  }

  private static JsonObject bare() {
    JsonObject spec = new JsonObject();
    spec.addProperty("image", "busybox");
    JsonObject m = new JsonObject();
    m.add("spec", spec);
    return m;
  }

  private static JsonObject withAnnotation(String key, int valueLength) {
    JsonObject annotations = new JsonObject();
    annotations.addProperty(key, "v".repeat(valueLength));
    JsonObject metadata = new JsonObject();
    metadata.add("annotations", annotations);
    JsonObject m = bare();
    m.add("metadata", metadata);
    return m;
  }

  @Test
  void aBareManifestGetsKubejobsIdentityLabelsAnnotationsNameAndKind() {
    jobs(identity -> bare()).submitter().submit("job-1", TestJobSpec.in("etl"));

    JsonObject stored = server.store().get(TestJobKind.TYPE, "etl", "kj-job-1").orElseThrow();
    assertThat(stored.get("apiVersion").getAsString()).isEqualTo("kubejobs.dev/v1");
    assertThat(stored.get("kind").getAsString()).isEqualTo("TestJob");
    Map<String, String> annotations = Fixture.annotations(server, "etl", "kj-job-1");
    assertThat(annotations)
        .containsEntry(JobIdentity.ANNOTATION_JOB_ID, "job-1")
        .containsKey(JobIdentity.ANNOTATION_SUBMITTED_BY)
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    JsonObject labels = stored.getAsJsonObject("metadata").getAsJsonObject("labels");
    assertThat(labels.get(JobIdentity.LABEL_MANAGED_BY).getAsString()).isEqualTo("kubejobs");
    assertThat(labels.get(JobIdentity.LABEL_JOB_ID).getAsString()).isEqualTo("job-1");
    assertThat(labels.get(JobIdentity.LABEL_DEPLOYMENT).getAsString()).isEqualTo("gravitino");
  }

  @Test
  void annotationsOfExactly256KiBAreAcceptedAndOneByteMoreIsRejected() {
    int own =
        JobIdentity.ANNOTATION_JOB_ID.length()
            + "job-1".length()
            + JobIdentity.ANNOTATION_SUBMITTED_BY.length()
            + FIRST_TOKEN;
    int fits = LIMIT - own - "big".length();

    jobs(identity -> withAnnotation("big", fits))
        .submitter()
        .submit("job-1", TestJobSpec.in("etl"));
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();

    assertThatThrownBy(
            () ->
                jobs(identity -> withAnnotation("big", fits + 1))
                    .submitter()
                    .submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("256 KiB")
        .hasMessageContaining(Integer.toString(LIMIT + 1));
  }

  @Test
  void aLabelValueOf63CharactersIsAcceptedAnd64Rejected() {
    KubeJobs<TestJobSpec> jobs = Fixture.builder(server, CLOCK, "gravitino").build();
    TestJobSpec ok = new TestJobSpec("etl", "busybox", Map.of("team", "a".repeat(63)));
    TestJobSpec tooLong = new TestJobSpec("etl", "busybox", Map.of("team", "a".repeat(64)));

    jobs.submitter().submit("job-1", ok);
    assertThatThrownBy(() -> jobs.submitter().submit("job-2", tooLong))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("label 'team'");
  }
}
