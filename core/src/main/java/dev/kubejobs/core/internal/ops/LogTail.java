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
package dev.kubejobs.core.internal.ops;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Keeps the last lines of a byte stream within a line cap and a byte cap, reading the stream once
 * and never holding more than about three times the byte cap, however long the stream or its lines.
 *
 * <p>Lines end at {@code \n} (a {@code \r} before it is dropped); a final line without {@code \n}
 * counts. Each kept line costs its UTF-8 bytes plus one for its line end. Lines are split on bytes
 * ({@code \n} never occurs inside a UTF-8 sequence) and decoded only once kept, so a multi-byte
 * character is never split; a last line longer than the byte cap keeps its tail end, starting at a
 * character boundary. Not a published API. Not thread safe: one instance reads one stream.
 */
public final class LogTail {
  private static final int CHUNK = 8192;

  private final int maxLines;
  private final long maxBytes;
  private final int lineCap;
  private final Deque<Line> lines = new ArrayDeque<>();
  private long keptBytes;
  private byte[] current = new byte[0];
  private int currentLength;
  private boolean currentCut;
  private boolean pending;
  private boolean truncated;
  private long highWater;

  /**
   * Creates a tail for one stream.
   *
   * @param maxLines the most lines to keep, at least 1
   * @param maxBytes the most bytes to keep, at least 1
   * @throws IllegalArgumentException if a cap is less than 1
   */
  public LogTail(int maxLines, int maxBytes) {
    if (maxLines < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "maxLines and maxBytes must be at least 1, but were " + maxLines + " and " + maxBytes);
    }
    this.maxLines = maxLines;
    this.maxBytes = maxBytes;
    this.lineCap = maxBytes - 1;
  }

  /** What a tail kept. */
  public static final class Result {
    private final List<String> lines;
    private final boolean truncated;
    private final long highWaterBytes;

    private Result(List<String> lines, boolean truncated, long highWaterBytes) {
      this.lines = lines;
      this.truncated = truncated;
      this.highWaterBytes = highWaterBytes;
    }

    /**
     * Returns the kept lines, oldest first.
     *
     * @return an unmodifiable list
     */
    public List<String> lines() {
      return lines;
    }

    /**
     * Returns whether lines, or the head of the last line, were dropped to keep within the caps.
     *
     * @return true if anything was dropped
     */
    public boolean truncated() {
      return truncated;
    }

    /**
     * Returns the most bytes the tail held at once (kept lines and the line being read, counting
     * buffer capacity); at most about three times the byte cap.
     *
     * @return the high-water mark in bytes
     */
    public long highWaterBytes() {
      return highWaterBytes;
    }
  }

  /**
   * Reads the stream to its end and returns its last lines within the caps.
   *
   * @param in the stream; not closed
   * @return the kept lines
   * @throws IOException if reading fails
   */
  public Result read(InputStream in) throws IOException {
    byte[] chunk = new byte[CHUNK];
    int n;
    while ((n = in.read(chunk)) != -1) {
      int start = 0;
      for (int i = 0; i < n; i++) {
        if (chunk[i] == '\n') {
          append(chunk, start, i - start);
          endLine();
          start = i + 1;
        }
      }
      append(chunk, start, n - start);
    }
    if (pending) {
      endLine();
    }
    List<String> out = new ArrayList<>(lines.size());
    for (Line line : lines) {
      out.add(line.decode());
    }
    return new Result(List.copyOf(out), truncated, highWater);
  }

  private void append(byte[] src, int off, int len) {
    if (len <= 0) {
      return;
    }
    pending = true;
    if (lineCap == 0) {
      currentCut = true;
      return;
    }
    if (len >= lineCap) {
      // The chunk alone fills the line's budget: keep its tail end only.
      ensureCapacity(lineCap);
      System.arraycopy(src, off + len - lineCap, current, 0, lineCap);
      currentCut |= currentLength > 0 || len > lineCap;
      currentLength = lineCap;
      return;
    }
    if (currentLength + len > current.length) {
      if (currentLength + len > 2 * (long) lineCap || current.length >= 2 * (long) lineCap) {
        compact();
      }
      ensureCapacity(currentLength + len);
    }
    System.arraycopy(src, off, current, currentLength, len);
    currentLength += len;
  }

  /** Drops the head of the line being read so at most {@code lineCap} bytes remain. */
  private void compact() {
    if (currentLength > lineCap) {
      int drop = currentLength - lineCap;
      System.arraycopy(current, drop, current, 0, lineCap);
      currentLength = lineCap;
      currentCut = true;
    }
  }

  private void ensureCapacity(int needed) {
    if (current.length >= needed) {
      return;
    }
    long limit = Math.min(2L * lineCap, Integer.MAX_VALUE - 16L);
    int size = (int) Math.min(limit, Math.max(needed, Math.max(256L, 2L * current.length)));
    if (size < needed) {
      compact();
      size = Math.max(size, currentLength);
    }
    byte[] grown = new byte[size];
    System.arraycopy(current, 0, grown, 0, currentLength);
    current = grown;
    track();
  }

  private void endLine() {
    int from = 0;
    int to = currentLength;
    if (currentLength > lineCap) {
      from = currentLength - lineCap;
      currentCut = true;
    }
    if (to > from && current[to - 1] == '\r') {
      to--;
    }
    byte[] content = new byte[to - from];
    System.arraycopy(current, from, content, 0, content.length);
    Line line = new Line(content, currentCut);
    currentLength = 0;
    currentCut = false;
    pending = false;
    if (line.cut) {
      truncated = true;
    }
    lines.addLast(line);
    keptBytes += line.cost();
    while (lines.size() > 1 && (lines.size() > maxLines || keptBytes > maxBytes)) {
      keptBytes -= lines.removeFirst().cost();
      truncated = true;
    }
    track();
  }

  private void track() {
    highWater = Math.max(highWater, keptBytes + current.length);
  }

  /** One kept line's bytes, and whether its head was dropped. */
  private static final class Line {
    final byte[] bytes;
    final boolean cut;

    Line(byte[] bytes, boolean cut) {
      this.bytes = bytes;
      this.cut = cut;
    }

    long cost() {
      return bytes.length + 1L;
    }

    String decode() {
      int start = 0;
      if (cut) {
        // Start at a character boundary: skip UTF-8 continuation bytes (10xxxxxx).
        while (start < bytes.length && (bytes[start] & 0xC0) == 0x80) {
          start++;
        }
      }
      return new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8);
    }
  }
}
