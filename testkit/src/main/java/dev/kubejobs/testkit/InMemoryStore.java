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
import java.util.Set;
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

  /** Where an object is stored. */
  private record Located(ResourceType type, Key key) {}

  /**
   * The finalizer that holds an owner deleted with {@code propagationPolicy=Foreground} until its
   * blocking dependents are gone (apimachinery's {@code metav1.FinalizerDeleteDependents}).
   */
  static final String FOREGROUND_FINALIZER = "foregroundDeletion";

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

  /** Owners deleted in the foreground whose blocking dependents are not all gone yet, by uid. */
  private final Map<String, Located> foregroundOwners = new HashMap<>();

  /** The nodes of attached {@link FakeKubelet}s: pods bound to them are deleted gracefully. */
  private final java.util.Set<String> kubeletNodes = new java.util.HashSet<>();

  private long resourceVersion = 1000;
  private final WatchHub watchHub;
  private final BuiltInDefaults defaults = new BuiltInDefaults();

  InMemoryStore(Clock clock) {
    this.clock = clock;
    this.watchHub = new WatchHub(clock);
    for (ResourceType type : ResourceType.BUILT_IN) {
      register(type);
    }
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

  /** A {@link FakeKubelet} runs this node from now on: its pods are deleted gracefully. */
  void addKubeletNode(String node) {
    synchronized (lock) {
      kubeletNodes.add(node);
    }
  }

  /** No kubelet runs this node any more: its pods are removed at once again. */
  void removeKubeletNode(String node) {
    synchronized (lock) {
      kubeletNodes.remove(node);
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
      foregroundOwners.clear();
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
      defaults.onCreate(type, o);
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
      if (mode == Mode.MAIN) {
        BuiltInDefaults.onWrite(type, next);
      }
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
      if (metadata(next).has("deletionTimestamp")
          && finalizers(next).isEmpty()
          && graceSeconds(next) == 0) {
        // The generic store's ShouldDeleteDuringUpdate (apiserver registry/generic/registry/
        // store.go): the last finalizer gone, no grace period left, the update removes it.
        removeLocked(type, key, next, written, stored, false, "Background", events);
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
      delete(type, namespace, name, null, null, "Background", 0L, false);
      return true;
    } catch (FakeApiException e) {
      if (e.code() == 404) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Deletes with preconditions, a propagation policy and a grace period (null: the pod's own, as an
   * HTTP DELETE without one), as an HTTP DELETE does. With {@code dryRun} the preconditions are
   * checked and the answer is what a delete would answer, but nothing changes.
   */
  Deleted delete(
      ResourceType type,
      String namespace,
      String name,
      String uidPrecondition,
      String resourceVersionPrecondition,
      String propagationPolicy,
      Long gracePeriodSeconds,
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
      result =
          deleteLocked(
              type, new Key(namespace, name), propagationPolicy, gracePeriodSeconds, events);
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

  /**
   * Deletes an object, as the generic registry store's {@code Delete} does (apiserver {@code
   * registry/generic/registry/store.go} with {@code rest.BeforeDelete} in {@code
   * registry/rest/delete.go}): an object with finalizers, deleted in the foreground, or a pod given
   * a grace period is marked with a {@code deletionTimestamp} (and the next {@code generation}) and
   * stays; anything else is removed at once and its dependents are garbage-collected.
   */
  private Deleted deleteLocked(
      ResourceType type,
      Key key,
      String propagationPolicy,
      Long gracePeriodSeconds,
      List<ResourceEvent> events) {
    TreeMap<Key, StoredObject> map = objectsOf(type);
    StoredObject stored = map.get(key);
    JsonObject current = stored.objectAt(type);
    long grace = podGracePeriodLocked(type, current, gracePeriodSeconds);
    boolean foreground = "Foreground".equals(propagationPolicy);
    if (grace == 0 && !foreground && finalizers(current).isEmpty()) {
      removeLocked(type, key, current, stored, stored, true, propagationPolicy, events);
      return new Deleted(current, true);
    }
    JsonObject next = current.deepCopy();
    JsonObject meta = metadata(next);
    boolean changed = false;
    if (!meta.has("deletionTimestamp") || grace < graceSeconds(next)) {
      // A first delete marks the object; a later one may only shorten the grace period.
      if (!meta.has("deletionTimestamp")) {
        JsonElement g = meta.get("generation");
        meta.addProperty("generation", (g == null ? 0 : g.getAsLong()) + 1);
      }
      meta.addProperty("deletionTimestamp", timestamp(clock.instant().plusSeconds(grace)));
      meta.addProperty("deletionGracePeriodSeconds", grace);
      changed = true;
    }
    if (foreground && !finalizers(next).contains(FOREGROUND_FINALIZER)) {
      JsonArray f = new JsonArray();
      finalizers(next).forEach(f::add);
      f.add(FOREGROUND_FINALIZER);
      meta.add("finalizers", f);
      changed = true;
    }
    if (changed) {
      meta.addProperty("resourceVersion", nextResourceVersion());
      StoredObject written = StoredObject.of(next);
      map.put(key, written);
      event(events, ResourceEvent.Kind.MODIFIED, type, next);
      recordChange(ResourceEvent.Kind.MODIFIED, type, written, stored, false);
      current = next;
    }
    if (foreground) {
      String uid = uid(current);
      foregroundOwners.put(uid, new Located(type, key));
      collectDependentsLocked(uid, events);
      finishForegroundLocked(uid, events);
    }
    return new Deleted(current, false);
  }

  /**
   * Removes a stored object: the removal's events, its pod logs, then what the garbage collector
   * does once it is gone (its dependents, and an owner waiting in the foreground for it).
   */
  private void removeLocked(
      ResourceType type,
      Key key,
      JsonObject last,
      StoredObject written,
      StoredObject previous,
      boolean newResourceVersion,
      String propagationPolicy,
      List<ResourceEvent> events) {
    objectsOf(type).remove(key);
    logsRemoved(type, key.namespace(), key.name());
    event(events, ResourceEvent.Kind.DELETED, type, last);
    recordChange(ResourceEvent.Kind.DELETED, type, written, previous, newResourceVersion);
    String uid = uid(last);
    foregroundOwners.remove(uid);
    collectGarbage(uid, propagationPolicy, events);
    for (String owner : written.ownerUids()) {
      finishForegroundLocked(owner, events);
    }
  }

  /**
   * The grace period of a pod's delete: the one asked for, else the pod's {@code
   * terminationGracePeriodSeconds} (30 by default), and 0 for a pod not bound to a node or already
   * finished, as the pod strategy's {@code CheckGracefulDelete} decides (kubernetes/kubernetes
   * {@code pkg/registry/core/pod/strategy.go}). Only pods bound to a node a {@link FakeKubelet}
   * runs get one here: no kubelet would ever finish deleting the others. Other kinds: 0.
   */
  private long podGracePeriodLocked(ResourceType type, JsonObject pod, Long asked) {
    if (!type.equals(ResourceType.POD)) {
      return 0;
    }
    JsonObject spec = pod.get("spec") instanceof JsonObject o ? o : new JsonObject();
    JsonObject status = pod.get("status") instanceof JsonObject o ? o : new JsonObject();
    String node = string(spec, "nodeName");
    String phase = string(status, "phase");
    if (node == null
        || !kubeletNodes.contains(node)
        || "Succeeded".equals(phase)
        || "Failed".equals(phase)) {
      return 0;
    }
    if (asked != null) {
      return Math.max(0, asked);
    }
    JsonElement own = spec.get("terminationGracePeriodSeconds");
    return own != null && own.isJsonPrimitive() ? Math.max(0, own.getAsLong()) : 30;
  }

  /** An object's {@code metadata.deletionGracePeriodSeconds}, 0 when it has none. */
  static long graceSeconds(JsonObject o) {
    JsonElement g = metadata(o).get("deletionGracePeriodSeconds");
    return g != null && g.isJsonPrimitive() ? g.getAsLong() : 0;
  }

  /**
   * What the garbage collector does once an owner is gone: with {@code Orphan} its dependents lose
   * their reference to it; otherwise each dependent is {@linkplain #collectDependentLocked
   * collected}.
   */
  private void collectGarbage(String ownerUid, String propagationPolicy, List<ResourceEvent> out) {
    if (ownerUid == null) {
      return;
    }
    if (!"Orphan".equals(propagationPolicy)) {
      collectDependentsLocked(ownerUid, out);
      return;
    }
    for (Map.Entry<String, TreeMap<Key, StoredObject>> e : objects.entrySet()) {
      for (Key key : ownedKeys(e.getValue(), ownerUid)) {
        StoredObject dependent = e.getValue().get(key);
        if (dependent != null && dependent.ownedBy(ownerUid)) {
          dropOwnerReferencesLocked(
              typeOfLocked(e.getKey(), dependent), key, dependent, Set.of(ownerUid), out);
        }
      }
    }
  }

  /** Collects every dependent of an owner that is gone or waits in the foreground. */
  private void collectDependentsLocked(String ownerUid, List<ResourceEvent> out) {
    for (Map.Entry<String, TreeMap<Key, StoredObject>> e : objects.entrySet()) {
      for (Key key : ownedKeys(e.getValue(), ownerUid)) {
        // An earlier dependent's removal may have removed or released this one.
        StoredObject dependent = e.getValue().get(key);
        if (dependent != null && dependent.ownedBy(ownerUid)) {
          collectDependentLocked(typeOfLocked(e.getKey(), dependent), key, dependent, out);
        }
      }
    }
  }

  private static List<Key> ownedKeys(TreeMap<Key, StoredObject> map, String ownerUid) {
    List<Key> owned = new ArrayList<>();
    for (Map.Entry<Key, StoredObject> o : map.entrySet()) {
      if (o.getValue().ownedBy(ownerUid)) {
        owned.add(o.getKey());
      }
    }
    return owned;
  }

  /**
   * The garbage collector's {@code attemptToDeleteItem} (kubernetes/kubernetes {@code
   * pkg/controller/garbagecollector/garbagecollector.go}): each owner reference is solid (the owner
   * exists, by uid), dangling (no object has that uid) or waiting (the owner is being deleted in
   * the foreground). With a solid owner left, the dangling and waiting references are removed and
   * the object stays; without one, the object is deleted: in the foreground when an owner waits for
   * it and it has dependents of its own, else as its own finalizers say, else in the background. An
   * object already being deleted is left to finish.
   */
  private void collectDependentLocked(
      ResourceType type, Key key, StoredObject dependent, List<ResourceEvent> out) {
    Set<String> notSolid = new java.util.HashSet<>();
    boolean solid = false;
    boolean waiting = false;
    for (String owner : dependent.ownerUids()) {
      JsonObject found = findByUidLocked(owner);
      if (found == null) {
        notSolid.add(owner);
      } else if (metadata(found).has("deletionTimestamp")
          && finalizers(found).contains(FOREGROUND_FINALIZER)) {
        notSolid.add(owner);
        waiting = true;
      } else {
        solid = true;
      }
    }
    if (solid) {
      if (!notSolid.isEmpty()) {
        dropOwnerReferencesLocked(type, key, dependent, notSolid, out);
      }
      return;
    }
    JsonObject object = dependent.object();
    if (metadata(object).has("deletionTimestamp")) {
      return;
    }
    List<String> finalizers = finalizers(object);
    String policy;
    if (waiting && hasDependentsLocked(uid(object))) {
      policy = "Foreground";
    } else if (finalizers.contains("orphan")) {
      policy = "Orphan";
    } else if (finalizers.contains(FOREGROUND_FINALIZER)) {
      policy = "Foreground";
    } else {
      policy = "Background";
    }
    deleteLocked(type, key, policy, null, out);
  }

  /** Removes the owner references to these uids from a dependent, as the collector's patch does. */
  private void dropOwnerReferencesLocked(
      ResourceType type,
      Key key,
      StoredObject dependent,
      Set<String> ownerUids,
      List<ResourceEvent> out) {
    JsonObject next = dependent.object();
    JsonArray refs = new JsonArray();
    for (JsonElement ref : metadata(next).getAsJsonArray("ownerReferences")) {
      if (!ownerUids.contains(string(ref.getAsJsonObject(), "uid"))) {
        refs.add(ref);
      }
    }
    metadata(next).add("ownerReferences", refs);
    metadata(next).addProperty("resourceVersion", nextResourceVersion());
    StoredObject written = StoredObject.of(next);
    objectsOf(type).put(key, written);
    event(out, ResourceEvent.Kind.MODIFIED, type, next);
    recordChange(ResourceEvent.Kind.MODIFIED, type, written, dependent, false);
  }

  /**
   * Ends the foreground deletion of an owner once no dependent blocks it any more, as the
   * collector's {@code processDeletingDependentsItem} does: a dependent blocks while it exists with
   * {@code blockOwnerDeletion: true} in its reference to the owner. The {@value
   * #FOREGROUND_FINALIZER} finalizer is then removed, and with it the owner when no other finalizer
   * holds it.
   */
  private void finishForegroundLocked(String ownerUid, List<ResourceEvent> out) {
    Located at = foregroundOwners.get(ownerUid);
    if (at == null) {
      return;
    }
    TreeMap<Key, StoredObject> map = objectsOf(at.type());
    StoredObject stored = map.get(at.key());
    JsonObject owner = stored == null ? null : stored.objectAt(at.type());
    if (owner == null
        || !ownerUid.equals(uid(owner))
        || !finalizers(owner).contains(FOREGROUND_FINALIZER)) {
      foregroundOwners.remove(ownerUid);
      return;
    }
    if (blockedLocked(ownerUid)) {
      return;
    }
    foregroundOwners.remove(ownerUid);
    JsonObject next = owner.deepCopy();
    JsonArray f = new JsonArray();
    finalizers(next).stream().filter(x -> !x.equals(FOREGROUND_FINALIZER)).forEach(f::add);
    metadata(next).add("finalizers", f);
    if (f.isEmpty()) {
      metadata(next).remove("finalizers");
    }
    metadata(next).addProperty("resourceVersion", nextResourceVersion());
    StoredObject written = StoredObject.of(next);
    if (f.isEmpty() && graceSeconds(next) == 0) {
      removeLocked(at.type(), at.key(), next, written, stored, false, "Background", out);
    } else {
      map.put(at.key(), written);
      event(out, ResourceEvent.Kind.MODIFIED, at.type(), next);
      recordChange(ResourceEvent.Kind.MODIFIED, at.type(), written, stored, false);
    }
  }

  /** Whether a stored object refers to this owner with {@code blockOwnerDeletion: true}. */
  private boolean blockedLocked(String ownerUid) {
    for (TreeMap<Key, StoredObject> map : objects.values()) {
      for (StoredObject o : map.values()) {
        if (!o.ownedBy(ownerUid)) {
          continue;
        }
        JsonElement refs = metadata(o.object()).get("ownerReferences");
        for (JsonElement ref : refs.getAsJsonArray()) {
          JsonObject r = ref.getAsJsonObject();
          JsonElement block = r.get("blockOwnerDeletion");
          if (ownerUid.equals(string(r, "uid"))
              && block != null
              && block.isJsonPrimitive()
              && block.getAsBoolean()) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private boolean hasDependentsLocked(String uid) {
    for (TreeMap<Key, StoredObject> map : objects.values()) {
      for (StoredObject o : map.values()) {
        if (o.ownedBy(uid)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The stored object with this uid, or null; a scan, as owners are looked up rarely. */
  private JsonObject findByUidLocked(String uid) {
    Located waiting = foregroundOwners.get(uid);
    if (waiting != null) {
      StoredObject o = objectsOf(waiting.type()).get(waiting.key());
      if (o != null && uid.equals(uid(o.object()))) {
        return o.object();
      }
    }
    String quoted = "\"uid\":\"" + uid + "\"";
    for (TreeMap<Key, StoredObject> map : objects.values()) {
      for (StoredObject o : map.values()) {
        if (o.mentions(quoted)) {
          JsonObject object = o.object();
          if (uid.equals(uid(object))) {
            return object;
          }
        }
      }
    }
    return null;
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
