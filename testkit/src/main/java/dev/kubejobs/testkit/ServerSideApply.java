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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Server-side apply ({@code application/apply-patch+yaml}) for custom resources, modelled on
 * kube-apiserver's field manager (k8s.io/apiserver {@code pkg/endpoints/handlers/fieldmanager},
 * sigs.k8s.io/structured-merge-diff {@code merge/update.go} {@code Updater.Apply}) for the cases
 * kubectl ({@code apply --server-side}) and fabric8 ({@code serverSideApply()}) use:
 *
 * <ul>
 *   <li>each apply manager owns the fields of its last applied configuration, recorded in {@code
 *       metadata.managedFields} ({@code operation: Apply}, {@code fieldsType: FieldsV1});
 *   <li>an applied field another apply manager owns with a different value is a conflict (409
 *       {@code Apply failed with N conflict(s)}), unless {@code force=true}, which takes it over;
 *   <li>a field the manager applied before and no longer applies is removed if no other manager
 *       owns it;
 *   <li>maps merge field by field; lists are atomic (a CRD list without {@code
 *       x-kubernetes-list-type} is atomic).
 * </ul>
 *
 * Fields written by create, update or patch are not tracked (no {@code Update} entries), so they
 * never conflict.
 */
final class ServerSideApply {

  private ServerSideApply() {}

  /** A path of map keys from the object's root. */
  private record Path(List<String> keys) {
    String dotted() {
      return "." + String.join(".", keys);
    }
  }

  /**
   * The object after {@code manager} applies {@code applied}.
   *
   * @param live the stored object, or null to create
   * @throws FakeApiException 409 on a conflict without {@code force}
   */
  static JsonObject apply(
      ResourceType type,
      JsonObject live,
      JsonObject applied,
      String manager,
      boolean force,
      Instant now) {
    Set<Path> appliedFields = new LinkedHashSet<>();
    collect(applied, new ArrayList<>(), appliedFields, true);
    JsonObject result = live == null ? new JsonObject() : live.deepCopy();
    Map<String, Set<Path>> owners = new LinkedHashMap<>();
    Map<String, JsonObject> entries = new LinkedHashMap<>();
    JsonArray managed =
        live != null && InMemoryStore.metadata(live).get("managedFields") instanceof JsonArray a
            ? a
            : new JsonArray();
    for (JsonElement e : managed) {
      JsonObject entry = e.getAsJsonObject();
      String name = InMemoryStore.string(entry, "manager");
      if (name == null) {
        continue;
      }
      entries.put(name, entry);
      Set<Path> fields = new LinkedHashSet<>();
      if ("Apply".equals(InMemoryStore.string(entry, "operation"))
          && entry.get("fieldsV1") instanceof JsonObject f) {
        decode(f, new ArrayList<>(), fields);
      }
      owners.put(name, fields);
    }
    // Conflicts: another manager's field that this configuration sets to a different value.
    Map<String, List<Path>> conflicts = new java.util.TreeMap<>();
    for (Map.Entry<String, Set<Path>> o : owners.entrySet()) {
      if (o.getKey().equals(manager)) {
        continue;
      }
      for (Path p : appliedFields) {
        if (o.getValue().contains(p) && !java.util.Objects.equals(at(result, p), at(applied, p))) {
          conflicts.computeIfAbsent(o.getKey(), k -> new ArrayList<>()).add(p);
        }
      }
    }
    if (!conflicts.isEmpty() && !force) {
      throw conflict(
          type, InMemoryStore.string(InMemoryStore.metadata(applied), "name"), conflicts);
    }
    for (Map.Entry<String, List<Path>> c : conflicts.entrySet()) {
      owners.get(c.getKey()).removeAll(c.getValue());
    }
    // Removals: fields this manager applied before, applies no more, and nobody else owns.
    Set<Path> before = owners.getOrDefault(manager, Set.of());
    for (Path p : before) {
      if (appliedFields.contains(p)) {
        continue;
      }
      boolean ownedElsewhere =
          owners.entrySet().stream()
              .anyMatch(o -> !o.getKey().equals(manager) && o.getValue().contains(p));
      if (!ownedElsewhere) {
        remove(result, p);
      }
    }
    merge(result, applied);
    owners.put(manager, appliedFields);
    JsonArray nextManaged = new JsonArray();
    for (Map.Entry<String, Set<Path>> o : owners.entrySet()) {
      JsonObject entry;
      if (o.getKey().equals(manager) || conflicts.containsKey(o.getKey())) {
        entry = new JsonObject();
        entry.addProperty("manager", o.getKey());
        entry.addProperty("operation", "Apply");
        entry.addProperty(
            "apiVersion",
            o.getKey().equals(manager)
                ? type.apiVersion()
                : InMemoryStore.string(entries.get(o.getKey()), "apiVersion"));
        entry.addProperty(
            "time",
            o.getKey().equals(manager)
                ? InMemoryStore.timestamp(now)
                : InMemoryStore.string(entries.get(o.getKey()), "time"));
        entry.addProperty("fieldsType", "FieldsV1");
        entry.add("fieldsV1", encode(o.getValue()));
      } else {
        entry = entries.get(o.getKey());
      }
      boolean emptyApply =
          o.getValue().isEmpty() && "Apply".equals(InMemoryStore.string(entry, "operation"));
      if (entry != null && !emptyApply) {
        nextManaged.add(entry);
      }
    }
    InMemoryStore.metadata(result).add("managedFields", nextManaged);
    if (live != null && entries.containsKey(manager)) {
      // A no-op apply writes nothing: only the manager's time would change.
      JsonObject unchanged = result.deepCopy();
      for (JsonElement e : InMemoryStore.metadata(unchanged).getAsJsonArray("managedFields")) {
        if (manager.equals(InMemoryStore.string(e.getAsJsonObject(), "manager"))) {
          e.getAsJsonObject().add("time", entries.get(manager).get("time"));
        }
      }
      if (unchanged.equals(live)) {
        return live.deepCopy();
      }
    }
    return result;
  }

  /** The leaf fields of a configuration: map keys recursively; lists and scalars are leaves. */
  private static void collect(JsonElement value, List<String> prefix, Set<Path> out, boolean root) {
    if (value instanceof JsonObject o && !o.isEmpty()) {
      for (Map.Entry<String, JsonElement> e : o.entrySet()) {
        List<String> keys = new ArrayList<>(prefix);
        keys.add(e.getKey());
        if (root && Set.of("apiVersion", "kind", "status").contains(e.getKey())) {
          continue;
        }
        if (prefix.equals(List.of("metadata"))
            && Set.of(
                    "name",
                    "namespace",
                    "managedFields",
                    "resourceVersion",
                    "uid",
                    "generation",
                    "creationTimestamp")
                .contains(e.getKey())) {
          continue;
        }
        collect(e.getValue(), keys, out, false);
      }
    } else if (!prefix.isEmpty()) {
      out.add(new Path(List.copyOf(prefix)));
    }
  }

  private static void decode(JsonObject fields, List<String> prefix, Set<Path> out) {
    for (Map.Entry<String, JsonElement> e : fields.entrySet()) {
      if (!e.getKey().startsWith("f:")) {
        continue;
      }
      List<String> keys = new ArrayList<>(prefix);
      keys.add(e.getKey().substring(2));
      if (e.getValue() instanceof JsonObject child && !child.isEmpty()) {
        decode(child, keys, out);
      } else {
        out.add(new Path(List.copyOf(keys)));
      }
    }
  }

  private static JsonObject encode(Set<Path> fields) {
    JsonObject root = new JsonObject();
    for (Path p : fields) {
      JsonObject at = root;
      for (String k : p.keys()) {
        String key = "f:" + k;
        if (!(at.get(key) instanceof JsonObject next)) {
          JsonObject created = new JsonObject();
          at.add(key, created);
          at = created;
        } else {
          at = next;
        }
      }
    }
    return root;
  }

  private static JsonElement at(JsonObject o, Path p) {
    JsonElement current = o;
    for (String k : p.keys()) {
      if (!(current instanceof JsonObject obj) || !obj.has(k)) {
        return null;
      }
      current = obj.get(k);
    }
    return current;
  }

  private static void remove(JsonObject o, Path p) {
    JsonElement current = o;
    List<String> keys = p.keys();
    for (int i = 0; i < keys.size() - 1; i++) {
      if (!(current instanceof JsonObject obj) || !obj.has(keys.get(i))) {
        return;
      }
      current = obj.get(keys.get(i));
    }
    if (current instanceof JsonObject obj) {
      obj.remove(keys.get(keys.size() - 1));
    }
  }

  /** Merges maps key by key; anything else in {@code applied} replaces. */
  private static void merge(JsonObject target, JsonObject applied) {
    for (Map.Entry<String, JsonElement> e : applied.entrySet()) {
      if (e.getValue() instanceof JsonObject a
          && !a.isEmpty()
          && target.get(e.getKey()) instanceof JsonObject t) {
        merge(t, a);
      } else {
        target.add(e.getKey(), e.getValue().deepCopy());
      }
    }
  }

  /**
   * A 409 as the field manager words it ({@code NewConflictError}, {@code getConflictMessage} in
   * k8s.io/apiserver {@code pkg/endpoints/handlers/fieldmanager/internal/conflict.go}): one
   * conflict on one line, several as a list, each cause naming the manager and the field.
   */
  private static FakeApiException conflict(
      ResourceType type, String name, Map<String, List<Path>> conflicts) {
    int count = conflicts.values().stream().mapToInt(List::size).sum();
    StringBuilder message =
        new StringBuilder("Apply failed with " + count + " conflict" + (count == 1 ? "" : "s"));
    JsonArray causes = new JsonArray();
    for (Map.Entry<String, List<Path>> c : conflicts.entrySet()) {
      for (Path p : c.getValue()) {
        JsonObject cause = new JsonObject();
        cause.addProperty("reason", "FieldManagerConflict");
        cause.addProperty("message", "conflict with \"" + c.getKey() + "\"");
        cause.addProperty("field", p.dotted());
        causes.add(cause);
      }
    }
    if (count == 1) {
      Map.Entry<String, List<Path>> only = conflicts.entrySet().iterator().next();
      message
          .append(": conflict with \"")
          .append(only.getKey())
          .append("\": ")
          .append(only.getValue().get(0).dotted());
    } else {
      message.append(": ");
      for (Map.Entry<String, List<Path>> c : conflicts.entrySet()) {
        message.append("conflicts with \"").append(c.getKey()).append("\":");
        for (Path p : c.getValue()) {
          message.append("\n- ").append(p.dotted());
        }
        message.append('\n');
      }
    }
    JsonObject details = KubeStatus.details(type, name);
    details.add("causes", causes);
    return new KubeStatus.Detailed(409, "Conflict", message.toString().stripTrailing(), details);
  }
}
