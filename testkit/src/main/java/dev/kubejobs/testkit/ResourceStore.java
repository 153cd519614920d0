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

import com.google.gson.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Reads and changes the fake API server's objects directly, without HTTP, without faults, RBAC or
 * request journal entries; for arranging a test's state and asserting on it, and for fake
 * operators.
 *
 * <p>The store applies the same rules as the HTTP API: one server-wide resourceVersion counter,
 * finalizers and {@code deletionTimestamp}, garbage collection of dependents by {@code
 * ownerReferences}. Unlike the HTTP API it may change anything, including {@code status}.
 *
 * <p>Thread safe: every operation is atomic with respect to every other operation and to HTTP
 * requests. Every {@link JsonObject} passed in or returned is a deep copy, so changing it never
 * changes the store. Every type passed must be {@link ResourceType#POD} or registered with {@link
 * FakeKubernetesApiServer#registerResource(ResourceType)}, or an {@link IllegalArgumentException}
 * is thrown.
 */
public interface ResourceStore {

  /**
   * Returns a copy of the object, if it exists (also while it is being deleted).
   *
   * @param type the resource type
   * @param namespace the namespace
   * @param name the object's name
   * @return the object, or empty if there is none
   */
  Optional<JsonObject> get(ResourceType type, String namespace, String name);

  /**
   * Returns copies of all objects of a type in a namespace, or in all namespaces, sorted by
   * namespace and then name.
   *
   * @param type the resource type
   * @param namespace the namespace, or null for all namespaces
   * @return the objects, with {@code apiVersion} and {@code kind} set
   */
  List<JsonObject> list(ResourceType type, String namespace);

  /**
   * Creates an object as a POST would, but keeps the given {@code status}: sets {@code apiVersion},
   * {@code kind}, {@code metadata.namespace}, a random {@code uid}, the next {@code
   * resourceVersion}, {@code generation} 1 and {@code creationTimestamp} from the server's clock. A
   * {@code metadata.generateName} without a name gets a random suffix.
   *
   * @param type the resource type
   * @param namespace the namespace
   * @param object the object; its {@code metadata.name} or {@code metadata.generateName} is used
   * @return a copy of the stored object
   * @throws FakeApiException with code 409 ({@code AlreadyExists}) if the name is taken, or 422
   *     ({@code Invalid}) if there is no name
   */
  JsonObject create(ResourceType type, String namespace, JsonObject object);

  /**
   * Replaces an object with what {@code change} returns from a copy of it, bumping {@code
   * resourceVersion} (and {@code generation} when anything but {@code metadata} and {@code status}
   * changed). Identity fields ({@code uid}, {@code name}, {@code namespace}, {@code
   * creationTimestamp}, {@code deletionTimestamp}) are kept as they were. If the object is being
   * deleted and the change removes its last finalizer, the object is removed and its dependents are
   * garbage collected.
   *
   * @param type the resource type
   * @param namespace the namespace
   * @param name the object's name
   * @param change receives a copy of the current object and returns the new object (it may change
   *     the copy in place and return it)
   * @return a copy of the object after the change (also when the change removed it)
   * @throws FakeApiException with code 404 ({@code NotFound}) if the object does not exist
   */
  JsonObject update(
      ResourceType type, String namespace, String name, UnaryOperator<JsonObject> change);

  /**
   * Deletes an object as an HTTP DELETE without options would: an object with finalizers gets a
   * {@code deletionTimestamp} and stays until its last finalizer is removed; an object without
   * finalizers is removed at once, and then objects whose {@code ownerReferences} name its {@code
   * uid} are deleted the same way (background propagation).
   *
   * @param type the resource type
   * @param namespace the namespace
   * @param name the object's name
   * @return true if the object existed, false if it did not
   */
  boolean delete(ResourceType type, String namespace, String name);

  /**
   * Sets the log text that {@code GET /api/v1/namespaces/{ns}/pods/{pod}/log?container=...}
   * answers, replacing any earlier log of that container. The pod need not exist yet; its log is
   * dropped when the pod is removed. Logs of several megabytes are fine.
   *
   * @param namespace the pod's namespace
   * @param pod the pod's name
   * @param container the container's name
   * @param log the whole log text
   */
  void setPodLog(String namespace, String pod, String container, String log);

  /**
   * Adds a listener that is told about every object added, modified or removed, whether by HTTP or
   * through this store. Listeners run on the thread that made the change, after the change and
   * outside the store's lock, so they may call the store; a listener that throws is logged and
   * ignored.
   *
   * @param listener the listener
   */
  void addListener(ResourceListener listener);

  /**
   * Removes a listener added with {@link #addListener(ResourceListener)}.
   *
   * @param listener the listener
   */
  void removeListener(ResourceListener listener);
}
