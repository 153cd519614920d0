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
