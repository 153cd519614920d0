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
package dev.kubejobs.core.internal.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.ApiStatusException;
import dev.kubejobs.core.logs.DriverLog;
import dev.kubejobs.core.logs.DriverLogReader;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link DriverLogReader} of a {@code KubeJobs} instance: reads the job's resource, finds the
 * latest driver pod, and streams the driver container's log through a {@link LogTail}, all through
 * the instance's gateway. Not a published API. Thread safe (stateless).
 */
public final class DefaultDriverLogReader implements DriverLogReader {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultDriverLogReader.class);
  private static final Comparator<ResourceSnapshot> NEWEST_LAST =
      Comparator.comparing((ResourceSnapshot p) -> p.creationTimestamp().orElse(Instant.MIN))
          .thenComparing(ResourceSnapshot::name);

  private final KubeJobsContext<?> context;

  /**
   * Creates the reader of an instance.
   *
   * @param context the instance's settings and gateway
   */
  public DefaultDriverLogReader(KubeJobsContext<?> context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  @Override
  public DriverLog tail(ExecutionId id, int maxLines, int maxBytes) {
    if (id == null) {
      throw new IllegalArgumentException("execution id must not be null");
    }
    if (maxLines < 0 || maxBytes < 0) {
      throw new IllegalArgumentException(
          "maxLines and maxBytes must be zero or more, but were " + maxLines + " and " + maxBytes);
    }
    if (maxLines == 0 || maxBytes == 0) {
      return DriverLog.empty();
    }
    try {
      context.check(id);
      return read(id, maxLines, maxBytes);
    } catch (RuntimeException e) {
      // Best effort: the log never fails the caller. Messages name operations, never credentials.
      LOG.warn("Could not read the driver log of job '{}': {}", id, e.getMessage());
      LOG.debug("Driver log failure of job '{}'", id, e);
      return DriverLog.empty();
    }
  }

  private DriverLog read(ExecutionId id, int maxLines, int maxBytes) {
    JobKind<?> kind = context.jobKind();
    String ns = id.namespace();
    ResourceSnapshot app = null;
    try {
      app = context.gateway().get(id, kind.resourceKind(), ns, id.name()).orElse(null);
    } catch (JobRejectedException e) {
      // The pods may still be readable: look for them by label.
      LOG.debug("Could not read the resource of job '{}': {}", id, e.getMessage());
    }
    ResourceSnapshot basis = app != null ? app : stub(id);
    Optional<ResourceSnapshot> pod;
    try {
      pod = findDriverPod(id, kind, app, basis);
    } catch (JobRejectedException e) {
      return forbidden(id, "get and list pods", e);
    }
    if (pod.isEmpty()) {
      LOG.debug("Job '{}' has no driver pod (yet or any more): no driver log", id);
      return DriverLog.empty();
    }
    String podName = pod.get().name();
    String container = containerOf(pod.get(), kind.driverContainerName(basis));
    try {
      LogTail.Result tail =
          context
              .gateway()
              .readPodLog(
                  id,
                  ns,
                  podName,
                  container,
                  maxLines,
                  null,
                  in -> new LogTail(maxLines, maxBytes).read(in));
      return DriverLog.of(tail.lines(), podName, container, tail.truncated());
    } catch (JobRejectedException e) {
      return forbidden(id, "get pods/log", e);
    } catch (ApiStatusException e) {
      if (e.isNotFound()) {
        LOG.debug("Driver pod {} of job '{}' is gone: no driver log", podName, id);
      } else if (e.code() == 400 && notStartedYet(e.serverMessage())) {
        LOG.debug(
            "Driver container {} of job '{}' has not started: {}",
            container,
            id,
            e.serverMessage());
      } else {
        LOG.warn("Could not read the driver log of job '{}': {}", id, e.getMessage());
      }
      return DriverLog.empty();
    }
  }

  private Optional<ResourceSnapshot> findDriverPod(
      ExecutionId id, JobKind<?> kind, ResourceSnapshot app, ResourceSnapshot basis) {
    if (app != null) {
      Optional<String> named = kind.driverPodName(app);
      if (named.isPresent() && !named.get().isEmpty()) {
        Optional<ResourceSnapshot> pod = context.gateway().getPod(id, id.namespace(), named.get());
        if (pod.isPresent()) {
          return pod;
        }
        LOG.debug(
            "Driver pod {} named by job '{}' is gone; looking for the newest by label",
            named.get(),
            id);
      }
    }
    List<ResourceSnapshot> pods =
        context.gateway().listPods(id, id.namespace(), kind.driverPodSelector(basis));
    return pods.stream().max(NEWEST_LAST);
  }

  /**
   * The container to name: the job kind's driver container; if the pod has no container of that
   * name but exactly one container (a pod template renamed it), that one.
   */
  private static String containerOf(ResourceSnapshot pod, String expected) {
    List<String> names = new ArrayList<>();
    pod.spec()
        .map(spec -> spec.get("containers"))
        .filter(JsonElement::isJsonArray)
        .ifPresent(
            array -> {
              for (JsonElement c : array.getAsJsonArray()) {
                if (c.isJsonObject()
                    && c.getAsJsonObject().get("name") != null
                    && c.getAsJsonObject().get("name").isJsonPrimitive()) {
                  names.add(c.getAsJsonObject().get("name").getAsString());
                }
              }
            });
    if (names.size() == 1 && !names.contains(expected)) {
      return names.get(0);
    }
    return expected;
  }

  private static boolean notStartedYet(String message) {
    return message.contains("waiting to start")
        || message.contains("ContainerCreating")
        || message.contains("PodInitializing");
  }

  private DriverLog forbidden(ExecutionId id, String permission, JobRejectedException e) {
    context
        .warnings()
        .warn(
            LOG,
            "Driver logs in namespace '"
                + id.namespace()
                + "' cannot be read: the service account may not "
                + permission
                + " there; grant it (see docs/rbac.yaml, or run the preflight check)");
    LOG.debug("Driver log of job '{}' forbidden: {}", id, e.getMessage());
    return DriverLog.empty();
  }

  /** The job's resource when it is gone: its name and namespace, for the selector. */
  private static ResourceSnapshot stub(ExecutionId id) {
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", id.name());
    metadata.addProperty("namespace", id.namespace());
    JsonObject object = new JsonObject();
    object.add("metadata", metadata);
    return ResourceSnapshot.of(object);
  }
}
