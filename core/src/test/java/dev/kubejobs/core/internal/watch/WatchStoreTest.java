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
package dev.kubejobs.core.internal.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The watch's store alone, without a server: how a list and events change its entries, its flags
 * and its generation, and what its listener hears. The rules for a relist mirror client-go's {@code
 * DeltaFIFO.Replace} (objects missing from the list are deletes; tools/cache/delta_fifo.go), which
 * client-java's {@code DeltaFIFO.replace} follows ({@code
 * util/src/main/java/io/kubernetes/client/informer/cache/DeltaFIFO.java}).
 */
class WatchStoreTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final MutableClock clock = MutableClock.at(T0);
  private final List<String> heard = new ArrayList<>();
  private final WatchStore store =
      new WatchStore("etl", clock, this::record, UnaryOperator.identity());

  @Test
  void aListFillsTheStoreAndItsResourceVersionButNotTheInSyncFlag() {
    int listed = store.replace(List.of(object("a", "u1", "5"), object("b", "u2", "6")), "7");

    NamespaceWatch.View view = store.view();
    assertThat(listed).isEqualTo(2);
    assertThat(view.byName()).containsOnlyKeys("a", "b");
    assertThat(view.resourceVersion()).isEqualTo("7");
    assertThat(view.lastHeard()).isEqualTo(T0);
    assertThat(view.inSync()).isFalse();
    assertThat(heard).containsExactly("add a", "add b");
  }

  @Test
  void aRelistReportsVanishedObjectsAsDeletesAnotherUidAsDeleteAndAddAndSkipsUnchanged() {
    store.replace(
        List.of(object("gone", "u1", "1"), object("same", "u2", "2"), object("reborn", "u3", "3")),
        "3");
    heard.clear();
    long before = store.view().generation();

    store.replace(
        List.of(object("same", "u2", "2"), object("reborn", "u4", "9"), object("new", "u5", "9")),
        "9");

    assertThat(heard)
        .containsExactlyInAnyOrder("delete gone", "delete reborn", "add reborn", "add new");
    assertThat(store.view().byName()).containsOnlyKeys("same", "reborn", "new");
    assertThat(store.view().byName().get("reborn").uid()).isEqualTo("u4");
    assertThat(store.view().generation() - before).isEqualTo(3);
  }

  @Test
  void eventsMoveEntriesAndTheResourceVersionForwardAndAnEmptyVersionKeepsTheLastOne() {
    store.replace(List.of(), "1");
    clock.advance(Duration.ofSeconds(5));

    store.put(object("a", "u1", "2"), "2");
    store.put(object("a", "u1", "3"), "3");
    store.advance("");
    assertThat(store.resourceVersion()).isEqualTo("3");
    store.delete(object("a", "u1", "4"), "4");

    assertThat(heard).containsExactly("add a", "modify a", "delete a");
    assertThat(store.view().byName()).isEmpty();
    assertThat(store.view().resourceVersion()).isEqualTo("4");
    assertThat(store.view().lastHeard()).isEqualTo(T0.plusSeconds(5));
  }

  @Test
  void anOpenedWatchClearsForbiddenAndAwaitSyncReturnsOnForbiddenOrClose() {
    store.forbidden();
    assertThat(store.view().forbidden()).isTrue();
    assertThat(store.awaitSync(Duration.ofSeconds(30))).isFalse();

    store.opened();
    assertThat(store.view().forbidden()).isFalse();
    assertThat(store.awaitSync(Duration.ofSeconds(30))).isTrue();

    store.close();
    assertThat(store.view().inSync()).isFalse();
    assertThat(store.awaitSync(Duration.ofSeconds(30))).isFalse();
  }

  @Test
  void invalidateDropsAnEntryWithoutTellingTheListener() {
    store.replace(List.of(object("a", "u1", "1")), "1");
    heard.clear();
    long before = store.view().generation();

    store.invalidate("a");
    store.invalidate("a");

    assertThat(store.view().byName()).isEmpty();
    assertThat(store.view().generation()).isEqualTo(before + 1);
    assertThat(heard).isEmpty();
    assertThatThrownBy(() -> store.invalidate(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void aFailingListenerDoesNotStopTheStore() {
    WatchStore failing =
        new WatchStore(
            "etl",
            clock,
            (previous, current) -> {
              throw new IllegalStateException("listener bug");
            },
            UnaryOperator.identity());

    failing.put(object("a", "u1", "1"), "1");
    failing.put(object("b", "u2", "2"), "2");

    assertThat(failing.view().byName()).containsOnlyKeys("a", "b");
  }

  @Test
  void theStoreKeepsWhatTheKeeperReturnsButTellsTheListenerTheWholeObject() {
    List<ResourceSnapshot> told = new ArrayList<>();
    WatchStore slim =
        new WatchStore(
            "etl",
            clock,
            (previous, current) -> told.add(current),
            o -> object(o.name(), o.uid(), o.resourceVersion()));
    JsonObject withSpec = object("a", "u1", "1").json();
    withSpec.add("spec", new JsonObject());
    ResourceSnapshot fat = ResourceSnapshot.of(withSpec);

    slim.put(fat, "1");

    assertThat(slim.view().byName().get("a").json().has("spec")).isFalse();
    assertThat(told).singleElement().satisfies(o -> assertThat(o.json().has("spec")).isTrue());
  }

  private void record(ResourceSnapshot previous, ResourceSnapshot current) {
    if (previous == null) {
      heard.add("add " + current.name());
    } else if (current == null) {
      heard.add("delete " + previous.name());
    } else {
      heard.add("modify " + current.name());
    }
  }

  private static ResourceSnapshot object(String name, String uid, String resourceVersion) {
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", name);
    metadata.addProperty("namespace", "etl");
    metadata.addProperty("uid", uid);
    metadata.addProperty("resourceVersion", resourceVersion);
    JsonObject o = new JsonObject();
    o.addProperty("apiVersion", "kubejobs.dev/v1");
    o.addProperty("kind", "TestJob");
    o.add("metadata", metadata);
    return ResourceSnapshot.of(o);
  }
}
