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
package dev.kubejobs.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class MutableClockTest {

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  @Test
  void aClockAtAnInstantStandsStillUntilMoved() {
    MutableClock clock = MutableClock.at(T0);

    clock.advance(Duration.ofSeconds(10));
    assertThat(clock.instant()).isEqualTo(T0.plusSeconds(10));
    clock.set(T0.minusSeconds(5));
    assertThat(clock.instant()).isEqualTo(T0.minusSeconds(5));
    assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
  }

  @Test
  void aFollowingClockRunsWithItsBasePlusWhatTheTestAdded() {
    MutableClock base = MutableClock.at(T0);
    MutableClock clock = MutableClock.following(base);

    base.advance(Duration.ofSeconds(3));
    assertThat(clock.instant()).isEqualTo(T0.plusSeconds(3));
    clock.advance(Duration.ofMinutes(11));
    assertThat(clock.instant()).isEqualTo(T0.plusSeconds(3 + 660));
    base.advance(Duration.ofSeconds(1));
    assertThat(clock.instant()).isEqualTo(T0.plusSeconds(4 + 660));
    clock.set(T0);
    base.advance(Duration.ofSeconds(2));
    assertThat(clock.instant()).isEqualTo(T0.plusSeconds(2));
  }

  @Test
  void aClockInAnotherZoneSharesTheTime() {
    MutableClock clock = MutableClock.following(Clock.fixed(T0, ZoneOffset.UTC));
    Clock paris = clock.withZone(ZoneId.of("Europe/Paris"));

    clock.advance(Duration.ofHours(1));

    assertThat(paris.instant()).isEqualTo(T0.plusSeconds(3600));
    assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
  }

  @Test
  void movingBackwardsWithAdvanceIsRefused() {
    assertThatThrownBy(() -> MutableClock.at(T0).advance(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("advance duration must not be negative, but was PT-1S");
  }
}
