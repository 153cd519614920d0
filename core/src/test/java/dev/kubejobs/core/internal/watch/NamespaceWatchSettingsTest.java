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

import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The watch settings: defaults, validation messages and the back-off's bounds. */
class NamespaceWatchSettingsTest {

  @Test
  void defaultsFollowClientGoAndTheWatchCache() {
    WatchSettings d = WatchSettings.ofDefaults();

    assertThat(d.serverTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(d.idleLimit()).isEqualTo(Duration.ofMinutes(2));
    assertThat(d.backoffMin()).isEqualTo(Duration.ofMillis(800));
    assertThat(d.backoffMax()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void eachRefusalNamesTheSettingTheRuleAndTheValue() {
    WatchSettings d = WatchSettings.ofDefaults();

    assertThatThrownBy(() -> d.withServerTimeout(Duration.ofMillis(999)))
        .hasMessage(
            "serverTimeout must be at least 1 second (the server counts timeoutSeconds in whole"
                + " seconds), but was PT0.999S");
    assertThatThrownBy(() -> d.withIdleLimit(Duration.ZERO))
        .hasMessage("idleLimit must be positive, but was PT0S");
    assertThatThrownBy(() -> d.withBackoff(Duration.ofMillis(-1), Duration.ofSeconds(1)))
        .hasMessage("backoffMin must be positive, but was PT-0.001S");
    assertThatThrownBy(() -> d.withBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessage("backoffMax must be at least backoffMin (PT2S), but was PT1S");
  }

  @Test
  void theBackoffDoublesWithJitterAndNeverPassesItsMaximum() {
    IntervalFunction backoff = WatchSettings.ofDefaults().backoff();

    for (int failures = 1; failures <= 6; failures++) {
      long base = 800L << (failures - 1);
      Set<Long> seen = new HashSet<>();
      for (int i = 0; i < 200; i++) {
        long wait = backoff.apply(failures);
        assertThat(wait).isBetween(base / 2, Math.min(30_000, base * 3 / 2));
        seen.add(wait);
      }
      // the jitter is random: the waits for the same failures differ
      assertThat(seen).hasSizeGreaterThan(1);
    }
    for (int failures = 1; failures < 100; failures++) {
      assertThat(backoff.apply(failures)).isLessThanOrEqualTo(30_000L);
    }
    assertThat(backoff.apply(Backoff.MAX_COUNTED)).isEqualTo(30_000L);
  }
}
