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
package dev.kubejobs.examples.simulation;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.testkit.ResourceEvent;
import dev.kubejobs.testkit.ResourceListener;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The fake API server's own record of what happened to its objects, in the order the server made
 * the changes: the ground truth the simulation judges kubejobs by, never kubejobs' own mapper.
 *
 * <p>Events are ordered by the object's {@code resourceVersion} (the store's one global counter),
 * not by arrival: listeners run outside the store's lock, so two threads' events may arrive out of
 * order. Thread safe.
 */
final class EventLog implements ResourceListener {

  /** One recorded change: its place in the server's order, and a copy of the object. */
  record Entry(long rv, int arrival, ResourceEvent.Kind kind, boolean pod, JsonObject object) {

    String uid() {
      return string(object.getAsJsonObject("metadata"), "uid");
    }

    String name() {
      return string(object.getAsJsonObject("metadata"), "name");
    }

    boolean deleting() {
      if (kind == ResourceEvent.Kind.DELETED) {
        return true;
      }
      JsonElement d = object.getAsJsonObject("metadata").get("deletionTimestamp");
      return d != null && !d.isJsonNull();
    }

    JsonObject labels() {
      JsonElement l = object.getAsJsonObject("metadata").get("labels");
      return l != null && l.isJsonObject() ? l.getAsJsonObject() : new JsonObject();
    }

    JsonObject annotations() {
      JsonElement a = object.getAsJsonObject("metadata").get("annotations");
      return a != null && a.isJsonObject() ? a.getAsJsonObject() : new JsonObject();
    }

    /** The uid of the object's first owner, for driver pods. */
    String ownerUid() {
      JsonElement refs = object.getAsJsonObject("metadata").get("ownerReferences");
      if (refs == null || !refs.isJsonArray() || refs.getAsJsonArray().isEmpty()) {
        return null;
      }
      return string(refs.getAsJsonArray().get(0).getAsJsonObject(), "uid");
    }

    JsonObject status() {
      JsonElement s = object.get("status");
      return s != null && s.isJsonObject() ? s.getAsJsonObject() : null;
    }
  }

  private final List<Entry> entries = new ArrayList<>();

  @Override
  public void onEvent(ResourceEvent event) {
    JsonObject meta = event.object().getAsJsonObject("metadata");
    long rv = Long.parseLong(string(meta, "resourceVersion"));
    synchronized (entries) {
      entries.add(
          new Entry(
              rv,
              entries.size(),
              event.kind(),
              event.type().isCore() && "pods".equals(event.type().plural()),
              event.object()));
    }
  }

  /** Forgets everything recorded so far. */
  void clear() {
    synchronized (entries) {
      entries.clear();
    }
  }

  /** Returns how many events were recorded so far (a mark to compare windows with). */
  int size() {
    synchronized (entries) {
      return entries.size();
    }
  }

  /**
   * Returns the events in the server's order: by resourceVersion, a deletion after the change that
   * carried the same version, then by arrival.
   */
  List<Entry> ordered() {
    List<Entry> copy;
    synchronized (entries) {
      copy = new ArrayList<>(entries);
    }
    copy.sort(
        Comparator.comparingLong(Entry::rv)
            .thenComparing(e -> e.kind() == ResourceEvent.Kind.DELETED)
            .thenComparingInt(Entry::arrival));
    return copy;
  }

  /** Returns the events recorded from arrival index {@code from} on, unordered. */
  List<Entry> since(int from) {
    synchronized (entries) {
      return new ArrayList<>(entries.subList(from, entries.size()));
    }
  }

  static String string(JsonObject o, String key) {
    if (o == null) {
      return null;
    }
    JsonElement e = o.get(key);
    return e == null || e.isJsonNull() ? null : e.getAsString();
  }
}
