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
import java.util.List;
import org.junit.jupiter.api.Test;

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

  @Test
  void keptLinesAreUnmodifiable() throws IOException {
    List<String> lines = tail("a\n", 1, 10).lines();
    assertThat(lines).isUnmodifiable();
  }
}
