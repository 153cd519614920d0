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
package dev.kubejobs.core.spi;

import com.google.gson.JsonObject;
import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobIdentity;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * What core needs to know of one kind of job resource, such as a Spark operator's {@code
 * SparkApplication}: how to build it from a job spec, where it runs, how to map its status and how
 * to find its driver pod. The {@code kubejobs-spark} module provides one per Spark operator.
 *
 * <p>Implementations must be immutable and thread safe; all methods are pure.
 *
 * @param <S> the job spec type
 */
public interface JobKind<S> {
  /**
   * Returns the resource kind jobs are created as.
   *
   * @return the kind, with the API version that is written
   */
  ResourceKind resourceKind();

  /**
   * Returns the namespace the job runs in.
   *
   * @param spec the job spec
   * @return a DNS-1123 label
   */
  String namespaceOf(S spec);

  /**
   * Builds the resource to create: {@code apiVersion}, {@code kind}, {@code metadata} (name,
   * namespace, the identity's labels and annotations plus the spec's own) and {@code spec}.
   *
   * @param spec the job spec
   * @param identity the job's identity on the cluster
   * @return a new JSON object
   * @throws InvalidJobSpecException if the spec cannot be turned into a valid resource
   */
  JsonObject manifest(S spec, JobIdentity identity);

  /**
   * Returns the status mapper for resources of this kind.
   *
   * @return the mapper
   */
  JobStatusMapper statusMapper();

  /**
   * Returns the fields of the resource that {@link #statusMapper()} and the driver pod methods read
   * besides {@code metadata}, as dotted paths such as {@code status} or {@code
   * spec.restartPolicy.type} (a path keeps the whole value it names). The status reader then parses
   * only these of each copy it lists, and keeps only these: {@code apiVersion}, {@code kind} and
   * {@code metadata} without {@code managedFields} always stay, every other field is skipped
   * without being built. On a busy cluster that is most of a LIST's parsing cost and of the cache's
   * memory, as client-go informers strip what their users do not read.
   *
   * <p>A mapper must therefore answer the same for a resource and for what these fields keep of it:
   * a copy read with a GET, or from a watch, may still be whole. The default, empty, keeps every
   * copy whole.
   *
   * @return dotted field paths; empty keeps the whole resource
   */
  default Set<String> statusFields() {
    return Set.of();
  }

  /**
   * Returns the driver pod's name when the resource tells it.
   *
   * @param application the job's resource
   * @return the pod name, or empty when it must be found by {@link #driverPodSelector}
   */
  Optional<String> driverPodName(ResourceSnapshot application);

  /**
   * Returns the label selector that finds the job's driver pods; when several match, the newest
   * (latest attempt) wins.
   *
   * @param application the job's resource
   * @return a label selector such as {@code spark-role=driver,spark.operator/spark-app-name=x}
   */
  String driverPodSelector(ResourceSnapshot application);

  /**
   * Returns one label selector that finds the driver pods of all the given applications at once, so
   * a status read looks up the pods of a namespace's failing jobs with one pod LIST instead of one
   * request per job. Every driver pod of each application, including the one {@link #driverPodName}
   * names, must match it; a pod is then matched to its application by that name or, when there is
   * none, by {@link #driverPodSelector}, which must be equality-based ({@code k=v} pairs) for that.
   *
   * <p>The default returns empty: pods are looked up one job at a time.
   *
   * @param applications the applications, all of one namespace, at least one
   * @return a label selector such as {@code spark-role=driver,spark.operator/spark-app-name in
   *     (a,b)}, or empty when this kind cannot find several jobs' pods with one selector
   */
  default Optional<String> driverPodsSelector(Collection<ResourceSnapshot> applications) {
    return Optional.empty();
  }

  /**
   * Returns the name of the driver container inside the driver pod.
   *
   * @param application the job's resource
   * @return the container name, for example {@code spark-kubernetes-driver}
   */
  String driverContainerName(ResourceSnapshot application);
}
