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
package dev.kubejobs.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Captures what slf4j-simple writes to {@code System.err} (it looks the stream up on each write)
 * while a test runs. Tests in one JVM run one at a time here.
 */
public final class LogCapture implements AutoCloseable {
  private final PrintStream original;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

  private LogCapture() {
    original = System.err;
    System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
  }

  /** Starts capturing. */
  public static LogCapture start() {
    return new LogCapture();
  }

  /** Returns every captured line. */
  public List<String> lines() {
    return Arrays.asList(buffer.toString(StandardCharsets.UTF_8).split("\\R"));
  }

  /** Returns the captured WARN lines. */
  public List<String> warnings() {
    return lines().stream().filter(l -> l.contains("WARN")).toList();
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
