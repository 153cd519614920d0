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

import com.google.gson.JsonObject;
import java.util.Locale;

/**
 * Serves {@code SelfSubjectAccessReview}s (JSON or kubectl's protobuf) and words the 403 a request
 * denied by the {@link Rbac} rules gets. Thread safe.
 */
final class AccessReview {

  private final Rbac rbac;

  AccessReview(Rbac rbac) {
    this.rbac = rbac;
  }

  Answer selfSubjectAccessReview(Call call) {
    String ct = call.contentType() == null ? "" : call.contentType().toLowerCase(Locale.ROOT);
    JsonObject review =
        ct.startsWith(ProtobufReview.MEDIA_TYPE)
            ? ProtobufReview.decode(call.body())
            : jsonBody(call);
    JsonObject spec = review.get("spec") instanceof JsonObject s ? s : new JsonObject();
    boolean allowed = true;
    if (spec.get("resourceAttributes") instanceof JsonObject ra) {
      String resource = orEmpty(InMemoryStore.string(ra, "resource"));
      String sub = InMemoryStore.string(ra, "subresource");
      if (sub != null && !sub.isEmpty()) {
        resource = resource + "/" + sub;
      }
      String ns = InMemoryStore.string(ra, "namespace");
      allowed =
          rbac.allows(
              orEmpty(InMemoryStore.string(ra, "verb")),
              orEmpty(InMemoryStore.string(ra, "group")),
              resource,
              ns == null || ns.isEmpty() ? null : ns);
    }
    JsonObject result = new JsonObject();
    result.addProperty("kind", "SelfSubjectAccessReview");
    result.addProperty("apiVersion", "authorization.k8s.io/v1");
    JsonObject meta = new JsonObject();
    meta.addProperty("creationTimestamp", (String) null);
    result.add("metadata", meta);
    result.add("spec", spec);
    JsonObject status = new JsonObject();
    status.addProperty("allowed", allowed);
    if (allowed) {
      status.addProperty("reason", "allowed by the fake API server's RBAC rules");
    }
    result.add("status", status);
    return Answer.json(201, result);
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  Answer forbidden(ResourceType type, String verb, String resource, String namespace, String name) {
    String message =
        type.qualifiedPlural()
            + (name == null ? "" : " \"" + name + "\"")
            + " is forbidden: User \""
            + rbac.user()
            + "\" cannot "
            + verb
            + " resource \""
            + resource
            + "\" in API group \""
            + type.group()
            + "\""
            + (namespace == null
                ? " at the cluster scope"
                : " in the namespace \"" + namespace + "\"");
    return Answer.json(
        403, KubeStatus.failure(403, "Forbidden", message, KubeStatus.details(type, name)));
  }
}
