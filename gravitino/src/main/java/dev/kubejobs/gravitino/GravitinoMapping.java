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

import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.spark.SparkJobSpec;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.gravitino.job.JobHandle;
import org.apache.gravitino.job.SparkJobTemplate;

/**
 * Maps between Apache Gravitino's job API ({@code org.apache.gravitino:gravitino-api} 1.3.0) and
 * kubejobs: a {@link SparkJobTemplate} (with Gravitino's placeholders already resolved) to a {@link
 * SparkJobSpec}, and a kubejobs {@link JobStatus} to a {@link JobHandle.Status}.
 *
 * <table>
 *   <caption>Template field to spec setting</caption>
 *   <tr><th>SparkJobTemplate</th><th>SparkJobSpec</th></tr>
 *   <tr><td>{@code executable()}</td><td>{@code mainApplicationFile}; type {@code PYTHON} when it
 *       ends in {@code .py}, else {@code JAVA}</td></tr>
 *   <tr><td>{@code className()}</td><td>{@code mainClass} (must be absent for Python)</td></tr>
 *   <tr><td>{@code jars()}, {@code files()}, {@code archives()}</td><td>the same lists</td></tr>
 *   <tr><td>{@code arguments()}</td><td>{@code arguments}</td></tr>
 *   <tr><td>{@code environments()}</td><td>{@code environment}</td></tr>
 *   <tr><td>{@code configs()}</td><td>{@code sparkConf}, except the keys in {@link
 *       #TYPED_CONFIGS}, which set the typed settings (cores, memory, executors, namespace,
 *       image)</td></tr>
 *   <tr><td>{@code name()}</td><td>annotation {@value #TEMPLATE_ANNOTATION}</td></tr>
 *   <tr><td>{@code customFields()}</td><td>keys {@code kubejobs.namespace}, {@code kubejobs.image},
 *       {@code kubejobs.serviceAccount}, {@code kubejobs.sparkVersion}; other keys are Gravitino's
 *       and ignored, an unknown {@code kubejobs.*} key is refused</td></tr>
 *   <tr><td>{@code comment()}</td><td>not sent</td></tr>
 * </table>
 *
 * <p>Stateless and thread safe.
 */
public final class GravitinoMapping {
  /** The annotation carrying the Gravitino template's name. */
  public static final String TEMPLATE_ANNOTATION = "gravitino.apache.org/job-template";

  /** The Spark configuration keys that set a typed {@link SparkJobSpec} setting instead. */
  public static final Map<String, String> TYPED_CONFIGS =
      Map.of(
          "spark.driver.cores", "driverCores",
          "spark.driver.memory", "driverMemory",
          "spark.executor.cores", "executorCores",
          "spark.executor.memory", "executorMemory",
          "spark.executor.instances", "executorInstances",
          "spark.kubernetes.namespace", "namespace",
          "spark.kubernetes.container.image", "image");

  /** The custom field that sets the namespace. */
  public static final String NAMESPACE_FIELD = "kubejobs.namespace";

  /** The custom field that sets the container image. */
  public static final String IMAGE_FIELD = "kubejobs.image";

  /** The custom field that sets the driver's service account. */
  public static final String SERVICE_ACCOUNT_FIELD = "kubejobs.serviceAccount";

  /** The custom field that sets the Spark version. */
  public static final String SPARK_VERSION_FIELD = "kubejobs.sparkVersion";

  private GravitinoMapping() {}

  /**
   * Turns a Gravitino Spark job template into a kubejobs spec.
   *
   * @param template the template, placeholders resolved
   * @param defaults the namespace, Spark version and image to use when the template sets none
   * @return the spec
   * @throws InvalidJobSpecException naming the template field, the rule and the value
   */
  public static SparkJobSpec toSpec(SparkJobTemplate template, Defaults defaults) {
    String executable = template.executable();
    boolean python = executable != null && executable.toLowerCase(Locale.ROOT).endsWith(".py");
    SparkJobSpec.Builder b =
        SparkJobSpec.builder()
            .type(python ? SparkJobSpec.Type.PYTHON : SparkJobSpec.Type.JAVA)
            .mainApplicationFile(executable)
            .namespace(defaults.namespace())
            .sparkVersion(defaults.sparkVersion());
    if (defaults.image() != null) {
      b.image(defaults.image());
    }
    if (defaults.serviceAccount() != null) {
      b.serviceAccount(defaults.serviceAccount());
    }
    if (template.className() != null && !template.className().isBlank()) {
      b.mainClass(template.className());
    }
    b.jars(orEmpty(template.jars()));
    b.files(orEmpty(template.files()));
    b.archives(orEmpty(template.archives()));
    b.arguments(orEmpty(template.arguments()));
    b.environment(template.environments() == null ? Map.of() : template.environments());
    Map<String, String> conf = new LinkedHashMap<>();
    if (template.configs() != null) {
      template.configs().forEach((key, value) -> typedOrConf(b, conf, key, value));
    }
    b.sparkConf(conf);
    if (template.customFields() != null) {
      template.customFields().forEach((key, value) -> customField(b, key, value));
    }
    if (template.name() != null) {
      b.annotation(TEMPLATE_ANNOTATION, template.name());
    }
    return b.build();
  }

  /**
   * Maps a kubejobs status to the Gravitino status it is recorded as; the six states are the same.
   *
   * @param status the kubejobs status
   * @return the Gravitino status
   */
  public static JobHandle.Status toGravitino(JobStatus status) {
    return switch (status) {
      case QUEUED -> JobHandle.Status.QUEUED;
      case STARTED -> JobHandle.Status.STARTED;
      case SUCCEEDED -> JobHandle.Status.SUCCEEDED;
      case FAILED -> JobHandle.Status.FAILED;
      case CANCELLING -> JobHandle.Status.CANCELLING;
      case CANCELLED -> JobHandle.Status.CANCELLED;
    };
  }

  private static void typedOrConf(
      SparkJobSpec.Builder b, Map<String, String> conf, String key, String value) {
    switch (key) {
      case "spark.driver.cores" -> b.driverCores(integer(key, value));
      case "spark.driver.memory" -> b.driverMemory(value);
      case "spark.executor.cores" -> b.executorCores(integer(key, value));
      case "spark.executor.memory" -> b.executorMemory(value);
      case "spark.executor.instances" -> b.executorInstances(integer(key, value));
      case "spark.kubernetes.namespace" -> b.namespace(value);
      case "spark.kubernetes.container.image" -> b.image(value);
      default -> conf.put(key, value);
    }
  }

  private static void customField(SparkJobSpec.Builder b, String key, String value) {
    switch (key) {
      case NAMESPACE_FIELD -> b.namespace(value);
      case IMAGE_FIELD -> b.image(value);
      case SERVICE_ACCOUNT_FIELD -> b.serviceAccount(value);
      case SPARK_VERSION_FIELD -> b.sparkVersion(value);
      default -> {
        if (key.startsWith("kubejobs.")) {
          throw new InvalidJobSpecException(
              "customFields['"
                  + key
                  + "'] must be one of "
                  + NAMESPACE_FIELD
                  + ", "
                  + IMAGE_FIELD
                  + ", "
                  + SERVICE_ACCOUNT_FIELD
                  + ", "
                  + SPARK_VERSION_FIELD
                  + ", but was '"
                  + key
                  + "'");
        }
      }
    }
  }

  private static int integer(String key, String value) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException | NullPointerException e) {
      throw new InvalidJobSpecException(
          "configs['" + key + "'] must be a whole number, but was '" + value + "'");
    }
  }

  private static <T> java.util.List<T> orEmpty(java.util.List<T> list) {
    return list == null ? java.util.List.of() : list;
  }

  /**
   * What the executor uses when a template does not say: the namespace, the Spark version, the
   * image and the driver's service account. Immutable.
   *
   * @param namespace the namespace jobs run in
   * @param sparkVersion the Spark version, for example {@code 4.0.1}
   * @param image the container image, or null for the operator's default
   * @param serviceAccount the driver's service account, or null for the operator's default
   */
  public record Defaults(
      String namespace, String sparkVersion, String image, String serviceAccount) {
    /**
     * Creates defaults without a service account (the operator's default is used).
     *
     * @param namespace the namespace jobs run in
     * @param sparkVersion the Spark version, for example {@code 4.0.1}
     * @param image the container image, or null for the operator's default
     */
    public Defaults(String namespace, String sparkVersion, String image) {
      this(namespace, sparkVersion, image, null);
    }
  }
}
