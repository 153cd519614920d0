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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobKindVariant;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.MutableClock;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kubejobs owns its identity labels and annotations whatever manifest the {@link JobKind} returns
 * (a bare one gets its type, name, namespace and identity), and its checks draw the line where the
 * API server does: label keys, prefixes and values and the annotations' total size are accepted up
 * to the limits and refused one past them (kube-apiserver: {@code
 * staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go}, {@code IsQualifiedName},
 * {@code IsValidLabelValue}; {@code
 * staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go}, {@code
 * ValidateAnnotationsSize}, 256 KiB counting keys plus values).
 */
class ManifestIdentityTest {
  private static final String COLLECTION = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs";
  private static final int LIMIT = 256 * 1024;

  /** The writer token of an instance's first submit: 16 hex digits, '-', '1'. */
  private static final int FIRST_TOKEN = 18;

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE = KubeJobsHarness.testJobs().build();

  private static final MutableClock CLOCK = KUBE.clock();

  private KubeJobs<TestJobSpec> jobs(JobKind<TestJobSpec> kind) {
    return KubeJobs.builder(KUBE.server().newClient(), kind)
        .cluster(Fixture.CLUSTER)
        .deployment("gravitino")
        .clock(CLOCK)
        .retry(Fixture.fastRetry())
        .build();
  }

  private KubeJobs<TestJobSpec> jobs(Function<JobIdentity, JsonObject> manifest) {
    return jobs(TestJobKindVariant.withManifest((spec, identity) -> manifest.apply(identity)));
  }

  private KubeJobs<TestJobSpec> jobs() {
    return jobs(new TestJobKind());
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

  private static TestJobSpec labelled(Map<String, String> labels) {
    return new TestJobSpec("etl", "busybox", labels);
  }

  @Test
  void aBareManifestGetsKubejobsIdentityLabelsAnnotationsNameAndKind() {
    jobs(identity -> bare()).submitter().submit("job-1", TestJobSpec.in("etl"));

    JsonObject stored =
        KUBE.server().store().get(TestJobKind.TYPE, "etl", "kj-job-1").orElseThrow();
    assertThat(stored.get("apiVersion").getAsString()).isEqualTo("kubejobs.dev/v1");
    assertThat(stored.get("kind").getAsString()).isEqualTo("TestJob");
    Map<String, String> annotations = Fixture.annotations(KUBE.server(), "etl", "kj-job-1");
    assertThat(annotations)
        .containsEntry(JobIdentity.ANNOTATION_JOB_ID, "job-1")
        .containsKey(JobIdentity.ANNOTATION_SUBMITTED_BY)
        .doesNotContainKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    JsonObject labels = stored.getAsJsonObject("metadata").getAsJsonObject("labels");
    assertThat(labels.get(JobIdentity.LABEL_MANAGED_BY).getAsString()).isEqualTo("kubejobs");
    assertThat(labels.get(JobIdentity.LABEL_JOB_ID).getAsString()).isEqualTo("job-1");
    assertThat(labels.get(JobIdentity.LABEL_DEPLOYMENT).getAsString()).isEqualTo("gravitino");
    // Name and namespace are in what was sent, not only filled in by the server from the path.
    JsonObject sent =
        JsonParser.parseString(KUBE.server().journal().requests("POST", COLLECTION).get(0).body())
            .getAsJsonObject()
            .getAsJsonObject("metadata");
    assertThat(sent.get("namespace").getAsString()).isEqualTo("etl");
    assertThat(sent.get("name").getAsString()).isEqualTo("kj-job-1");
  }

  @Test
  void metadataOrLabelsThatAreNoObjectsAreInvalidSayingWhatTheyWere() {
    JsonObject arrayMetadata = bare();
    arrayMetadata.add("metadata", new JsonArray());
    JsonObject valueLabels = bare();
    JsonObject metadata = new JsonObject();
    metadata.addProperty("labels", "team=etl");
    valueLabels.add("metadata", metadata);

    assertThatThrownBy(
            () ->
                jobs(identity -> arrayMetadata).submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("must have an object 'metadata', but it was an array");
    assertThatThrownBy(
            () -> jobs(identity -> valueLabels).submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("must have an object 'labels', but it was a value");
    assertThat(KUBE.server().journal().count("POST", COLLECTION)).isZero();
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
    assertThat(KUBE.server().store().get(TestJobKind.TYPE, "etl", "kj-job-1")).isPresent();

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
    KubeJobs<TestJobSpec> jobs = jobs();

    jobs.submitter().submit("job-1", labelled(Map.of("team", "a".repeat(63))));

    assertThatThrownBy(
            () -> jobs.submitter().submit("job-2", labelled(Map.of("team", "a".repeat(64)))))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("label 'team'");
    assertThat(KUBE.server().store().get(TestJobKind.TYPE, "etl", "kj-job-2")).isEmpty();
  }

  @Test
  void aLabelKeyPrefixOf253CharactersIsAcceptedAnd254Rejected() {
    KubeJobs<TestJobSpec> jobs = jobs();
    String prefix253 = ("a".repeat(63) + ".").repeat(3) + "a".repeat(61);
    assertThat(prefix253).hasSize(253);

    jobs.submitter().submit("job-1", labelled(Map.of(prefix253 + "/team", "etl")));

    assertThatThrownBy(
            () -> jobs.submitter().submit("job-2", labelled(Map.of(prefix253 + "b/team", "etl"))))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("label key");
  }

  @Test
  void aLabelNameOf63CharactersIsAcceptedAnd64Rejected() {
    KubeJobs<TestJobSpec> jobs = jobs();

    jobs.submitter().submit("job-1", labelled(Map.of("x".repeat(63), "etl")));

    assertThatThrownBy(
            () -> jobs.submitter().submit("job-2", labelled(Map.of("x".repeat(64), "etl"))))
        .isInstanceOf(InvalidJobSpecException.class);
  }

  @Test
  void aLabelKeyWithAnEmptyPrefixIsRejected() {
    assertThatThrownBy(() -> jobs().submitter().submit("job-1", labelled(Map.of("/team", "etl"))))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageContaining("label '/team'");
    assertThat(KUBE.server().journal().count("POST", COLLECTION)).isZero();
  }
}
