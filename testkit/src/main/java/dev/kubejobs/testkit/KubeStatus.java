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
import com.google.gson.JsonObject;

/** Builds Kubernetes {@code Status} bodies and the server's standard errors. Stateless. */
final class KubeStatus {

  private KubeStatus() {}

  static JsonObject failure(int code, String reason, String message, JsonObject details) {
    JsonObject s = new JsonObject();
    s.addProperty("kind", "Status");
    s.addProperty("apiVersion", "v1");
    s.add("metadata", new JsonObject());
    s.addProperty("status", "Failure");
    s.addProperty("message", message);
    s.addProperty("reason", reason);
    s.add("details", details == null ? new JsonObject() : details);
    s.addProperty("code", code);
    return s;
  }

  static JsonObject failure(FakeApiException e, ResourceType type, String name) {
    return failure(e.code(), e.reason(), e.getMessage(), details(type, name));
  }

  static JsonObject details(ResourceType type, String name) {
    JsonObject d = new JsonObject();
    if (name != null && !name.isEmpty()) {
      d.addProperty("name", name);
    }
    if (type != null) {
      d.addProperty("group", type.group());
      d.addProperty("kind", type.plural());
    }
    return d;
  }

  /** A generic server response, as the API server answers for unmatched routes and patch errors. */
  static JsonObject generic(int code, String reason, String message, String cause) {
    JsonObject details = new JsonObject();
    JsonArray causes = new JsonArray();
    JsonObject c = new JsonObject();
    c.addProperty("reason", "UnexpectedServerResponse");
    c.addProperty("message", cause);
    causes.add(c);
    details.add("causes", causes);
    return failure(code, reason, message, details);
  }

  /** A {@link FakeApiException} that knows the object's name, for the {@code Status} details. */
  static final class Named extends FakeApiException {
    private static final long serialVersionUID = 1L;
    final String name;
    final ResourceType detailsType;

    Named(int code, String reason, String message, String name) {
      this(code, reason, message, name, null);
    }

    Named(int code, String reason, String message, String name, ResourceType detailsType) {
      super(code, reason, message);
      this.name = name;
      this.detailsType = detailsType;
    }
  }

  /** The namespaces pseudo-type, for the details of a missing namespace. */
  static final ResourceType NAMESPACES = new ResourceType("", "v1", "namespaces", "Namespace");

  static FakeApiException namespaceNotFound(String namespace) {
    return new Named(
        404, "NotFound", "namespaces \"" + namespace + "\" not found", namespace, NAMESPACES);
  }

  static FakeApiException notFound(ResourceType type, String name) {
    return new Named(404, "NotFound", type.qualifiedPlural() + " \"" + name + "\" not found", name);
  }

  static FakeApiException alreadyExists(ResourceType type, String name) {
    return new Named(
        409, "AlreadyExists", type.qualifiedPlural() + " \"" + name + "\" already exists", name);
  }

  static FakeApiException conflict(ResourceType type, String name, String why) {
    return new Named(
        409,
        "Conflict",
        "Operation cannot be fulfilled on " + type.qualifiedPlural() + " \"" + name + "\": " + why,
        name);
  }

  static FakeApiException modified(ResourceType type, String name) {
    return conflict(
        type,
        name,
        "the object has been modified; please apply your changes to the latest version and try"
            + " again");
  }

  static FakeApiException invalid(ResourceType type, String name, String fieldErrors) {
    String qualifiedKind = type.isCore() ? type.kind() : type.kind() + "." + type.group();
    return new Named(
        422, "Invalid", qualifiedKind + " \"" + name + "\" is invalid: " + fieldErrors, name);
  }

  static FakeApiException badRequest(String message) {
    return new FakeApiException(400, "BadRequest", message);
  }
}
