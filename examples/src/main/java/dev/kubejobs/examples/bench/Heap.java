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
package dev.kubejobs.examples.bench;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The bytes of all live objects, from the JVM's class histogram ({@code GC.class_histogram}, as
 * {@code jmap -histo:live} prints it, taken after a full collection): exact, where the heap's used
 * size moves by whole regions.
 */
final class Heap {
  static long settledUsed() {
    try {
      String histogram =
          (String)
              ManagementFactory.getPlatformMBeanServer()
                  .invoke(
                      new ObjectName("com.sun.management:type=DiagnosticCommand"),
                      "gcClassHistogram",
                      new Object[] {new String[0]},
                      new String[] {String[].class.getName()});
      String[] lines = histogram.strip().split("\\R");
      String[] total = lines[lines.length - 1].trim().split("\\s+");
      if (!total[0].equals("Total")) {
        throw new IllegalStateException("no total in the class histogram: " + total[0]);
      }
      long segments = 0;
      for (String line : lines) {
        String[] columns = line.trim().split("\\s+");
        if (columns.length >= 4 && columns[3].equals("okio.Segment")) {
          segments = Long.parseLong(columns[1]);
        }
      }
      // Okio's segments, nearly all in its JVM-wide pool (up to 64 KB per bucket of threads,
      // shared by every OkHttp client), fill and drain with whichever threads read last: not
      // any instance's. Each holds a byte[8192] (Segment.SIZE; 16 bytes of array header).
      return Long.parseLong(total[2]) - segments * (8192 + 16L);
    } catch (JMException e) {
      throw new IllegalStateException("cannot take the class histogram", e);
    }
  }
}
