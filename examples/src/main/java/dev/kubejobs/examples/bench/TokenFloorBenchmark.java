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

import static dev.kubejobs.examples.bench.Measurement.ratio;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonToken;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.examples.bench.ScaleBenchmark.Operator;
import dev.kubejobs.testkit.fixtures.ApacheFixtures;
import dev.kubejobs.testkit.fixtures.KubeflowFixtures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What any reader built on jackson-core pays for a list page at least, against the floor's parse of
 * it: jackson-core's byte parser reading every token of a page and building nothing ({@code
 * skipChildren}, a name table per page as kubejobs makes one), and Gson's whole tree of the same
 * bytes read through a UTF-8 reader, as {@link Floor} parses a page. A poll in which no job changed
 * must still read every byte of every listed copy to find where the next one starts, so the first
 * figure is the least such a poll costs in parsing; {@link PullBenchmark} measures the whole pull.
 *
 * <p>The page holds {@code items} running SparkApplications of each operator as the testkit's
 * fixtures build them, serialized as the fake API server sends them. Each side reads it {@code
 * rounds} times; the figure is the fastest round's CPU time and its allocation, per item, in one
 * thread with nothing else running in this JVM (no HTTP: bytes in memory).
 *
 * <p>Run it after {@code ./mvnw -B -ntp -DskipTests -pl examples -am package}: {@code java -cp
 * examples/target/kubejobs-examples.jar dev.kubejobs.examples.bench.TokenFloorBenchmark [items]
 * [rounds] [operators]} (defaults {@code 100 2000 APACHE,KUBEFLOW}). {@code
 * TokenFloorBenchmarkTest} runs it briefly and checks both sides read every item.
 */
public final class TokenFloorBenchmark {
  /**
   * The figures of one operator's page.
   *
   * @param operator the operator
   * @param items the items on the page
   * @param bytesPerItem the page's JSON size per item
   * @param jacksonNanos jackson-core's CPU time per item, every token read, nothing built
   * @param gsonNanos Gson's CPU time per item, the whole tree built
   * @param jacksonAllocated bytes jackson-core allocated per item
   * @param gsonAllocated bytes Gson allocated per item
   * @param itemsSeen items each side counted on one read (both must be {@code items})
   */
  public record Result(
      Operator operator,
      int items,
      long bytesPerItem,
      double jacksonNanos,
      double gsonNanos,
      double jacksonAllocated,
      double gsonAllocated,
      List<Integer> itemsSeen) {
    /**
     * Returns jackson-core's CPU time over Gson's.
     *
     * @return the ratio
     */
    public double cpuRatio() {
      return ratio(jacksonNanos, gsonNanos);
    }
  }

  /** The parser settings kubejobs reads bodies with, field names canonicalized, not interned. */
  private static final JsonFactory SETTINGS =
      JsonFactory.builder().disable(JsonFactory.Feature.INTERN_FIELD_NAMES).build();

  private TokenFloorBenchmark() {}

  /**
   * Runs the benchmark from the command line.
   *
   * @param args optional: items per page, rounds, operators separated by commas
   */
  public static void main(String[] args) {
    int items = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    Set<Operator> operators = EnumSet.noneOf(Operator.class);
    for (String name : (args.length > 2 ? args[2] : "APACHE,KUBEFLOW").split(",")) {
      operators.add(Operator.valueOf(name.trim().toUpperCase(Locale.ROOT)));
    }
    run(items, rounds, operators, System.out);
  }

  /**
   * Measures each operator's page and prints a line per operator.
   *
   * @return the results
   */
  static List<Result> run(int items, int rounds, Set<Operator> operators, PrintStream out) {
    List<Result> results = new ArrayList<>();
    for (Operator operator : operators) {
      Result r = measure(operator, items, rounds);
      out.printf(
          Locale.ROOT,
          "%s page of %d running applications (%,d B each): jackson-core, every token and nothing"
              + " built: %.0f ns and %.0f B per item; Gson's whole tree: %.0f ns and %.0f B per"
              + " item; jackson over Gson: CPU %.2fx, alloc %.2fx%n",
          operator,
          r.items(),
          r.bytesPerItem(),
          r.jacksonNanos(),
          r.jacksonAllocated(),
          r.gsonNanos(),
          r.gsonAllocated(),
          r.cpuRatio(),
          ratio(r.jacksonAllocated(), r.gsonAllocated()));
      results.add(r);
    }
    return results;
  }

  private static Result measure(Operator operator, int items, int rounds) {
    byte[] page = page(operator, items);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    long[] best = {Long.MAX_VALUE, Long.MAX_VALUE};
    long[] allocated = {Long.MAX_VALUE, Long.MAX_VALUE};
    List<Integer> seen = List.of(tokens(page), tree(page));
    for (int round = 0; round < rounds; round++) {
      for (int side = 0; side < 2; side++) {
        // each side goes first in every other round
        int which = (round + side) % 2;
        long a0 = threads.getThreadAllocatedBytes(thread);
        long t0 = threads.getCurrentThreadCpuTime();
        int read = which == 0 ? tokens(page) : tree(page);
        long t1 = threads.getCurrentThreadCpuTime();
        long a1 = threads.getThreadAllocatedBytes(thread);
        if (read != items) {
          throw new IllegalStateException("read " + read + " items, not " + items);
        }
        best[which] = Math.min(best[which], t1 - t0);
        allocated[which] = Math.min(allocated[which], a1 - a0);
      }
    }
    return new Result(
        operator,
        items,
        page.length / items,
        (double) best[0] / items,
        (double) best[1] / items,
        (double) allocated[0] / items,
        (double) allocated[1] / items,
        seen);
  }

  /** Every token of the page, nothing built; returns the items counted. */
  private static int tokens(byte[] page) {
    try (com.fasterxml.jackson.core.JsonParser in =
        SETTINGS.copy().createParser(new ByteArrayInputStream(page))) {
      int items = 0;
      in.nextToken();
      for (String field = in.nextFieldName(); field != null; field = in.nextFieldName()) {
        JsonToken token = in.nextToken();
        if (field.equals("items") && token == JsonToken.START_ARRAY) {
          while (in.nextToken() == JsonToken.START_OBJECT) {
            in.skipChildren();
            items++;
          }
        } else {
          in.skipChildren();
        }
      }
      return items;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Gson's whole tree of the page, read through a UTF-8 reader; returns its items. */
  private static int tree(byte[] page) {
    JsonObject list =
        JsonParser.parseReader(
                new InputStreamReader(new ByteArrayInputStream(page), StandardCharsets.UTF_8))
            .getAsJsonObject();
    return list.getAsJsonArray("items").size();
  }

  private static byte[] page(Operator operator, int items) {
    JsonArray all = new JsonArray();
    for (int i = 0; i < items; i++) {
      String name = "kj-pull-" + i;
      all.add(
          operator == Operator.APACHE
              ? ApacheFixtures.inState("RunningHealthy")
                  .name(name)
                  .namespace("team-0")
                  .kubejobs("pull-" + i, "pull")
                  .build()
              : KubeflowFixtures.inState("RUNNING")
                  .name(name)
                  .namespace("team-0")
                  .kubejobs("pull-" + i, "pull")
                  .build());
    }
    JsonObject list = new JsonObject();
    list.addProperty("apiVersion", operator.kind().resourceKind().apiVersion());
    list.addProperty("kind", "SparkApplicationList");
    JsonObject meta = new JsonObject();
    meta.addProperty("resourceVersion", "1000");
    list.add("metadata", meta);
    list.add("items", all);
    return list.toString().getBytes(StandardCharsets.UTF_8);
  }
}
