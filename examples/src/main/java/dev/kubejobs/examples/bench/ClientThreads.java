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

import dev.kubejobs.examples.bench.ScaleBenchmark.Cost;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time and allocation of the client's threads: every live thread but the fake server's HTTP
 * workers (Jetty's {@code qtp} threads) and the JVM's service threads.
 */
final class ClientThreads {
  private static final com.sun.management.ThreadMXBean MX =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final List<String> NOT_CLIENT =
      List.of(
          "qtp",
          "Reference Handler",
          "Finalizer",
          "Signal Dispatcher",
          "Common-Cleaner",
          "Notification Thread",
          "Attach Listener",
          "process reaper");

  static Cost measure(Runnable section) {
    Map<Long, long[]> before = sample();
    long t0 = System.nanoTime();
    section.run();
    long wall = System.nanoTime() - t0;
    Map<Long, long[]> after = sample();
    long cpu = 0;
    long bytes = 0;
    for (Map.Entry<Long, long[]> e : after.entrySet()) {
      long[] b = before.getOrDefault(e.getKey(), new long[2]);
      cpu += Math.max(0, e.getValue()[0] - b[0]);
      bytes += Math.max(0, e.getValue()[1] - b[1]);
    }
    return new Cost(cpu, bytes, wall);
  }

  private static Map<Long, long[]> sample() {
    long[] ids = MX.getAllThreadIds();
    ThreadInfo[] infos = MX.getThreadInfo(ids);
    long[] cpu = MX.getThreadCpuTime(ids);
    long[] bytes = MX.getThreadAllocatedBytes(ids);
    Map<Long, long[]> out = new LinkedHashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (infos[i] == null || isServiceOrServer(infos[i].getThreadName())) {
        continue;
      }
      out.put(ids[i], new long[] {Math.max(0, cpu[i]), Math.max(0, bytes[i])});
    }
    return out;
  }

  private static boolean isServiceOrServer(String name) {
    for (String prefix : NOT_CLIENT) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
