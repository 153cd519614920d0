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
package dev.kubejobs.core.internal.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * How a snapshot is made: nothing public takes or hands out its private constructor; the gateway
 * reaches it through a private lookup inside core, and adopts the trees it parsed uncopied.
 */
class SnapshotsHandOffTest {
  @Test
  void nothingPublicTakesOrHandsOutTheSnapshotFactory() {
    assertThat(Arrays.stream(Snapshots.class.getMethods()))
        .filteredOn(m -> Modifier.isStatic(m.getModifiers()))
        .extracting(Method::getName)
        .isEmpty();
    assertThat(ResourceSnapshot.class.getConstructors()).isEmpty();
    assertThat(Arrays.stream(ResourceSnapshot.class.getDeclaredConstructors()))
        .allMatch(c -> Modifier.isPrivate(c.getModifiers()))
        .extracting(Constructor::getParameterCount)
        .containsExactly(1);
  }

  @Test
  void adoptsTheGatewaysTreeAndOfCopiesTheCallersJson() {
    JsonObject json =
        JsonParser.parseString(
                "{\"metadata\":{\"name\":\"a\",\"namespace\":\"n\",\"resourceVersion\":\"7\"},"
                    + "\"status\":{\"state\":\"RUNNING\"}}")
            .getAsJsonObject();

    ResourceSnapshot adopted = Snapshots.adopt(JsonTree.fromGson(json));
    ResourceSnapshot copied = ResourceSnapshot.of(json);
    // The caller's JSON stays the caller's: a change after of() does not reach the snapshot.
    json.getAsJsonObject("status").addProperty("state", "FAILED");

    assertThat(adopted.view().string("status", "state")).contains("RUNNING");
    assertThat(copied.view().string("status", "state")).contains("RUNNING");
    assertThat(adopted.name()).isEqualTo("a");
    assertThat(adopted.resourceVersion()).isEqualTo("7");
    assertThatThrownBy(() -> Snapshots.adopt(JsonTree.fromGson(new JsonObject())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("metadata");
  }
}
