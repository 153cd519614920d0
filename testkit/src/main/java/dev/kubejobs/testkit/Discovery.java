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
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Serves discovery ({@code /api}, {@code /apis}, group and group-version resource lists with short
 * names and categories), {@code /version}, {@code /openapi/v3} and namespaces. Thread safe.
 */
final class Discovery {

  private static final String AUTHZ_GROUP = "authorization.k8s.io";

  private final InMemoryStore store;
  private final OpenApi openApi;

  Discovery(InMemoryStore store, OpenApi openApi) {
    this.store = store;
    this.openApi = openApi;
  }

  private final Map<String, Names> names = new java.util.concurrent.ConcurrentHashMap<>();

  void names(ResourceType type, Names crdNames) {
    names.put(InMemoryStore.storageKey(type), crdNames);
  }

  /** Pods' names as kube-apiserver serves them ({@code pkg/registry/core/pod/storage}). */
  private static final Names POD_NAMES = new Names(List.of("po"), List.of("all"));

  /** Core events' short name ({@code pkg/registry/core/event/storage}); events.k8s.io has none. */
  private static final Names EVENT_NAMES = new Names(List.of("ev"), List.of());

  /**
   * The short names and categories of the other built-in kinds, as their storages declare them
   * (kubernetes/kubernetes {@code pkg/registry/core/service/storage} "svc" in "all", {@code
   * configmap/storage} "cm", {@code serviceaccount/storage} "sa", {@code
   * networking/networkpolicy/storage} "netpol"; secrets have none).
   */
  private static final Map<ResourceType, Names> BUILT_IN_NAMES =
      Map.of(
          ResourceType.POD, POD_NAMES,
          ResourceType.EVENT, EVENT_NAMES,
          ResourceType.SERVICE, new Names(List.of("svc"), List.of("all")),
          ResourceType.CONFIG_MAP, new Names(List.of("cm"), List.of()),
          ResourceType.SERVICE_ACCOUNT, new Names(List.of("sa"), List.of()),
          ResourceType.NETWORK_POLICY, new Names(List.of("netpol"), List.of()));

  private Names namesOf(ResourceType type) {
    Names builtIn = BUILT_IN_NAMES.get(type);
    if (builtIn != null) {
      return builtIn;
    }
    return names.getOrDefault(InMemoryStore.storageKey(type), new Names(List.of(), List.of()));
  }

  Answer namespace(Call call, String name) {
    if (!isGet(call)) {
      return methodNotAllowed();
    }
    if (!store.namespaceExists(name)) {
      FakeApiException e = KubeStatus.namespaceNotFound(name);
      return Answer.json(404, KubeStatus.failure(e, KubeStatus.NAMESPACES, name));
    }
    JsonObject ns = new JsonObject();
    ns.addProperty("apiVersion", "v1");
    ns.addProperty("kind", "Namespace");
    JsonObject meta = new JsonObject();
    meta.addProperty("name", name);
    ns.add("metadata", meta);
    JsonObject status = new JsonObject();
    status.addProperty("phase", "Active");
    ns.add("status", status);
    return Answer.json(200, ns);
  }

  boolean groupVersionKnown(String group, String version) {
    if (group.equals(AUTHZ_GROUP) && version.equals("v1")) {
      return true;
    }
    for (ResourceType t : store.types()) {
      if (t.group().equals(group) && t.version().equals(version)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A group version's {@code APIResourceList}, as apiextensions-apiserver's {@code
   * DiscoveryController.sync} builds it for CRDs ({@code
   * pkg/apiserver/customresource_discovery_controller.go}, commit 1aa2717a): every verb, the CRD's
   * {@code shortNames} and {@code categories}, and {@code status} with get, patch and update.
   */
  JsonObject resourceList(String group, String version) {
    JsonObject list = new JsonObject();
    list.addProperty("kind", "APIResourceList");
    list.addProperty("apiVersion", "v1");
    list.addProperty("groupVersion", group.isEmpty() ? version : group + "/" + version);
    JsonArray resources = new JsonArray();
    if (group.equals(AUTHZ_GROUP)) {
      // The one authorization resource the fake serves; kube-apiserver lists the reviews it serves
      // as create-only, cluster-scoped (pkg/registry/authorization/rest/storage_authorization.go).
      JsonObject r = new JsonObject();
      r.addProperty("name", "selfsubjectaccessreviews");
      r.addProperty("singularName", "selfsubjectaccessreview");
      r.addProperty("namespaced", false);
      r.addProperty("kind", "SelfSubjectAccessReview");
      r.add("verbs", strings(List.of("create")));
      resources.add(r);
    }
    for (ResourceType t : store.types()) {
      if (!t.group().equals(group) || !t.version().equals(version)) {
        continue;
      }
      Names n = namesOf(t);
      JsonObject r = new JsonObject();
      r.addProperty("name", t.plural());
      r.addProperty("singularName", t.singular());
      r.addProperty("namespaced", true);
      r.addProperty("kind", t.kind());
      r.add(
          "verbs",
          strings(
              List.of(
                  "delete",
                  "deletecollection",
                  "get",
                  "list",
                  "patch",
                  "create",
                  "update",
                  "watch")));
      if (!n.shortNames().isEmpty()) {
        r.add("shortNames", strings(n.shortNames()));
      }
      if (!n.categories().isEmpty()) {
        r.add("categories", strings(n.categories()));
      }
      resources.add(r);
      if (t.hasStatus()) {
        resources.add(subresource(t, "status", List.of("get", "patch", "update")));
      }
      if (t.equals(ResourceType.POD)) {
        resources.add(subresource(t, "log", List.of("get")));
      }
    }
    list.add("resources", resources);
    return list;
  }

  private static JsonArray strings(List<String> values) {
    JsonArray a = new JsonArray();
    values.forEach(a::add);
    return a;
  }

  private static JsonObject subresource(ResourceType t, String sub, List<String> verbs) {
    JsonObject r = new JsonObject();
    r.addProperty("name", t.plural() + "/" + sub);
    r.addProperty("singularName", "");
    r.addProperty("namespaced", true);
    r.addProperty("kind", sub.equals("log") ? "Pod" : t.kind());
    r.add("verbs", strings(verbs));
    return r;
  }

  /**
   * A group's {@code APIGroup}: its served versions in Kubernetes' priority order and the first as
   * {@code preferredVersion}, as the CRD discovery controller's {@code
   * sortGroupDiscoveryByKubeAwareVersion} orders them.
   */
  Optional<JsonObject> apiGroup(String group) {
    if (group.equals(AUTHZ_GROUP)) {
      return Optional.of(groupJson(group, List.of("v1")));
    }
    List<String> versions = new ArrayList<>();
    for (ResourceType t : store.types()) {
      if (t.group().equals(group) && !group.isEmpty() && !versions.contains(t.version())) {
        versions.add(t.version());
      }
    }
    versions.sort(KubeVersions.PRIORITY);
    return versions.isEmpty() ? Optional.empty() : Optional.of(groupJson(group, versions));
  }

  private static JsonObject groupJson(String group, List<String> versions) {
    JsonObject g = new JsonObject();
    g.addProperty("kind", "APIGroup");
    g.addProperty("apiVersion", "v1");
    g.addProperty("name", group);
    JsonArray vs = new JsonArray();
    for (String v : versions) {
      JsonObject gv = new JsonObject();
      gv.addProperty("groupVersion", group + "/" + v);
      gv.addProperty("version", v);
      vs.add(gv);
    }
    g.add("versions", vs);
    g.add("preferredVersion", vs.get(0).deepCopy());
    return g;
  }

  Answer apiGroupList() {
    Set<String> groups = new LinkedHashSet<>();
    groups.add(AUTHZ_GROUP);
    for (ResourceType t : store.types()) {
      if (!t.isCore()) {
        groups.add(t.group());
      }
    }
    JsonObject list = new JsonObject();
    list.addProperty("kind", "APIGroupList");
    list.addProperty("apiVersion", "v1");
    JsonArray gs = new JsonArray();
    for (String g : groups) {
      JsonObject json = apiGroup(g).orElseThrow();
      json.remove("kind");
      json.remove("apiVersion");
      gs.add(json);
    }
    list.add("groups", gs);
    return Answer.json(200, list);
  }

  static Answer apiVersions() {
    JsonObject v = new JsonObject();
    v.addProperty("kind", "APIVersions");
    JsonArray versions = new JsonArray();
    versions.add("v1");
    v.add("versions", versions);
    v.add("serverAddressByClientCIDRs", new JsonArray());
    return Answer.json(200, v);
  }

  static Answer version() {
    JsonObject v = new JsonObject();
    v.addProperty("major", "1");
    v.addProperty("minor", "33");
    v.addProperty("gitVersion", "v1.33.0-kubejobs-fake");
    v.addProperty("gitCommit", "0000000000000000000000000000000000000000");
    v.addProperty("gitTreeState", "clean");
    v.addProperty("buildDate", "2026-01-01T00:00:00Z");
    v.addProperty("goVersion", "go1.24.0");
    v.addProperty("compiler", "gc");
    v.addProperty("platform", "linux/amd64");
    return Answer.json(200, v);
  }

  /**
   * {@code /openapi/v3} and its group-version documents; a document asked for with its {@code hash}
   * is immutable, as kube-openapi's handler3 marks it ({@code Cache-Control: public, immutable}).
   * {@code /openapi/v2} is not served.
   */
  Answer openApi(Call call, List<String> rest) {
    if (!isGet(call) || rest.isEmpty() || !rest.get(0).equals("v3")) {
      return notFoundPath(call);
    }
    if (rest.size() == 1) {
      return Answer.json(200, openApi.root());
    }
    Optional<JsonObject> doc = openApi.document(String.join("/", rest.subList(1, rest.size())));
    if (doc.isEmpty()) {
      return notFoundPath(call);
    }
    Answer answer = Answer.json(200, doc.get());
    String hash = call.param("hash");
    if (hash != null && hash.equals(OpenApi.hash(doc.get()))) {
      return new Answer(
          200,
          answer.contentType(),
          answer.body(),
          Map.of("Cache-Control", "public, immutable", "Expires", "Thu, 01 Jan 2099 00:00:00 GMT"));
    }
    return answer;
  }
}
