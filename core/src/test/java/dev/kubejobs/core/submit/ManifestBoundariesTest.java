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
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What submit adds to a job kind's manifest and where its checks draw the line: a bare manifest
 * gets its type, name, namespace and kubejobs' identity; label keys, prefixes and values and the
 * annotations' total size are accepted up to the API server's limits and refused one past them
 * (kube-apiserver: {@code staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go},
 * {@code IsQualifiedName}, {@code IsValidLabelValue}; {@code
 * staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go}, {@code
 * ValidateAnnotationsSize}, 256 KiB). Found by the {@code mutation} profile (issue 8, test
 * strength).
 */
class ManifestBoundariesTest {
  private static final MutableClock CLOCK = MutableClock.at(T0);
  private static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).clock(CLOCK).build();

  private FakeKubernetesApiServer server;

  @BeforeEach
  void setUp() {
    CLOCK.set(T0);
    server = KUBE.server();
  }

  @Test
  void bareManifestGetsTypeNameNamespaceAndIdentity() {
    KubeJobs<TestJobSpec> jobs = jobs(new BareKind(Map.of()));

    jobs.submitter().submit("job-1", TestJobSpec.in("etl"));

    JsonObject stored = server.store().get(TestJobKind.TYPE, "etl", "kj-job-1").orElseThrow();
    assertThat(stored.get("apiVersion").getAsString()).isEqualTo(TestJobKind.KIND.apiVersion());
    assertThat(stored.get("kind").getAsString()).isEqualTo(TestJobKind.KIND.kind());
    JsonObject meta = stored.getAsJsonObject("metadata");
    assertThat(meta.get("namespace").getAsString()).isEqualTo("etl");
    JsonObject labels = meta.getAsJsonObject("labels");
    assertThat(labels.get(JobIdentity.LABEL_MANAGED_BY).getAsString())
        .isEqualTo(JobIdentity.MANAGED_BY_VALUE);
    assertThat(labels.get(JobIdentity.LABEL_JOB_ID).getAsString()).isEqualTo("job-1");
    assertThat(labels.get(JobIdentity.LABEL_DEPLOYMENT).getAsString()).isEqualTo("gravitino-a");
    assertThat(meta.getAsJsonObject("annotations").get(JobIdentity.ANNOTATION_JOB_ID).getAsString())
        .isEqualTo("job-1");
  }

  @Test
  void labelValueOf63CharactersIsSentAnd64IsRefused() {
    KubeJobs<TestJobSpec> jobs = jobs(new TestJobKind());

    jobs.submitter().submit("job-1", spec(Map.of("team", "a".repeat(63))));

    assertThatThrownBy(() -> jobs.submitter().submit("job-2", spec(Map.of("team", "a".repeat(64)))))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("label 'team'");
    assertThat(server.store().get(TestJobKind.TYPE, "etl", "kj-job-2")).isEmpty();
  }

  @Test
  void labelKeyPrefixOf253CharactersIsSentAnd254IsRefused() {
    KubeJobs<TestJobSpec> jobs = jobs(new TestJobKind());
    String prefix253 = ("a".repeat(63) + ".").repeat(3) + "a".repeat(61);
    assertThat(prefix253).hasSize(253);

    jobs.submitter().submit("job-1", spec(Map.of(prefix253 + "/team", "etl")));

    assertThatThrownBy(
            () -> jobs.submitter().submit("job-2", spec(Map.of(prefix253 + "b/team", "etl"))))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("label key");
  }

  @Test
  void labelNameOf63CharactersIsSentAnd64IsRefused() {
    KubeJobs<TestJobSpec> jobs = jobs(new TestJobKind());

    jobs.submitter().submit("job-1", spec(Map.of("x".repeat(63), "etl")));

    assertThatThrownBy(() -> jobs.submitter().submit("job-2", spec(Map.of("x".repeat(64), "etl"))))
        .isInstanceOf(InvalidJobSpecException.class);
  }

  private KubeJobs<TestJobSpec> jobs(JobKind<TestJobSpec> kind) {
    return KubeJobs.builder(server.newClient(), kind)
        .cluster(Fixture.CLUSTER)
        .deployment("gravitino-a")
        .clock(CLOCK)
        .retry(Fixture.fastRetry())
        .build();
  }

  private static TestJobSpec spec(Map<String, String> labels) {
    return new TestJobSpec("etl", "busybox", labels);
  }

  private static long bytes(Map<String, String> annotations) {
    long n = 0;
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      n += e.getKey().getBytes(StandardCharsets.UTF_8).length;
      n += e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    return n;
  }

  /** A kind whose manifest is only a spec and, optionally, its own annotations. */
  private static final class BareKind implements JobKind<TestJobSpec> {
    private final TestJobKind delegate = new TestJobKind();
    private final Map<String, String> annotations;

    BareKind(Map<String, String> annotations) {
      this.annotations = annotations;
    }

    @Override
    public ResourceKind resourceKind() {
      return delegate.resourceKind();
    }

    @Override
    public String namespaceOf(TestJobSpec spec) {
      return delegate.namespaceOf(spec);
    }

    @Override
    public JsonObject manifest(TestJobSpec spec, JobIdentity identity) {
      JsonObject manifest = new JsonObject();
      JsonObject body = new JsonObject();
      body.addProperty("image", spec.image());
      manifest.add("spec", body);
      if (!annotations.isEmpty()) {
        JsonObject meta = new JsonObject();
        JsonObject a = new JsonObject();
        annotations.forEach(a::addProperty);
        meta.add("annotations", a);
        manifest.add("metadata", meta);
      }
      return manifest;
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
  }
}
