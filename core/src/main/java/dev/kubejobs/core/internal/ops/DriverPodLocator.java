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

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.KubeGateway;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.KubernetesNames;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds jobs' driver pods for the status pipeline: one job's with a GET by the name its resource
 * tells (else a LIST by the kind's selector, the newest pod winning), or several jobs' of one
 * namespace with one labelled pod LIST per {@value #PODS_PER_LIST} jobs when the job kind can
 * select them at once ({@link JobKind#driverPodsSelector}). A forbidden lookup is not a failure:
 * the pod is {@link DriverPod#unavailable} and the operator is warned once. Not a published API;
 * thread safe.
 */
final class DriverPodLocator {
  private static final Logger LOG = LoggerFactory.getLogger(DriverPodLocator.class);

  /** How many jobs' driver pods one pod LIST selects at most (keeps the URL short). */
  static final int PODS_PER_LIST = 200;

  private final KubeJobsContext<?> ctx;
  private final KubeGateway gateway;
  private final JobKind<?> kind;

  DriverPodLocator(KubeJobsContext<?> ctx) {
    this.ctx = ctx;
    this.gateway = ctx.gateway();
    this.kind = ctx.jobKind();
  }

  /** The outcome of looking up one job's driver pod: the pod as known, or why the lookup failed. */
  sealed interface Located permits Located.Pod, Located.Failed {
    /** The pod as the lookup found it (found, absent or unavailable). */
    record Pod(DriverPod pod) implements Located {}

    /** The lookup failed (for example the API server was unavailable). */
    record Failed(KubeJobsException error) implements Located {}

    /** The pod, or the lookup's failure thrown. */
    default DriverPod orElseThrow() {
      if (this instanceof Failed failed) {
        throw failed.error();
      }
      return ((Pod) this).pod();
    }
  }

  /**
   * Looks up one job's driver pod: by the name the resource tells, else by the kind's selector (the
   * newest pod wins).
   *
   * @throws KubeJobsException if the lookup failed other than by a missing permission
   */
  DriverPod locate(ExecutionId id, ResourceSnapshot app) {
    DriverRef ref = driverRef(id, app);
    if (ref.unusable() != null) {
      return ref.unusable();
    }
    try {
      if (ref.name() != null) {
        return gateway
            .getPod(id, id.namespace(), ref.name())
            .map(DriverPod::found)
            .orElse(DriverPod.absent());
      }
      return newest(gateway.listPods(id, id.namespace(), ref.selector()));
    } catch (JobRejectedException e) {
      if (e.reason() != JobRejectedException.Reason.FORBIDDEN) {
        throw e;
      }
      return podsForbidden(id.namespace(), ref.name() != null ? "get" : "list");
    }
  }

  /**
   * Looks up the driver pods of several jobs of one namespace at once, with one labelled pod LIST
   * per {@value #PODS_PER_LIST} jobs, when there are at least two and the job kind can select them
   * at once.
   *
   * @param apps the jobs and their copies, in the order to look them up
   * @return per job what was found; a job missing from the map is to be looked up alone
   */
  Map<ExecutionId, Located> locateAll(String ns, Map<ExecutionId, ResourceSnapshot> apps) {
    Map<ExecutionId, Located> out = new HashMap<>();
    if (apps.size() < 2) {
      return out;
    }
    List<Map.Entry<ExecutionId, ResourceSnapshot>> wanting = new ArrayList<>(apps.entrySet());
    for (int from = 0; from < wanting.size(); from += PODS_PER_LIST) {
      List<Map.Entry<ExecutionId, ResourceSnapshot>> chunk =
          wanting.subList(from, Math.min(wanting.size(), from + PODS_PER_LIST));
      List<ResourceSnapshot> copies = new ArrayList<>(chunk.size());
      chunk.forEach(e -> copies.add(e.getValue()));
      Optional<String> selector;
      try {
        selector = kind.driverPodsSelector(copies);
      } catch (RuntimeException e) {
        LOG.debug("The job kind could not select several driver pods at once: {}", e.toString());
        selector = Optional.empty();
      }
      if (selector.isEmpty()) {
        return out;
      }
      List<ResourceSnapshot> pods;
      try {
        pods = gateway.listPods(chunk.get(0).getKey(), ns, selector.get());
      } catch (JobRejectedException e) {
        Located failed =
            e.reason() == JobRejectedException.Reason.FORBIDDEN
                ? new Located.Pod(podsForbidden(ns, "list"))
                : new Located.Failed(e);
        chunk.forEach(c -> out.put(c.getKey(), failed));
        continue;
      } catch (KubeJobsException e) {
        chunk.forEach(c -> out.put(c.getKey(), new Located.Failed(e)));
        continue;
      }
      for (Map.Entry<ExecutionId, ResourceSnapshot> c : chunk) {
        DriverPod pod = match(c.getKey(), c.getValue(), pods);
        if (pod != null) {
          out.put(c.getKey(), new Located.Pod(pod));
        }
      }
    }
    return out;
  }

  /**
   * Finds a job's driver pod among a namespace's listed driver pods, as {@link #locate} would: by
   * name, else by the job's own selector (newest wins).
   *
   * @return the pod, or null when the job's selector cannot be matched here (look it up alone)
   */
  private DriverPod match(ExecutionId id, ResourceSnapshot app, List<ResourceSnapshot> pods) {
    DriverRef ref = driverRef(id, app);
    if (ref.unusable() != null) {
      return ref.unusable();
    }
    if (ref.name() != null) {
      for (ResourceSnapshot pod : pods) {
        if (pod.name().equals(ref.name())) {
          return DriverPod.found(pod);
        }
      }
      return DriverPod.absent();
    }
    Map<String, String> required = EqualitySelector.parse(ref.selector());
    if (required == null) {
      return null;
    }
    List<ResourceSnapshot> matching = new ArrayList<>();
    for (ResourceSnapshot pod : pods) {
      if (pod.labels().entrySet().containsAll(required.entrySet())) {
        matching.add(pod);
      }
    }
    return newest(matching);
  }

  /**
   * What a job's resource tells of its driver pod: exactly one of a valid pod name, the selector
   * that finds it, or a pod that cannot be looked up (decide without it).
   */
  private record DriverRef(String name, String selector, DriverPod unusable) {}

  /** Reads what a job's resource tells of its driver pod, never throwing on server data. */
  private DriverRef driverRef(ExecutionId id, ResourceSnapshot app) {
    try {
      Optional<String> name = kind.driverPodName(app).filter(n -> !n.isEmpty());
      if (name.isEmpty()) {
        return new DriverRef(null, kind.driverPodSelector(app), null);
      }
      if (!KubernetesNames.isDns1123Subdomain(name.get())) {
        // Server data (for example status.driverInfo.podName "x/../y"): never a path, never a
        // throw.
        return new DriverRef(
            null,
            null,
            unusableDriverReference(
                id, "the resource names an invalid driver pod '" + abbreviate(name.get()) + "'"));
      }
      return new DriverRef(name.get(), null, null);
    } catch (RuntimeException e) {
      return new DriverRef(
          null,
          null,
          unusableDriverReference(id, "the job kind could not name its driver pod (" + e + ")"));
    }
  }

  /** The latest attempt's pod, or absent. */
  static DriverPod newest(List<ResourceSnapshot> pods) {
    return pods.stream()
        .max(
            Comparator.comparing(
                    (ResourceSnapshot p) -> p.creationTimestamp().orElse(Instant.EPOCH))
                .thenComparing(ResourceSnapshot::name))
        .map(DriverPod::found)
        .orElse(DriverPod.absent());
  }

  /** Pods may not be read: warn once, decide from the application alone. */
  private DriverPod podsForbidden(String namespace, String verb) {
    String reason = "missing permission: " + verb + " pods in namespace " + namespace;
    ctx.warnings()
        .warn(
            LOG,
            "cannot look up driver pods: "
                + reason
                + "; finished jobs fall back to the application's own record. Grant it (see"
                + " docs/rbac.yaml)");
    return DriverPod.unavailable(reason);
  }

  /** A driver pod that cannot be looked up from what the resource says: decide without it. */
  private DriverPod unusableDriverReference(ExecutionId id, String reason) {
    ctx.warnings()
        .warn(
            LOG,
            reason + "; its status is decided from the resource alone",
            "job '" + id + "': " + reason + "; its status is decided from the resource alone");
    return DriverPod.unavailable(reason);
  }

  private static String abbreviate(String text) {
    return text.length() <= 100 ? text : text.substring(0, 100) + "…";
  }
}
