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
package dev.kubejobs.examples.cli;

import dev.kubejobs.examples.Errors;
import dev.kubejobs.examples.Errors.CliException;
import io.kubernetes.client.util.KubeConfig;
import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Finds and reads the kubeconfig the way kubectl does: {@code --kubeconfig}, else every file of
 * {@code $KUBECONFIG} merged, else {@code ~/.kube/config}. Stateless.
 *
 * <p>Merging follows kubectl ({@code ClientConfigLoadingRules.Load} in client-go's {@code
 * tools/clientcmd/loader.go}): files are read in list order, missing ones skipped; the first file
 * that sets a value wins — the first {@code current-context}, the first cluster, context or user of
 * each name. Relative file paths in a cluster or user ({@code certificate-authority}, {@code
 * client-certificate}, {@code client-key}, {@code tokenFile}) are resolved against the file that
 * holds them.
 */
public final class Kubeconfigs {
  private static final List<String> CLUSTER_PATHS = List.of("certificate-authority");
  private static final List<String> USER_PATHS =
      List.of("client-certificate", "client-key", "tokenFile");

  private Kubeconfigs() {}

  /**
   * A kubeconfig read from one or more files.
   *
   * @param config the merged configuration, its current context set
   * @param source where it came from, for messages ({@code --kubeconfig}, {@code $KUBECONFIG},
   *     {@code ~/.kube/config})
   * @param files the files read, in order
   */
  public record Loaded(KubeConfig config, String source, List<Path> files) {
    /** Copies the file list. */
    public Loaded {
      files = List.copyOf(files);
    }
  }

  /**
   * Finds and reads the kubeconfig.
   *
   * @param explicit the {@code --kubeconfig} path, or null
   * @param env the environment ({@code KUBECONFIG}, {@code KUBERNETES_SERVICE_HOST})
   * @param home the user's home directory
   * @return the kubeconfig, or null when none is given and the program runs inside a pod (use the
   *     in-cluster configuration)
   * @throws CliException with exit code {@link Errors#CONFIGURATION} saying what to give
   */
  public static Loaded load(Path explicit, Map<String, String> env, Path home) {
    if (explicit != null) {
      requireFile(explicit, "--kubeconfig");
      return read(List.of(explicit), "--kubeconfig");
    }
    String list = env.get("KUBECONFIG");
    if (list != null && !list.isBlank()) {
      List<Path> files = new ArrayList<>();
      for (String entry : list.split(File.pathSeparator)) {
        if (entry.isBlank()) {
          continue;
        }
        Path p = Path.of(entry.strip());
        if (Files.isDirectory(p)) {
          requireFile(p, "$KUBECONFIG");
        }
        if (Files.isRegularFile(p)) {
          files.add(p);
        }
      }
      if (files.isEmpty()) {
        throw new CliException(
            Errors.CONFIGURATION,
            "none of the kubeconfig files in $KUBECONFIG ("
                + list
                + ") exists: fix KUBECONFIG or give --kubeconfig PATH");
      }
      return read(files, "$KUBECONFIG");
    }
    if (env.get("KUBERNETES_SERVICE_HOST") != null) {
      return null;
    }
    Path standard = home.resolve(".kube").resolve("config");
    if (Files.isDirectory(standard)) {
      requireFile(standard, "~/.kube/config");
    }
    if (Files.isRegularFile(standard)) {
      return read(List.of(standard), "~/.kube/config");
    }
    throw new CliException(
        Errors.CONFIGURATION,
        "no kubeconfig: ~/.kube/config ("
            + standard
            + ") does not exist and KUBECONFIG is not set; give --kubeconfig PATH, set KUBECONFIG,"
            + " create ~/.kube/config, or run inside a pod for the in-cluster configuration");
  }

  private static void requireFile(Path path, String source) {
    if (Files.isDirectory(path)) {
      throw new CliException(
          Errors.CONFIGURATION,
          "kubeconfig "
              + path
              + " (from "
              + source
              + ") is a directory: give the path of a kubeconfig file, for example "
              + path.resolve("config"));
    }
    if (!Files.isRegularFile(path)) {
      throw new CliException(
          Errors.CONFIGURATION,
          "kubeconfig "
              + path
              + " (from "
              + source
              + ") not found: give --kubeconfig PATH of an existing file");
    }
  }

  @SuppressWarnings("unchecked")
  private static Loaded read(List<Path> files, String source) {
    String currentContext = null;
    ArrayList<Object> clusters = new ArrayList<>();
    ArrayList<Object> contexts = new ArrayList<>();
    ArrayList<Object> users = new ArrayList<>();
    Set<String> clusterNames = new HashSet<>();
    Set<String> contextNames = new HashSet<>();
    Set<String> userNames = new HashSet<>();
    Object preferences = null;
    for (Path file : files) {
      Map<String, Object> doc;
      try (Reader reader = Files.newBufferedReader(file)) {
        Object loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
        doc = loaded instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
      } catch (IOException | RuntimeException e) {
        throw new CliException(
            Errors.CONFIGURATION,
            "cannot read kubeconfig " + file + " (from " + source + "): " + message(e));
      }
      Path base = file.toAbsolutePath().getParent();
      if (currentContext == null
          && doc.get("current-context") instanceof String c
          && !c.isBlank()) {
        currentContext = c;
      }
      if (preferences == null) {
        preferences = doc.get("preferences");
      }
      mergeNamed(doc.get("clusters"), "cluster", CLUSTER_PATHS, base, clusterNames, clusters);
      mergeNamed(doc.get("contexts"), "context", List.of(), base, contextNames, contexts);
      mergeNamed(doc.get("users"), "user", USER_PATHS, base, userNames, users);
    }
    KubeConfig config = new KubeConfig(contexts, clusters, users);
    config.setPreferences(preferences);
    if (currentContext != null && !config.setContext(currentContext)) {
      throw new CliException(
          Errors.CONFIGURATION,
          "kubeconfig current-context '"
              + currentContext
              + "' (from "
              + source
              + ") names no context of "
              + files
              + ": fix current-context");
    }
    config.setFile(files.get(0).toAbsolutePath().toFile());
    return new Loaded(config, source, files);
  }

  @SuppressWarnings("unchecked")
  private static void mergeNamed(
      Object list,
      String inner,
      List<String> pathKeys,
      Path base,
      Set<String> seen,
      ArrayList<Object> into) {
    if (!(list instanceof List<?> entries)) {
      return;
    }
    for (Object entry : entries) {
      if (!(entry instanceof Map<?, ?> m) || !(m.get("name") instanceof String name)) {
        continue;
      }
      if (!seen.add(name)) {
        continue; // the first file that sets it wins
      }
      Map<String, Object> copy = new java.util.LinkedHashMap<>((Map<String, Object>) m);
      if (copy.get(inner) instanceof Map<?, ?> body) {
        Map<String, Object> resolved = new java.util.LinkedHashMap<>((Map<String, Object>) body);
        for (String key : pathKeys) {
          if (resolved.get(key) instanceof String p && !p.isBlank() && !Path.of(p).isAbsolute()) {
            resolved.put(key, base.resolve(p).normalize().toString());
          }
        }
        copy.put(inner, resolved);
      }
      into.add(copy);
    }
  }

  private static String message(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }
}
