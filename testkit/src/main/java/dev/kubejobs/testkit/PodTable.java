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
package dev.kubejobs.testkit;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A pod's Table row as kube-apiserver's built-in printer makes it: {@code printPod} in kubernetes
 * {@code pkg/printers/internalversion/printers.go} (commit 51652d1c). The server always prints wide
 * ({@code printerstorage.TableConvertor} passes {@code Wide: true}); kubectl hides the priority-1
 * columns unless {@code -o wide}.
 */
final class PodTable {

  private PodTable() {}

  /** Name, Ready, Status, Restarts, Age, then IP, Node, Nominated Node, Readiness Gates. */
  static JsonArray columnDefinitions(JsonObject nameColumn) {
    JsonArray defs = new JsonArray();
    defs.add(nameColumn);
    defs.add(
        column("Ready", 0, "The aggregate readiness state of this pod for accepting traffic."));
    defs.add(column("Status", 0, "The aggregate status of the containers in this pod."));
    defs.add(
        column(
            "Restarts",
            0,
            "The number of times the containers in this pod have been restarted and when the last"
                + " container in this pod has restarted."));
    defs.add(
        column(
            "Age",
            0,
            "CreationTimestamp is a timestamp representing the server time when this object was"
                + " created."));
    defs.add(
        column(
            "IP",
            1,
            "podIP address allocated to the pod. Routable at least within the cluster. Empty if"
                + " not yet allocated."));
    defs.add(column("Node", 1, "NodeName indicates in which node this pod is scheduled."));
    defs.add(
        column(
            "Nominated Node",
            1,
            "nominatedNodeName is set only when this pod preempts other pods on the node."));
    defs.add(
        column(
            "Readiness Gates",
            1,
            "If specified, all readiness gates will be evaluated for pod readiness."));
    return defs;
  }

  private static JsonObject column(String name, int priority, String description) {
    JsonObject c = new JsonObject();
    c.addProperty("name", name);
    c.addProperty("type", "string");
    c.addProperty("format", "");
    c.addProperty("description", description);
    c.addProperty("priority", priority);
    return c;
  }

  /** A pod's cells, and the row's conditions for a finished pod (null otherwise). */
  record Row(JsonArray cells, JsonArray conditions) {}

  /**
   * Prints one pod.
   *
   * @param age the age of a timestamp by the server's clock, as {@code translateTimestampSince}
   */
  static Row row(JsonObject pod, Function<String, String> age) {
    JsonObject meta = obj(pod, "metadata");
    JsonObject spec = obj(pod, "spec");
    JsonObject status = obj(pod, "status");
    int restarts = 0;
    int restartableInitRestarts = 0;
    int total = arr(spec, "containers").size();
    int ready = 0;
    Instant lastRestart = null;
    Instant lastRestartableInitRestart = null;
    String phase = str(status, "phase");
    String reason = phase == null ? "" : phase;
    if (str(status, "reason") != null && !str(status, "reason").isEmpty()) {
      reason = str(status, "reason");
    }
    for (JsonElement c : arr(status, "conditions")) {
      if ("PodScheduled".equals(str(c.getAsJsonObject(), "type"))
          && "SchedulingGated".equals(str(c.getAsJsonObject(), "reason"))) {
        reason = "SchedulingGated";
      }
    }
    JsonArray conditions = null;
    if ("Succeeded".equals(phase)) {
      conditions = finished("Succeeded", "The pod has completed successfully.");
    } else if ("Failed".equals(phase)) {
      conditions = finished("Failed", "The pod failed.");
    }
    Map<String, JsonObject> initContainers = new HashMap<>();
    JsonArray initSpecs = arr(spec, "initContainers");
    for (JsonElement e : initSpecs) {
      initContainers.put(str(e.getAsJsonObject(), "name"), e.getAsJsonObject());
      if (restartable(e.getAsJsonObject())) {
        total++;
      }
    }
    boolean initializing = false;
    JsonArray initStatuses = arr(status, "initContainerStatuses");
    for (int i = 0; i < initStatuses.size(); i++) {
      JsonObject c = initStatuses.get(i).getAsJsonObject();
      int count = integer(c, "restartCount");
      restarts += count;
      Instant finished = lastTerminatedAt(c);
      lastRestart = later(lastRestart, finished);
      boolean sidecar = restartable(initContainers.get(str(c, "name")));
      if (sidecar) {
        restartableInitRestarts += count;
        lastRestartableInitRestart = later(lastRestartableInitRestart, finished);
      }
      JsonObject state = obj(c, "state");
      JsonObject terminated = state.get("terminated") instanceof JsonObject t ? t : null;
      JsonObject waiting = state.get("waiting") instanceof JsonObject w ? w : null;
      if (terminated != null && integer(terminated, "exitCode") == 0) {
        continue;
      }
      if (sidecar && c.has("started") && c.get("started").getAsBoolean()) {
        if (bool(c, "ready")) {
          ready++;
        }
        continue;
      }
      if (terminated != null) {
        String r = str(terminated, "reason");
        if (r == null || r.isEmpty()) {
          reason =
              integer(terminated, "signal") != 0
                  ? "Init:Signal:" + integer(terminated, "signal")
                  : "Init:ExitCode:" + integer(terminated, "exitCode");
        } else {
          reason = "Init:" + r;
        }
      } else if (waiting != null
          && str(waiting, "reason") != null
          && !str(waiting, "reason").isEmpty()
          && !"PodInitializing".equals(str(waiting, "reason"))) {
        reason = "Init:" + str(waiting, "reason");
      } else {
        reason = "Init:" + i + "/" + initSpecs.size();
      }
      initializing = true;
      break;
    }
    if (!initializing || conditionTrue(status, "Initialized")) {
      restarts = restartableInitRestarts;
      lastRestart = lastRestartableInitRestart;
      boolean hasRunning = false;
      JsonArray statuses = arr(status, "containerStatuses");
      for (int i = statuses.size() - 1; i >= 0; i--) {
        JsonObject c = statuses.get(i).getAsJsonObject();
        restarts += integer(c, "restartCount");
        lastRestart = later(lastRestart, lastTerminatedAt(c));
        JsonObject state = obj(c, "state");
        JsonObject terminated = state.get("terminated") instanceof JsonObject t ? t : null;
        JsonObject waiting = state.get("waiting") instanceof JsonObject w ? w : null;
        if (waiting != null
            && str(waiting, "reason") != null
            && !str(waiting, "reason").isEmpty()) {
          reason = str(waiting, "reason");
        } else if (terminated != null
            && str(terminated, "reason") != null
            && !str(terminated, "reason").isEmpty()) {
          reason = str(terminated, "reason");
        } else if (terminated != null) {
          reason =
              integer(terminated, "signal") != 0
                  ? "Signal:" + integer(terminated, "signal")
                  : "ExitCode:" + integer(terminated, "exitCode");
        } else if (bool(c, "ready") && state.get("running") instanceof JsonObject) {
          hasRunning = true;
          ready++;
        }
      }
      if (reason.equals("Completed") && hasRunning) {
        reason = conditionTrue(status, "Ready") ? "Running" : "NotReady";
      }
    }
    boolean deleting = meta.has("deletionTimestamp") && !meta.get("deletionTimestamp").isJsonNull();
    if (deleting && "NodeLost".equals(str(status, "reason"))) {
      reason = "Unknown";
    } else if (deleting && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
      reason = "Terminating";
    }
    String restartsCell = Integer.toString(restarts);
    if (restarts != 0 && lastRestart != null) {
      restartsCell = restarts + " (" + age.apply(lastRestart.toString()) + " ago)";
    }
    JsonArray cells = new JsonArray();
    cells.add(str(meta, "name"));
    cells.add(ready + "/" + total);
    cells.add(reason);
    cells.add(restartsCell);
    String created = str(meta, "creationTimestamp");
    cells.add(created == null ? "<unknown>" : age.apply(created));
    String ip = "";
    JsonArray ips = arr(status, "podIPs");
    if (!ips.isEmpty() && str(ips.get(0).getAsJsonObject(), "ip") != null) {
      ip = str(ips.get(0).getAsJsonObject(), "ip");
    }
    cells.add(ip.isEmpty() ? "<none>" : ip);
    cells.add(orNone(str(spec, "nodeName")));
    cells.add(orNone(str(status, "nominatedNodeName")));
    JsonArray gates = arr(spec, "readinessGates");
    if (gates.isEmpty()) {
      cells.add("<none>");
    } else {
      int trueGates = 0;
      for (JsonElement g : gates) {
        String type = str(g.getAsJsonObject(), "conditionType");
        for (JsonElement c : arr(status, "conditions")) {
          if (type != null && type.equals(str(c.getAsJsonObject(), "type"))) {
            if ("True".equals(str(c.getAsJsonObject(), "status"))) {
              trueGates++;
            }
            break;
          }
        }
      }
      cells.add(trueGates + "/" + gates.size());
    }
    return new Row(cells, conditions);
  }

  private static JsonArray finished(String reason, String message) {
    JsonObject c = new JsonObject();
    c.addProperty("type", "Completed");
    c.addProperty("status", "True");
    c.addProperty("reason", reason);
    c.addProperty("message", message);
    JsonArray a = new JsonArray();
    a.add(c);
    return a;
  }

  private static boolean restartable(JsonObject container) {
    return container != null && "Always".equals(str(container, "restartPolicy"));
  }

  private static boolean conditionTrue(JsonObject status, String type) {
    for (JsonElement c : arr(status, "conditions")) {
      if (type.equals(str(c.getAsJsonObject(), "type"))
          && "True".equals(str(c.getAsJsonObject(), "status"))) {
        return true;
      }
    }
    return false;
  }

  private static Instant lastTerminatedAt(JsonObject containerStatus) {
    JsonObject last = obj(containerStatus, "lastState");
    if (!(last.get("terminated") instanceof JsonObject t) || str(t, "finishedAt") == null) {
      return null;
    }
    try {
      return Instant.parse(str(t, "finishedAt"));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Instant later(Instant a, Instant b) {
    if (b == null) {
      return a;
    }
    return a == null || a.isBefore(b) ? b : a;
  }

  private static String orNone(String s) {
    return s == null || s.isEmpty() ? "<none>" : s;
  }

  private static JsonObject obj(JsonObject o, String key) {
    return o != null && o.get(key) instanceof JsonObject v ? v : new JsonObject();
  }

  private static JsonArray arr(JsonObject o, String key) {
    return o != null && o.get(key) instanceof JsonArray v ? v : new JsonArray();
  }

  private static String str(JsonObject o, String key) {
    return o != null && o.get(key) != null && o.get(key).isJsonPrimitive()
        ? o.get(key).getAsString()
        : null;
  }

  private static int integer(JsonObject o, String key) {
    return o != null && o.get(key) != null && o.get(key).isJsonPrimitive()
        ? o.get(key).getAsInt()
        : 0;
  }

  private static boolean bool(JsonObject o, String key) {
    return o != null
        && o.get(key) != null
        && o.get(key).isJsonPrimitive()
        && o.get(key).getAsBoolean();
  }
}
