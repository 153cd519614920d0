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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.examples.bench.ScaleBenchmark.Operator;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import io.kubernetes.client.openapi.ApiClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A fake API server and Spark operator with running jobs, in a JVM of its own: {@link
 * ScaleBenchmark}'s retained-heap step reads this cluster, so that the class histogram of the
 * benchmark's JVM holds the clients and nothing of the server.
 *
 * <p>Why: the server in the benchmark's JVM grows with the connections it is asked to serve (Jetty
 * threads, their buffers, a char array per connection sized by the biggest response). A parallel
 * read of 10 namespaces by 10 fresh instances opened about 90 new connections, and the server's
 * growth, 3.6 MB at 10,000 jobs, had been printed as 47 KB per job asked for (the instances' own
 * growth was under 1 KB per job).
 *
 * <p>The child is this class's {@link #main(String[])} on the benchmark's class path. It submits
 * the jobs as the benchmark does, steps them to running, prints one {@code id} line per job and a
 * {@code ready} line with the server's URL, and serves until its standard input closes (so it also
 * ends with the benchmark's JVM).
 */
final class FakeClusterProcess implements AutoCloseable {
  private static final String ID = "id ";
  private static final String READY = "ready ";

  private final Process process;
  private final Path errors;
  private final String url;
  private final List<ExecutionId> ids;

  private FakeClusterProcess(Process process, Path errors, String url, List<ExecutionId> ids) {
    this.process = process;
    this.errors = errors;
    this.url = url;
    this.ids = ids;
  }

  /**
   * Starts a child JVM with {@code size} running jobs of {@code operator} in {@code namespaces}
   * namespaces, and waits until it serves them.
   *
   * @throws IllegalStateException if the child ends before it is ready
   */
  static FakeClusterProcess start(Operator operator, int size, int namespaces) {
    Path errors;
    Process process;
    try {
      errors = Files.createTempFile("kubejobs-fake-cluster-", ".log");
      process =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx4g",
                  "-cp",
                  System.getProperty("java.class.path"),
                  FakeClusterProcess.class.getName(),
                  operator.name(),
                  Integer.toString(size),
                  Integer.toString(namespaces))
              .redirectError(errors.toFile())
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the fake cluster's JVM", e);
    }
    List<ExecutionId> ids = new ArrayList<>(size);
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(ID)) {
          ids.add(ExecutionId.parse(line.substring(ID.length())));
        } else if (line.startsWith(READY)) {
          return new FakeClusterProcess(process, errors, line.substring(READY.length()), ids);
        }
      }
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      throw new IllegalStateException("cannot read the fake cluster's JVM: " + errors(errors), e);
    }
    process.destroyForcibly();
    throw new IllegalStateException(
        "the fake cluster's JVM ended before it was ready: " + errors(errors));
  }

  /** The jobs, in the order submitted. */
  List<ExecutionId> ids() {
    return ids;
  }

  /** A client for the server, as {@link FakeKubernetesApiServer#newClient()} makes one. */
  ApiClient newClient() {
    ApiClient client = new ApiClient();
    client.setBasePath(url);
    client.setReadTimeout(10_000);
    return client;
  }

  /** Closes the child's standard input, so it stops, and waits for it (then stops it forcibly). */
  @Override
  public void close() {
    try {
      process.getOutputStream().close();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      Files.deleteIfExists(errors);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stop the fake cluster's JVM", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private static String errors(Path errors) {
    try {
      String text = Files.readString(errors, StandardCharsets.UTF_8).strip();
      return text.isEmpty() ? "nothing on its error output" : text;
    } catch (IOException e) {
      return "its error output (" + errors + ") cannot be read: " + e;
    }
  }

  /**
   * The child: {@code operator size namespaces}.
   *
   * @param args the operator's name, the number of jobs and of namespaces
   * @throws IOException if its standard input cannot be read
   */
  public static void main(String[] args) throws IOException {
    Operator operator = Operator.valueOf(args[0]);
    int size = Integer.parseInt(args[1]);
    int namespaces = Integer.parseInt(args[2]);
    MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    try (FakeKubernetesApiServer server =
            FakeKubernetesApiServer.builder()
                .clock(clock)
                // a watch holds a server thread: 10 watching instances each follow the jobs'
                // namespaces and as many without jobs
                .threads(2 * ScaleBenchmark.SERVER_THREADS)
                .build();
        FakeSparkOperator fake = FakeSparkOperator.builder(operator.flavor(), server).build();
        KubeJobs<SparkJobSpec> jobs =
            KubeJobs.builder(server.newClient(), operator.kind())
                .cluster("simulated")
                .deployment("scale")
                .clock(clock)
                .build()) {
      for (int i = 0; i < size; i++) {
        out.println(ID + jobs.submitter().submit("scale-" + i, ScaleBenchmark.spec(i, namespaces)));
      }
      for (int i = 0; i < operator.stepsToRunning(); i++) {
        fake.step();
      }
      out.println(READY + server.url());
      out.flush();
      while (System.in.read() >= 0) {
        // serve until the benchmark closes this JVM's standard input
      }
    }
  }
}
