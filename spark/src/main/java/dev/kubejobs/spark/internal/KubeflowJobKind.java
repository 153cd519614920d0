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

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.KubeflowOptions;
import dev.kubejobs.spark.SparkJobSpec;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Kubeflow Spark operator's SparkApplication ({@code sparkoperator.k8s.io/v1beta2}) as a job
 * kind. Immutable and thread safe. Not a published API; obtain it from {@code
 * SparkOperators.kubeflow()}.
 */
public final class KubeflowJobKind implements JobKind<SparkJobSpec> {
  /** What the status reader keeps of a listed copy, besides metadata: see {@link #statusFields}. */
  private static final Set<String> STATUS_FIELDS =
      Set.of("status", "spec.driver.podName", "spec.restartPolicy");

  /** The label the operator puts on an application's pods, valued with the application's name. */
  public static final String APP_NAME_LABEL = "sparkoperator.k8s.io/app-name";

  private static final ResourceKind KIND =
      new ResourceKind("sparkoperator.k8s.io", "v1beta2", "sparkapplications", "SparkApplication");

  private final KubeflowOptions options;
  private final KubeflowStatusMapper mapper;

  /**
   * Creates the kind.
   *
   * @param options the options
   */
  public KubeflowJobKind(KubeflowOptions options) {
    this.options = options;
    this.mapper = new KubeflowStatusMapper(options.noStatusTimeout());
  }

  @Override
  public ResourceKind resourceKind() {
    return KIND;
  }

  @Override
  public String namespaceOf(SparkJobSpec spec) {
    return Manifests.require(spec).namespace();
  }

  @Override
  public JsonObject manifest(SparkJobSpec spec, JobIdentity identity) {
    Manifests.require(spec);
    JsonObject o = Manifests.skeleton(KIND, spec, identity);
    JsonObject s = new JsonObject();
    s.addProperty("type", typeOf(spec.type()));
    s.addProperty("mode", "cluster");
    s.addProperty("sparkVersion", spec.sparkVersion());
    spec.image().ifPresent(i -> s.addProperty("image", i));
    s.addProperty("mainApplicationFile", spec.mainApplicationFile());
    spec.mainClass().ifPresent(c -> s.addProperty("mainClass", c));
    if (!spec.arguments().isEmpty()) {
      s.add("arguments", Json.array(spec.arguments()));
    }
    if (!spec.sparkConf().isEmpty()) {
      s.add("sparkConf", Json.strings(spec.sparkConf()));
    }
    JsonObject deps = new JsonObject();
    if (!spec.jars().isEmpty()) {
      deps.add("jars", Json.array(spec.jars()));
    }
    if (!spec.files().isEmpty()) {
      deps.add("files", Json.array(spec.files()));
    }
    if (!spec.pyFiles().isEmpty()) {
      deps.add("pyFiles", Json.array(spec.pyFiles()));
    }
    if (!spec.archives().isEmpty()) {
      deps.add("archives", Json.array(spec.archives()));
    }
    if (deps.size() > 0) {
      s.add("deps", deps);
    }
    Map<String, String> podLabels = Manifests.labels(spec, identity);
    JsonObject driver = pod(spec.driverCores(), spec.driverMemory(), spec, podLabels);
    s.add("driver", driver);
    JsonObject executor = pod(spec.executorCores(), spec.executorMemory(), spec, podLabels);
    executor.addProperty("instances", spec.executorInstances());
    s.add("executor", executor);
    JsonObject restart = new JsonObject();
    restart.addProperty("type", options.restartPolicy().text());
    if (options.restartPolicy() == KubeflowOptions.RestartPolicy.ON_FAILURE) {
      restart.addProperty("onFailureRetries", options.onFailureRetries());
      restart.addProperty("onSubmissionFailureRetries", options.onFailureRetries());
    }
    s.add("restartPolicy", restart);
    o.add("spec", s);
    return o;
  }

  private static JsonObject pod(
      int cores, String memory, SparkJobSpec spec, Map<String, String> labels) {
    JsonObject p = new JsonObject();
    p.addProperty("cores", cores);
    p.addProperty("memory", memory);
    spec.serviceAccount().ifPresent(a -> p.addProperty("serviceAccount", a));
    p.add("labels", Json.strings(labels));
    if (!spec.environment().isEmpty()) {
      JsonArray env = new JsonArray();
      spec.environment()
          .forEach(
              (k, v) -> {
                JsonObject e = new JsonObject();
                e.addProperty("name", k);
                e.addProperty("value", v);
                env.add(e);
              });
      p.add("env", env);
    }
    return p;
  }

  private static String typeOf(SparkJobSpec.Type type) {
    switch (type) {
      case SCALA:
        return "Scala";
      case PYTHON:
        return "Python";
      default:
        return "Java";
    }
  }

  @Override
  public JobStatusMapper statusMapper() {
    return mapper;
  }

  /**
   * Returns what the mapper and the driver pod methods read besides {@code metadata}: the status,
   * {@code spec.driver.podName} and {@code spec.restartPolicy}. {@code StatusFieldsTest} checks
   * that every state maps the same from these fields alone.
   */
  @Override
  public Set<String> statusFields() {
    return STATUS_FIELDS;
  }

  @Override
  public Optional<String> driverPodName(ResourceSnapshot application) {
    return Optional.of(KubeflowStatusMapper.driverPodName(application));
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
    return "KubeflowJobKind{"
        + KIND.qualifiedPlural()
        + "/"
        + KIND.version()
        + ", "
        + options
        + "}";
  }
}
