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
package dev.kubejobs.core.internal;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names the writes of one {@code KubeJobs} instance: a random instance id (64 bits) plus a counter,
 * so two instances, even with equal clocks, never take each other's cancel mark or submit for their
 * own. Not a published API; thread safe.
 */
public final class WriterId {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String instance;
  private final AtomicLong counter = new AtomicLong();

  private WriterId(String instance) {
    this.instance = instance;
  }

  /**
   * Returns a writer id with a fresh random instance id.
   *
   * @return the writer id
   */
  public static WriterId random() {
    byte[] bytes = new byte[8];
    RANDOM.nextBytes(bytes);
    return new WriterId(HexFormat.of().formatHex(bytes));
  }

  /**
   * Returns the instance id, 16 lower-case hex digits.
   *
   * @return the instance id
   */
  public String instance() {
    return instance;
  }

  /**
   * Returns a token for one write, {@code <instance>-<n>}, never returned before by this instance.
   *
   * @return the token
   */
  public String next() {
    return instance + "-" + counter.incrementAndGet();
  }

  /**
   * Tells whether a token was made by this instance.
   *
   * @param token a token, or null
   * @return true when {@link #next()} of this instance could have returned it
   */
  public boolean isOwn(String token) {
    return token != null && token.startsWith(instance + "-");
  }
}
