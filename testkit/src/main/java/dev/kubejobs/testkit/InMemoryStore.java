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
import com.google.gson.JsonPrimitive;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fake API server's state: objects by type, namespace and name, pod logs, and the server-wide
 * resourceVersion counter. Thread safe: one lock guards everything; listeners run outside it.
 */
final class InMemoryStore implements ResourceStore {

  private static final Logger LOG = LoggerFactory.getLogger(InMemoryStore.class);
  private static final String NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  /** How a change may touch an object. */
  enum Mode {
    /** Direct store access: everything may change, including status. */
    STORE,
    /** A write to the main resource: status is kept as it was. */
    MAIN,
    /** A write to the status subresource: only status changes. */
    STATUS
  }

  /** A key ordering objects by namespace, then name. */
  private record Key(String namespace, String name) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = namespace.compareTo(o.namespace);
      return c != 0 ? c : name.compareTo(o.name);
    }
  }

  /**
   * The objects of a list with the resourceVersion they were read at, as the store holds them (at
   * their own versions: {@link StoredObject#jsonAt} and {@link StoredObject#objectAt} serve them at
   * the list's).
   */
  record Snapshot(List<StoredObject> items, String resourceVersion) {}

  /** The result of a delete: the object's last state and whether it is gone. */
  record Deleted(JsonObject object, boolean removed) {}

  private final Object lock = new Object();
  private final Clock clock;
  private final Map<String, ResourceType> types = new LinkedHashMap<>();

  /**
   * The objects of each resource, one map per group and plural whatever the versions served (as
   * kube-apiserver keeps one etcd key per object of a CRD); each object keeps the {@code
   * apiVersion} it was last written at, and reads at another served version rewrite it. Ordered by
   * namespace, then name: a namespace's objects are one range, as under etcd's key prefix.
   */
  private final Map<String, TreeMap<Key, StoredObject>> objects = new HashMap<>();

  private final Map<String, String> logs = new HashMap<>();
  private final List<ResourceListener> listeners = new CopyOnWriteArrayList<>();
  private final java.util.Set<String> namespaces = new java.util.TreeSet<>();
  private boolean namespacesRequired;
  private long resourceVersion = 1000;
  private final WatchHub watchHub;

  InMemoryStore(Clock clock) {
    this.clock = clock;
    this.watchHub = new WatchHub(clock);
    register(ResourceType.POD);
    register(ResourceType.EVENT);
    register(ResourceType.EVENTS_K8S_IO_EVENT);
  }

  /** The history of changes that watches read, appended in resourceVersion order. */
  WatchHub watchHub() {
    return watchHub;
  }

  /**
   * Records a change for watches; called under the lock, so the history is in resourceVersion
   * order. A removal gets a resourceVersion of its own (unless the change that removed the object
   * already gave it one), as etcd's delete revision does: a watch resuming from the last state's
   * resourceVersion still sees the DELETED event.
   */
  private void recordChange(
      ResourceEvent.Kind kind,
      ResourceType type,
      StoredObject object,
      StoredObject previous,
      boolean newResourceVersion) {
    StoredObject o = object;
    if (newResourceVersion) {
      JsonObject last = object.object();
      metadata(last).addProperty("resourceVersion", nextResourceVersion());
      o = StoredObject.of(last);
    }
    // Every change takes the newest resourceVersion: the one just given to it.
    watchHub.append(new WatchHub.Change(resourceVersion, kind, type, o, previous, clock.instant()));
  }

  /** Adds an event for the listeners, with a copy of the object, when there are listeners. */
  private void event(
      List<ResourceEvent> events, ResourceEvent.Kind kind, ResourceType type, JsonObject o) {
    if (!listeners.isEmpty()) {
      events.add(new ResourceEvent(kind, type, o.deepCopy()));
    }
  }

  // ---- registry -------------------------------------------------------------------------------

  void register(ResourceType type) {
    synchronized (lock) {
      String key = type.group() + "/" + type.version() + "/" + type.plural();
      ResourceType existing = types.get(key);
      if (existing != null && !existing.equals(type)) {
        throw new IllegalArgumentException(
            "resource " + key + " is already registered as " + existing + ", not " + type);
      }
      for (ResourceType other : types.values()) {
        if (storageKey(other).equals(storageKey(type)) && !other.kind().equals(type.kind())) {
          throw new IllegalArgumentException(
              "resource "
                  + type.qualifiedPlural()
                  + " is already registered with kind "
                  + other.kind()
                  + " (at "
                  + other.apiVersion()
                  + "), not "
                  + type.kind()
                  + "; every version of a resource has one kind");
        }
      }
      types.put(key, type);
      objects.computeIfAbsent(storageKey(type), t -> new TreeMap<>());
    }
  }

  void unregister(ResourceType type) {
    if (type.isBuiltIn()) {
      throw new IllegalArgumentException(
          type.qualifiedPlural() + " are always served and cannot be unregistered");
    }
    synchronized (lock) {
      types.remove(type.group() + "/" + type.version() + "/" + type.plural(), type);
      if (servedVersionsLocked(type.group(), type.plural()).isEmpty()) {
        objects.remove(storageKey(type));
      }
    }
  }

  Optional<ResourceType> lookup(String group, String version, String plural) {
    synchronized (lock) {
      return Optional.ofNullable(types.get(group + "/" + version + "/" + plural));
    }
  }

  List<ResourceType> types() {
    synchronized (lock) {
      return List.copyOf(types.values());
    }
  }

  /**
   * The served versions of a resource, highest priority first, as apiextensions-apiserver's
   * discovery orders them ({@link KubeVersions#PRIORITY}).
   */
  List<ResourceType> servedVersions(String group, String plural) {
    synchronized (lock) {
      return servedVersionsLocked(group, plural);
    }
  }

  private List<ResourceType> servedVersionsLocked(String group, String plural) {
    List<ResourceType> result = new ArrayList<>();
    for (ResourceType t : types.values()) {
      if (t.group().equals(group) && t.plural().equals(plural)) {
        result.add(t);
      }
    }
    result.sort(java.util.Comparator.comparing(ResourceType::version, KubeVersions.PRIORITY));
    return result;
  }

  /** The key of a resource's objects, shared by all its versions: group and plural. */
  static String storageKey(ResourceType type) {
    if (type.equals(ResourceType.EVENTS_K8S_IO_EVENT)) {
      // kube-apiserver serves events.k8s.io/v1 events from the core events' storage.
      return "/events";
    }
    return type.group() + "/" + type.plural();
  }

  /**
   * The object as served at a type's version: itself when it carries that {@code apiVersion},
   * otherwise a shallow copy with the {@code apiVersion} rewritten (without a conversion webhook,
   * kube-apiserver's CRD handler converts between versions by changing {@code apiVersion} only:
   * {@code nopConverter} in apiextensions-apiserver's {@code
   * pkg/apiserver/conversion/converter.go}). The copy shares the members, so it is to be read,
   * never changed.
   */
  static JsonObject atVersion(JsonObject o, ResourceType type) {
    JsonElement apiVersion = o.get("apiVersion");
    if (apiVersion != null
        && apiVersion.isJsonPrimitive()
        && apiVersion.getAsString().equals(type.apiVersion())) {
      return o;
    }
    if (type.equals(ResourceType.EVENT) || type.equals(ResourceType.EVENTS_K8S_IO_EVENT)) {
      return EventShapes.convert(o, type);
    }
    JsonObject view = new JsonObject();
    for (Map.Entry<String, JsonElement> e : o.entrySet()) {
      view.add(e.getKey(), e.getValue());
    }
    view.addProperty("apiVersion", type.apiVersion());
    return view;
  }

  /** A registered type of the objects under this storage key, at the object's own version. */
  private ResourceType typeOfLocked(String storage, StoredObject o) {
    String apiVersion = o.apiVersion();
    ResourceType any = null;
    for (ResourceType t : types.values()) {
      if (storageKey(t).equals(storage)) {
        if (t.apiVersion().equals(apiVersion)) {
          return t;
        }
        any = any == null ? t : any;
      }
    }
    return any;
  }

  private TreeMap<Key, StoredObject> objectsOf(ResourceType type) {
    TreeMap<Key, StoredObject> map =
        type.equals(types.get(type.group() + "/" + type.version() + "/" + type.plural()))
            ? objects.get(storageKey(type))
            : null;
    if (map == null) {
      throw new IllegalArgumentException(
          "resource type "
              + type
              + " is not registered; call FakeKubernetesApiServer.registerResource(type) first");
    }
    return map;
  }

  void requireNamespaces(List<String> existing) {
    synchronized (lock) {
      namespacesRequired = true;
      namespaces.addAll(existing);
    }
  }

  void createNamespace(String namespace) {
    synchronized (lock) {
      namespaces.add(namespace);
    }
  }

  boolean namespaceExists(String namespace) {
    synchronized (lock) {
      return !namespacesRequired || namespaces.contains(namespace);
    }
  }

  void deleteNamespace(String namespace) {
    List<ResourceEvent> events = new ArrayList<>();
    synchronized (lock) {
      namespaces.remove(namespace);
      for (Map.Entry<String, TreeMap<Key, StoredObject>> e : objects.entrySet()) {
        var it = inNamespace(e.getValue(), namespace).entrySet().iterator();
        while (it.hasNext()) {
          StoredObject o = it.next().getValue();
          it.remove();
          ResourceType type = typeOfLocked(e.getKey(), o);
          event(events, ResourceEvent.Kind.DELETED, type, o.object());
          recordChange(ResourceEvent.Kind.DELETED, type, o, o, true);
        }
      }
      logs.keySet().removeIf(k -> k.startsWith(namespace + "/"));
    }
    fire(events);
  }

  void clear() {
    synchronized (lock) {
      namespaces.clear();
      namespacesRequired = false;
      for (TreeMap<Key, StoredObject> map : objects.values()) {
        map.clear();
      }
      logs.clear();
    }
  }

  String currentResourceVersion() {
    synchronized (lock) {
      return Long.toString(resourceVersion);
    }
  }

  // ---- ResourceStore --------------------------------------------------------------------------

  @Override
  public Optional<JsonObject> get(ResourceType type, String namespace, String name) {
    StoredObject o;
    synchronized (lock) {
      o = objectsOf(type).get(new Key(namespace, name));
    }
    return Optional.ofNullable(o == null ? null : o.objectAt(type));
  }

  @Override
  public List<JsonObject> list(ResourceType type, String namespace) {
    List<JsonObject> copies = new ArrayList<>();
    for (StoredObject o : snapshot(type, namespace).items()) {
      copies.add(o.objectAt(type));
    }
    return copies;
  }

  Clock clock() {
    return clock;
  }

  /**
   * The objects of a type (in one namespace, or all when null) as they are now, in namespace and
   * name order: the store's own objects, which never change (a change puts a new one in its place),
   * so a snapshot stays as it was read, as etcd keeps a revision until it is compacted; a paged
   * list keeps its first page's snapshot at the cost of references only. A namespace's objects are
   * read from its range of the index, not found among all of them.
   */
  Snapshot snapshot(ResourceType type, String namespace) {
    synchronized (lock) {
      TreeMap<Key, StoredObject> all = objectsOf(type);
      Collection<StoredObject> items =
          (namespace == null ? all : inNamespace(all, namespace)).values();
      return new Snapshot(new ArrayList<>(items), Long.toString(resourceVersion));
    }
  }

  /**
   * The range of a namespace's objects: every name sorts between "" and the next namespace, as
   * etcd3's {@code GetList} reads one key range ({@code clientv3.GetPrefixRangeEnd} of the
   * namespace's key prefix, apiserver's {@code storage/etcd3/store.go}).
   */
  private static java.util.SortedMap<Key, StoredObject> inNamespace(
      TreeMap<Key, StoredObject> map, String namespace) {
    return map.subMap(new Key(namespace, ""), new Key(namespace + "\u0000", ""));
  }

  @Override
  public JsonObject create(ResourceType type, String namespace, JsonObject object) {
    return create(type, namespace, object, false, false);
  }

  /**
   * Creates an object.
   *
   * @param fromApi true for a POST: status is dropped (custom resources) or reset to Pending (pods)
   * @param dryRun true for {@code dryRun=All}: checked and answered as if created, with no
   *     resourceVersion, but not stored, and no watch event
   */
  JsonObject create(
      ResourceType type, String namespace, JsonObject object, boolean fromApi, boolean dryRun) {
    JsonObject o = object.deepCopy();
    JsonObject meta = metadata(o);
    String name = string(meta, "name");
    if (name == null || name.isEmpty()) {
      String generateName = string(meta, "generateName");
      if (generateName == null || generateName.isEmpty()) {
        throw KubeStatus.invalid(
            type, "", "metadata.name: Required value: name or generateName is required");
      }
      StringBuilder sb = new StringBuilder(generateName);
      for (int i = 0; i < 5; i++) {
        sb.append(NAME_CHARS.charAt(RANDOM.nextInt(NAME_CHARS.length())));
      }
      name = sb.toString();
    }
    validate(type, name, o);
    o.addProperty("apiVersion", type.apiVersion());
    o.addProperty("kind", type.kind());
    meta.addProperty("name", name);
    meta.addProperty("namespace", namespace);
    meta.addProperty("uid", UUID.randomUUID().toString());
    meta.addProperty("generation", 1);
    meta.addProperty("creationTimestamp", timestamp(clock.instant()));
    meta.remove("deletionTimestamp");
    meta.remove("deletionGracePeriodSeconds");
    if (fromApi) {
      if (type.equals(ResourceType.POD)) {
        JsonObject status = new JsonObject();
        status.addProperty("phase", "Pending");
        o.add("status", status);
      } else {
        o.remove("status");
      }
    }
    List<ResourceEvent> events = new ArrayList<>();
    synchronized (lock) {
      TreeMap<Key, StoredObject> map = objectsOf(type);
      if (namespacesRequired && !namespaces.contains(namespace)) {
        throw KubeStatus.namespaceNotFound(namespace);
      }
      Key key = new Key(namespace, name);
      if (map.containsKey(key)) {
        throw KubeStatus.alreadyExists(type, name);
      }
      if (dryRun) {
        meta.remove("resourceVersion");
        return o;
      }
      meta.addProperty("resourceVersion", nextResourceVersion());
      StoredObject stored = StoredObject.of(o);
      map.put(key, stored);
      event(events, ResourceEvent.Kind.ADDED, type, o);
      recordChange(ResourceEvent.Kind.ADDED, type, stored, null, false);
    }
    fire(events);
    return o;
  }

  @Override
  public JsonObject update(
      ResourceType type, String namespace, String name, UnaryOperator<JsonObject> change) {
    return change(type, namespace, name, change, Mode.STORE, false);
  }

  /**
   * Changes an object atomically. {@code change} runs under the store's lock with a copy of the
   * current object and may throw {@link FakeApiException} (for preconditions). With {@code dryRun}
   * the changed object is answered with the current resourceVersion and not stored.
   */
  JsonObject change(
      ResourceType type,
      String namespace,
      String name,
      Function<JsonObject, JsonObject> change,
      Mode mode,
      boolean dryRun) {
    List<ResourceEvent> events = new ArrayList<>();
    JsonObject next;
    synchronized (lock) {
      TreeMap<Key, StoredObject> map = objectsOf(type);
      Key key = new Key(namespace, name);
      StoredObject stored = map.get(key);
      if (stored == null) {
        throw KubeStatus.notFound(type, name);
      }
      JsonObject old = stored.objectAt(type);
      JsonObject changed = change.apply(old.deepCopy());
      if (changed == null) {
        throw new IllegalArgumentException("the change must return the new object, not null");
      }
      next = merge(type, old, changed, mode);
      validate(type, name, next);
      if (next.equals(old)) {
        return old;
      }
      checkNoNewFinalizers(type, name, old, next);
      if (dryRun) {
        metadata(next).addProperty("resourceVersion", string(metadata(old), "resourceVersion"));
        return next;
      }
      metadata(next).addProperty("resourceVersion", nextResourceVersion());
      StoredObject written = StoredObject.of(next);
      if (metadata(next).has("deletionTimestamp") && finalizers(next).isEmpty()) {
        map.remove(key);
        logsRemoved(type, namespace, name);
        event(events, ResourceEvent.Kind.DELETED, type, next);
        recordChange(ResourceEvent.Kind.DELETED, type, written, stored, false);
        collectGarbage(uid(next), "Background", events);
      } else {
        map.put(key, written);
        event(events, ResourceEvent.Kind.MODIFIED, type, next);
        recordChange(ResourceEvent.Kind.MODIFIED, type, written, stored, false);
      }
    }
    fire(events);
    return next;
  }

  @Override
  public boolean delete(ResourceType type, String namespace, String name) {
    try {
      delete(type, namespace, name, null, null, "Background", false);
      return true;
    } catch (FakeApiException e) {
      if (e.code() == 404) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Deletes with preconditions and a propagation policy, as an HTTP DELETE does. With {@code
   * dryRun} the preconditions are checked and the answer is what a delete would answer, but nothing
   * changes.
   */
  Deleted delete(
      ResourceType type,
      String namespace,
      String name,
      String uidPrecondition,
      String resourceVersionPrecondition,
      String propagationPolicy,
      boolean dryRun) {
    List<ResourceEvent> events = new ArrayList<>();
    Deleted result;
    synchronized (lock) {
      StoredObject stored = objectsOf(type).get(new Key(namespace, name));
      if (stored == null) {
        throw KubeStatus.notFound(type, name);
      }
      JsonObject current = stored.objectAt(type);
      if (uidPrecondition != null && !uidPrecondition.equals(uid(current))) {
        throw KubeStatus.deletePrecondition(
            type,
            name,
            "the UID in the precondition ("
                + uidPrecondition
                + ") does not match the UID in record ("
                + uid(current)
                + "). The object might have been deleted and then recreated");
      }
      String rv = string(metadata(current), "resourceVersion");
      if (resourceVersionPrecondition != null && !resourceVersionPrecondition.equals(rv)) {
        throw KubeStatus.deletePrecondition(
            type,
            name,
            "the ResourceVersion in the precondition ("
                + resourceVersionPrecondition
                + ") does not match the ResourceVersion in record ("
                + rv
                + "). The object might have been modified");
      }
      if (dryRun) {
        return deleteDryRun(current);
      }
      result = deleteLocked(type, new Key(namespace, name), propagationPolicy, events);
    }
    fire(events);
    return result;
  }

  /**
   * What a delete would answer: an object with finalizers is only marked for deletion (the mark
   * shown, not stored, with the current resourceVersion); one without is removed.
   */
  private Deleted deleteDryRun(JsonObject current) {
    if (finalizers(current).isEmpty()) {
      return new Deleted(current, true);
    }
    JsonObject next = current;
    if (!metadata(next).has("deletionTimestamp")) {
      metadata(next).addProperty("deletionTimestamp", timestamp(clock.instant()));
      metadata(next).addProperty("deletionGracePeriodSeconds", 0);
      JsonElement g = metadata(next).get("generation");
      metadata(next).addProperty("generation", (g == null ? 0 : g.getAsLong()) + 1);
    }
    return new Deleted(next, false);
  }

  private Deleted deleteLocked(
      ResourceType type, Key key, String propagationPolicy, List<ResourceEvent> events) {
    TreeMap<Key, StoredObject> map = objectsOf(type);
    StoredObject stored = map.get(key);
    JsonObject current = stored.objectAt(type);
    if (!finalizers(current).isEmpty()) {
      if (!metadata(current).has("deletionTimestamp")) {
        JsonObject next = current.deepCopy();
        metadata(next).addProperty("deletionTimestamp", timestamp(clock.instant()));
        metadata(next).addProperty("deletionGracePeriodSeconds", 0);
        JsonElement g = metadata(next).get("generation");
        metadata(next).addProperty("generation", (g == null ? 0 : g.getAsLong()) + 1);
        metadata(next).addProperty("resourceVersion", nextResourceVersion());
        StoredObject written = StoredObject.of(next);
        map.put(key, written);
        event(events, ResourceEvent.Kind.MODIFIED, type, next);
        recordChange(ResourceEvent.Kind.MODIFIED, type, written, stored, false);
        current = next;
      }
      return new Deleted(current, false);
    }
    map.remove(key);
    logsRemoved(type, key.namespace(), key.name());
    event(events, ResourceEvent.Kind.DELETED, type, current);
    recordChange(ResourceEvent.Kind.DELETED, type, stored, stored, true);
    collectGarbage(uid(current), propagationPolicy, events);
    return new Deleted(current, true);
  }

  /** Deletes (or, for Orphan, releases) the dependents of a removed owner. */
  private void collectGarbage(String ownerUid, String propagationPolicy, List<ResourceEvent> out) {
    if (ownerUid == null) {
      return;
    }
    for (Map.Entry<String, TreeMap<Key, StoredObject>> e : objects.entrySet()) {
      List<Key> owned = new ArrayList<>();
      for (Map.Entry<Key, StoredObject> o : e.getValue().entrySet()) {
        if (o.getValue().ownedBy(ownerUid)) {
          owned.add(o.getKey());
        }
      }
      for (Key key : owned) {
        // An earlier dependent's removal may have removed or released this one.
        StoredObject dependent = e.getValue().get(key);
        if (dependent == null || !dependent.ownedBy(ownerUid)) {
          continue;
        }
        ResourceType type = typeOfLocked(e.getKey(), dependent);
        if ("Orphan".equals(propagationPolicy)) {
          JsonObject next = dependent.object();
          JsonArray refs = new JsonArray();
          for (JsonElement ref : metadata(next).getAsJsonArray("ownerReferences")) {
            if (!ownerUid.equals(string(ref.getAsJsonObject(), "uid"))) {
              refs.add(ref);
            }
          }
          metadata(next).add("ownerReferences", refs);
          metadata(next).addProperty("resourceVersion", nextResourceVersion());
          StoredObject written = StoredObject.of(next);
          e.getValue().put(key, written);
          event(out, ResourceEvent.Kind.MODIFIED, type, next);
          recordChange(ResourceEvent.Kind.MODIFIED, type, written, dependent, false);
        } else if (!metadata(dependent.object()).has("deletionTimestamp")) {
          deleteLocked(type, key, "Background", out);
        }
      }
    }
  }

  @Override
  public void setPodLog(String namespace, String pod, String container, String log) {
    synchronized (lock) {
      logs.put(namespace + "/" + pod + "/" + container, log);
    }
  }

  String podLog(String namespace, String pod, String container) {
    synchronized (lock) {
      return logs.getOrDefault(namespace + "/" + pod + "/" + container, "");
    }
  }

  List<String> podLogContainers(String namespace, String pod) {
    synchronized (lock) {
      String prefix = namespace + "/" + pod + "/";
      List<String> result = new ArrayList<>();
      for (String k : logs.keySet()) {
        if (k.startsWith(prefix)) {
          result.add(k.substring(prefix.length()));
        }
      }
      result.sort(null);
      return result;
    }
  }

  private void logsRemoved(ResourceType type, String namespace, String name) {
    if (type.equals(ResourceType.POD)) {
      logs.keySet().removeIf(k -> k.startsWith(namespace + "/" + name + "/"));
    }
  }

  @Override
  public void addListener(ResourceListener listener) {
    listeners.add(listener);
  }

  @Override
  public void removeListener(ResourceListener listener) {
    listeners.remove(listener);
  }

  private void fire(Collection<ResourceEvent> events) {
    for (ResourceEvent event : events) {
      for (ResourceListener l : listeners) {
        try {
          l.onEvent(event);
        } catch (RuntimeException e) {
          LOG.warn("Resource listener {} failed on {} of '{}'", l, event.kind(), event.name(), e);
        }
      }
    }
  }

  // ---- rules ----------------------------------------------------------------------------------

  /** Builds the next state of an object from its old state and a changed copy. */
  private JsonObject merge(ResourceType type, JsonObject old, JsonObject changed, Mode mode) {
    JsonObject next;
    if (mode == Mode.STATUS) {
      next = old.deepCopy();
      putOrRemove(next, "status", changed.get("status"));
    } else {
      next = changed.deepCopy();
      if (mode == Mode.MAIN) {
        putOrRemove(next, "status", old.get("status"));
      }
      JsonObject meta = metadata(next);
      JsonObject oldMeta = metadata(old);
      for (String keep :
          List.of(
              "name",
              "namespace",
              "uid",
              "creationTimestamp",
              "deletionTimestamp",
              "deletionGracePeriodSeconds",
              "generation",
              "resourceVersion")) {
        putOrRemove(meta, keep, oldMeta.get(keep));
      }
    }
    next.addProperty("apiVersion", type.apiVersion());
    next.addProperty("kind", type.kind());
    if (!withoutMetadataAndStatus(next).equals(withoutMetadataAndStatus(old))) {
      JsonElement g = metadata(old).get("generation");
      long generation = g == null ? 0 : g.getAsLong();
      metadata(next).addProperty("generation", generation + 1);
    }
    return next;
  }

  private static JsonObject withoutMetadataAndStatus(JsonObject o) {
    JsonObject copy = o.deepCopy();
    copy.remove("metadata");
    copy.remove("status");
    return copy;
  }

  private static void checkNoNewFinalizers(
      ResourceType type, String name, JsonObject old, JsonObject next) {
    if (!metadata(old).has("deletionTimestamp")) {
      return;
    }
    List<String> before = finalizers(old);
    for (String f : finalizers(next)) {
      if (!before.contains(f)) {
        throw KubeStatus.invalid(
            type,
            name,
            "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being"
                + " deleted, found new finalizers []string{\""
                + f
                + "\"}");
      }
    }
  }

  /**
   * Object meta validation as apimachinery's {@code api/validation/objectmeta.go} {@code
   * ValidateObjectMeta} with {@code NameIsDNSSubdomain} ({@code util/validation/validation.go}
   * {@code IsDNS1123Subdomain}) does: 422 {@code Invalid}, details kind the Kind, one cause per
   * error on {@code metadata.name}.
   */
  private static void validate(ResourceType type, String name, JsonObject o) {
    List<KubeStatus.Cause> causes = new ArrayList<>();
    String prefix = "metadata.name: Invalid value: \"" + name + "\": ";
    for (String error : NameRules.dns1123Subdomain(name)) {
      causes.add(new KubeStatus.Cause("FieldValueInvalid", prefix + error, "metadata.name"));
    }
    if (!causes.isEmpty()) {
      throw KubeStatus.invalid(type, name, causes);
    }
    JsonElement labels = metadata(o).get("labels");
    if (labels != null && labels.isJsonObject()) {
      for (Map.Entry<String, JsonElement> e : labels.getAsJsonObject().entrySet()) {
        if (!e.getValue().isJsonPrimitive()) {
          throw KubeStatus.invalid(
              type, name, "metadata.labels: Invalid value: label values must be strings");
        }
        String v = e.getValue().getAsString();
        List<String> errors = NameRules.labelValue(v);
        if (!errors.isEmpty()) {
          // The first error only, as before: too long, else the wrong characters.
          throw KubeStatus.invalid(
              type, name, "metadata.labels: Invalid value: \"" + v + "\": " + errors.get(0));
        }
      }
    }
  }

  private String nextResourceVersion() {
    resourceVersion++;
    return Long.toString(resourceVersion);
  }

  // ---- JSON helpers ---------------------------------------------------------------------------

  static String timestamp(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  static JsonObject metadata(JsonObject o) {
    JsonElement m = o.get("metadata");
    if (m == null || !m.isJsonObject()) {
      JsonObject created = new JsonObject();
      o.add("metadata", created);
      return created;
    }
    return m.getAsJsonObject();
  }

  static String string(JsonObject o, String key) {
    JsonElement e = o == null ? null : o.get(key);
    return e == null || e.isJsonNull() || !e.isJsonPrimitive() ? null : e.getAsString();
  }

  static String uid(JsonObject o) {
    return string(metadata(o), "uid");
  }

  static List<String> finalizers(JsonObject o) {
    List<String> result = new ArrayList<>();
    JsonElement f = metadata(o).get("finalizers");
    if (f != null && f.isJsonArray()) {
      for (JsonElement e : f.getAsJsonArray()) {
        result.add(e.getAsString());
      }
    }
    return result;
  }

  static Map<String, String> labels(JsonObject o) {
    Map<String, String> result = new HashMap<>();
    JsonElement l = metadata(o).get("labels");
    if (l != null && l.isJsonObject()) {
      for (Map.Entry<String, JsonElement> e : l.getAsJsonObject().entrySet()) {
        if (e.getValue() instanceof JsonPrimitive p) {
          result.put(e.getKey(), p.getAsString());
        }
      }
    }
    return result;
  }

  private static void putOrRemove(JsonObject o, String key, JsonElement value) {
    if (value == null) {
      o.remove(key);
    } else {
      o.add(key, value.deepCopy());
    }
  }
}
