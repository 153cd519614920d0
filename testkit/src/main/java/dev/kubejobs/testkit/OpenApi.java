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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fake's OpenAPI v3 documents, as kube-apiserver serves them under {@code /openapi/v3}: a root
 * naming one document per served group version ({@code handler3.OpenAPIV3Discovery} in
 * k8s.io/kube-openapi {@code pkg/handler3/handler.go}, commit 8f35e442), each document's {@code
 * serverRelativeURL} carrying the upper-case hex SHA-512 of the document as {@code hash}.
 *
 * <p>A custom resource's document is built as apiextensions-apiserver builds it ({@code
 * pkg/controller/openapi/builder/builder.go}, kubernetes commit 6f137b77): the registered CRD
 * version's {@code openAPIV3Schema} with {@code apiVersion}, {@code kind} and a {@code metadata}
 * reference to {@code ObjectMeta} added, the {@code x-kubernetes-group-version-kind} extension,
 * schema names like {@code org.apache.spark.v1.SparkApplication} (the group reversed), and the
 * routes list, create, deletecollection, read, replace, delete, patch (JSON, merge and apply
 * patches) and the status subresource, each operation with its GVK, action and options parameters.
 * The core group version serves a fixed subset: pods, events and namespaces with their common
 * fields.
 */
final class OpenApi {

  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  private static final String REF = "#/components/schemas/";

  private final InMemoryStore store;
  private final Map<ResourceType, JsonObject> schemas = new ConcurrentHashMap<>();

  OpenApi(InMemoryStore store) {
    this.store = store;
  }

  /** Remembers a registered CRD version's {@code openAPIV3Schema}. */
  void schema(ResourceType type, JsonObject openApiV3Schema) {
    schemas.put(type, openApiV3Schema.deepCopy());
  }

  /** The root: each served group version and the URL of its document. */
  JsonObject root() {
    JsonObject paths = new JsonObject();
    for (String gv : groupVersions().keySet()) {
      paths.add(gv, url(gv));
    }
    JsonObject root = new JsonObject();
    root.add("paths", paths);
    return root;
  }

  private JsonObject url(String gv) {
    JsonObject o = new JsonObject();
    o.addProperty("serverRelativeURL", "/openapi/v3/" + gv + "?hash=" + hash(document(gv).get()));
    return o;
  }

  static String hash(JsonObject document) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-512")
              .digest(ApiHandler.GSON.toJson(document).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().withUpperCase().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-512 is required of every Java platform", e);
    }
  }

  /** The served group versions, by their path ({@code api/v1}, {@code apis/group/version}). */
  private Map<String, List<ResourceType>> groupVersions() {
    Map<String, List<ResourceType>> result = new TreeMap<>();
    result.put("api/v1", new java.util.ArrayList<>());
    for (ResourceType t : store.types()) {
      String gv = t.isCore() ? "api/v1" : "apis/" + t.group() + "/" + t.version();
      result.computeIfAbsent(gv, k -> new java.util.ArrayList<>()).add(t);
    }
    return result;
  }

  /**
   * The document of one group version.
   *
   * @param gv {@code api/v1} or {@code apis/group/version}
   */
  Optional<JsonObject> document(String gv) {
    List<ResourceType> types = groupVersions().get(gv);
    if (types == null) {
      return Optional.empty();
    }
    JsonObject paths = new JsonObject();
    JsonObject components = new JsonObject();
    if (gv.equals("api/v1")) {
      ResourceType namespace = new ResourceType("", "v1", "namespaces", "Namespace");
      components.add(schemaName(namespace), CoreSchemas.namespace(gvk(namespace)));
      components.add(schemaName(namespace) + "List", listSchema(namespace));
      clusterRoutes(paths, namespace);
    }
    for (ResourceType t : types) {
      components.add(schemaName(t), objectSchema(t));
      components.add(schemaName(t) + "List", listSchema(t));
      routes(paths, t);
    }
    components.add(META + "ObjectMeta", CoreSchemas.objectMeta());
    components.add(META + "ListMeta", CoreSchemas.listMeta());
    components.add(META + "Status", CoreSchemas.status());
    components.add(META + "DeleteOptions", CoreSchemas.deleteOptions());
    components.add(META + "Patch", CoreSchemas.patch());
    JsonObject sorted = new JsonObject();
    components.keySet().stream().sorted().forEach(k -> sorted.add(k, components.get(k)));
    JsonObject schemasObj = new JsonObject();
    schemasObj.add("schemas", sorted);
    JsonObject doc = new JsonObject();
    doc.addProperty("openapi", "3.0.0");
    JsonObject info = new JsonObject();
    info.addProperty("title", gv.equals("api/v1") ? "Kubernetes" : "Kubernetes CRD Swagger");
    info.addProperty("version", gv.equals("api/v1") ? "v1.32.0" : "v0.1.0");
    doc.add("info", info);
    doc.add("paths", paths);
    doc.add("components", schemasObj);
    return Optional.of(doc);
  }

  /** The schema name: {@code io.k8s.api.core.v1.Pod}, or the CRD's reversed group. */
  static String schemaName(ResourceType t) {
    if (t.isCore()) {
      return "io.k8s.api.core.v1." + t.kind();
    }
    if (t.group().equals("events.k8s.io")) {
      return "io.k8s.api.events." + t.version() + "." + t.kind();
    }
    List<String> parts = new java.util.ArrayList<>(List.of(t.group().split("\\.")));
    java.util.Collections.reverse(parts);
    return String.join(".", parts) + "." + t.version() + "." + t.kind();
  }

  private static JsonObject gvk(ResourceType t) {
    JsonObject o = new JsonObject();
    o.addProperty("group", t.group());
    o.addProperty("kind", t.kind());
    o.addProperty("version", t.version());
    return o;
  }

  private static JsonArray gvks(JsonObject gvk) {
    JsonArray a = new JsonArray();
    a.add(gvk);
    return a;
  }

  private JsonObject objectSchema(ResourceType t) {
    if (t.equals(ResourceType.POD)) {
      return CoreSchemas.pod(gvks(gvk(t)));
    }
    if (t.kind().equals("Event") && (t.isCore() || t.group().equals("events.k8s.io"))) {
      return CoreSchemas.event(gvks(gvk(t)), t.isCore());
    }
    JsonObject crd = schemas.get(t);
    JsonObject s;
    if (crd == null) {
      // A resource registered without a schema: an open object, as for a CRD without one.
      s = new JsonObject();
      s.addProperty("type", "object");
      s.addProperty("x-kubernetes-preserve-unknown-fields", true);
    } else {
      s = crd.deepCopy();
      JsonObject props = s.get("properties") instanceof JsonObject p ? p : new JsonObject();
      s.add("properties", props);
      props.add("apiVersion", CoreSchemas.apiVersionProperty());
      props.add("kind", CoreSchemas.kindProperty());
      props.add(
          "metadata",
          CoreSchemas.ref(
              META + "ObjectMeta",
              "Standard object's metadata. More info:"
                  + " https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"));
    }
    s.add("x-kubernetes-group-version-kind", gvks(gvk(t)));
    return s;
  }

  private static JsonObject listSchema(ResourceType t) {
    JsonObject s = new JsonObject();
    s.addProperty("description", t.kind() + "List is a list of " + t.kind());
    s.addProperty("type", "object");
    JsonArray required = new JsonArray();
    required.add("items");
    s.add("required", required);
    JsonObject props = new JsonObject();
    props.add("apiVersion", CoreSchemas.apiVersionProperty());
    JsonObject items = new JsonObject();
    items.addProperty("description", "List of " + t.plural());
    items.addProperty("type", "array");
    items.add("items", CoreSchemas.ref(schemaName(t), null));
    props.add("items", items);
    props.add("kind", CoreSchemas.kindProperty());
    props.add("metadata", CoreSchemas.ref(META + "ListMeta", "Standard list metadata."));
    s.add("properties", props);
    JsonObject listGvk = gvk(t);
    listGvk.addProperty("kind", t.kind() + "List");
    s.add("x-kubernetes-group-version-kind", gvks(listGvk));
    return s;
  }

  private static void routes(JsonObject paths, ResourceType t) {
    String base = t.isCore() ? "/api/v1" : "/apis/" + t.group() + "/" + t.version();
    String namespaced = base + "/namespaces/{namespace}/" + t.plural();
    String kind = t.kind();
    JsonObject all = new JsonObject();
    all.add("get", op(t, "list", "list" + kind + "ForAllNamespaces", "List", listOptions()));
    paths.add(base + "/" + t.plural(), all);
    JsonObject collection = new JsonObject();
    collection.add("get", op(t, "list", "listNamespaced" + kind, "List", listOptions()));
    collection.add("post", op(t, "post", "createNamespaced" + kind, "", createOptions()));
    collection.add(
        "delete",
        op(t, "deletecollection", "deleteCollectionNamespaced" + kind, "Status", listOptions()));
    collection.add("parameters", pathParams(false));
    paths.add(namespaced, collection);
    JsonObject item = new JsonObject();
    item.add("get", op(t, "get", "readNamespaced" + kind, "", List.of()));
    item.add("put", op(t, "put", "replaceNamespaced" + kind, "", createOptions()));
    item.add("patch", op(t, "patch", "patchNamespaced" + kind, "", patchOptions()));
    item.add("delete", op(t, "delete", "deleteNamespaced" + kind, "Status", deleteOptions()));
    item.add("parameters", pathParams(true));
    paths.add(namespaced + "/{name}", item);
    boolean event = t.kind().equals("Event");
    if (!event) {
      JsonObject status = new JsonObject();
      status.add("get", op(t, "get", "readNamespaced" + kind + "Status", "", List.of()));
      status.add("put", op(t, "put", "replaceNamespaced" + kind + "Status", "", createOptions()));
      status.add("patch", op(t, "patch", "patchNamespaced" + kind + "Status", "", patchOptions()));
      status.add("parameters", pathParams(true));
      paths.add(namespaced + "/{name}/status", status);
    }
  }

  /** Namespaces: cluster scoped, read and listed (the fake does not write them over HTTP). */
  private static void clusterRoutes(JsonObject paths, ResourceType t) {
    JsonObject collection = new JsonObject();
    collection.add("get", op(t, "list", "listNamespace", "List", listOptions()));
    paths.add("/api/v1/namespaces", collection);
    JsonObject item = new JsonObject();
    item.add("get", op(t, "get", "readNamespace", "", List.of()));
    JsonArray params = new JsonArray();
    params.add(param("name", "path", "name of the Namespace"));
    item.add("parameters", params);
    paths.add("/api/v1/namespaces/{name}", item);
  }

  private static JsonObject op(
      ResourceType t, String action, String operationId, String answers, List<String> options) {
    JsonObject op = new JsonObject();
    op.addProperty("operationId", operationId);
    JsonArray params = new JsonArray();
    params.add(
        param(
            "pretty",
            "query",
            "If 'true', then the output is pretty printed. Defaults to 'false' unless the"
                + " user-agent indicates a browser or command-line HTTP tool (curl and wget)."));
    for (String o : options) {
      params.add(param(o, "query", OPTION_DESCRIPTIONS.getOrDefault(o, o)));
    }
    op.add("parameters", params);
    String answer =
        switch (answers) {
          case "List" -> schemaName(t) + "List";
          case "Status" -> META + "Status";
          default -> schemaName(t);
        };
    if (!t.isCore() || !t.kind().equals("Namespace")) {
      if (action.equals("post") || action.equals("put")) {
        op.add("requestBody", body(List.of("*/*"), schemaName(t)));
      } else if (action.equals("patch")) {
        List<String> media =
            new java.util.ArrayList<>(
                List.of(
                    "application/apply-patch+yaml",
                    "application/json-patch+json",
                    "application/merge-patch+json"));
        op.add("requestBody", body(media, META + "Patch"));
      } else if (action.equals("delete")) {
        op.add("requestBody", body(List.of("*/*"), META + "DeleteOptions"));
      }
    }
    JsonObject responses = new JsonObject();
    JsonObject ok = new JsonObject();
    ok.addProperty("description", "OK");
    JsonObject content = new JsonObject();
    for (String media : List.of("application/json", "application/yaml")) {
      JsonObject m = new JsonObject();
      m.add("schema", CoreSchemas.ref(answer, null));
      content.add(media, m);
    }
    ok.add("content", content);
    responses.add("200", ok);
    op.add("responses", responses);
    op.addProperty("x-kubernetes-action", action);
    op.add("x-kubernetes-group-version-kind", gvk(t));
    return op;
  }

  private static JsonObject body(List<String> media, String schema) {
    JsonObject content = new JsonObject();
    for (String m : media) {
      JsonObject o = new JsonObject();
      o.add("schema", CoreSchemas.ref(schema, null));
      content.add(m, o);
    }
    JsonObject b = new JsonObject();
    b.add("content", content);
    b.addProperty("required", true);
    return b;
  }

  private static JsonArray pathParams(boolean withName) {
    JsonArray a = new JsonArray();
    if (withName) {
      a.add(param("name", "path", "name of the object"));
    }
    a.add(param("namespace", "path", "object name and auth scope, such as for teams and projects"));
    return a;
  }

  private static JsonObject param(String name, String in, String description) {
    JsonObject p = new JsonObject();
    p.addProperty("name", name);
    p.addProperty("in", in);
    p.addProperty("description", description);
    if (in.equals("path")) {
      p.addProperty("required", true);
    }
    JsonObject schema = new JsonObject();
    schema.addProperty(
        "type",
        Map.of("limit", "integer", "timeoutSeconds", "integer", "gracePeriodSeconds", "integer")
                .containsKey(name)
            ? "integer"
            : Map.of("watch", "", "allowWatchBookmarks", "", "force", "", "orphanDependents", "")
                    .containsKey(name)
                ? "boolean"
                : "string");
    p.add("schema", schema);
    return p;
  }

  private static List<String> listOptions() {
    return List.of(
        "allowWatchBookmarks",
        "continue",
        "fieldSelector",
        "labelSelector",
        "limit",
        "resourceVersion",
        "resourceVersionMatch",
        "timeoutSeconds",
        "watch");
  }

  private static List<String> createOptions() {
    return List.of("dryRun", "fieldManager", "fieldValidation");
  }

  private static List<String> patchOptions() {
    return List.of("dryRun", "fieldManager", "fieldValidation", "force");
  }

  private static List<String> deleteOptions() {
    return List.of("dryRun", "gracePeriodSeconds", "orphanDependents", "propagationPolicy");
  }

  private static final Map<String, String> OPTION_DESCRIPTIONS =
      Map.of(
          "dryRun",
          "When present, indicates that modifications should not be persisted. An invalid or"
              + " unrecognized dryRun directive will result in an error response and no further"
              + " processing of the request. Valid values are: - All: all dry run stages will be"
              + " processed",
          "fieldManager",
          "fieldManager is a name associated with the actor or entity that is making these"
              + " changes.",
          "fieldValidation",
          "fieldValidation instructs the server on how to handle objects in the request"
              + " containing unknown or duplicate fields. Valid values are: Ignore, Warn, Strict.",
          "force",
          "Force is going to \"force\" Apply requests. It means user will re-acquire conflicting"
              + " fields owned by other people.",
          "labelSelector",
          "A selector to restrict the list of returned objects by their labels.",
          "fieldSelector",
          "A selector to restrict the list of returned objects by their fields.");
}
