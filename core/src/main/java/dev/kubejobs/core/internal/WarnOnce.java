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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * Logs each distinct warning text once per {@code KubeJobs} instance, so a poll of thousands of
 * jobs does not repeat what an operator must fix. Thread safe; remembers at most {@value #MAX}
 * texts, then starts over.
 */
public final class WarnOnce {
  private static final int MAX = 10_000;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  /**
   * Logs {@code text} at WARN unless it was logged before, else at DEBUG.
   *
   * @param log the logger
   * @param text the warning, stable across calls (no timestamps)
   * @return true if it was logged at WARN now
   */
  public boolean warn(Logger log, String text) {
    return warn(log, text, text);
  }

  /**
   * Logs {@code text} at WARN unless a warning with the same {@code key} was logged before, else at
   * DEBUG. Use a key without the job id to warn once for a condition many jobs share.
   *
   * @param log the logger
   * @param key what makes two warnings the same
   * @param text the warning to log
   * @return true if it was logged at WARN now
   */
  public boolean warn(Logger log, String key, String text) {
    if (seen.size() >= MAX) {
      seen.clear();
    }
    if (seen.add(key)) {
      log.warn(text);
      return true;
    }
    log.debug(text);
    return false;
  }
}
