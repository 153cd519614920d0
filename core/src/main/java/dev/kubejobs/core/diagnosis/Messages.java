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
package dev.kubejobs.core.diagnosis;

/**
 * Caps the messages kubejobs passes on from a server or an operator. Operators write multi-megabyte
 * {@code errorMessage}s and schedulers store them in database columns, so every message taken from
 * the cluster into a {@link Diagnosis} goes through {@link #cap(String)}.
 *
 * <p>A message longer than {@link #MAX_MESSAGE_CHARS} keeps its head and its tail (where
 * spark-submit prints the exception and where the process prints its last words) and says how many
 * characters were cut in between. Stateless and thread safe.
 */
public final class Messages {

  /** The longest message, in chars, that kubejobs passes on: {@value}. */
  public static final int MAX_MESSAGE_CHARS = 4096;

  /** The smallest limit {@link #cap(String, int)} accepts: {@value}. */
  public static final int MIN_LIMIT = 64;

  private Messages() {}

  /**
   * Returns the message capped at {@link #MAX_MESSAGE_CHARS}.
   *
   * @param message the message, may be {@code null}
   * @return the message itself when short enough, {@code ""} for {@code null}, otherwise its head,
   *     a marker {@code " …[N chars cut]… "} and its tail, at most {@link #MAX_MESSAGE_CHARS} long
   */
  public static String cap(String message) {
    return cap(message, MAX_MESSAGE_CHARS);
  }

  /**
   * Returns the message capped at {@code limit} chars, keeping about three quarters from the head
   * and the rest from the tail.
   *
   * @param message the message, may be {@code null}
   * @param limit the most chars to return, at least {@link #MIN_LIMIT}
   * @return the capped message, never longer than {@code limit}
   * @throws IllegalArgumentException if {@code limit} is below {@link #MIN_LIMIT}
   */
  public static String cap(String message, int limit) {
    if (limit < MIN_LIMIT) {
      throw new IllegalArgumentException(
          "limit must be at least " + MIN_LIMIT + " chars, but was " + limit);
    }
    if (message == null) {
      return "";
    }
    int length = message.length();
    if (length <= limit) {
      return message;
    }
    // The marker's length depends on the number it prints; the number printed is an upper bound
    // of what is cut, then the kept parts are sized so that the whole fits the limit exactly.
    String marker = " …[" + length + " chars cut]… ";
    int keep = limit - marker.length();
    int head = keep * 3 / 4;
    int tail = keep - head;
    if (Character.isHighSurrogate(message.charAt(head - 1))) {
      head--;
    }
    int tailStart = length - tail;
    if (Character.isLowSurrogate(message.charAt(tailStart))) {
      tailStart++;
    }
    int cut = tailStart - head;
    marker = " …[" + cut + " chars cut]… ";
    return message.substring(0, head) + marker + message.substring(tailStart);
  }
}
