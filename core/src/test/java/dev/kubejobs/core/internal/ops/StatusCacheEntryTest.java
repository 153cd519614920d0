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

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.WarnOnce;
import dev.kubejobs.core.internal.WriterId;
import dev.kubejobs.core.internal.kube.HeldCopy;
import dev.kubejobs.core.internal.kube.JsonTree;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobKindVariant;
import dev.kubejobs.core.testing.TestJobSpec;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * When a listed object is the copy a cache entry holds, so that its rest is skipped and its mapping
 * kept. A real API server changes an object's resourceVersion on every write and never gives two
 * objects the same one (it is the etcd revision of the write), so the uid check only guards against
 * a server or proxy that does not keep that promise.
 */
class StatusCacheEntryTest {
  private static JsonTree.Obj metadata(String json) {
    return JsonTree.fromGson(gson(json));
  }

  private static JsonObject gson(String json) {
    return JsonParser.parseString(json).getAsJsonObject();
  }

  private static JobMemo entry(String metadata) {
    JsonObject app = new JsonObject();
    app.add("metadata", gson(metadata));
    return new JobMemo(ResourceSnapshot.of(app));
  }

  /** Whether a list skips an object of this metadata as the entry's very copy. */
  private static boolean isCopyOf(JobMemo entry, JsonTree.Obj metadata) {
    return HeldCopy.isHeld(java.util.Map.of("a", entry), metadata);
  }

  @Test
  void aCopyIsTheSameOnlyWithTheSameUidAndTheSameNonEmptyResourceVersion() {
    JobMemo held = entry("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":\"7\"}");

    assertThat(
            isCopyOf(held, metadata("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":\"7\"}")))
        .isTrue();
    assertThat(
            isCopyOf(held, metadata("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":\"8\"}")))
        .isFalse();
    assertThat(
            isCopyOf(held, metadata("{\"name\":\"a\",\"uid\":\"u2\",\"resourceVersion\":\"7\"}")))
        .isFalse();
    assertThat(isCopyOf(held, metadata("{\"name\":\"a\",\"uid\":\"u1\"}"))).isFalse();
    assertThat(isCopyOf(held, metadata("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":{}}")))
        .isFalse();
    // Without a resourceVersion nothing tells two copies apart: never the same.
    JobMemo bare = entry("{\"name\":\"a\",\"uid\":\"u1\"}");
    assertThat(isCopyOf(bare, metadata("{\"name\":\"a\",\"uid\":\"u1\"}"))).isFalse();
    assertThat(isCopyOf(bare, metadata("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":\"\"}")))
        .isFalse();
  }

  @Test
  void aStartedJobsCopyIsDroppedOnceMappedUnlessItsOperatorShowsWaitingExecutors() {
    assertThat(keptOnceMapped("RUNNING", false)).isFalse();
    assertThat(keptOnceMapped("RUNNING", true)).isTrue();
    assertThat(keptOnceMapped("SUCCEEDED", true)).isFalse();
  }

  /** Whether a listed copy in {@code state} is still held once mapped. */
  private static boolean keptOnceMapped(String state, boolean executorsWait) {
    KubeJobsContext<TestJobSpec> ctx =
        new KubeJobsContext<>(
            Fixture.CLUSTER,
            "gravitino-a",
            "kj-",
            TestJobKindVariant.withExecutorsWaiting(executorsWait),
            KubeGateway.create(new ApiClient(), Duration.ofSeconds(5), ResiliencePolicy.none()),
            Clock.fixed(Fixture.T0, ZoneOffset.UTC),
            new WarnOnce(),
            WriterId.random());
    StatusPipeline pipeline = new StatusPipeline(ctx);
    JsonObject app = Fixture.testJob("kj-job-1", "gravitino-a", "job-1", state);
    app.getAsJsonObject("metadata").addProperty("uid", "u1");
    app.getAsJsonObject("metadata").addProperty("resourceVersion", "7");
    JobMemo entry = new JobMemo(ResourceSnapshot.of(app));

    entry.alone(ExecutionId.of(Fixture.CLUSTER, TestJobKind.KIND, "etl", "kj-job-1"), pipeline, 0);

    return entry.keptCopy() != null;
  }
}
