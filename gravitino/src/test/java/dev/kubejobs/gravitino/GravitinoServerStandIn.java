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
package dev.kubejobs.gravitino;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.gravitino.connector.job.JobContext;
import org.apache.gravitino.connector.job.JobExecutor;
import org.apache.gravitino.job.JobTemplate;

/**
 * What a Gravitino server does to get its job executor, ported from apache/gravitino, for tests
 * that load kubejobs-gravitino's shaded jar the way a server does.
 *
 * <ul>
 *   <li>{@link #libsLoader}: the server's application class path. {@code bin/gravitino.sh.template}
 *       (main, commit f461aa31aa758e9b8f2743795a34fc31f8456a68) starts the server with {@code -cp}
 *       holding every jar of {@code ${GRAVITINO_HOME}/libs} ({@code addJarInDir
 *       "${GRAVITINO_HOME}/libs"}); there is no plugin class loader for a job executor. Here: a
 *       {@link URLClassLoader} over the jars of a {@code libs/} stand-in (the server's own library
 *       versions, put first so that any library the shaded jar failed to relocate resolves to the
 *       server's version) and the jar under test, whose parent offers only the JDK and the {@code
 *       org.apache.gravitino} classes (gravitino-api and the SPI stand-ins of the test class path,
 *       playing gravitino-core). Those stand-ins are compiled at the real binary shape (Lombok, the
 *       same annotations): {@code GravitinoServerLoadingIT} checks the classes this loader resolves
 *       against Gravitino's {@code javap} output before it runs a job, so an executor that links to
 *       a member the real server lacks fails there as in a server.
 *   <li>{@link #createExecutor}: {@code JobExecutorFactory.create} ({@code
 *       core/src/main/java/org/apache/gravitino/job/JobExecutorFactory.java}, commit
 *       281e750dcbc9bde001d888b4ebba73ef25eb1259): the executor named by {@code
 *       gravitino.job.executor}, its class from {@code gravitino.jobExecutor.<name>.class}, loaded
 *       with {@code Class.forName}, created with the no-argument constructor and initialized with
 *       every {@code gravitino.jobExecutor.<name>.*} setting, prefix stripped ({@code
 *       Config.getConfigsWithPrefix}); any failure is a {@code RuntimeException("Failed to create
 *       job executor: <name>")} that stops the server. Main's later factory also refuses a class
 *       that does not implement {@code JobExecutor}, whose {@code getJobExecutionInfo} is abstract
 *       or that does not implement {@code submitJob(JobContext, JobTemplate)}, as kubejobs issue
 *       #25 reports from main (the stored copy of the factory read here predates those checks);
 *       they are here too.
 * </ul>
 */
final class GravitinoServerStandIn {
  static final String EXECUTOR_KEY = "gravitino.job.executor";
  static final String EXECUTOR_PREFIX = "gravitino.jobExecutor.";

  private GravitinoServerStandIn() {}

  /**
   * Returns the server's class loader over a {@code libs/} stand-in and the jar to deploy.
   *
   * @param serverLibs the directory of the server's own jars
   * @param deployed the jar dropped into {@code libs/}
   * @return the loader; the caller closes it
   */
  static URLClassLoader libsLoader(Path serverLibs, Path deployed) throws IOException {
    return libsLoader(serverLibs, deployed, false);
  }

  /**
   * Returns the class loader of a Gravitino 1.3.0 server stand-in: as {@link #libsLoader(Path,
   * Path)}, but its core has no {@code JobContext} nor {@code JobExecutionInfo} (1.3.0's {@code
   * org.apache.gravitino.connector.job} holds the smaller {@code JobExecutor} only).
   *
   * @param serverLibs the directory of the server's own jars
   * @param deployed the jar dropped into {@code libs/}
   * @return the loader; the caller closes it
   */
  static URLClassLoader libsLoaderOf130(Path serverLibs, Path deployed) throws IOException {
    return libsLoader(serverLibs, deployed, true);
  }

  private static URLClassLoader libsLoader(Path serverLibs, Path deployed, boolean is130)
      throws IOException {
    List<URL> urls = new ArrayList<>();
    try (Stream<Path> jars = Files.list(serverLibs)) {
      for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
        urls.add(url(jar));
      }
    }
    if (urls.isEmpty()) {
      throw new IllegalStateException("no server jars in " + serverLibs);
    }
    urls.add(url(deployed));
    return new URLClassLoader(
        "gravitino-libs",
        urls.toArray(URL[]::new),
        new GravitinoCoreOnly(GravitinoServerStandIn.class.getClassLoader(), is130));
  }

  /**
   * Creates and initializes the job executor the server configuration names, as the server's
   * factory does.
   *
   * @param serverConf the {@code gravitino.conf} settings
   * @param appClassLoader the server's application class loader
   * @return the initialized executor
   * @throws RuntimeException "Failed to create job executor: NAME" on any failure
   */
  static JobExecutor createExecutor(Map<String, String> serverConf, ClassLoader appClassLoader) {
    return createExecutor(serverConf, appClassLoader, true);
  }

  /**
   * Creates and initializes the job executor as Gravitino 1.3.0's factory does: by name, the
   * no-argument constructor and {@code initialize}, without main's checks of the class.
   *
   * @param serverConf the {@code gravitino.conf} settings
   * @param appClassLoader the server's application class loader
   * @return the initialized executor
   * @throws RuntimeException "Failed to create job executor: NAME" on any failure
   */
  static JobExecutor createExecutorAs130(
      Map<String, String> serverConf, ClassLoader appClassLoader) {
    return createExecutor(serverConf, appClassLoader, false);
  }

  private static JobExecutor createExecutor(
      Map<String, String> serverConf, ClassLoader appClassLoader, boolean mainLineChecks) {
    String name = serverConf.get(EXECUTOR_KEY);
    String className = serverConf.get(EXECUTOR_PREFIX + name + ".class");
    if (className == null || className.isBlank()) {
      throw new IllegalArgumentException(
          "Job executor class name must be specified for job executor: " + name);
    }
    Map<String, String> configs = new TreeMap<>();
    String prefix = EXECUTOR_PREFIX + name + ".";
    serverConf.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            configs.put(k.substring(prefix.length()), v);
          }
        });
    try {
      Class<?> type = Class.forName(className, true, appClassLoader);
      if (!JobExecutor.class.isAssignableFrom(type)) {
        throw new IllegalArgumentException(
            className + " doesn't implement " + JobExecutor.class.getName());
      }
      if (mainLineChecks) {
        Method info = type.getMethod("getJobExecutionInfo", String.class);
        Method submit = type.getMethod("submitJob", JobContext.class, JobTemplate.class);
        if (Modifier.isAbstract(info.getModifiers()) || submit.isDefault()) {
          throw new IllegalArgumentException(
              className
                  + " must implement getJobExecutionInfo and submitJob(JobContext, JobTemplate)");
        }
      }
      JobExecutor executor = (JobExecutor) type.getDeclaredConstructor().newInstance();
      executor.initialize(configs);
      return executor;
    } catch (Exception e) {
      throw new RuntimeException("Failed to create job executor: " + name, e);
    }
  }

  private static URL url(Path jar) {
    try {
      return jar.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(jar.toString(), e);
    }
  }

  /**
   * Offers the JDK's classes and, from the test class path, those of {@code org.apache.gravitino}.
   */
  private static final class GravitinoCoreOnly extends ClassLoader {
    private final ClassLoader testClassPath;
    private final boolean is130;

    GravitinoCoreOnly(ClassLoader testClassPath, boolean is130) {
      super("gravitino-core", ClassLoader.getPlatformClassLoader());
      this.testClassPath = testClassPath;
      this.is130 = is130;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      if (is130
          && (name.startsWith("org.apache.gravitino.connector.job.JobContext")
              || name.startsWith("org.apache.gravitino.connector.job.JobExecutionInfo"))) {
        throw new ClassNotFoundException(name);
      }
      if (name.startsWith("org.apache.gravitino.")) {
        return testClassPath.loadClass(name);
      }
      throw new ClassNotFoundException(name);
    }
  }
}
