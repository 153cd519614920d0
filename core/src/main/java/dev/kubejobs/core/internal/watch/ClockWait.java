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

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

/**
 * The time of the watch's own threads and their waits, read on the view's {@link Clock}: a wait
 * ends early when {@linkplain #wake() woken} or {@linkplain #close() closed}, and a test that moves
 * its clock ends the watch's waits (the back-off, the idle limit) without real time passing.
 *
 * <p>A system clock is read as {@link System#nanoTime()}, which never jumps (a wall clock set back
 * an hour must not lengthen a back-off by an hour), and waited on directly. Any other clock may
 * jump (a test's), so a wait reads it again every {@value #TICK_MILLIS} ms of real time. Thread
 * safe: one thread waits, any thread may wake or close.
 */
final class ClockWait {
  /** How often a clock other than the system's is read again while waiting. */
  static final long TICK_MILLIS = 10;

  private final Clock clock;
  private final boolean system;
  private final Object lock = new Object();

  // guarded by lock
  private long wakes;
  private boolean closed;

  ClockWait(Clock clock) {
    this.clock = clock;
    this.system = clock.withZone(ZoneOffset.UTC).equals(Clock.systemUTC());
  }

  /**
   * The time now in milliseconds, only to compare with other readings of this wait's clock: {@link
   * System#nanoTime()} for a system clock, the clock's own milliseconds otherwise.
   *
   * @return the time now
   */
  long millis() {
    return system ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime()) : clock.millis();
  }

  /**
   * Waits {@code length} by the clock, or until {@link #wake()} or {@link #close()} is called, or
   * the thread is interrupted (its flag is set again).
   *
   * @param length how long to wait
   */
  void sleep(Duration length) {
    long deadline = millis() + length.toMillis();
    synchronized (lock) {
      long woken = wakes;
      while (!closed && wakes == woken) {
        long left = deadline - millis();
        if (left <= 0) {
          return;
        }
        try {
          lock.wait(system ? left : Math.min(left, TICK_MILLIS));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Ends the current wait, if any; later waits wait again. */
  void wake() {
    synchronized (lock) {
      wakes++;
      lock.notifyAll();
    }
  }

  /** Ends the current wait and every later one at once. */
  void close() {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
    }
  }

  /** Whether {@link #close()} was called. */
  boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }
}
