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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class LogTailTest {

  private static LogTail.Result tail(String log, int maxLines, int maxBytes) throws IOException {
    return new LogTail(maxLines, maxBytes)
        .read(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void keepsTheLastLinesWithinTheLineCap() throws IOException {
    LogTail.Result r = tail("a\nb\nc\nd\n", 2, 1000);

    assertThat(r.lines()).containsExactly("c", "d");
    assertThat(r.truncated()).isTrue();
  }

  @Test
  void keepsWholeLinesWithinTheByteCapCountingLineEnds() throws IOException {
    // "ccc\n" + "dd\n" = 7 bytes; "bbbb\n" more would make 12
    LogTail.Result r = tail("aaaaa\nbbbb\nccc\ndd\n", 10, 11);

    assertThat(r.lines()).containsExactly("ccc", "dd");
    assertThat(r.truncated()).isTrue();
  }

  @Test
  void readsAFinalLineWithoutLineEndAndDropsCarriageReturns() throws IOException {
    LogTail.Result r = tail("one\r\ntwo\r\n\nthree", 10, 1000);

    assertThat(r.lines()).containsExactly("one", "two", "", "three");
    assertThat(r.truncated()).isFalse();
  }

  @Test
  void emptyLogHasNoLines() throws IOException {
    assertThat(tail("", 10, 1000).lines()).isEmpty();
  }

  @Test
  void neverSplitsAMultiByteCharacter() throws IOException {
    // each "é" is 2 bytes, each "𝄞" 4; the byte cap falls inside the long last line
    String last = "é".repeat(10) + "𝄞".repeat(10);
    LogTail.Result r = tail("first\n" + last + "\n", 10, 12);

    assertThat(r.lines()).hasSize(1);
    String kept = r.lines().get(0);
    assertThat(kept).doesNotContain("\uFFFD");
    assertThat(last).endsWith(kept);
    assertThat(kept.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(11);
    assertThat(kept).isEqualTo("𝄞𝄞");
    assertThat(r.truncated()).isTrue();
  }

  @Test
  void lastLineLongerThanTheByteCapKeepsItsTailEnd() throws IOException {
    LogTail.Result r = tail("x\n" + "0123456789".repeat(100), 5, 11);

    assertThat(r.lines()).containsExactly("0123456789");
    assertThat(r.truncated()).isTrue();
  }

  @Test
  void multiMegabyteLogIsReadWithBoundedMemory() throws IOException {
    // 50 MB of numbered lines, generated on the fly so the test itself holds none of it
    long lines = 5_000_000;
    LogTail.Result r = new LogTail(100, 4096).read(new NumberedLines(lines));

    assertThat(r.lines()).hasSize(100);
    assertThat(r.lines().get(99)).isEqualTo(NumberedLines.line(lines - 1));
    assertThat(r.lines().get(0)).isEqualTo(NumberedLines.line(lines - 100));
    assertThat(r.highWaterBytes()).isLessThanOrEqualTo(3 * 4096);
  }

  @Test
  void multiMegabyteSingleLineIsReadWithBoundedMemory() throws IOException {
    InputStream oneLine = new RepeatedByte((byte) 'z', 8L * 1024 * 1024);
    LogTail.Result r = new LogTail(10, 1000).read(oneLine);

    assertThat(r.lines()).containsExactly("z".repeat(999));
    assertThat(r.highWaterBytes()).isLessThanOrEqualTo(3 * 1000);
  }

  /** A stream of {@code line-<n>} lines, built as they are read. */
  private static final class NumberedLines extends InputStream {
    private final long count;
    private long next;
    private byte[] current = new byte[0];
    private int pos;

    NumberedLines(long count) {
      this.count = count;
    }

    static String line(long n) {
      return "line-" + n + " some driver output";
    }

    @Override
    public int read() {
      if (pos == current.length) {
        if (next == count) {
          return -1;
        }
        current = (line(next++) + "\n").getBytes(StandardCharsets.UTF_8);
        pos = 0;
      }
      return current[pos++];
    }

    @Override
    public int read(byte[] b, int off, int len) {
      int n = 0;
      while (n < len) {
        int c = read();
        if (c < 0) {
          return n == 0 ? -1 : n;
        }
        b[off + n++] = (byte) c;
      }
      return n;
    }
  }

  /** A stream of one byte repeated, with no line end. */
  private static final class RepeatedByte extends InputStream {
    private final byte value;
    private long left;

    RepeatedByte(byte value, long length) {
      this.value = value;
      this.left = length;
    }

    @Override
    public int read() {
      if (left == 0) {
        return -1;
      }
      left--;
      return value;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left == 0) {
        return -1;
      }
      int n = (int) Math.min(len, left);
      java.util.Arrays.fill(b, off, off + n, value);
      left -= n;
      return n;
    }
  }

  /**
   * However a stream arrives in pieces, the tail keeps what one look at the whole stream would:
   * 2,000 seeded streams (short and long lines, multi-byte characters, {@code \r\n}, a last line
   * with or without its end) read in pieces of random sizes under random caps, against {@link
   * #expected}; the most bytes held stays under three times the byte cap and is at least what was
   * kept.
   */
  @Test
  void keepsWhatTheWholeStreamWouldKeepHoweverItArrivesInPieces() throws IOException {
    for (long seed = 1; seed <= 2000; seed++) {
      Random random = new Random(seed);
      int maxLines = 1 + random.nextInt(12);
      int maxBytes = 1 + random.nextInt(random.nextBoolean() ? 24 : 400);
      byte[] log = randomLog(random, maxBytes);
      // Pieces up to a few caps long, or past the tail's own 8 KiB read buffer.
      int largestPiece = 1 + random.nextInt(random.nextBoolean() ? 3 * maxBytes + 16 : 20_000);

      LogTail.Result r =
          new LogTail(maxLines, maxBytes).read(new InPieces(log, random, largestPiece));
      Expected want = expected(log, maxLines, maxBytes);

      String seen = "seed " + seed + ": " + maxLines + " lines, " + maxBytes + " bytes";
      assertThat(r.lines()).as(seen).isEqualTo(want.lines());
      assertThat(r.truncated()).as(seen).isEqualTo(want.truncated());
      assertThat(r.highWaterBytes())
          .as(seen)
          .isLessThan(3L * maxBytes)
          .isGreaterThanOrEqualTo(want.keptBytes());
    }
  }

  /** What the tail keeps of a whole stream, by the rules of {@link LogTail}'s class Javadoc. */
  private record Expected(List<String> lines, boolean truncated, long keptBytes) {}

  private static Expected expected(byte[] log, int maxLines, int maxBytes) {
    int lineCap = maxBytes - 1;
    List<byte[]> all = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < log.length; i++) {
      if (log[i] == '\n') {
        all.add(Arrays.copyOfRange(log, start, i));
        start = i + 1;
      }
    }
    if (start < log.length) {
      all.add(Arrays.copyOfRange(log, start, log.length));
    }
    Deque<byte[]> kept = new ArrayDeque<>();
    Deque<Boolean> cut = new ArrayDeque<>();
    long keptBytes = 0;
    boolean truncated = false;
    for (byte[] line : all) {
      boolean isCut = line.length > lineCap;
      byte[] content = isCut ? Arrays.copyOfRange(line, line.length - lineCap, line.length) : line;
      if (content.length > 0 && content[content.length - 1] == '\r') {
        content = Arrays.copyOf(content, content.length - 1);
      }
      truncated |= isCut;
      kept.addLast(content);
      cut.addLast(isCut);
      keptBytes += content.length + 1L;
      while (kept.size() > 1 && (kept.size() > maxLines || keptBytes > maxBytes)) {
        keptBytes -= kept.removeFirst().length + 1L;
        cut.removeFirst();
        truncated = true;
      }
    }
    List<String> lines = new ArrayList<>();
    Iterator<Boolean> cuts = cut.iterator();
    for (byte[] content : kept) {
      int from = 0;
      if (cuts.next()) {
        while (from < content.length && (content[from] & 0xC0) == 0x80) {
          from++;
        }
      }
      lines.add(new String(content, from, content.length - from, StandardCharsets.UTF_8));
    }
    return new Expected(lines, truncated, keptBytes);
  }

  /** Lines of random length, some far longer than the byte cap, of ASCII and multi-byte text. */
  private static byte[] randomLog(Random random, int maxBytes) {
    String[] pieces = {"a", "b", "é", "€", "𝄞", "\r", " "};
    StringBuilder log = new StringBuilder();
    int lines = random.nextInt(30);
    for (int i = 0; i < lines; i++) {
      int length = random.nextInt(4) == 0 ? random.nextInt(5 * maxBytes + 2) : random.nextInt(8);
      for (int j = 0; j < length; j++) {
        log.append(pieces[random.nextInt(pieces.length)]);
      }
      if (random.nextInt(5) == 0) {
        log.append('\r');
      }
      if (i < lines - 1 || random.nextBoolean()) {
        log.append('\n');
      }
    }
    return log.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A stream that hands out its bytes in pieces of random sizes. */
  private static final class InPieces extends InputStream {
    private final byte[] bytes;
    private final Random random;
    private final int largest;
    private int pos;

    InPieces(byte[] bytes, Random random, int largest) {
      this.bytes = bytes;
      this.random = random;
      this.largest = largest;
    }

    @Override
    public int read() {
      return pos < bytes.length ? bytes[pos++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos == bytes.length) {
        return -1;
      }
      int n = Math.min(Math.min(len, bytes.length - pos), 1 + random.nextInt(largest));
      System.arraycopy(bytes, pos, b, off, n);
      pos += n;
      return n;
    }
  }

  @Test
  void keptLinesAreUnmodifiable() throws IOException {
    List<String> lines = tail("a\n", 1, 10).lines();
    assertThat(lines).isUnmodifiable();
  }
}
