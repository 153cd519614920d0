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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.ResourceSnapshot;
import java.time.Instant;
import java.util.Optional;

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

  /** Reads the facts of the named container (or of the first container when it is absent). */
  static PodFacts of(ResourceSnapshot pod, String containerName) {
    JsonObject json = pod.json();
    String phase = Json.string(json, "status", "phase").orElse("");
    JsonObject container = null;
    JsonElement statuses = Json.at(json, "status", "containerStatuses");
    if (statuses != null && statuses.isJsonArray()) {
      for (JsonElement s : statuses.getAsJsonArray()) {
        if (s.isJsonObject()
            && Json.string(s.getAsJsonObject(), "name").orElse("").equals(containerName)) {
          container = s.getAsJsonObject();
        }
      }
      if (container == null
          && statuses.getAsJsonArray().size() == 1
          && statuses.getAsJsonArray().get(0).isJsonObject()) {
        container = statuses.getAsJsonArray().get(0).getAsJsonObject();
      }
    }
    Instant started = null;
    Instant finished = null;
    Integer exit = null;
    String reason = "";
    if (container != null) {
      Optional<JsonObject> running = Json.object(container, "state", "running");
      Optional<JsonObject> terminated = Json.object(container, "state", "terminated");
      if (running.isPresent()) {
        started = Json.time(running.get(), "startedAt").orElse(null);
      } else if (terminated.isPresent()) {
        JsonObject t = terminated.get();
        started = Json.time(t, "startedAt").orElse(null);
        finished = Json.time(t, "finishedAt").orElse(null);
        exit = Json.number(t, "exitCode").map(Long::intValue).orElse(null);
        String r = Json.string(t, "reason").orElse("");
        String m = Json.string(t, "message").orElse("");
        reason = (r + (r.isEmpty() || m.isEmpty() ? "" : ": ") + m).trim();
      }
    }
    return new PodFacts(pod.name(), pod.isBeingDeleted(), phase, started, finished, exit, reason);
  }

  /** Returns whether the driver container terminated with a known exit code. */
  boolean terminated() {
    return exitCode != null;
  }

  /** Returns whether the pod still runs or may still run its driver (not ended, not deleting). */
  boolean stillRuns() {
    return !deleting && !terminated() && !phase.equals("Succeeded") && !phase.equals("Failed");
  }
}
