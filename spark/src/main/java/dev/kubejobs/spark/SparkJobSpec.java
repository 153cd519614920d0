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
package dev.kubejobs.spark;

import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.spi.SecretKeys;
import dev.kubejobs.spark.internal.Checks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What to run as one Spark job: the application, its dependencies and configuration, and the
 * resources of its driver and executors. Turned into a SparkApplication by a {@link
 * dev.kubejobs.core.spi.JobKind} from {@link SparkOperators}.
 *
 * <p>Every setting is checked when it is set and again by {@link Builder#build()}, so an invalid
 * spec fails with an {@link InvalidJobSpecException} naming the setting, the rule and the value
 * before anything is sent to the cluster. {@link #toString()} masks secret-looking values.
 *
 * <p>Instances are immutable and thread safe; create them with {@link #builder()}.
 */
public final class SparkJobSpec {
  /** The language of the application, which decides how its main file is run. */
  public enum Type {
    /** A Java application: a jar and, unless the jar's manifest names it, a main class. */
    JAVA,
    /** A Scala application: a jar and, unless the jar's manifest names it, a main class. */
    SCALA,
    /** A Python application: a {@code .py} main file and no main class. */
    PYTHON
  }

  /**
   * Spark configuration keys that typed settings of this spec write; sparkConf may not set them.
   */
  private static final Map<String, String> MANAGED_CONF =
      Map.of(
          "spark.driver.cores", "driverCores",
          "spark.driver.memory", "driverMemory",
          "spark.executor.cores", "executorCores",
          "spark.executor.memory", "executorMemory",
          "spark.executor.instances", "executorInstances",
          "spark.kubernetes.namespace", "namespace");

  private final Type type;
  private final String mainApplicationFile;
  private final String mainClass;
  private final List<String> jars;
  private final List<String> files;
  private final List<String> pyFiles;
  private final List<String> archives;
  private final Map<String, String> sparkConf;
  private final List<String> arguments;
  private final Map<String, String> environment;
  private final String image;
  private final String sparkVersion;
  private final int driverCores;
  private final String driverMemory;
  private final int executorCores;
  private final String executorMemory;
  private final int executorInstances;
  private final String serviceAccount;
  private final String namespace;
  private final Map<String, String> labels;
  private final Map<String, String> annotations;

  private SparkJobSpec(Builder b) {
    this.type = b.type;
    this.mainApplicationFile = b.mainApplicationFile;
    this.mainClass = b.mainClass;
    this.jars = List.copyOf(b.jars);
    this.files = List.copyOf(b.files);
    this.pyFiles = List.copyOf(b.pyFiles);
    this.archives = List.copyOf(b.archives);
    this.sparkConf = Collections.unmodifiableMap(new LinkedHashMap<>(b.sparkConf));
    this.arguments = List.copyOf(b.arguments);
    this.environment = Collections.unmodifiableMap(new LinkedHashMap<>(b.environment));
    this.image = b.image;
    this.sparkVersion = b.sparkVersion;
    this.driverCores = b.driverCores;
    this.driverMemory = b.driverMemory;
    this.executorCores = b.executorCores;
    this.executorMemory = b.executorMemory;
    this.executorInstances = b.executorInstances;
    this.serviceAccount = b.serviceAccount;
    this.namespace = b.namespace;
    this.labels = Collections.unmodifiableMap(new LinkedHashMap<>(b.labels));
    this.annotations = Collections.unmodifiableMap(new LinkedHashMap<>(b.annotations));
  }

  /**
   * Returns a new builder with the defaults: type {@link Type#JAVA}, namespace {@code default}, one
   * core and {@code 1g} for the driver and for each of one executor.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder holding this spec's values, to derive a changed copy.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.type = type;
    b.mainApplicationFile = mainApplicationFile;
    b.mainClass = mainClass;
    b.jars.addAll(jars);
    b.files.addAll(files);
    b.pyFiles.addAll(pyFiles);
    b.archives.addAll(archives);
    b.sparkConf.putAll(sparkConf);
    b.arguments.addAll(arguments);
    b.environment.putAll(environment);
    b.image = image;
    b.sparkVersion = sparkVersion;
    b.driverCores = driverCores;
    b.driverMemory = driverMemory;
    b.executorCores = executorCores;
    b.executorMemory = executorMemory;
    b.executorInstances = executorInstances;
    b.serviceAccount = serviceAccount;
    b.namespace = namespace;
    b.labels.putAll(labels);
    b.annotations.putAll(annotations);
    return b;
  }

  /**
   * Returns the application's language.
   *
   * @return the type
   */
  public Type type() {
    return type;
  }

  /**
   * Returns the application's main file: the jar for Java and Scala, the {@code .py} file for
   * Python, as a URI the driver can read (for example {@code local:///opt/app/app.jar} or {@code
   * s3a://bucket/app.py}).
   *
   * @return the main file
   */
  public String mainApplicationFile() {
    return mainApplicationFile;
  }

  /**
   * Returns the main class of a Java or Scala application.
   *
   * @return the class name, or empty when the jar's manifest names it (and always for Python)
   */
  public Optional<String> mainClass() {
    return Optional.ofNullable(mainClass);
  }

  /**
   * Returns the extra jars put on the driver's and executors' class path.
   *
   * @return an unmodifiable list, in order
   */
  public List<String> jars() {
    return jars;
  }

  /**
   * Returns the files placed in the working directory of the driver and executors.
   *
   * @return an unmodifiable list, in order
   */
  public List<String> files() {
    return files;
  }

  /**
   * Returns the extra Python files ({@code .py}, {@code .zip}, {@code .egg}) put on the Python
   * path.
   *
   * @return an unmodifiable list, in order
   */
  public List<String> pyFiles() {
    return pyFiles;
  }

  /**
   * Returns the archives extracted into the working directory of the driver and executors.
   *
   * @return an unmodifiable list, in order
   */
  public List<String> archives() {
    return archives;
  }

  /**
   * Returns the Spark configuration, as passed to {@code --conf}.
   *
   * @return an unmodifiable map, in insertion order
   */
  public Map<String, String> sparkConf() {
    return sparkConf;
  }

  /**
   * Returns the arguments passed to the application's main method or script.
   *
   * @return an unmodifiable list, in order
   */
  public List<String> arguments() {
    return arguments;
  }

  /**
   * Returns the environment variables set in the driver and executor containers.
   *
   * @return an unmodifiable map, in insertion order
   */
  public Map<String, String> environment() {
    return environment;
  }

  /**
   * Returns the container image of the driver and executors.
   *
   * @return the image, or empty to use the operator's or sparkConf's default
   */
  public Optional<String> image() {
    return Optional.ofNullable(image);
  }

  /**
   * Returns the Spark version the operator should assume, for example {@code 4.0.1}.
   *
   * @return the version
   */
  public String sparkVersion() {
    return sparkVersion;
  }

  /**
   * Returns the driver's CPU cores.
   *
   * @return at least 1
   */
  public int driverCores() {
    return driverCores;
  }

  /**
   * Returns the driver's memory in Spark's size notation, for example {@code 1g}.
   *
   * @return the memory
   */
  public String driverMemory() {
    return driverMemory;
  }

  /**
   * Returns each executor's CPU cores.
   *
   * @return at least 1
   */
  public int executorCores() {
    return executorCores;
  }

  /**
   * Returns each executor's memory in Spark's size notation, for example {@code 2g}.
   *
   * @return the memory
   */
  public String executorMemory() {
    return executorMemory;
  }

  /**
   * Returns the number of executors.
   *
   * @return at least 1
   */
  public int executorInstances() {
    return executorInstances;
  }

  /**
   * Returns the service account the driver (and executors) run as.
   *
   * @return the service account, or empty for the namespace's default
   */
  public Optional<String> serviceAccount() {
    return Optional.ofNullable(serviceAccount);
  }

  /**
   * Returns the namespace the job runs in.
   *
   * @return a DNS-1123 label
   */
  public String namespace() {
    return namespace;
  }

  /**
   * Returns the extra labels put on the SparkApplication and on its driver and executor pods.
   *
   * @return an unmodifiable map, in insertion order
   */
  public Map<String, String> labels() {
    return labels;
  }

  /**
   * Returns the extra annotations put on the SparkApplication.
   *
   * @return an unmodifiable map, in insertion order
   */
  public Map<String, String> annotations() {
    return annotations;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SparkJobSpec other)) {
      return false;
    }
    return type == other.type
        && mainApplicationFile.equals(other.mainApplicationFile)
        && Objects.equals(mainClass, other.mainClass)
        && jars.equals(other.jars)
        && files.equals(other.files)
        && pyFiles.equals(other.pyFiles)
        && archives.equals(other.archives)
        && sparkConf.equals(other.sparkConf)
        && arguments.equals(other.arguments)
        && environment.equals(other.environment)
        && Objects.equals(image, other.image)
        && sparkVersion.equals(other.sparkVersion)
        && driverCores == other.driverCores
        && driverMemory.equals(other.driverMemory)
        && executorCores == other.executorCores
        && executorMemory.equals(other.executorMemory)
        && executorInstances == other.executorInstances
        && Objects.equals(serviceAccount, other.serviceAccount)
        && namespace.equals(other.namespace)
        && labels.equals(other.labels)
        && annotations.equals(other.annotations);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, mainApplicationFile, mainClass, sparkConf, namespace, labels);
  }

  /**
   * Returns the spec's settings, with the values of secret-looking Spark configuration keys and
   * environment variables (names containing password, passwd, secret, token, credential or key:
   * {@link SecretKeys#looksSecret}) replaced by {@code ****}. Arguments are not shown, as they may
   * carry secrets of any name.
   */
  @Override
  public String toString() {
    return "SparkJobSpec{type="
        + type
        + ", mainApplicationFile="
        + mainApplicationFile
        + (mainClass != null ? ", mainClass=" + mainClass : "")
        + (jars.isEmpty() ? "" : ", jars=" + jars)
        + (files.isEmpty() ? "" : ", files=" + files)
        + (pyFiles.isEmpty() ? "" : ", pyFiles=" + pyFiles)
        + (archives.isEmpty() ? "" : ", archives=" + archives)
        + (sparkConf.isEmpty() ? "" : ", sparkConf=" + masked(sparkConf))
        + (arguments.isEmpty() ? "" : ", arguments=<" + arguments.size() + " arguments>")
        + (environment.isEmpty() ? "" : ", environment=" + masked(environment))
        + (image != null ? ", image=" + image : "")
        + ", sparkVersion="
        + sparkVersion
        + ", driver="
        + driverCores
        + " cores/"
        + driverMemory
        + ", executors="
        + executorInstances
        + "x"
        + executorCores
        + " cores/"
        + executorMemory
        + (serviceAccount != null ? ", serviceAccount=" + serviceAccount : "")
        + ", namespace="
        + namespace
        + (labels.isEmpty() ? "" : ", labels=" + labels)
        + (annotations.isEmpty() ? "" : ", annotations=" + annotations.keySet())
        + "}";
  }

  private static Map<String, String> masked(Map<String, String> values) {
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k, SecretKeys.looksSecret(k) ? SecretKeys.MASK : v));
    return out;
  }

  /**
   * Builds a {@link SparkJobSpec}. Each setter checks its value and throws {@link
   * InvalidJobSpecException} naming the setting, the rule and the value; {@link #build()} checks
   * what depends on several settings. Not thread safe.
   */
  public static final class Builder {
    private Type type = Type.JAVA;
    private String mainApplicationFile;
    private String mainClass;
    private final List<String> jars = new ArrayList<>();
    private final List<String> files = new ArrayList<>();
    private final List<String> pyFiles = new ArrayList<>();
    private final List<String> archives = new ArrayList<>();
    private final Map<String, String> sparkConf = new LinkedHashMap<>();
    private final List<String> arguments = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private String image;
    private String sparkVersion;
    private int driverCores = 1;
    private String driverMemory = "1g";
    private int executorCores = 1;
    private String executorMemory = "1g";
    private int executorInstances = 1;
    private String serviceAccount;
    private String namespace = "default";
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Sets the application's language; the default is {@link Type#JAVA}.
     *
     * @param type the type
     * @return this builder
     * @throws InvalidJobSpecException if {@code type} is null
     */
    public Builder type(Type type) {
      if (type == null) {
        throw Checks.invalid("type", "be JAVA, SCALA or PYTHON", null);
      }
      this.type = type;
      return this;
    }

    /**
     * Sets the application's main file (required): the jar for Java and Scala, the {@code .py} file
     * for Python.
     *
     * @param mainApplicationFile a URI the driver can read, such as {@code local:///opt/app.jar}
     * @return this builder
     * @throws InvalidJobSpecException if blank or containing a comma
     */
    public Builder mainApplicationFile(String mainApplicationFile) {
      this.mainApplicationFile = uri("mainApplicationFile", mainApplicationFile);
      return this;
    }

    /**
     * Sets the main class of a Java or Scala application; leave unset when the jar's manifest names
     * it. Python applications have none.
     *
     * @param mainClass a fully qualified class name, or null to unset
     * @return this builder
     * @throws InvalidJobSpecException if blank or containing white space
     */
    public Builder mainClass(String mainClass) {
      if (mainClass != null && (mainClass.isBlank() || mainClass.matches(".*\\s.*"))) {
        throw Checks.invalid("mainClass", "be a class name without white space", mainClass);
      }
      this.mainClass = mainClass;
      return this;
    }

    /**
     * Sets the extra jars, replacing any set before.
     *
     * @param jars URIs the driver can read
     * @return this builder
     * @throws InvalidJobSpecException if null, or an entry is blank or contains a comma
     */
    public Builder jars(List<String> jars) {
      replace(this.jars, "jars", jars);
      return this;
    }

    /**
     * Sets the files placed in the working directories, replacing any set before.
     *
     * @param files URIs the driver can read
     * @return this builder
     * @throws InvalidJobSpecException if null, or an entry is blank or contains a comma
     */
    public Builder files(List<String> files) {
      replace(this.files, "files", files);
      return this;
    }

    /**
     * Sets the extra Python files, replacing any set before.
     *
     * @param pyFiles URIs the driver can read
     * @return this builder
     * @throws InvalidJobSpecException if null, or an entry is blank or contains a comma
     */
    public Builder pyFiles(List<String> pyFiles) {
      replace(this.pyFiles, "pyFiles", pyFiles);
      return this;
    }

    /**
     * Sets the archives, replacing any set before.
     *
     * @param archives URIs the driver can read, optionally with {@code #dir}
     * @return this builder
     * @throws InvalidJobSpecException if null, or an entry is blank or contains a comma
     */
    public Builder archives(List<String> archives) {
      replace(this.archives, "archives", archives);
      return this;
    }

    /**
     * Sets one Spark configuration entry. Keys written by typed settings (such as {@code
     * spark.driver.memory}, see {@link #driverMemory(String)}) are refused.
     *
     * @param key the key, for example {@code spark.sql.shuffle.partitions}
     * @param value the value
     * @return this builder
     * @throws InvalidJobSpecException if the key is blank, has white space or is managed by a typed
     *     setting, or the value is null
     */
    public Builder sparkConf(String key, String value) {
      if (key == null || key.isBlank() || key.matches(".*\\s.*")) {
        throw Checks.invalid("sparkConf", "have keys without white space", key);
      }
      String typed = MANAGED_CONF.get(key);
      if (typed != null) {
        throw Checks.invalid(
            "sparkConf", "not set " + key + "; use the " + typed + " setting instead", key);
      }
      if (value == null) {
        throw Checks.invalid("sparkConf['" + key + "']", "not be null", null);
      }
      sparkConf.put(key, value);
      return this;
    }

    /**
     * Sets the Spark configuration, replacing any set before; each entry is checked as by {@link
     * #sparkConf(String, String)}.
     *
     * @param sparkConf the entries
     * @return this builder
     * @throws InvalidJobSpecException if null or an entry is invalid
     */
    public Builder sparkConf(Map<String, String> sparkConf) {
      notNull("sparkConf", sparkConf);
      replaceAll(this.sparkConf, sparkConf, this::sparkConf);
      return this;
    }

    /**
     * Sets the application's arguments, replacing any set before.
     *
     * @param arguments the arguments, in order
     * @return this builder
     * @throws InvalidJobSpecException if the list or an argument is null
     */
    public Builder arguments(List<String> arguments) {
      notNull("arguments", arguments);
      for (int i = 0; i < arguments.size(); i++) {
        if (arguments.get(i) == null) {
          throw Checks.invalid("arguments[" + i + "]", "not be null", null);
        }
      }
      this.arguments.clear();
      this.arguments.addAll(arguments);
      return this;
    }

    /**
     * Sets one environment variable of the driver and executor containers.
     *
     * @param name the variable's name
     * @param value the value
     * @return this builder
     * @throws InvalidJobSpecException if the name is not a valid variable name or the value is null
     */
    public Builder environment(String name, String value) {
      Checks.envName("environment", name);
      if (value == null) {
        throw Checks.invalid("environment['" + name + "']", "not be null", null);
      }
      environment.put(name, value);
      return this;
    }

    /**
     * Sets the environment variables, replacing any set before.
     *
     * @param environment the variables
     * @return this builder
     * @throws InvalidJobSpecException if null or an entry is invalid
     */
    public Builder environment(Map<String, String> environment) {
      notNull("environment", environment);
      replaceAll(this.environment, environment, this::environment);
      return this;
    }

    /**
     * Sets the container image of the driver and executors.
     *
     * @param image an image reference, or null to unset
     * @return this builder
     * @throws InvalidJobSpecException if blank or containing white space
     */
    public Builder image(String image) {
      if (image != null && (image.isBlank() || image.matches(".*\\s.*"))) {
        throw Checks.invalid("image", "be an image reference without white space", image);
      }
      this.image = image;
      return this;
    }

    /**
     * Sets the Spark version (required), for example {@code 4.0.1}.
     *
     * @param sparkVersion the version
     * @return this builder
     * @throws InvalidJobSpecException if blank
     */
    public Builder sparkVersion(String sparkVersion) {
      this.sparkVersion = Checks.notBlank("sparkVersion", sparkVersion);
      return this;
    }

    /**
     * Sets the driver's CPU cores; the default is 1.
     *
     * @param driverCores at least 1
     * @return this builder
     * @throws InvalidJobSpecException if less than 1
     */
    public Builder driverCores(int driverCores) {
      this.driverCores = Checks.positive("driverCores", driverCores);
      return this;
    }

    /**
     * Sets the driver's memory; the default is {@code 1g}.
     *
     * @param driverMemory a Spark size such as {@code 512m} or {@code 4g}
     * @return this builder
     * @throws InvalidJobSpecException if not a positive Spark size
     */
    public Builder driverMemory(String driverMemory) {
      this.driverMemory = Checks.sparkSize("driverMemory", driverMemory);
      return this;
    }

    /**
     * Sets each executor's CPU cores; the default is 1.
     *
     * @param executorCores at least 1
     * @return this builder
     * @throws InvalidJobSpecException if less than 1
     */
    public Builder executorCores(int executorCores) {
      this.executorCores = Checks.positive("executorCores", executorCores);
      return this;
    }

    /**
     * Sets each executor's memory; the default is {@code 1g}.
     *
     * @param executorMemory a Spark size such as {@code 512m} or {@code 4g}
     * @return this builder
     * @throws InvalidJobSpecException if not a positive Spark size
     */
    public Builder executorMemory(String executorMemory) {
      this.executorMemory = Checks.sparkSize("executorMemory", executorMemory);
      return this;
    }

    /**
     * Sets the number of executors; the default is 1.
     *
     * @param executorInstances at least 1
     * @return this builder
     * @throws InvalidJobSpecException if less than 1
     */
    public Builder executorInstances(int executorInstances) {
      this.executorInstances = Checks.positive("executorInstances", executorInstances);
      return this;
    }

    /**
     * Sets the service account the driver and executors run as.
     *
     * @param serviceAccount a DNS-1123 subdomain, or null for the namespace's default
     * @return this builder
     * @throws InvalidJobSpecException if not a valid name
     */
    public Builder serviceAccount(String serviceAccount) {
      this.serviceAccount =
          serviceAccount == null ? null : Checks.dnsSubdomain("serviceAccount", serviceAccount);
      return this;
    }

    /**
     * Sets the namespace the job runs in; the default is {@code default}.
     *
     * @param namespace a DNS-1123 label
     * @return this builder
     * @throws InvalidJobSpecException if not a DNS-1123 label
     */
    public Builder namespace(String namespace) {
      this.namespace = Checks.dnsLabel("namespace", namespace);
      return this;
    }

    /**
     * Adds a label to the SparkApplication and its pods.
     *
     * @param key a label key not owned by kubejobs ({@code kubejobs.dev/*}, {@code
     *     app.kubernetes.io/managed-by})
     * @param value a label value
     * @return this builder
     * @throws InvalidJobSpecException if the key or value would be rejected by Kubernetes, or the
     *     key is one kubejobs owns
     */
    public Builder label(String key, String value) {
      Checks.notReserved("labels", Checks.qualifiedKey("labels", key));
      Checks.labelValue("labels['" + key + "']", value);
      labels.put(key, value);
      return this;
    }

    /**
     * Sets the extra labels, replacing any set before; each is checked as by {@link #label}.
     *
     * @param labels the labels
     * @return this builder
     * @throws InvalidJobSpecException if null or a label is invalid
     */
    public Builder labels(Map<String, String> labels) {
      notNull("labels", labels);
      replaceAll(this.labels, labels, this::label);
      return this;
    }

    /**
     * Adds an annotation to the SparkApplication.
     *
     * @param key an annotation key not owned by kubejobs ({@code kubejobs.dev/*})
     * @param value the value
     * @return this builder
     * @throws InvalidJobSpecException if the key would be rejected by Kubernetes or is one kubejobs
     *     owns, or the value is null
     */
    public Builder annotation(String key, String value) {
      Checks.notReserved("annotations", Checks.qualifiedKey("annotations", key));
      if (value == null) {
        throw Checks.invalid("annotations['" + key + "']", "not be null", null);
      }
      annotations.put(key, value);
      return this;
    }

    /**
     * Sets the extra annotations, replacing any set before; each is checked as by {@link
     * #annotation}.
     *
     * @param annotations the annotations
     * @return this builder
     * @throws InvalidJobSpecException if null or an annotation is invalid
     */
    public Builder annotations(Map<String, String> annotations) {
      notNull("annotations", annotations);
      replaceAll(this.annotations, annotations, this::annotation);
      return this;
    }

    /**
     * Builds the spec, checking the rules that depend on several settings.
     *
     * @return the spec
     * @throws InvalidJobSpecException if the main application file or Spark version is missing, or
     *     a Python application has a main class
     */
    public SparkJobSpec build() {
      if (mainApplicationFile == null) {
        throw Checks.invalid(
            "mainApplicationFile",
            "be set to the application's jar (Java, Scala) or .py file (Python)",
            null);
      }
      if (sparkVersion == null) {
        throw Checks.invalid("sparkVersion", "be set, for example to 4.0.1", null);
      }
      if (type == Type.PYTHON && mainClass != null) {
        throw Checks.invalid("mainClass", "not be set for a PYTHON application", mainClass);
      }
      int size = 0;
      for (Map.Entry<String, String> e : annotations.entrySet()) {
        size += e.getKey().length() + e.getValue().length();
      }
      if (size > 128 * 1024) {
        throw Checks.invalid(
            "annotations", "total at most 128 KiB of keys and values", size + " bytes");
      }
      return new SparkJobSpec(this);
    }

    private static void replace(List<String> target, String setting, List<String> values) {
      notNull(setting, values);
      List<String> checked = new ArrayList<>();
      for (int i = 0; i < values.size(); i++) {
        checked.add(uri(setting + "[" + i + "]", values.get(i)));
      }
      target.clear();
      target.addAll(checked);
    }

    /**
     * Replaces a map's entries, each checked by {@code add}; an invalid entry leaves the map as it
     * was, so a caught exception does not leave the builder half changed.
     */
    private static void replaceAll(
        Map<String, String> target,
        Map<String, String> entries,
        java.util.function.BiFunction<String, String, Builder> add) {
      Map<String, String> before = new LinkedHashMap<>(target);
      target.clear();
      try {
        entries.forEach(add::apply);
      } catch (RuntimeException e) {
        target.clear();
        target.putAll(before);
        throw e;
      }
    }

    /** A null collection is a bad input like any other: an InvalidJobSpecException, not an NPE. */
    private static void notNull(String setting, Object value) {
      if (value == null) {
        throw Checks.invalid(setting, "not be null (pass an empty one to clear it)", null);
      }
    }

    private static String uri(String setting, String value) {
      Checks.notBlank(setting, value);
      if (value.contains(",")) {
        throw Checks.invalid(
            setting, "not contain ',' (the operator joins entries with commas)", value);
      }
      return value;
    }
  }
}
