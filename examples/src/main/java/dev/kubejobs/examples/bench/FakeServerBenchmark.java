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

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The fake API server alone, with no kubejobs client: the heap it keeps per object, the time to
 * load it, the time and bytes of each LIST page (limit 500, continue tokens, every namespace) and
 * the time a watch from a resourceVersion takes to deliver the changes since. The objects are the
 * running Apache SparkApplications PullBenchmark creates. On a machine shared with other work the
 * wall-clock times vary; the CPU figures (the process's CPU time: the server's threads, the
 * client's reading of the page and the collector's, not the benchmark's parsing of the page) vary
 * less.
 *
 * <p>{@code java -Xmx10g -cp examples/target/kubejobs-examples.jar
 * dev.kubejobs.examples.bench.FakeServerBenchmark 10000,100000 100}
 */
public final class FakeServerBenchmark {
  private static final int LIMIT = 500;
  private static final int CHANGES = 1_000;
  private static final ResourceType TYPE = ResourceType.APACHE_SPARK_APPLICATION;
  private static final com.sun.management.OperatingSystemMXBean CPU =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private FakeServerBenchmark() {}

  public static void main(String[] args) throws Exception {
    int[] sizes =
        Arrays.stream((args.length > 0 ? args[0] : "10000,100000").split(","))
            .mapToInt(Integer::parseInt)
            .toArray();
    int namespaces = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    for (int size : sizes) {
      run(size, namespaces);
    }
  }

  private static void run(int size, int namespaces) throws Exception {
    long before = Heap.settledUsed();
    try (FakeKubernetesApiServer server =
        FakeKubernetesApiServer.builder().threads(ScaleBenchmark.SERVER_THREADS).build()) {
      server.registerResource(TYPE);
      long t0 = System.nanoTime();
      long cpu0 = CPU.getProcessCpuTime();
      for (int i = 0; i < size; i++) {
        String ns = "team-" + (i % namespaces);
        String name = "kj-pull-" + i;
        server
            .store()
            .create(
                TYPE,
                ns,
                ApacheFixtures.inState("RunningHealthy")
                    .name(name)
                    .namespace(ns)
                    .kubejobs("pull-" + i, "pull")
                    .build());
      }
      double loadSeconds = (System.nanoTime() - t0) / 1e9;
      double loadCpuSeconds = (CPU.getProcessCpuTime() - cpu0) / 1e9;
      long retained = Heap.settledUsed() - before;
      // OkHttp, the HTTP client of client-java and fabric8.
      OkHttpClient http = new OkHttpClient.Builder().readTimeout(0, TimeUnit.SECONDS).build();
      // The first round warms the server's code up; the second is measured.
      Pages warm = listAll(http, server.url(), namespaces);
      Pages pages = listAll(http, server.url(), namespaces);
      double watchSeconds = watch(http, server, namespaces, warm.resourceVersion);
      System.out.printf(
          Locale.ROOT,
          "%,d objects in %d namespaces: retained %,d B/object (%,d MB), load %.2f s, CPU %.1f µs/object;"
              + " LIST: %d pages of %d, %.2f ms/page (median %.2f, max %.2f), CPU %.2f ms/page,"
              + " %,d B/page, %,d B/item"
              + " (first round %.2f ms/page); watch of %,d changes from a resourceVersion: %.3f s%n",
          size,
          namespaces,
          retained / size,
          retained >> 20,
          loadSeconds,
          loadCpuSeconds * 1e6 / size,
          pages.count(),
          LIMIT,
          pages.millis() / pages.count(),
          pages.median(),
          pages.max(),
          pages.cpuNanos / 1e6 / pages.count(),
          pages.bytes / pages.count(),
          pages.bytes / Math.max(1, pages.items),
          warm.millis() / warm.count(),
          CHANGES,
          watchSeconds);
    }
  }

  /** The pages of one round of LISTs. */
  private static final class Pages {
    final List<Double> millis = new ArrayList<>();
    long bytes;
    long items;
    long cpuNanos;
    String resourceVersion;

    int count() {
      return millis.size();
    }

    double millis() {
      return millis.stream().mapToDouble(Double::doubleValue).sum();
    }

    double median() {
      return millis.stream().sorted().toList().get(millis.size() / 2);
    }

    double max() {
      return millis.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
  }

  private static Pages listAll(OkHttpClient http, String url, int namespaces) throws Exception {
    Pages pages = new Pages();
    for (int n = 0; n < namespaces; n++) {
      String cont = null;
      do {
        String uri =
            url
                + "/apis/"
                + TYPE.apiVersion()
                + "/namespaces/team-"
                + n
                + "/"
                + TYPE.plural()
                + "?limit="
                + LIMIT
                + (cont == null
                    ? ""
                    : "&continue=" + URLEncoder.encode(cont, StandardCharsets.UTF_8));
        long t0 = System.nanoTime();
        long cpu0 = CPU.getProcessCpuTime();
        byte[] body;
        try (Response r = http.newCall(new Request.Builder().url(uri).build()).execute()) {
          if (r.code() != 200) {
            throw new IllegalStateException(uri + " answered " + r.code());
          }
          body = r.body().bytes();
        }
        pages.millis.add((System.nanoTime() - t0) / 1e6);
        pages.cpuNanos += CPU.getProcessCpuTime() - cpu0;
        pages.bytes += body.length;
        JsonObject list =
            JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject();
        pages.items += list.getAsJsonArray("items").size();
        JsonObject meta = list.getAsJsonObject("metadata");
        pages.resourceVersion = meta.get("resourceVersion").getAsString();
        cont = meta.has("continue") ? meta.get("continue").getAsString() : null;
      } while (cont != null);
    }
    return pages;
  }

  /**
   * Changes {@value #CHANGES} objects, then watches every namespace from the resourceVersion before
   * the changes: the seconds until all of them arrived.
   */
  private static double watch(
      OkHttpClient http, FakeKubernetesApiServer server, int namespaces, String from)
      throws Exception {
    for (int i = 0; i < CHANGES; i++) {
      String value = Integer.toString(i);
      server
          .store()
          .update(
              TYPE,
              "team-" + (i % namespaces),
              "kj-pull-" + i,
              o -> {
                o.getAsJsonObject("metadata")
                    .getAsJsonObject("labels")
                    .addProperty("bench/touched", value);
                return o;
              });
    }
    String uri =
        server.url()
            + "/apis/"
            + TYPE.apiVersion()
            + "/"
            + TYPE.plural()
            + "?watch=true&allowWatchBookmarks=true&resourceVersion="
            + from;
    long t0 = System.nanoTime();
    int seen = 0;
    try (Response r = http.newCall(new Request.Builder().url(uri).build()).execute();
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(r.body().byteStream(), StandardCharsets.UTF_8))) {
      String line;
      while (seen < CHANGES && (line = in.readLine()) != null) {
        if (line.startsWith("{\"type\":\"MODIFIED\"")) {
          seen++;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (seen < CHANGES) {
      throw new IllegalStateException("the watch ended after " + seen + " of " + CHANGES);
    }
    return (System.nanoTime() - t0) / 1e9;
  }
}
