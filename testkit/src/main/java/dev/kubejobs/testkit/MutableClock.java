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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Clock} that stands still until a test moves it, for deterministic timestamps in the fake
 * API server and in fake operators.
 *
 * <p>Thread safe: the current instant is held atomically, so one thread may advance the clock while
 * others read it.
 */
public final class MutableClock extends Clock {

  private final AtomicReference<Instant> now;
  private final ZoneId zone;

  private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  /**
   * Creates a clock in UTC that reads {@code t} until it is moved.
   *
   * @param t the initial instant
   * @return a new clock
   */
  public static MutableClock at(Instant t) {
    return new MutableClock(new AtomicReference<>(Objects.requireNonNull(t, "t")), ZoneOffset.UTC);
  }

  /**
   * Moves the clock forward by {@code d}.
   *
   * @param d the amount to move, which must not be negative
   * @throws IllegalArgumentException if {@code d} is negative
   */
  public void advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("advance duration must not be negative, but was " + d);
    }
    now.updateAndGet(t -> t.plus(d));
  }

  /**
   * Sets the clock to {@code t}, forwards or backwards.
   *
   * @param t the new instant
   */
  public void set(Instant t) {
    now.set(Objects.requireNonNull(t, "t"));
  }

  /** Returns the current instant of this clock. */
  @Override
  public Instant instant() {
    return now.get();
  }

  /** Returns the zone of this clock, UTC unless derived with {@link #withZone(ZoneId)}. */
  @Override
  public ZoneId getZone() {
    return zone;
  }

  /**
   * Returns a clock sharing this clock's instant (moving one moves the other) in another zone.
   *
   * @param zone the zone
   * @return a clock with the same time source
   */
  @Override
  public Clock withZone(ZoneId zone) {
    return new MutableClock(now, zone);
  }

  /** Returns a short description with the current instant. */
  @Override
  public String toString() {
    return "MutableClock[" + now.get() + "]";
  }
}
