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
package dev.kubejobs.realop;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The real Apache Spark Kubernetes Operator 1.0.0 as a child JVM: its five jars from {@code
 * ../shared/real-operators/apache-spark-kubernetes-operator-1.0.0/jars}, the rest of its class path
 * copied by the {@code real-operator-runtime} module, a Java 21 or newer found on this machine, and
 * a kubeconfig pointing at the fake API server. {@link #missing()} says what this machine lacks.
 */
final class RealOperator implements AutoCloseable {
  /** The operator's main class (its Helm chart's entry point). */
  static final String MAIN_CLASS = "org.apache.spark.k8s.operator.SparkOperator";

  /** The operator's own namespace. */
  static final String OPERATOR_NAMESPACE = "spark-operator";

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RealOperator.class);
  private static final java.util.concurrent.atomic.AtomicBoolean SKIP_LOGGED =
      new java.util.concurrent.atomic.AtomicBoolean();

  private static final Pattern JAVA_VERSION =
      Pattern.compile("^JAVA_VERSION=\"?(\\d+)", Pattern.MULTILINE);

  private final Path javaHome;
  private final Path kubeconfig;
  private final String watchedNamespaces;
  private final Path workDir;
  private final Map<String, String> extraProperties;
  private Process process;
  private int starts;

  private RealOperator(
      Path javaHome,
      Path kubeconfig,
      String watchedNamespaces,
      Path workDir,
      Map<String, String> extraProperties) {
    this.javaHome = javaHome;
    this.kubeconfig = kubeconfig;
    this.watchedNamespaces = watchedNamespaces;
    this.workDir = workDir;
    this.extraProperties = extraProperties;
  }

  /** Where the operator's jars are: {@code ../shared/real-operators/...}, set by the pom. */
  static Path operatorHome() {
    return Path.of(
        System.getProperty(
            "realop.operatorHome",
            "../../shared/real-operators/apache-spark-kubernetes-operator-1.0.0"));
  }

  /** The Maven Central part of the operator's class path, copied by real-operator-runtime. */
  static Path operatorLib() {
    return Path.of(
        System.getProperty("realop.operatorLib", "../real-operator-runtime/target/operator-lib"));
  }

  /** The CRDs of the operator's Helm chart. */
  static Path crdDir() {
    return operatorHome().resolve("crds");
  }

  /**
   * Returns what this machine lacks to run the operator, in one line, or empty when it has it all.
   *
   * @return the reason to skip, if any
   */
  static Optional<String> missing() {
    Path jars = operatorHome().resolve("jars");
    if (!Files.isRegularFile(jars.resolve("spark-operator-1.0.0.jar"))) {
      return Optional.of(
          "the real Apache Spark operator is absent (no "
              + jars.toAbsolutePath().normalize()
              + "/spark-operator-1.0.0.jar): the real-operator suite is skipped");
    }
    if (!Files.isDirectory(operatorLib())) {
      return Optional.of(
          "the operator's class path was not copied ("
              + operatorLib().toAbsolutePath().normalize()
              + " missing; build with -am): the real-operator suite is skipped");
    }
    if (findJava21().isEmpty()) {
      return Optional.of(
          "no Java 21 or newer found (JAVA_HOME, JAVA*_HOME, /usr/lib/jvm, /opt/java,"
              + " /Library/Java/JavaVirtualMachines, ~/.sdkman, ~/.jdks): the real-operator suite"
              + " is skipped");
    }
    return Optional.empty();
  }

  /**
   * Finds the newest Java home of version 21 or newer: this JVM's own, {@code JAVA_HOME} and every
   * {@code JAVA*_HOME} variable (as CI images set them), then the usual install directories.
   */
  static Optional<Path> findJava21() {
    List<Path> candidates = new ArrayList<>();
    candidates.add(Path.of(System.getProperty("java.home")));
    System.getenv().entrySet().stream()
        .filter(e -> e.getKey().startsWith("JAVA") && e.getKey().endsWith("_HOME"))
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> candidates.add(Path.of(e.getValue())));
    String home = System.getProperty("user.home");
    for (String dir :
        List.of(
            "/usr/lib/jvm",
            "/usr/java",
            "/opt/java",
            "/opt/jdk",
            "/Library/Java/JavaVirtualMachines",
            home + "/.sdkman/candidates/java",
            home + "/.jdks")) {
      candidates.addAll(children(Path.of(dir)));
    }
    return candidates.stream()
        .flatMap(p -> Stream.of(p, p.resolve("Contents/Home")))
        .filter(p -> Files.isExecutable(p.resolve("bin/java")))
        .filter(p -> javaVersion(p) >= 21)
        .max(Comparator.comparingInt(RealOperator::javaVersion));
  }

  private static List<Path> children(Path dir) {
    List<Path> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      s.forEach(out::add);
    } catch (IOException e) {
      // an unreadable directory holds no Java we can use
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** The feature version in the Java home's {@code release} file, or 0. */
  static int javaVersion(Path javaHome) {
    try {
      Matcher m =
          JAVA_VERSION.matcher(
              Files.readString(javaHome.resolve("release"), StandardCharsets.UTF_8));
      if (m.find()) {
        int v = Integer.parseInt(m.group(1));
        return v == 1 ? 8 : v;
      }
    } catch (IOException | NumberFormatException e) {
      // no release file: not a JDK we can vouch for
    }
    return 0;
  }

  /**
   * Skips the calling test class, through a JUnit assumption, when {@link #missing()} names
   * something; the reason is logged once per run, as one line.
   */
  static void assumePresent() {
    Optional<String> missing = missing();
    if (missing.isPresent() && SKIP_LOGGED.compareAndSet(false, true)) {
      LOG.warn(missing.get());
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(missing.isEmpty(), missing.orElse(""));
  }

  /**
   * Prepares an operator; {@link #start()} starts it.
   *
   * @param kubeconfig the kubeconfig of the fake API server
   * @param watchedNamespaces the jobs' namespaces, comma separated
   * @param workDir where its log and property files go
   * @param extraProperties more {@code -D} properties (the reconcile interval, ...)
   */
  static RealOperator prepare(
      Path kubeconfig,
      String watchedNamespaces,
      Path workDir,
      Map<String, String> extraProperties) {
    Path java =
        findJava21().orElseThrow(() -> new IllegalStateException(missing().orElse("no Java 21")));
    return new RealOperator(java, kubeconfig, watchedNamespaces, workDir, extraProperties);
  }

  /** The operator's log file (all its starts, one after the other). */
  Path log() {
    return workDir.resolve("operator.log");
  }

  /** The Java home the operator runs on. */
  Path javaHome() {
    return javaHome;
  }

  /**
   * Starts the operator's JVM and waits until its readiness probe answers 200, at most {@code
   * timeout}.
   *
   * @param timeout how long to wait for readiness
   */
  synchronized void start(Duration timeout) {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("already running");
    }
    try {
      Files.createDirectories(workDir);
      Path log4j = workDir.resolve("log4j2-operator.properties");
      try (InputStream in =
          RealOperator.class.getResourceAsStream("/log4j2-real-operator.properties")) {
        Files.copy(in, log4j, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      int probePort = freePort();
      int metricsPort = freePort();
      String classPath =
          operatorHome().resolve("jars").toAbsolutePath()
              + "/*"
              + java.io.File.pathSeparator
              + operatorLib().toAbsolutePath()
              + "/*";
      List<String> command = new ArrayList<>();
      command.add(javaHome.resolve("bin/java").toString());
      command.add("-Xmx512m");
      command.add("-XX:+UseSerialGC");
      command.add("-XX:TieredStopAtLevel=1");
      command.add("-cp");
      command.add(classPath);
      Properties props = new Properties();
      props.put("kubeconfig", kubeconfig.toAbsolutePath().toString());
      props.put("log4j2.configurationFile", log4j.toAbsolutePath().toString());
      props.put("realop.operatorLog", log().toAbsolutePath().toString());
      props.put("spark.kubernetes.operator.namespace", OPERATOR_NAMESPACE);
      props.put("spark.kubernetes.operator.watchedNamespaces", watchedNamespaces);
      props.put("spark.kubernetes.operator.health.probePort", Integer.toString(probePort));
      props.put("spark.kubernetes.operator.metrics.port", Integer.toString(metricsPort));
      props.put(
          "spark.kubernetes.operator.basePropertyFileName",
          workDir.resolve("absent-base.properties").toString());
      props.put(
          "spark.kubernetes.operator.metrics.propertyFileName",
          workDir.resolve("absent-metrics.properties").toString());
      props.putAll(extraProperties);
      props.stringPropertyNames().stream()
          .sorted()
          .forEach(k -> command.add("-D" + k + "=" + props.getProperty(k)));
      command.add(MAIN_CLASS);
      starts++;
      Files.writeString(
          log(),
          "---- start " + starts + " at " + Instant.now() + ": " + command + "\n",
          StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.CREATE,
          starts == 1
              ? java.nio.file.StandardOpenOption.TRUNCATE_EXISTING
              : java.nio.file.StandardOpenOption.APPEND);
      ProcessBuilder pb =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(
                  ProcessBuilder.Redirect.appendTo(
                      workDir.resolve("operator-stdout.log").toFile()));
      process = pb.start();
      awaitReady(probePort, timeout);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void awaitReady(int probePort, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    URI readyz = URI.create("http://127.0.0.1:" + probePort + "/readyz");
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the operator exited with "
                + process.exitValue()
                + " before it was ready; see "
                + log());
      }
      try {
        HttpURLConnection c = (HttpURLConnection) readyz.toURL().openConnection();
        c.setConnectTimeout(500);
        c.setReadTimeout(1000);
        if (c.getResponseCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      try {
        process.waitFor(200, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException(
        "the operator was not ready within " + timeout + "; see " + log());
  }

  /**
   * Stops the operator's JVM (SIGTERM, then a kill after 20 s).
   *
   * @return how long it took to exit
   */
  synchronized Duration stop() {
    if (process == null) {
      return Duration.ZERO;
    }
    Instant t0 = Instant.now();
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process = null;
    return Duration.between(t0, Instant.now());
  }

  /** Whether the operator's JVM is running. */
  synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  @Override
  public void close() {
    stop();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  @Override
  public String toString() {
    return "RealOperator{java="
        + javaHome
        + ", os="
        + System.getProperty("os.name", "").toLowerCase(Locale.ROOT)
        + "}";
  }
}
