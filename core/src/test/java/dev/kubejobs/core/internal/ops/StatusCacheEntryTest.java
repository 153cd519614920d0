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
import dev.kubejobs.core.internal.json.JsonTree;
import dev.kubejobs.core.spi.ResourceSnapshot;
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

  private static StatusCache.Entry entry(String metadata) {
    JsonObject app = new JsonObject();
    app.add("metadata", gson(metadata));
    return new StatusCache.Entry(ResourceSnapshot.of(app));
  }

  @Test
  void aCopyIsTheSameOnlyWithTheSameUidAndTheSameNonEmptyResourceVersion() {
    StatusCache.Entry held = entry("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":\"7\"}");

    assertThat(held.isCopyOf(metadata("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":\"7\"}")))
        .isTrue();
    assertThat(held.isCopyOf(metadata("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":\"8\"}")))
        .isFalse();
    assertThat(held.isCopyOf(metadata("{\"name\":\"a\",\"uid\":\"u2\",\"resourceVersion\":\"7\"}")))
        .isFalse();
    assertThat(held.isCopyOf(metadata("{\"name\":\"a\",\"uid\":\"u1\"}"))).isFalse();
    assertThat(held.isCopyOf(metadata("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":{}}")))
        .isFalse();
    // Without a resourceVersion nothing tells two copies apart: never the same.
    StatusCache.Entry bare = entry("{\"name\":\"a\",\"uid\":\"u1\"}");
    assertThat(bare.isCopyOf(metadata("{\"name\":\"a\",\"uid\":\"u1\"}"))).isFalse();
    assertThat(bare.isCopyOf(metadata("{\"name\":\"a\",\"uid\":\"u1\",\"resourceVersion\":\"\"}")))
        .isFalse();
  }
}
