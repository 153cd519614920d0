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
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Serves lists of objects and prepares watches: label and field selectors, paging with continue
 * tokens kept per list snapshot, and the {@link ApiHandler.WatchRequest} of a watch. Thread safe.
 */
final class ObjectLists {

  private final InMemoryStore store;

  ObjectLists(InMemoryStore store) {
    this.store = store;
  }

  Answer list(Call call, ResourceType type, String ns) {
    int limit = 0;
    if (call.param("limit") != null && !call.param("limit").isEmpty()) {
      try {
        limit = Integer.parseInt(call.param("limit"));
      } catch (NumberFormatException e) {
        throw KubeStatus.badRequest("invalid limit: " + call.param("limit"));
      }
    }
    boolean filtered = hasSelector(call);
    String cont = call.param("continue");
    List<StoredObject> selected;
    String listRv;
    String snapshotId;
    if (cont != null && !cont.isEmpty()) {
      // Later pages come from the first page's snapshot, as long as it is not compacted away.
      String[] token = decodeContinue(cont);
      PagedList paged;
      synchronized (pagedLists) {
        paged = pagedLists.get(token[2]);
        if (paged != null && paged.expired(store.clock().instant(), continueExpiry)) {
          pagedLists.remove(token[2]);
          paged = null;
        }
      }
      if (paged == null) {
        throw expired(call, type, ns, token[1]);
      }
      List<StoredObject> items = paged.items();
      selected = items.subList(firstAfter(items, token[1]), items.size());
      listRv = paged.resourceVersion();
      snapshotId = token[2];
    } else {
      LabelSelector selector = selector(call);
      FieldSelector fields = fieldSelector(call, type);
      InMemoryStore.Snapshot snapshot = store.snapshot(type, ns);
      if (filtered) {
        selected = new ArrayList<>();
        for (StoredObject o : snapshot.items()) {
          // The labels are kept read; only a field selector needs the object.
          if (selector.matches(o.labels())
              && (fields.selectsEverything() || fields.matches(o.objectAt(type)))) {
            selected.add(o);
          }
        }
      } else {
        selected = snapshot.items();
      }
      listRv = snapshot.resourceVersion();
      snapshotId = null;
    }
    String next = null;
    Long remaining = null;
    if (limit > 0 && selected.size() > limit) {
      if (snapshotId == null) {
        snapshotId = Long.toString(pagedListIds.incrementAndGet());
        rememberPagedList(snapshotId, new PagedList(selected, listRv, store.clock().instant()));
      }
      remaining = filtered ? null : (long) (selected.size() - limit);
      selected = selected.subList(0, limit);
      next = encodeContinue(listRv, key(selected.get(selected.size() - 1)), snapshotId);
    }
    // The list around the items' stored JSON, as written once per resourceVersion: what Gson
    // writes for the same list object, without a tree or a copy of each item.
    String body = ApiHandler.GSON.toJson(listBody(type, new JsonArray(), listRv, next, remaining));
    StringBuilder out = new StringBuilder(body.length() + selected.size() * 2048);
    out.append(body, 0, body.length() - 2);
    String separator = "";
    for (StoredObject o : selected) {
      out.append(separator);
      separator = ",";
      if (type.isBuiltIn()) {
        // Built-in types' list items carry no kind or apiVersion; custom resources' do.
        JsonObject item = o.objectAt(type);
        item.remove("kind");
        item.remove("apiVersion");
        out.append(ApiHandler.GSON.toJson(item));
      } else {
        out.append(o.jsonAt(type));
      }
    }
    return new Answer(200, "application/json", out.append("]}").toString(), Map.of());
  }

  /**
   * The index of the first item after the last one a page ended with ({@code namespace NUL name},
   * the key order of the store), found by halving: a page costs its own items, not the list's.
   */
  private static int firstAfter(List<StoredObject> items, String after) {
    int low = 0;
    int high = items.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (key(items.get(mid)).compareTo(after) <= 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /**
   * Checks a watch's query as apiserver's {@code ListResource} handler does before it starts the
   * stream: selectors that do not parse and a {@code resourceVersion} that is not a number answer
   * 400 (not an {@code ERROR} event).
   */
  static WatchRequest watchRequest(Call call, ResourceType type, String ns) {
    if (call.param("sendInitialEvents") != null) {
      throw KubeStatus.badRequest(
          "sendInitialEvents (watch list) is not supported by the fake Kubernetes API server; watch"
              + " with resourceVersion 0 or after a list instead");
    }
    String rv = call.param("resourceVersion");
    if (rv != null && !rv.isEmpty()) {
      try {
        if (Long.parseLong(rv) < 0) {
          throw new NumberFormatException(rv);
        }
      } catch (NumberFormatException e) {
        throw KubeStatus.badRequest("invalid resource version: " + rv);
      }
    }
    String timeout = call.param("timeoutSeconds");
    long timeoutSeconds =
        timeout == null || timeout.isEmpty() ? 0 : longParam(call, "timeoutSeconds");
    return new WatchRequest(
        type,
        ns,
        selector(call),
        fieldSelector(call, type),
        rv,
        Math.max(0, timeoutSeconds),
        isTrue(call.param("allowWatchBookmarks")));
  }

  private static boolean hasSelector(Call call) {
    return (call.param("labelSelector") != null && !call.param("labelSelector").isBlank())
        || (call.param("fieldSelector") != null && !call.param("fieldSelector").isBlank());
  }

  /** The first page's snapshot of a paged list, kept for its continue tokens. */
  private record PagedList(List<StoredObject> items, String resourceVersion, Instant at) {
    boolean expired(Instant now, Duration expiry) {
      return at.plus(expiry).isBefore(now);
    }
  }

  private static final int MAX_PAGED_LISTS = 256;
  private final java.util.concurrent.atomic.AtomicLong pagedListIds =
      new java.util.concurrent.atomic.AtomicLong();
  private final Map<String, PagedList> pagedLists = new java.util.LinkedHashMap<>();
  private volatile Duration continueExpiry = Duration.ofMinutes(5);

  private void rememberPagedList(String id, PagedList list) {
    synchronized (pagedLists) {
      pagedLists.put(id, list);
      while (pagedLists.size() > MAX_PAGED_LISTS) {
        pagedLists.remove(pagedLists.keySet().iterator().next());
      }
    }
  }

  /** Expires every continue token issued so far, as an etcd compaction does. */
  void compact() {
    synchronized (pagedLists) {
      pagedLists.clear();
    }
    store.watchHub().compact(Long.parseLong(store.currentResourceVersion()));
  }

  void continueExpiry(Duration expiry) {
    this.continueExpiry = expiry;
  }

  /**
   * 410 {@code Expired} for a continue token whose snapshot is compacted away, worded as etcd3's
   * {@code handleCompactedErrorForPaging}, with a token to continue on the current state.
   */
  private FakeApiException expired(Call call, ResourceType type, String ns, String after) {
    JsonObject status =
        KubeStatus.failure(
            410,
            "Expired",
            "The provided continue parameter is too old to display a consistent list result. You"
                + " can start a new list without the continue parameter, or use the continue"
                + " token in this response to retrieve the remainder of the results. Continuing"
                + " with the provided token results in an inconsistent list - objects that were"
                + " created, modified, or deleted between the time the first chunk was returned"
                + " and now may show up in the list.",
            new JsonObject());
    String id = Long.toString(pagedListIds.incrementAndGet());
    InMemoryStore.Snapshot now = store.snapshot(type, ns);
    rememberPagedList(
        id, new PagedList(now.items(), now.resourceVersion(), store.clock().instant()));
    JsonObject meta = new JsonObject();
    meta.addProperty("continue", encodeContinue(now.resourceVersion(), after, id));
    status.add("metadata", meta);
    return new KubeStatus.Whole(410, "Expired", status);
  }

  static JsonObject listBody(
      ResourceType type, JsonArray items, String rv, String cont, Long remaining) {
    JsonObject list = new JsonObject();
    list.addProperty("apiVersion", type.apiVersion());
    list.addProperty("kind", type.listKind());
    JsonObject meta = new JsonObject();
    meta.addProperty("resourceVersion", rv);
    if (cont != null) {
      meta.addProperty("continue", cont);
      if (remaining != null) {
        meta.addProperty("remainingItemCount", remaining);
      }
    }
    list.add("metadata", meta);
    list.add("items", items);
    return list;
  }

  private static String key(StoredObject o) {
    return o.namespace() + "\u0000" + o.name();
  }

  private static String encodeContinue(String rv, String lastKey, String snapshotId) {
    JsonObject t = new JsonObject();
    t.addProperty("v", "fake.k8s.io/v1");
    t.addProperty("rv", rv);
    t.addProperty("start", lastKey);
    t.addProperty("snapshot", snapshotId);
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(GSON.toJson(t).getBytes(StandardCharsets.UTF_8));
  }

  private static String[] decodeContinue(String token) {
    try {
      JsonObject t =
          JsonParser.parseString(
                  new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8))
              .getAsJsonObject();
      return new String[] {
        t.get("rv").getAsString(), t.get("start").getAsString(), t.get("snapshot").getAsString()
      };
    } catch (RuntimeException e) {
      throw KubeStatus.badRequest("continue key is not valid: " + e.getMessage());
    }
  }

  static LabelSelector selector(Call call) {
    try {
      return LabelSelector.parse(call.param("labelSelector"));
    } catch (IllegalArgumentException e) {
      throw KubeStatus.badRequest("unable to parse requirement: " + e.getMessage());
    }
  }

  /** The field labels pods support ({@code AddFieldLabelConversionsForPod}). */
  private static final Set<String> POD_FIELDS =
      Set.of(
          "metadata.name",
          "metadata.namespace",
          "spec.nodeName",
          "spec.restartPolicy",
          "spec.schedulerName",
          "spec.serviceAccountName",
          "spec.hostNetwork",
          "status.phase",
          "status.podIP",
          "status.podIPs",
          "status.nominatedNodeName");

  /** Custom resources support only the object meta field labels (no selectableFields here). */
  private static final Set<String> CUSTOM_RESOURCE_FIELDS =
      Set.of("metadata.name", "metadata.namespace");

  /**
   * Core events' field labels, as the event strategy's {@code ToSelectableFields} lists them
   * (kubernetes/kubernetes {@code pkg/registry/core/event/strategy.go}); {@code source} is not
   * supported here.
   */
  private static final Set<String> EVENT_FIELDS =
      Set.of(
          "metadata.name",
          "metadata.namespace",
          "involvedObject.kind",
          "involvedObject.namespace",
          "involvedObject.name",
          "involvedObject.uid",
          "involvedObject.apiVersion",
          "involvedObject.resourceVersion",
          "involvedObject.fieldPath",
          "reason",
          "reportingComponent",
          "type");

  static boolean isEvent(ResourceType type) {
    return type.equals(ResourceType.EVENT) || type.equals(ResourceType.EVENTS_K8S_IO_EVENT);
  }

  static FieldSelector fieldSelector(Call call, ResourceType type) {
    try {
      return FieldSelector.parse(
          call.param("fieldSelector"),
          type.equals(ResourceType.POD)
              ? POD_FIELDS
              : type.equals(ResourceType.EVENT) ? EVENT_FIELDS : CUSTOM_RESOURCE_FIELDS);
    } catch (IllegalArgumentException e) {
      throw KubeStatus.badRequest(e.getMessage());
    }
  }
}
