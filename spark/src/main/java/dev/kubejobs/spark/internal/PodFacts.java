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

import dev.kubejobs.core.spi.JsonView;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a driver pod tells about the driver: whether its container started, runs or terminated,
 * when, and with which exit code. Not a published API.
 *
 * @param name the pod's name
 * @param deleting whether the pod is being deleted
 * @param phase the pod's phase, or an empty string
 * @param startedAt when the driver container started, or null
 * @param finishedAt when the driver container terminated, or null
 * @param exitCode the driver container's exit code, or null unless terminated
 * @param reason the termination reason and message, or an empty string
 */
record PodFacts(
    String name,
    boolean deleting,
    String phase,
    Instant startedAt,
    Instant finishedAt,
    Integer exitCode,
    String reason) {

  /**
   * The label selector of one Spark application's driver pods, as both operators label them.
   *
   * @param appNameLabel the operator's label naming the application
   * @param application the application
   * @return {@code spark-role=driver,<label>=<name>}
   */
  static String driverSelector(String appNameLabel, ResourceSnapshot application) {
    return "spark-role=driver," + appNameLabel + "=" + application.name();
  }

  /**
   * One label selector for the driver pods of several Spark applications.
   *
   * @param appNameLabel the operator's label naming the application
   * @param applications the applications
   * @return {@code spark-role=driver,<label> in (<names, sorted>)}
   */
  static String driversSelector(String appNameLabel, Collection<ResourceSnapshot> applications) {
    return "spark-role=driver,"
        + appNameLabel
        + " in ("
        + applications.stream()
            .map(ResourceSnapshot::name)
            .distinct()
            .sorted()
            .collect(Collectors.joining(","))
        + ")";
  }

  /** Reads the facts of the named container (or of the first container when it is absent). */
  static PodFacts of(ResourceSnapshot pod, String containerName) {
    JsonView json = pod.view();
    String phase = json.string("status", "phase").orElse("");
    JsonView[] named = {null};
    JsonView statuses = json.get("status", "containerStatuses").orElse(null);
    JsonView container = null;
    if (statuses != null && statuses.isArray()) {
      statuses.forEach(
          s -> {
            if (s.isObject() && s.string("name").orElse("").equals(containerName)) {
              named[0] = s;
            }
          });
      container = named[0];
      if (container == null && statuses.size() == 1) {
        container = statuses.element(0).filter(JsonView::isObject).orElse(null);
      }
    }
    Instant started = null;
    Instant finished = null;
    Integer exit = null;
    String reason = "";
    if (container != null) {
      Optional<JsonView> running = container.object("state", "running");
      Optional<JsonView> terminated = container.object("state", "terminated");
      if (running.isPresent()) {
        started = running.get().time("startedAt").orElse(null);
      } else if (terminated.isPresent()) {
        JsonView t = terminated.get();
        started = t.time("startedAt").orElse(null);
        finished = t.time("finishedAt").orElse(null);
        exit = t.number("exitCode").map(Long::intValue).orElse(null);
        String r = t.string("reason").orElse("");
        String m = t.string("message").orElse("");
        reason = (r + (r.isEmpty() || m.isEmpty() ? "" : ": ") + m).trim();
      }
    }
    return new PodFacts(pod.name(), pod.isBeingDeleted(), phase, started, finished, exit, reason);
  }

  /** Returns whether the driver container terminated with a known exit code. */
  boolean terminated() {
    return exitCode != null;
  }

  /**
   * Returns whether the driver may still run: its container has not terminated and the pod has not
   * ended (being deleted does not stop it before the grace period).
   */
  boolean driverRuns() {
    return !terminated() && !podEnded();
  }

  /**
   * Returns whether the pod still runs or may still run, not being deleted: its driver runs, or the
   * driver terminated while another container (a sidecar) keeps the pod Running or Pending.
   */
  boolean podRuns() {
    if (deleting || podEnded()) {
      return false;
    }
    return !terminated() || phase.equals("Running") || phase.equals("Pending");
  }

  private boolean podEnded() {
    return phase.equals("Succeeded") || phase.equals("Failed");
  }
}
