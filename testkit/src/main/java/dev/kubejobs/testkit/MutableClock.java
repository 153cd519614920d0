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
 * A {@link Clock} that a test moves: {@link #at(Instant)} stands still until moved, for
 * deterministic timestamps; {@link #following(Clock)} runs with another clock plus whatever the
 * test added. Share one between the fake API server, the fake operators and the code under test
 * (for kubejobs, {@code KubeJobs.builder(...).clock(clock)}) so that moving it moves all of them.
 *
 * <p>Thread safe: the offset is held atomically, so one thread may advance the clock while others
 * read it.
 */
public final class MutableClock extends Clock {

  private final Clock base;
  private final AtomicReference<Duration> offset;
  private final ZoneId zone;

  private MutableClock(Clock base, AtomicReference<Duration> offset, ZoneId zone) {
    this.base = base;
    this.offset = offset;
    this.zone = zone;
  }

  /**
   * Creates a clock in UTC that reads {@code t} until it is moved.
   *
   * @param t the initial instant
   * @return a new clock
   */
  public static MutableClock at(Instant t) {
    return new MutableClock(
        Clock.fixed(Objects.requireNonNull(t, "t"), ZoneOffset.UTC),
        new AtomicReference<>(Duration.ZERO),
        ZoneOffset.UTC);
  }

  /**
   * Creates a clock in UTC that reads {@code base}'s time plus what {@link #advance(Duration)} and
   * {@link #set(Instant)} added: time passes as {@code base}'s does, and a test can still jump
   * ahead. The default of {@link FakeKubernetesExtension}, following {@link Clock#systemUTC()}.
   *
   * @param base the clock to follow
   * @return a new clock reading {@code base}'s time until moved
   */
  public static MutableClock following(Clock base) {
    return new MutableClock(
        Objects.requireNonNull(base, "base"), new AtomicReference<>(Duration.ZERO), ZoneOffset.UTC);
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
    offset.updateAndGet(o -> o.plus(d));
  }

  /**
   * Sets the clock to {@code t}, forwards or backwards (a following clock then runs on from {@code
   * t}).
   *
   * @param t the new instant
   */
  public void set(Instant t) {
    Objects.requireNonNull(t, "t");
    offset.set(Duration.between(base.instant(), t));
  }

  /** Returns the current instant of this clock. */
  @Override
  public Instant instant() {
    return base.instant().plus(offset.get());
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
    return new MutableClock(base, offset, zone);
  }

  /** Returns a short description with the current instant. */
  @Override
  public String toString() {
    return "MutableClock[" + instant() + "]";
  }
}
