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
package dev.kubejobs.spark.internal;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.ApacheOptions;
import dev.kubejobs.spark.SparkJobSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Apache Spark Kubernetes Operator's SparkApplication ({@code spark.apache.org}) as a job kind.
 * Immutable and thread safe. Not a published API; obtain it from {@code SparkOperators.apache()}.
 */
public final class ApacheJobKind implements JobKind<SparkJobSpec> {
  /** What the status reader keeps of a listed copy, besides metadata: see {@link #statusFields}. */
  private static final Set<String> STATUS_FIELDS =
      Set.of("status", "spec.applicationTolerations.restartConfig");

  /** The label the operator puts on an application's pods, valued with the application's name. */
  public static final String APP_NAME_LABEL = "spark.operator/spark-app-name";

  private final ApacheOptions options;
  private final ResourceKind resourceKind;
  private final ApacheStatusMapper mapper;

  /**
   * Creates the kind.
   *
   * @param options the options
   */
  public ApacheJobKind(ApacheOptions options) {
    this.options = options;
    this.resourceKind =
        new ResourceKind(
            "spark.apache.org",
            options.apiVersion().text(),
            "sparkapplications",
            "SparkApplication");
    this.mapper = new ApacheStatusMapper(options.noStatusTimeout());
  }

  @Override
  public ResourceKind resourceKind() {
    return resourceKind;
  }

  @Override
  public String namespaceOf(SparkJobSpec spec) {
    return Manifests.require(spec).namespace();
  }

  @Override
  public JsonObject manifest(SparkJobSpec spec, JobIdentity identity) {
    Manifests.require(spec);
    JsonObject o = Manifests.skeleton(resourceKind, spec, identity);
    JsonObject s = new JsonObject();
    spec.mainClass().ifPresent(c -> s.addProperty("mainClass", c));
    Map<String, String> conf = new LinkedHashMap<>(spec.sparkConf());
    if (spec.type() == SparkJobSpec.Type.PYTHON) {
      // The operator runs the first non-empty of jars, pyFiles as the primary resource, so a
      // Python application's own file goes to pyFiles alone and extra jars only to spark.jars.
      s.addProperty("pyFiles", spec.mainApplicationFile());
      if (!spec.pyFiles().isEmpty()) {
        conf.put("spark.submit.pyFiles", String.join(",", spec.pyFiles()));
      }
      if (!spec.jars().isEmpty()) {
        conf.put("spark.jars", String.join(",", spec.jars()));
      }
    } else {
      // The jar in jars is the primary resource; the extra jars join it in spark.jars.
      s.addProperty("jars", spec.mainApplicationFile());
      if (!spec.jars().isEmpty()) {
        List<String> all = new ArrayList<>();
        all.add(spec.mainApplicationFile());
        all.addAll(spec.jars());
        conf.put("spark.jars", String.join(",", all));
      }
      if (!spec.pyFiles().isEmpty()) {
        conf.put("spark.submit.pyFiles", String.join(",", spec.pyFiles()));
      }
    }
    if (!spec.files().isEmpty()) {
      s.addProperty("files", String.join(",", spec.files()));
      conf.put("spark.files", String.join(",", spec.files()));
    }
    if (!spec.archives().isEmpty()) {
      conf.put("spark.archives", String.join(",", spec.archives()));
    }
    if (!spec.arguments().isEmpty()) {
      s.add("driverArgs", Json.array(spec.arguments()));
    }
    conf.put("spark.driver.cores", Integer.toString(spec.driverCores()));
    conf.put("spark.driver.memory", spec.driverMemory());
    conf.put("spark.executor.cores", Integer.toString(spec.executorCores()));
    conf.put("spark.executor.memory", spec.executorMemory());
    conf.put("spark.executor.instances", Integer.toString(spec.executorInstances()));
    spec.image().ifPresent(i -> conf.put("spark.kubernetes.container.image", i));
    spec.serviceAccount()
        .ifPresent(
            a -> {
              conf.put("spark.kubernetes.authenticate.driver.serviceAccountName", a);
              conf.put("spark.kubernetes.authenticate.executor.serviceAccountName", a);
            });
    spec.environment()
        .forEach(
            (k, v) -> {
              conf.put("spark.kubernetes.driverEnv." + k, v);
              conf.put("spark.executorEnv." + k, v);
            });
    s.add("sparkConf", Json.strings(conf));
    JsonObject runtime = new JsonObject();
    runtime.addProperty("sparkVersion", spec.sparkVersion());
    s.add("runtimeVersions", runtime);
    Map<String, String> podLabels = Manifests.labels(spec, identity);
    s.add("driverSpec", podTemplate(podLabels));
    s.add("executorSpec", podTemplate(podLabels));
    JsonObject restart = new JsonObject();
    restart.addProperty("restartPolicy", options.restartPolicy().text());
    if (options.restartPolicy() != ApacheOptions.RestartPolicy.NEVER) {
      restart.addProperty("maxRestartAttempts", options.maxRestartAttempts());
    }
    JsonObject tolerations = new JsonObject();
    tolerations.add("restartConfig", restart);
    tolerations.addProperty("resourceRetainPolicy", options.resourceRetainPolicy().text());
    options
        .resourceRetainDuration()
        .ifPresent(d -> tolerations.addProperty("resourceRetainDurationMillis", d.toMillis()));
    JsonObject timeouts = new JsonObject();
    options
        .driverStartTimeout()
        .ifPresent(d -> timeouts.addProperty("driverStartTimeoutMillis", d.toMillis()));
    options
        .driverReadyTimeout()
        .ifPresent(d -> timeouts.addProperty("driverReadyTimeoutMillis", d.toMillis()));
    options
        .executorStartTimeout()
        .ifPresent(d -> timeouts.addProperty("executorStartTimeoutMillis", d.toMillis()));
    if (timeouts.size() > 0) {
      tolerations.add("applicationTimeoutConfig", timeouts);
    }
    options
        .ttlAfterStop()
        .ifPresent(d -> tolerations.addProperty("ttlAfterStopMillis", d.toMillis()));
    s.add("applicationTolerations", tolerations);
    o.add("spec", s);
    return o;
  }

  /**
   * A pod template with kubejobs' labels and an empty pod {@code spec}. The operator hands the
   * template to Spark's pod template loader, which fails with a NullPointerException on a template
   * without a {@code spec} (the job then ends in {@code SchedulingFailure} before any driver
   * exists), although the CRD's schema allows one.
   */
  private static JsonObject podTemplate(Map<String, String> labels) {
    JsonObject metadata = new JsonObject();
    metadata.add("labels", Json.strings(labels));
    JsonObject template = new JsonObject();
    template.add("metadata", metadata);
    template.add("spec", new JsonObject());
    JsonObject spec = new JsonObject();
    spec.add("podTemplateSpec", template);
    return spec;
  }

  @Override
  public JobStatusMapper statusMapper() {
    return mapper;
  }

  /**
   * Returns what the mapper and the driver pod methods read besides {@code metadata}: the status,
   * and the restart policy of {@code spec.applicationTolerations.restartConfig}. {@code
   * StatusFieldsTest} checks that every state maps the same from these fields alone.
   */
  @Override
  public Set<String> statusFields() {
    return STATUS_FIELDS;
  }

  @Override
  public Optional<String> driverPodName(ResourceSnapshot application) {
    return ApacheStatusMapper.driverPodName(application);
  }

  @Override
  public String driverPodSelector(ResourceSnapshot application) {
    return PodFacts.driverSelector(APP_NAME_LABEL, application);
  }

  @Override
  public Optional<String> driverPodsSelector(Collection<ResourceSnapshot> applications) {
    return Optional.of(PodFacts.driversSelector(APP_NAME_LABEL, applications));
  }

  @Override
  public String driverContainerName(ResourceSnapshot application) {
    return StatusRules.DRIVER_CONTAINER;
  }

  @Override
  public String toString() {
    return "ApacheJobKind{"
        + resourceKind.qualifiedPlural()
        + "/"
        + resourceKind.version()
        + ", "
        + options
        + "}";
  }
}
