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

import dev.kubejobs.core.internal.kube.WatchCall;
import dev.kubejobs.core.internal.kube.WatchEvent;
import java.util.function.LongSupplier;

/**
 * One watch request of a {@link Reflector}: its handle, when (by the view's clock) something last
 * arrived on it, and what it brought. The reflector writes it; the {@link IdleWatchdog} reads its
 * last activity and may cancel it.
 *
 * <p>The handle and the activity fields are volatile (read across the two threads); the event count
 * and the error are confined to the reflector's thread.
 */
final class WatchStream {
  /** A watch shorter than this that brought no event counts as a failure (client-go's rule). */
  private static final long SHORT_WATCH_MILLIS = 1_000;

  private final LongSupplier clock;
  private final long startedAt;
  private volatile WatchCall call;
  private volatile long lastActivity;
  private volatile boolean idle;
  private volatile boolean opened;
  // the reflector's thread only
  private int events;
  private WatchEvent.ErrorStatus error;

  /**
   * Starts a stream whose times are read on {@code clock}, the view's ({@link ClockWait#millis()}).
   *
   * @param clock the view's time in milliseconds
   */
  WatchStream(LongSupplier clock) {
    this.clock = clock;
    this.startedAt = clock.getAsLong();
    this.lastActivity = startedAt;
  }

  /** Keeps the call's handle, so the stream can be canceled. */
  void starting(WatchCall watchCall) {
    this.call = watchCall;
  }

  /** Notes that the server answered and the stream is open. */
  void opened() {
    opened = true;
    touch();
  }

  boolean isOpened() {
    return opened;
  }

  /** Notes that something arrived now. */
  void touch() {
    lastActivity = clock.getAsLong();
  }

  /** When, in {@link ClockWait#millis()}, something last arrived (or the stream started). */
  long lastActivity() {
    return lastActivity;
  }

  /** Counts one applied event or bookmark. */
  void counted() {
    events++;
  }

  /** Keeps the ERROR event's status; the stream ends on it. */
  void failed(WatchEvent.ErrorStatus status) {
    this.error = status;
  }

  /** The ERROR event's status, or null if none came. */
  WatchEvent.ErrorStatus error() {
    return error;
  }

  /** Marks the stream idle and cancels it, once; returns whether this call did it. */
  boolean cancelIdle() {
    if (idle) {
      return false;
    }
    idle = true;
    cancel();
    return true;
  }

  /** Whether the idle watchdog canceled the stream. */
  boolean wasIdle() {
    return idle;
  }

  /** Cancels the call, if it started. */
  void cancel() {
    WatchCall c = call;
    if (c != null) {
      c.cancel();
    }
  }

  /** Whether the watch brought an event or lasted a second (client-go's "very short watch"). */
  boolean progressed() {
    return events > 0 || clock.getAsLong() - startedAt >= SHORT_WATCH_MILLIS;
  }
}
