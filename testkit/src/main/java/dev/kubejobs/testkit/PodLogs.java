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

import static dev.kubejobs.testkit.ApiHandler.*;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Serves {@code GET .../pods/{name}/log}: the log set for a container, with the options
 * kube-apiserver checks ({@code container}, {@code tailLines}, ...). Thread safe.
 */
final class PodLogs {

  private final InMemoryStore store;

  PodLogs(InMemoryStore store) {
    this.store = store;
  }

  Answer podLog(Call call, String ns, String name) {
    JsonObject pod =
        store
            .get(ResourceType.POD, ns, name)
            .orElseThrow(() -> KubeStatus.notFound(ResourceType.POD, name));
    Set<String> containers = new LinkedHashSet<>();
    JsonObject spec = pod.get("spec") instanceof JsonObject s ? s : new JsonObject();
    for (String list : List.of("containers", "initContainers")) {
      if (spec.get(list) instanceof JsonArray a) {
        for (JsonElement c : a) {
          String cn = InMemoryStore.string(c.getAsJsonObject(), "name");
          if (cn != null && list.equals("containers")) {
            containers.add(cn);
          }
        }
      }
    }
    if (containers.isEmpty()) {
      containers.addAll(store.podLogContainers(ns, name));
    }
    String container = call.param("container");
    if (container == null || container.isEmpty()) {
      if (containers.size() > 1) {
        List<String> inits = initContainers(spec);
        throw KubeStatus.badRequest(
            "a container name must be specified for pod "
                + name
                + ", choose one of: "
                + "["
                + String.join(" ", containers)
                + "]"
                + (inits.isEmpty()
                    ? ""
                    : " or one of the init containers: [" + String.join(" ", inits) + "]"));
      }
      container = containers.isEmpty() ? "" : containers.iterator().next();
    } else if (!containers.contains(container) && !initContainers(spec).contains(container)) {
      throw KubeStatus.badRequest("container " + container + " is not valid for pod " + name);
    }
    String waiting = waitingReason(pod, container);
    if (waiting != null) {
      throw KubeStatus.badRequest(
          "container \""
              + container
              + "\" in pod \""
              + name
              + "\" is waiting to start: "
              + waiting);
    }
    checkLogOptions(call, name);
    String log = store.podLog(ns, name, container);
    String tail = call.param("tailLines");
    if (tail != null && !tail.isEmpty()) {
      log = tail(log, longParam(call, "tailLines"));
    }
    String limitBytes = call.param("limitBytes");
    if (limitBytes != null && !limitBytes.isEmpty()) {
      long limit = longParam(call, "limitBytes");
      byte[] bytes = log.getBytes(StandardCharsets.UTF_8);
      if (limit < bytes.length) {
        log = new String(Arrays.copyOf(bytes, (int) limit), StandardCharsets.UTF_8);
      }
    }
    return Answer.text(log);
  }

  /**
   * Validates the log options as {@code ValidatePodLogOptions} in {@code
   * pkg/apis/core/validation/validation.go} does: negative {@code tailLines} and {@code limitBytes}
   * below 1 answer 422 {@code Invalid} about {@code PodLogOptions}.
   */
  private static void checkLogOptions(Call call, String name) {
    List<KubeStatus.Cause> causes = new ArrayList<>();
    String tail = call.param("tailLines");
    if (tail != null && !tail.isEmpty() && longParam(call, "tailLines") < 0) {
      causes.add(
          new KubeStatus.Cause(
              "FieldValueInvalid",
              "tailLines: Invalid value: " + tail + ": must be greater than or equal to 0",
              "tailLines"));
    }
    String limit = call.param("limitBytes");
    if (limit != null && !limit.isEmpty() && longParam(call, "limitBytes") < 1) {
      causes.add(
          new KubeStatus.Cause(
              "FieldValueInvalid",
              "limitBytes: Invalid value: " + limit + ": must be greater than 0",
              "limitBytes"));
    }
    if (!causes.isEmpty()) {
      throw KubeStatus.invalid(POD_LOG_OPTIONS, name, causes);
    }
  }

  private static final ResourceType POD_LOG_OPTIONS =
      new ResourceType("", "v1", "podlogoptions", "PodLogOptions");

  /** The reason a container is waiting, from {@code status.containerStatuses}, or null. */
  private static String waitingReason(JsonObject pod, String container) {
    if (!(pod.get("status") instanceof JsonObject status)) {
      return null;
    }
    for (String list : List.of("containerStatuses", "initContainerStatuses")) {
      if (status.get(list) instanceof JsonArray statuses) {
        for (JsonElement e : statuses) {
          if (e instanceof JsonObject cs
              && container.equals(InMemoryStore.string(cs, "name"))
              && cs.get("state") instanceof JsonObject state
              && state.get("waiting") instanceof JsonObject w) {
            String reason = InMemoryStore.string(w, "reason");
            return reason == null ? "ContainerCreating" : reason;
          }
        }
      }
    }
    return null;
  }

  private static List<String> initContainers(JsonObject spec) {
    List<String> result = new ArrayList<>();
    if (spec.get("initContainers") instanceof JsonArray a) {
      for (JsonElement c : a) {
        result.add(InMemoryStore.string(c.getAsJsonObject(), "name"));
      }
    }
    return result;
  }

  private static String tail(String log, long lines) {
    if (lines < 0) {
      return log;
    }
    if (lines == 0) {
      return "";
    }
    int end = log.endsWith("\n") ? log.length() - 1 : log.length();
    int pos = end;
    long found = 0;
    while (pos > 0) {
      int nl = log.lastIndexOf('\n', pos - 1);
      found++;
      if (found == lines || nl < 0) {
        return nl < 0 ? log : log.substring(nl + 1);
      }
      pos = nl;
    }
    return log;
  }
}
