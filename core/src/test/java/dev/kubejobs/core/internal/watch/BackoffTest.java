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
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The watch's back-off alone: the waits grow with failures in a row and progress resets them, as
 * client-go's reflector resets its {@code backoffManager} after a watch that lasted (tools/cache/
 * reflector.go, {@code ListAndWatch}).
 */
class BackoffTest {
  private static final WatchSettings SHORT =
      WatchSettings.ofDefaults().withBackoff(Duration.ofMillis(1), Duration.ofMillis(8));

  @Test
  void failuresInARowWaitLongerAndProgressResetsTheCount() {
    Backoff backoff = new Backoff(SHORT, "etl", () -> 0.0);

    Duration first = backoff.after(false);
    Duration second = backoff.after(false);
    Duration third = backoff.after(false);
    assertThat(backoff.failures()).isEqualTo(3);
    assertThat(backoff.after(true)).isZero();
    assertThat(backoff.failures()).isZero();
    Duration again = backoff.after(false);

    assertThat(first).isEqualTo(SHORT.backoff(1, 0.0));
    assertThat(second).isEqualTo(SHORT.backoff(2, 0.0)).isGreaterThan(first);
    assertThat(third).isEqualTo(SHORT.backoff(3, 0.0)).isGreaterThan(second);
    assertThat(again).isEqualTo(first);
  }

  @Test
  void theJitterComesFromItsRandomSource() {
    WatchSettings tens =
        WatchSettings.ofDefaults().withBackoff(Duration.ofMillis(10), Duration.ofMillis(80));
    Backoff calm = new Backoff(tens, "etl", () -> 0.0);
    Backoff jittery = new Backoff(tens, "etl", () -> 0.5);

    assertThat(calm.after(false)).isEqualTo(Duration.ofMillis(10));
    assertThat(jittery.after(false)).isEqualTo(Duration.ofMillis(15));
  }

  @Test
  void aClosedBackOffNoLongerWaits() {
    WatchSettings hours =
        WatchSettings.ofDefaults().withBackoff(Duration.ofHours(1), Duration.ofHours(2));
    Backoff backoff = new Backoff(hours, "etl", () -> 0.0);

    backoff.close();

    Duration chosen = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> backoff.after(false));
    assertThat(chosen).isGreaterThanOrEqualTo(Duration.ofHours(1));
  }
}
