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

import static dev.kubejobs.core.testing.Fixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubejobs.testkit.MutableClock;
import io.github.resilience4j.core.IntervalFunction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The watch's back-off alone: the waits grow with failures in a row and progress resets them, as
 * client-go's reflector resets its {@code backoffManager} after a watch that lasted (tools/cache/
 * reflector.go, {@code ListAndWatch}); the waits run on the view's clock.
 */
class BackoffTest {
  /** Resilience4j's exponential interval without jitter, so the waits are known. */
  private static final IntervalFunction DOUBLING =
      IntervalFunction.ofExponentialBackoff(Duration.ofMillis(10), 2.0, Duration.ofMillis(80));

  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void failuresInARowWaitLongerAndProgressResetsTheCount() {
    Backoff backoff = new Backoff(DOUBLING, new ClockWait(leaping()), "etl");

    Duration first = backoff.after(false);
    Duration second = backoff.after(false);
    Duration third = backoff.after(false);
    assertThat(backoff.failures()).isEqualTo(3);
    assertThat(backoff.after(true)).isZero();
    assertThat(backoff.failures()).isZero();
    Duration again = backoff.after(false);

    assertThat(first).isEqualTo(Duration.ofMillis(10));
    assertThat(second).isEqualTo(Duration.ofMillis(20));
    assertThat(third).isEqualTo(Duration.ofMillis(40));
    assertThat(again).isEqualTo(first);
  }

  @Test
  void aLongOutageWaitsTheLongestWaitWithoutCountingEveryFailureIntoTheInterval() {
    List<Integer> asked = new ArrayList<>();
    IntervalFunction recording =
        failures -> {
          asked.add(failures);
          return DOUBLING.apply(failures);
        };
    Backoff backoff = new Backoff(recording, new ClockWait(leaping()), "etl");

    for (int i = 0; i < 1_000; i++) {
      backoff.after(false);
    }

    assertThat(backoff.failures()).isEqualTo(1_000);
    assertThat(backoff.after(false)).isEqualTo(Duration.ofMillis(80));
    assertThat(asked).hasSize(1_001).allMatch(n -> n <= Backoff.MAX_COUNTED);
  }

  @Test
  void theWaitEndsWhenTheClockHasMovedByItAndNotBefore() {
    MutableClock clock = MutableClock.at(T0);
    AtomicInteger reads = new AtomicInteger();
    IntervalFunction hour = IntervalFunction.of(Duration.ofHours(1));
    Backoff backoff = new Backoff(hour, new ClockWait(counting(clock, reads)), "etl");

    CompletableFuture<Duration> waiting = CompletableFuture.supplyAsync(() -> backoff.after(false));
    // the back-off has read the clock: its deadline is set
    await().atMost(WAIT).until(() -> reads.get() > 0);
    clock.advance(Duration.ofMinutes(59));

    await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> !waiting.isDone());
    clock.advance(Duration.ofMinutes(1));
    await().atMost(WAIT).until(waiting::isDone);
    assertThat(waiting.join()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void aClosedBackOffNoLongerWaits() {
    Backoff backoff =
        new Backoff(
            IntervalFunction.of(Duration.ofHours(1)), new ClockWait(MutableClock.at(T0)), "etl");

    backoff.close();

    CompletableFuture<Duration> chosen = CompletableFuture.supplyAsync(() -> backoff.after(false));
    await().atMost(WAIT).until(chosen::isDone);
    assertThat(chosen.join()).isEqualTo(Duration.ofHours(1));
  }

  /** {@code clock}, counting its reads. */
  private static Clock counting(Clock clock, AtomicInteger reads) {
    return new Clock() {
      @Override
      public Instant instant() {
        reads.incrementAndGet();
        return clock.instant();
      }

      @Override
      public ZoneId getZone() {
        return clock.getZone();
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }
    };
  }

  /** A clock that moves an hour each time it is read: every wait on it ends at its first look. */
  private static Clock leaping() {
    AtomicReference<Instant> now = new AtomicReference<>(T0);
    return new Clock() {
      @Override
      public Instant instant() {
        return now.updateAndGet(t -> t.plus(Duration.ofHours(1)));
      }

      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }
    };
  }
}
