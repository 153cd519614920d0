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

import org.junit.jupiter.api.Test;

/** Parsing one line of a watch stream, as kube-apiserver writes them. */
class WatchEventTest {

  @Test
  void anObjectEventCarriesTheObjectAndItsResourceVersion() {
    WatchEvent e =
        WatchEvent.parse(
            "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"kj-a\","
                + "\"resourceVersion\":\"42\"}}}");

    assertThat(e.type()).isEqualTo(WatchEvent.Type.MODIFIED);
    assertThat(e.object().name()).isEqualTo("kj-a");
    assertThat(e.resourceVersion()).isEqualTo("42");
    assertThat(e.error()).isNull();
  }

  /** A bookmark carries only kind, apiVersion and metadata.resourceVersion (cacher.go). */
  @Test
  void aBookmarkCarriesOnlyItsResourceVersion() {
    WatchEvent e =
        WatchEvent.parse(
            "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"TestJob\",\"apiVersion\":"
                + "\"kubejobs.dev/v1\",\"metadata\":{\"resourceVersion\":\"7\"}}}");

    assertThat(e.type()).isEqualTo(WatchEvent.Type.BOOKMARK);
    assertThat(e.object()).isNull();
    assertThat(e.resourceVersion()).isEqualTo("7");
  }

  /** Servers before 1.18 answered an expired resourceVersion with reason Gone (reflector.go). */
  @Test
  void anErrorEventIsExpiredByCodeOrByReason() {
    WatchEvent expired =
        WatchEvent.parse(
            "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"status\":\"Failure\","
                + "\"message\":\"too old resource version: 1 (5)\",\"reason\":\"Expired\","
                + "\"code\":410}}");
    WatchEvent gone =
        WatchEvent.parse(
            "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"reason\":\"Gone\"}}");
    WatchEvent tooLarge =
        WatchEvent.parse(
            "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"reason\":\"Timeout\","
                + "\"code\":504}}");

    assertThat(expired.error().code()).isEqualTo(410);
    assertThat(expired.error().message()).isEqualTo("too old resource version: 1 (5)");
    assertThat(expired.error().isExpired()).isTrue();
    assertThat(gone.error().isExpired()).isTrue();
    assertThat(tooLarge.error().isExpired()).isFalse();
  }

  @Test
  void anUnknownTypeIsSkippedAndGarbageIsRefused() {
    assertThat(WatchEvent.parse("{\"type\":\"NEWFANGLED\",\"object\":{}}")).isNull();
    assertThatThrownBy(() -> WatchEvent.parse("<html>"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WatchEvent.parse("[1,2]"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WatchEvent.parse("{\"type\":\"ADDED\"}"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WatchEvent.parse("{\"type\":\"ADDED\",\"object\":{}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("metadata");
  }
}
