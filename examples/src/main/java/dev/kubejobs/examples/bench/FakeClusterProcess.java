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
import io.kubernetes.client.openapi.ApiClient;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;

/**
 * A fake API server in a JVM of its own, serving copies of the benchmark's applications: {@link
 * ScaleBenchmark}'s retained-heap step reads it, so that the class histogram of the benchmark's JVM
 * holds the clients and nothing of the server.
 *
 * <p>Why: the server in the benchmark's JVM grows with the connections it is asked to serve (Jetty
 * threads, their buffers, a char array per connection sized by the biggest response). A parallel
 * read of 10 namespaces by 10 fresh instances opened about 90 new connections, and the server's
 * growth, 3.6 MB at 10,000 jobs, had been printed as 36 of the 47 KB per job asked for.
 *
 * <p>The child is this class's {@link #main(String[])} on the benchmark's class path. It creates
 * the objects the benchmark wrote to a file (one JSON object per line, as its store held them:
 * status included, same names and namespaces), prints a {@code ready} line with its URL, and serves
 * until its standard input closes (so it also ends with the benchmark's JVM). It runs only while
 * the heap is measured: a JVM busy compiling or collecting next to the CPU measurements would
 * change them.
 */
final class FakeClusterProcess implements AutoCloseable {
  private static final String READY = "ready ";

  private final Process process;
  private final Path objects;
  private final Path errors;
  private final String url;

  private FakeClusterProcess(Process process, Path objects, Path errors, String url) {
    this.process = process;
    this.objects = objects;
    this.errors = errors;
    this.url = url;
  }

  /**
   * Starts a child JVM serving copies of {@code objects} of {@code type}, and waits until it serves
   * them.
   *
   * @throws IllegalStateException if the child ends before it is ready
   */
  static FakeClusterProcess start(ResourceType type, List<JsonObject> objects) {
    Path file;
    Path errors;
    Process process;
    try {
      file = Files.createTempFile("kubejobs-fake-cluster-", ".jsonl");
      try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        for (JsonObject object : objects) {
          out.write(object.toString());
          out.newLine();
        }
      }
      errors = Files.createTempFile("kubejobs-fake-cluster-", ".log");
      process =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx4g",
                  "-cp",
                  System.getProperty("java.class.path"),
                  FakeClusterProcess.class.getName(),
                  type.group(),
                  type.version(),
                  type.plural(),
                  type.kind(),
                  file.toString())
              .redirectError(errors.toFile())
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the fake cluster's JVM", e);
    }
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(READY)) {
          return new FakeClusterProcess(process, file, errors, line.substring(READY.length()));
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

  /**
   * A client for the server, as {@link FakeKubernetesApiServer#newClient()} makes one, whose pool
   * keeps up to {@code connections} idle connections: a parallel read returns all it opened, and
   * none is closed (and freed) or opened between two readings of the heap.
   */
  ApiClient newClient(int connections) {
    ApiClient client = new ApiClient();
    client.setBasePath(url);
    client.setReadTimeout(10_000);
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .connectionPool(new ConnectionPool(connections, 5, TimeUnit.MINUTES))
            .build());
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
      Files.deleteIfExists(objects);
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
   * The child: {@code group version plural kind file}.
   *
   * @param args the resource type's group, version, plural and kind, and the objects' file
   * @throws IOException if the file or its standard input cannot be read
   */
  public static void main(String[] args) throws IOException {
    ResourceType type = new ResourceType(args[0], args[1], args[2], args[3]);
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    try (FakeKubernetesApiServer server =
        FakeKubernetesApiServer.builder()
            // a watch holds a server thread: 10 watching instances each follow the jobs'
            // namespaces and as many without jobs
            .threads(2 * ScaleBenchmark.SERVER_THREADS)
            .build()
            .registerResource(type)) {
      try (BufferedReader in = Files.newBufferedReader(Path.of(args[4]), StandardCharsets.UTF_8)) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          JsonObject object = JsonParser.parseString(line).getAsJsonObject();
          String namespace =
              object.getAsJsonObject("metadata").getAsJsonPrimitive("namespace").getAsString();
          server.store().create(type, namespace, object);
        }
      }
      out.println(READY + server.url());
      out.flush();
      while (System.in.read() >= 0) {
        // serve until the benchmark closes this JVM's standard input
      }
    }
  }
}
