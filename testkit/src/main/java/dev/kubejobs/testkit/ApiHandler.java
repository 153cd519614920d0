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

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.testkit.internal.FieldSelector;
import dev.kubejobs.testkit.internal.JsonPatch;
import dev.kubejobs.testkit.internal.LabelSelector;
import dev.kubejobs.testkit.internal.MergePatch;
import dev.kubejobs.testkit.internal.StructuralSchema;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Answers Kubernetes API requests from the {@link InMemoryStore}: routing, RBAC, CRUD, patches,
 * lists, pod logs, discovery and access reviews. Independent of the HTTP layer. Thread safe: all
 * state is in the store and the RBAC rules.
 */
final class ApiHandler {

  static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

  /** An HTTP answer. */
  record Answer(int status, String contentType, String body, Map<String, String> headers) {
    static Answer json(int status, JsonElement body) {
      return new Answer(status, "application/json", GSON.toJson(body), Map.of());
    }

    static Answer text(String body) {
      return new Answer(200, "text/plain", body, Map.of());
    }

    /**
     * A JSON answer with one {@code Warning} header per message, as apiserver's {@code
     * endpoints/filters/warning.go} writes them ({@code 299 - "message"}); several are joined by a
     * newline here and split again by the HTTP layer.
     */
    static Answer json(int status, JsonElement body, List<String> warnings) {
      if (warnings.isEmpty()) {
        return json(status, body);
      }
      List<String> values = new ArrayList<>();
      for (String w : warnings) {
        values.add("299 - " + GSON.toJson(w));
      }
      return new Answer(
          status,
          "application/json",
          GSON.toJson(body),
          Map.of("Warning", String.join("\n", values)));
    }

    /** A plain-text error as Go's {@code http.Error} writes it. */
    static Answer plainError(int status, String body) {
      return new Answer(
          status,
          "text/plain; charset=utf-8",
          body + "\n",
          Map.of("X-Content-Type-Options", "nosniff"));
    }
  }

  /** An incoming request. */
  record Call(
      String method,
      String path,
      Map<String, String> query,
      String contentType,
      String body,
      String accept) {
    Call(String method, String path, Map<String, String> query, String contentType, String body) {
      this(method, path, query, contentType, body, "");
    }

    String param(String name) {
      return query.get(name);
    }
  }

  private static final String AUTHZ_GROUP = "authorization.k8s.io";
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ApiHandler.class);

  private final InMemoryStore store;
  private final Rbac rbac;
  private final Map<ResourceType, StructuralSchema> schemas =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final Tables tables;
  private final OpenApi openApi;

  ApiHandler(InMemoryStore store, Rbac rbac) {
    this.store = store;
    this.rbac = rbac;
    this.tables = new Tables(store.clock());
    this.openApi = new OpenApi(store);
  }

  /** The server-side printing of each type, from its CRD's {@code additionalPrinterColumns}. */
  OpenApi openApi() {
    return openApi;
  }

  Tables tables() {
    return tables;
  }

  void schema(ResourceType type, StructuralSchema schema) {
    schemas.put(type, schema);
  }

  /**
   * A CRD's {@code spec.names} beyond plural and kind, served in discovery for every version of the
   * resource.
   *
   * @param shortNames {@code spec.names.shortNames}, for example {@code sparkapp}
   * @param categories {@code spec.names.categories}, for example {@code all}
   */
  record Names(List<String> shortNames, List<String> categories) {}

  private final Map<String, Names> names = new java.util.concurrent.ConcurrentHashMap<>();

  void names(ResourceType type, Names crdNames) {
    names.put(InMemoryStore.storageKey(type), crdNames);
  }

  /** Pods' names as kube-apiserver serves them ({@code pkg/registry/core/pod/storage}). */
  private static final Names POD_NAMES = new Names(List.of("po"), List.of("all"));

  /** Core events' short name ({@code pkg/registry/core/event/storage}); events.k8s.io has none. */
  private static final Names EVENT_NAMES = new Names(List.of("ev"), List.of());

  private Names namesOf(ResourceType type) {
    if (type.equals(ResourceType.POD)) {
      return POD_NAMES;
    }
    if (type.equals(ResourceType.EVENT)) {
      return EVENT_NAMES;
    }
    return names.getOrDefault(InMemoryStore.storageKey(type), new Names(List.of(), List.of()));
  }

  /**
   * Prunes and validates a written custom resource against its CRD's schema, if one was registered:
   * unknown fields become warnings, field errors a 422 {@code Invalid}.
   */
  private void checkSchema(
      ResourceType type, String name, JsonObject object, List<String> warnings) {
    StructuralSchema schema = schemas.get(type);
    if (schema == null) {
      return;
    }
    StructuralSchema.Result result = schema.apply(object);
    if (!result.errors().isEmpty()) {
      List<KubeStatus.Cause> causes = new ArrayList<>();
      for (StructuralSchema.FieldError e : result.errors()) {
        causes.add(new KubeStatus.Cause(e.reason(), e.message(), e.field()));
      }
      throw KubeStatus.invalid(type, name, causes);
    }
    for (String path : result.pruned()) {
      warnings.add("unknown field \"" + path + "\"");
    }
  }

  static Map<String, String> parseQuery(String query) {
    Map<String, String> result = new HashMap<>();
    if (query == null || query.isEmpty()) {
      return result;
    }
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      result.putIfAbsent(key, value);
    }
    return result;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  /**
   * What to watch, once routing, RBAC ({@code watch} verb) and the query have been checked: the
   * parameters of apiserver's {@code ListOptions} that the fake supports.
   *
   * @param type the resource type
   * @param namespace the namespace, or null for all namespaces
   * @param labels the label selector
   * @param fields the field selector
   * @param resourceVersion the {@code resourceVersion} parameter, null or empty if absent
   * @param timeoutSeconds the {@code timeoutSeconds} parameter, 0 if absent
   * @param bookmarks whether {@code allowWatchBookmarks=true}
   */
  record WatchRequest(
      ResourceType type,
      String namespace,
      LabelSelector labels,
      FieldSelector fields,
      String resourceVersion,
      long timeoutSeconds,
      boolean bookmarks) {

    /** Whether an object is in the watched namespace and passes both selectors. */
    boolean matches(JsonObject o) {
      return (namespace == null
              || namespace.equals(InMemoryStore.string(InMemoryStore.metadata(o), "namespace")))
          && labels.matches(InMemoryStore.labels(o))
          && fields.matches(o);
    }
  }

  /** A watch request's outcome: an answer (an error), or a watch to stream. */
  record WatchOutcome(Answer answer, WatchRequest watch) {}

  /** Carries an accepted watch out of the routing code; no stack trace. */
  private static final class WatchAccepted extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient WatchRequest watch;

    WatchAccepted(WatchRequest watch) {
      super("watch accepted", null, false, false);
      this.watch = watch;
    }
  }

  /** Routes a GET with {@code watch=true}: an error answer, or what to stream. */
  WatchOutcome handleWatch(Call call) {
    try {
      return new WatchOutcome(handle(call, true), null);
    } catch (WatchAccepted accepted) {
      return new WatchOutcome(null, accepted.watch);
    }
  }

  Answer handle(Call call) {
    return handle(call, false);
  }

  private Answer handle(Call call, boolean watchServed) {
    try {
      return route(call);
    } catch (WatchAccepted e) {
      if (watchServed) {
        throw e;
      }
      return Answer.json(
          400,
          KubeStatus.failure(
              400,
              "BadRequest",
              "watch requests are served by the fake server's stream handler",
              null));
    } catch (KubeStatus.Detailed e) {
      return Answer.json(
          e.code(), KubeStatus.failure(e.code(), e.reason(), e.getMessage(), e.details));
    } catch (FakeApiException e) {
      return Answer.json(e.code(), KubeStatus.failure(e.code(), e.reason(), e.getMessage(), null));
    } catch (RuntimeException e) {
      LOG.warn("The fake API server failed on {} {}; answering 500", call.method(), call.path(), e);
      return Answer.json(
          500,
          KubeStatus.failure(
              500, "InternalError", "the fake API server failed: " + e, new JsonObject()));
    }
  }

  /**
   * A boolean query parameter as kube-apiserver decodes it into its options ({@code
   * Convert_Slice_string_To_bool} in k8s.io/apimachinery {@code pkg/runtime/conversion.go}, commit
   * eed236ce): absent, {@code 0} or {@code false} in any case is false, any other value (also
   * {@code True} or an empty value) is true.
   *
   * @param value the parameter's first value, null if absent
   * @return whether it means true
   */
  static boolean isTrue(String value) {
    return value != null && !value.equals("0") && !value.equalsIgnoreCase("false");
  }

  private static long longParam(Call call, String name) {
    try {
      return Long.parseLong(call.param(name));
    } catch (NumberFormatException e) {
      throw KubeStatus.badRequest(
          "invalid " + name + " \"" + call.param(name) + "\": must be an integer");
    }
  }

  // ---- routing --------------------------------------------------------------------------------

  private Answer route(Call call) {
    List<String> segs = new ArrayList<>();
    for (String s : call.path().split("/")) {
      if (!s.isEmpty()) {
        segs.add(decode(s));
      }
    }
    if (segs.isEmpty()) {
      return notFoundPath(call);
    }
    if (segs.size() == 1 && segs.get(0).equals("version") && isGet(call)) {
      return version();
    }
    if (segs.get(0).equals("openapi")) {
      return openApi(call, segs);
    }
    String group;
    String version;
    List<String> rest;
    if (segs.get(0).equals("api")) {
      if (segs.size() == 1) {
        return isGet(call) ? apiVersions() : notFoundPath(call);
      }
      group = "";
      version = segs.get(1);
      rest = segs.subList(2, segs.size());
    } else if (segs.get(0).equals("apis")) {
      if (segs.size() == 1) {
        return isGet(call) ? apiGroupList() : notFoundPath(call);
      }
      group = segs.get(1);
      if (segs.size() == 2) {
        Optional<JsonObject> g = apiGroup(group);
        return g.isPresent() && isGet(call) ? Answer.json(200, g.get()) : notFoundPath(call);
      }
      version = segs.get(2);
      rest = segs.subList(3, segs.size());
      if (group.equals(AUTHZ_GROUP)
          && version.equals("v1")
          && rest.equals(List.of("selfsubjectaccessreviews"))) {
        return call.method().equals("POST") ? selfSubjectAccessReview(call) : methodNotAllowed();
      }
    } else {
      return notFoundPath(call);
    }
    if (!groupVersionKnown(group, version)) {
      return notFoundPath(call);
    }
    if (rest.isEmpty()) {
      return isGet(call) ? Answer.json(200, resourceList(group, version)) : notFoundPath(call);
    }
    String namespace = null;
    String plural;
    String name = null;
    String sub = null;
    if (rest.get(0).equals("namespaces") && rest.size() >= 3) {
      namespace = rest.get(1);
      plural = rest.get(2);
      if (rest.size() >= 4) {
        name = rest.get(3);
      }
      if (rest.size() == 5) {
        sub = rest.get(4);
      }
      if (rest.size() > 5) {
        return notFoundPath(call);
      }
    } else if (group.isEmpty() && rest.get(0).equals("namespaces") && rest.size() == 2) {
      return namespace(call, rest.get(1));
    } else if (rest.size() == 1) {
      plural = rest.get(0);
    } else {
      return notFoundPath(call);
    }
    Optional<ResourceType> found = store.lookup(group, version, plural);
    if (found.isEmpty()) {
      return notFoundPath(call);
    }
    ResourceType type = found.get();
    if (sub != null
        && !((sub.equals("status") && !isEvent(type))
            || (sub.equals("log") && type.equals(ResourceType.POD)))) {
      return notFoundPath(call);
    }
    String verb = verb(call, name);
    if (verb == null) {
      return methodNotAllowed();
    }
    String resource = sub == null ? plural : plural + "/" + sub;
    if (!rbac.allows(verb, group, resource, namespace)) {
      return forbidden(type, verb, resource, namespace, name);
    }
    try {
      return dispatch(call, type, namespace, name, sub);
    } catch (PatchFailed e) {
      return Answer.json(
          422,
          KubeStatus.generic(
              422,
              "Invalid",
              "the server rejected our request due to an error in our request",
              e.getMessage()));
    } catch (KubeStatus.Detailed e) {
      return Answer.json(
          e.code(), KubeStatus.failure(e.code(), e.reason(), e.getMessage(), e.details));
    } catch (KubeStatus.Whole e) {
      return Answer.json(e.code(), e.status);
    } catch (KubeStatus.Named e) {
      return Answer.json(
          e.code(), KubeStatus.failure(e, e.detailsType == null ? type : e.detailsType, e.name));
    } catch (FakeApiException e) {
      return Answer.json(e.code(), KubeStatus.failure(e, type, name));
    }
  }

  private static boolean isGet(Call call) {
    return call.method().equals("GET");
  }

  private static String verb(Call call, String name) {
    boolean watch = isTrue(call.param("watch"));
    return switch (call.method()) {
      case "GET" -> name == null ? (watch ? "watch" : "list") : "get";
      case "POST" -> name == null ? "create" : null;
      case "PUT" -> name == null ? null : "update";
      case "PATCH" -> name == null ? null : "patch";
      case "DELETE" -> name == null ? "deletecollection" : "delete";
      default -> null;
    };
  }

  private Answer dispatch(Call call, ResourceType type, String ns, String name, String sub) {
    if (name == null) {
      return switch (call.method()) {
        case "GET" -> tables.answer(call, type, list(call, type, ns));
        case "POST" -> ns == null ? methodNotAllowed() : create(call, type, ns);
        case "DELETE" -> ns == null ? methodNotAllowed() : deleteCollection(call, type, ns);
        default -> methodNotAllowed();
      };
    }
    if ("log".equals(sub)) {
      return isGet(call) ? podLog(call, ns, name) : methodNotAllowed();
    }
    InMemoryStore.Mode mode = sub == null ? InMemoryStore.Mode.MAIN : InMemoryStore.Mode.STATUS;
    return switch (call.method()) {
      case "GET" ->
          sub == null
              ? tables.answer(
                  call,
                  type,
                  Answer.json(
                      200,
                      store.get(type, ns, name).orElseThrow(() -> KubeStatus.notFound(type, name))))
              : Answer.json(
                  200,
                  store.get(type, ns, name).orElseThrow(() -> KubeStatus.notFound(type, name)));
      case "PUT" -> replace(call, type, ns, name, mode);
      case "PATCH" -> patch(call, type, ns, name, mode);
      case "DELETE" -> sub == null ? delete(call, type, ns, name) : methodNotAllowed();
      default -> methodNotAllowed();
    };
  }

  // ---- CRUD -----------------------------------------------------------------------------------

  private Answer create(Call call, ResourceType type, String ns) {
    boolean dryRun = dryRun(dryRunParam(call), "CreateOptions");
    JsonObject body = jsonBody(call);
    checkKindPresent(type, body);
    checkKind(type, body);
    String bodyNs = InMemoryStore.string(InMemoryStore.metadata(body), "namespace");
    if (bodyNs != null && !bodyNs.isEmpty() && !bodyNs.equals(ns)) {
      throw KubeStatus.badRequest(
          "the namespace of the provided object does not match the namespace sent on the request");
    }
    String rv = InMemoryStore.string(InMemoryStore.metadata(body), "resourceVersion");
    if (rv != null && !rv.isEmpty()) {
      throw new FakeApiException(
          500,
          "InternalError",
          "Internal error occurred: resourceVersion should not be set on objects to be created");
    }
    List<String> warnings = new ArrayList<>();
    String name = InMemoryStore.string(InMemoryStore.metadata(body), "name");
    checkSchema(type, name == null ? "" : name, body, warnings);
    return Answer.json(201, store.create(type, ns, body, true, dryRun), warnings);
  }

  /** A custom resource's body is decoded as unstructured: kind and apiVersion are required. */
  private static void checkKindPresent(ResourceType type, JsonObject body) {
    if (type.isBuiltIn()) {
      return;
    }
    for (String field : List.of("kind", "apiVersion")) {
      String value = InMemoryStore.string(body, field);
      if (value == null || value.isEmpty()) {
        throw KubeStatus.badRequest(
            "Object '"
                + (field.equals("kind") ? "Kind" : field)
                + "' is missing in '"
                + body
                + "'");
      }
    }
  }

  private Answer replace(
      Call call, ResourceType type, String ns, String name, InMemoryStore.Mode mode) {
    boolean dryRun = dryRun(dryRunParam(call), "UpdateOptions");
    JsonObject body = jsonBody(call);
    checkKind(type, body);
    JsonObject meta = InMemoryStore.metadata(body);
    String bodyName = InMemoryStore.string(meta, "name");
    if (bodyName != null && !bodyName.equals(name)) {
      throw KubeStatus.badRequest(
          "the name of the object ("
              + bodyName
              + ") does not match the name on the URL ("
              + name
              + ")");
    }
    String bodyNs = InMemoryStore.string(meta, "namespace");
    if (bodyNs != null && !bodyNs.isEmpty() && !bodyNs.equals(ns)) {
      throw KubeStatus.badRequest(
          "the namespace of the provided object does not match the namespace sent on the request");
    }
    String rv = InMemoryStore.string(meta, "resourceVersion");
    if (store.get(type, ns, name).isEmpty()) {
      throw KubeStatus.notFound(type, name);
    }
    // Pods and events allow an unconditional update (their strategies' AllowUnconditionalUpdate).
    if ((rv == null || rv.isEmpty()) && !type.equals(ResourceType.POD) && !isEvent(type)) {
      throw KubeStatus.invalid(
          type,
          name,
          "metadata.resourceVersion: Invalid value: 0x0: must be specified for an update");
    }
    List<String> warnings = new ArrayList<>();
    JsonObject result =
        store.change(
            type,
            ns,
            name,
            current -> {
              checkPreconditions(type, name, current, rv, InMemoryStore.string(meta, "uid"));
              checkSchema(type, name, body, warnings);
              return body;
            },
            mode,
            dryRun);
    return Answer.json(200, result, warnings);
  }

  private Answer patch(
      Call call, ResourceType type, String ns, String name, InMemoryStore.Mode mode) {
    String contentType =
        call.contentType() == null
            ? ""
            : call.contentType().split(";")[0].trim().toLowerCase(Locale.ROOT);
    boolean merge =
        contentType.equals("application/merge-patch+json")
            || (contentType.equals("application/strategic-merge-patch+json") && type.isCore());
    boolean json = contentType.equals("application/json-patch+json");
    if (contentType.equals("application/apply-patch+yaml") && !type.isBuiltIn()) {
      return serverSideApply(call, type, ns, name, mode);
    }
    if (contentType.equals("application/apply-patch+yaml")) {
      throw new FakeApiException(
          415,
          "UnsupportedMediaType",
          "server-side apply (application/apply-patch+yaml) of built-in kinds is not supported by"
              + " the fake Kubernetes API server; use a merge or JSON patch");
    }
    if (!merge && !json) {
      throw new FakeApiException(
          415,
          "UnsupportedMediaType",
          "the body of the request was in an unknown format - accepted media types include:"
              + " application/json-patch+json, application/merge-patch+json,"
              + " application/apply-patch+yaml");
    }
    boolean dryRun = dryRun(dryRunParam(call), "PatchOptions");
    JsonElement patch;
    try {
      patch = JsonParser.parseString(call.body());
    } catch (RuntimeException e) {
      throw KubeStatus.badRequest("error decoding patch: " + e.getMessage());
    }
    if (merge && !patch.isJsonObject()) {
      throw KubeStatus.badRequest("error decoding patch: a merge patch must be a JSON object");
    }
    if (json && !patch.isJsonArray()) {
      throw KubeStatus.badRequest(
          "error decoding patch: json: cannot unmarshal object into Go value of type"
              + " jsonpatch.Patch");
    }
    List<String> warnings = new ArrayList<>();
    JsonObject result =
        store.change(
            type,
            ns,
            name,
            current -> {
              if (merge) {
                JsonObject pm = patch.getAsJsonObject().getAsJsonObject("metadata");
                checkPreconditions(
                    type, name, current, InMemoryStore.string(pm, "resourceVersion"), null);
                JsonObject patched = MergePatch.apply(current, patch).getAsJsonObject();
                checkUidUnchanged(type, name, current, patched);
                checkSchema(type, name, patched, warnings);
                return patched;
              }
              JsonElement patched;
              try {
                patched = JsonPatch.apply(current, patch.getAsJsonArray());
              } catch (JsonPatch.PatchException e) {
                throw new PatchFailed(e.getMessage());
              }
              if (!patched.isJsonObject()) {
                throw new PatchFailed("the patched document is not an object");
              }
              checkUidUnchanged(type, name, current, patched.getAsJsonObject());
              checkSchema(type, name, patched.getAsJsonObject(), warnings);
              return patched.getAsJsonObject();
            },
            mode,
            dryRun);
    return Answer.json(200, result, warnings);
  }

  /**
   * A server-side apply of a custom resource ({@link ServerSideApply}): creates the object if it
   * does not exist (201), else applies the configuration to it (200). As the patch handler of
   * k8s.io/apiserver {@code pkg/endpoints/handlers/patch.go} requires, an apply names its {@code
   * fieldManager}.
   */
  private Answer serverSideApply(
      Call call, ResourceType type, String ns, String name, InMemoryStore.Mode mode) {
    boolean dryRun = dryRun(dryRunParam(call), "PatchOptions");
    String manager = call.param("fieldManager");
    if (manager == null || manager.isEmpty()) {
      JsonObject details = new JsonObject();
      details.addProperty("group", "meta.k8s.io");
      details.addProperty("kind", "PatchOptions");
      JsonArray causes = new JsonArray();
      JsonObject c = new JsonObject();
      c.addProperty("reason", "FieldValueRequired");
      c.addProperty("message", "Required value: is required for apply patch");
      c.addProperty("field", "fieldManager");
      causes.add(c);
      details.add("causes", causes);
      throw new KubeStatus.Detailed(
          422,
          "Invalid",
          "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for"
              + " apply patch",
          details);
    }
    boolean force = isTrue(call.param("force"));
    JsonObject applied;
    try {
      Object yaml =
          new org.yaml.snakeyaml.Yaml(
                  new org.yaml.snakeyaml.constructor.SafeConstructor(
                      new org.yaml.snakeyaml.LoaderOptions()))
              .load(call.body() == null ? "" : call.body());
      JsonElement tree = yaml == null ? null : GSON.toJsonTree(yaml);
      if (tree == null || !tree.isJsonObject()) {
        throw KubeStatus.badRequest("error decoding YAML: the applied configuration is no object");
      }
      applied = tree.getAsJsonObject();
    } catch (org.yaml.snakeyaml.error.YAMLException e) {
      throw KubeStatus.badRequest("error decoding YAML: " + e.getMessage());
    }
    checkKindPresent(type, applied);
    checkKind(type, applied);
    JsonObject meta = InMemoryStore.metadata(applied);
    String bodyName = InMemoryStore.string(meta, "name");
    if (bodyName != null && !bodyName.isEmpty() && !bodyName.equals(name)) {
      throw KubeStatus.badRequest(
          "the name of the object ("
              + bodyName
              + ") does not match the name on the URL ("
              + name
              + ")");
    }
    meta.addProperty("name", name);
    java.time.Instant now = store.clock().instant();
    List<String> warnings = new ArrayList<>();
    if (store.get(type, ns, name).isEmpty() && mode == InMemoryStore.Mode.MAIN) {
      JsonObject created = ServerSideApply.apply(type, null, applied, manager, force, now);
      checkSchema(type, name, created, warnings);
      return Answer.json(201, store.create(type, ns, created, true, dryRun), warnings);
    }
    JsonObject result =
        store.change(
            type,
            ns,
            name,
            current -> {
              JsonObject patched =
                  ServerSideApply.apply(type, current, applied, manager, force, now);
              checkUidUnchanged(type, name, current, patched);
              checkSchema(type, name, patched, warnings);
              return patched;
            },
            mode,
            dryRun);
    return Answer.json(200, result, warnings);
  }

  /** A JSON patch that does not apply: answered 422 as a generic server response. */
  private static final class PatchFailed extends FakeApiException {
    private static final long serialVersionUID = 1L;

    PatchFailed(String cause) {
      super(422, "Invalid", cause);
    }
  }

  /** A patch carries no preconditions; a changed uid fails the object meta update validation. */
  /**
   * Whether a write is a dry run, checked as kube-apiserver checks its options: {@code
   * validation.ValidateDryRun} in k8s.io/apimachinery {@code
   * pkg/apis/meta/v1/validation/validation.go} takes only {@code All}, and the create, update,
   * patch and delete handlers in k8s.io/apiserver {@code pkg/endpoints/handlers} (kubernetes commit
   * 02e16cb2) answer any other value with {@code errors.NewInvalid} for the options kind: a 422
   * naming {@code meta.k8s.io}. A dry run is then validated and answered like the real write, but
   * {@code DryRunnableStorage} (apiserver {@code pkg/registry/generic/registry/dryrun.go}, commit
   * 04791b49) stores nothing.
   *
   * @param values the dryRun values given; empty if none
   * @param optionsKind {@code CreateOptions}, {@code UpdateOptions}, {@code PatchOptions} or {@code
   *     DeleteOptions}
   */
  static boolean dryRun(List<String> given, String optionsKind) {
    if (given.isEmpty()) {
      return false;
    }
    if (given.stream().allMatch("All"::equals)) {
      return true;
    }
    StringBuilder literal = new StringBuilder("[]string{");
    for (int i = 0; i < given.size(); i++) {
      literal.append(i == 0 ? "" : ", ").append('"').append(given.get(i)).append('"');
    }
    literal.append('}');
    String cause = "Unsupported value: " + literal + ": supported values: \"All\"";
    JsonObject details = new JsonObject();
    details.addProperty("group", "meta.k8s.io");
    details.addProperty("kind", optionsKind);
    JsonArray causes = new JsonArray();
    JsonObject c = new JsonObject();
    c.addProperty("reason", "FieldValueNotSupported");
    c.addProperty("message", cause);
    c.addProperty("field", "dryRun");
    causes.add(c);
    details.add("causes", causes);
    throw new KubeStatus.Detailed(
        422, "Invalid", optionsKind + ".meta.k8s.io \"\" is invalid: dryRun: " + cause, details);
  }

  /** A delete's dryRun, from the query or from the DeleteOptions body (the body wins). */
  private static boolean deleteDryRun(Call call, JsonObject options) {
    JsonElement inBody = options.get("dryRun");
    if (inBody != null && inBody.isJsonArray() && inBody.getAsJsonArray().size() > 0) {
      List<String> values = new ArrayList<>();
      inBody.getAsJsonArray().forEach(v -> values.add(v.getAsString()));
      return dryRun(values, "DeleteOptions");
    }
    return dryRun(dryRunParam(call), "DeleteOptions");
  }

  /** The dryRun query parameter: none, or its one value (the fake keeps a parameter's first). */
  private static List<String> dryRunParam(Call call) {
    String value = call.param("dryRun");
    return value == null ? List.of() : List.of(value);
  }

  private static void checkUidUnchanged(
      ResourceType type, String name, JsonObject current, JsonObject patched) {
    String before = InMemoryStore.uid(current);
    String after = InMemoryStore.uid(patched);
    if (after != null && !after.equals(before)) {
      throw KubeStatus.invalid(
          type,
          name,
          "metadata.uid: Invalid value: \"" + after + "\": field is immutable",
          "metadata.uid");
    }
  }

  private static void checkPreconditions(
      ResourceType type, String name, JsonObject current, String rv, String uid) {
    String currentUid = InMemoryStore.uid(current);
    if (uid != null && !uid.isEmpty() && !uid.equals(currentUid)) {
      throw KubeStatus.conflict(
          type,
          name,
          "Precondition failed: UID in precondition: "
              + uid
              + ", UID in object meta: "
              + currentUid);
    }
    String currentRv = InMemoryStore.string(InMemoryStore.metadata(current), "resourceVersion");
    if (rv != null && !rv.isEmpty() && !rv.equals(currentRv)) {
      throw KubeStatus.modified(type, name);
    }
  }

  private Answer delete(Call call, ResourceType type, String ns, String name) {
    JsonObject options = new JsonObject();
    if (call.body() != null && !call.body().isBlank()) {
      options = jsonBody(call);
    }
    boolean dryRun = deleteDryRun(call, options);
    JsonObject pre = options.get("preconditions") instanceof JsonObject p ? p : new JsonObject();
    String policy = InMemoryStore.string(options, "propagationPolicy");
    if (policy == null) {
      policy = call.param("propagationPolicy");
    }
    if (policy != null && !Set.of("Orphan", "Background", "Foreground").contains(policy)) {
      throw KubeStatus.badRequest(
          "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \""
              + policy
              + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"");
    }
    InMemoryStore.Deleted d =
        store.delete(
            type,
            ns,
            name,
            InMemoryStore.string(pre, "uid"),
            InMemoryStore.string(pre, "resourceVersion"),
            policy == null ? "Background" : policy,
            dryRun);
    if (d.removed() && !type.equals(ResourceType.POD)) {
      JsonObject success = new JsonObject();
      success.addProperty("kind", "Status");
      success.addProperty("apiVersion", "v1");
      success.add("metadata", new JsonObject());
      success.addProperty("status", "Success");
      JsonObject details = KubeStatus.details(type, name);
      details.addProperty("uid", InMemoryStore.uid(d.object()));
      success.add("details", details);
      return Answer.json(200, success);
    }
    return Answer.json(200, d.object());
  }

  private Answer deleteCollection(Call call, ResourceType type, String ns) {
    JsonObject options =
        call.body() == null || call.body().isBlank() ? new JsonObject() : jsonBody(call);
    boolean dryRun = deleteDryRun(call, options);
    LabelSelector selector = selector(call);
    FieldSelector fields = fieldSelector(call, type);
    JsonArray items = new JsonArray();
    for (JsonObject o : store.list(type, ns)) {
      if (selector.matches(InMemoryStore.labels(o)) && fields.matches(o)) {
        String name = InMemoryStore.string(InMemoryStore.metadata(o), "name");
        try {
          items.add(store.delete(type, ns, name, null, null, "Background", dryRun).object());
        } catch (FakeApiException e) {
          if (e.code() != 404) {
            throw e;
          }
        }
      }
    }
    return Answer.json(200, listBody(type, items, store.currentResourceVersion(), null, null));
  }

  // ---- list -----------------------------------------------------------------------------------

  private Answer list(Call call, ResourceType type, String ns) {
    if ("watch".equals(verb(call, null))) {
      throw new WatchAccepted(watchRequest(call, type, ns));
    }
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
    List<JsonObject> selected;
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
      String after = token[1];
      selected = new ArrayList<>(paged.items());
      selected.removeIf(o -> key(o).compareTo(after) <= 0);
      listRv = paged.resourceVersion();
      snapshotId = token[2];
    } else {
      LabelSelector selector = selector(call);
      FieldSelector fields = fieldSelector(call, type);
      InMemoryStore.Snapshot snapshot = store.snapshot(type, ns);
      selected = new ArrayList<>();
      for (JsonObject o : snapshot.items()) {
        if (selector.matches(InMemoryStore.labels(o)) && fields.matches(o)) {
          selected.add(o);
        }
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
    JsonArray items = new JsonArray();
    for (JsonObject o : selected) {
      JsonObject item = o.deepCopy();
      if (type.isBuiltIn()) {
        // Built-in types' list items carry no kind or apiVersion; custom resources' do.
        item.remove("kind");
        item.remove("apiVersion");
      }
      items.add(item);
    }
    return Answer.json(200, listBody(type, items, listRv, next, remaining));
  }

  /**
   * Checks a watch's query as apiserver's {@code ListResource} handler does before it starts the
   * stream: selectors that do not parse and a {@code resourceVersion} that is not a number answer
   * 400 (not an {@code ERROR} event).
   */
  private static WatchRequest watchRequest(Call call, ResourceType type, String ns) {
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
  private record PagedList(List<JsonObject> items, String resourceVersion, Instant at) {
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

  private static JsonObject listBody(
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

  private static String key(JsonObject o) {
    JsonObject m = InMemoryStore.metadata(o);
    return InMemoryStore.string(m, "namespace") + "\u0000" + InMemoryStore.string(m, "name");
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

  private static LabelSelector selector(Call call) {
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

  private static FieldSelector fieldSelector(Call call, ResourceType type) {
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

  // ---- pod logs -------------------------------------------------------------------------------

  private Answer podLog(Call call, String ns, String name) {
    JsonObject pod =
        store
            .get(ResourceType.POD, ns, name)
            .orElseThrow(() -> KubeStatus.notFound(ResourceType.POD, name));
    Set<String> containers = new LinkedHashSet<>();
    JsonObject spec = pod.get("spec") instanceof JsonObject s ? s : new JsonObject();
    for (String list : List.of("containers", "initContainers")) {
      if (spec.get(list) instanceof JsonArray a) {
        for (JsonElement c : a) {
          String cn = InMemoryStore.string(c.getAsJsonObject(), "name");
          if (cn != null && list.equals("containers")) {
            containers.add(cn);
          }
        }
      }
    }
    if (containers.isEmpty()) {
      containers.addAll(store.podLogContainers(ns, name));
    }
    String container = call.param("container");
    if (container == null || container.isEmpty()) {
      if (containers.size() > 1) {
        List<String> inits = initContainers(spec);
        throw KubeStatus.badRequest(
            "a container name must be specified for pod "
                + name
                + ", choose one of: "
                + "["
                + String.join(" ", containers)
                + "]"
                + (inits.isEmpty()
                    ? ""
                    : " or one of the init containers: [" + String.join(" ", inits) + "]"));
      }
      container = containers.isEmpty() ? "" : containers.iterator().next();
    } else if (!containers.contains(container) && !initContainers(spec).contains(container)) {
      throw KubeStatus.badRequest("container " + container + " is not valid for pod " + name);
    }
    String waiting = waitingReason(pod, container);
    if (waiting != null) {
      throw KubeStatus.badRequest(
          "container \""
              + container
              + "\" in pod \""
              + name
              + "\" is waiting to start: "
              + waiting);
    }
    checkLogOptions(call, name);
    String log = store.podLog(ns, name, container);
    String tail = call.param("tailLines");
    if (tail != null && !tail.isEmpty()) {
      log = tail(log, longParam(call, "tailLines"));
    }
    String limitBytes = call.param("limitBytes");
    if (limitBytes != null && !limitBytes.isEmpty()) {
      long limit = longParam(call, "limitBytes");
      byte[] bytes = log.getBytes(StandardCharsets.UTF_8);
      if (limit < bytes.length) {
        log = new String(Arrays.copyOf(bytes, (int) limit), StandardCharsets.UTF_8);
      }
    }
    return Answer.text(log);
  }

  /**
   * Validates the log options as {@code ValidatePodLogOptions} in {@code
   * pkg/apis/core/validation/validation.go} does: negative {@code tailLines} and {@code limitBytes}
   * below 1 answer 422 {@code Invalid} about {@code PodLogOptions}.
   */
  private static void checkLogOptions(Call call, String name) {
    List<KubeStatus.Cause> causes = new ArrayList<>();
    String tail = call.param("tailLines");
    if (tail != null && !tail.isEmpty() && longParam(call, "tailLines") < 0) {
      causes.add(
          new KubeStatus.Cause(
              "FieldValueInvalid",
              "tailLines: Invalid value: " + tail + ": must be greater than or equal to 0",
              "tailLines"));
    }
    String limit = call.param("limitBytes");
    if (limit != null && !limit.isEmpty() && longParam(call, "limitBytes") < 1) {
      causes.add(
          new KubeStatus.Cause(
              "FieldValueInvalid",
              "limitBytes: Invalid value: " + limit + ": must be greater than 0",
              "limitBytes"));
    }
    if (!causes.isEmpty()) {
      throw KubeStatus.invalid(POD_LOG_OPTIONS, name, causes);
    }
  }

  private static final ResourceType POD_LOG_OPTIONS =
      new ResourceType("", "v1", "podlogoptions", "PodLogOptions");

  /** The reason a container is waiting, from {@code status.containerStatuses}, or null. */
  private static String waitingReason(JsonObject pod, String container) {
    if (!(pod.get("status") instanceof JsonObject status)) {
      return null;
    }
    for (String list : List.of("containerStatuses", "initContainerStatuses")) {
      if (status.get(list) instanceof JsonArray statuses) {
        for (JsonElement e : statuses) {
          if (e instanceof JsonObject cs
              && container.equals(InMemoryStore.string(cs, "name"))
              && cs.get("state") instanceof JsonObject state
              && state.get("waiting") instanceof JsonObject w) {
            String reason = InMemoryStore.string(w, "reason");
            return reason == null ? "ContainerCreating" : reason;
          }
        }
      }
    }
    return null;
  }

  private static List<String> initContainers(JsonObject spec) {
    List<String> result = new ArrayList<>();
    if (spec.get("initContainers") instanceof JsonArray a) {
      for (JsonElement c : a) {
        result.add(InMemoryStore.string(c.getAsJsonObject(), "name"));
      }
    }
    return result;
  }

  private static String tail(String log, long lines) {
    if (lines < 0) {
      return log;
    }
    if (lines == 0) {
      return "";
    }
    int end = log.endsWith("\n") ? log.length() - 1 : log.length();
    int pos = end;
    long found = 0;
    while (pos > 0) {
      int nl = log.lastIndexOf('\n', pos - 1);
      found++;
      if (found == lines || nl < 0) {
        return nl < 0 ? log : log.substring(nl + 1);
      }
      pos = nl;
    }
    return log;
  }

  // ---- namespaces, discovery, version ---------------------------------------------------------

  private Answer namespace(Call call, String name) {
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

  private boolean groupVersionKnown(String group, String version) {
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
  private JsonObject resourceList(String group, String version) {
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
      if (!isEvent(t)) {
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
  private Optional<JsonObject> apiGroup(String group) {
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

  private Answer apiGroupList() {
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

  private static Answer apiVersions() {
    JsonObject v = new JsonObject();
    v.addProperty("kind", "APIVersions");
    JsonArray versions = new JsonArray();
    versions.add("v1");
    v.add("versions", versions);
    v.add("serverAddressByClientCIDRs", new JsonArray());
    return Answer.json(200, v);
  }

  private static Answer version() {
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

  // ---- authorization --------------------------------------------------------------------------

  private Answer selfSubjectAccessReview(Call call) {
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

  private Answer forbidden(
      ResourceType type, String verb, String resource, String namespace, String name) {
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

  // ---- helpers --------------------------------------------------------------------------------

  /**
   * A path nothing serves (an unserved group, version or resource): the CRD handler passes it on
   * and the not-found handler answers Go's plain {@code 404 page not found}.
   */
  /**
   * {@code /openapi/v3} and its group-version documents; a document asked for with its {@code hash}
   * is immutable, as kube-openapi's handler3 marks it ({@code Cache-Control: public, immutable}).
   * {@code /openapi/v2} is not served.
   */
  private Answer openApi(Call call, List<String> segs) {
    if (!isGet(call) || segs.size() < 2 || !segs.get(1).equals("v3")) {
      return notFoundPath(call);
    }
    if (segs.size() == 2) {
      return Answer.json(200, openApi.root());
    }
    Optional<JsonObject> doc = openApi.document(String.join("/", segs.subList(2, segs.size())));
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

  private static Answer notFoundPath(Call call) {
    return Answer.plainError(404, "404 page not found");
  }

  private static Answer methodNotAllowed() {
    return Answer.json(
        405,
        KubeStatus.failure(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
            new JsonObject()));
  }

  private static JsonObject jsonBody(Call call) {
    String ct =
        call.contentType() == null ? "" : call.contentType().toLowerCase(Locale.ROOT).trim();
    if (!ct.isEmpty() && !ct.startsWith("application/json") && !ct.startsWith("*/*")) {
      throw new FakeApiException(
          415,
          "UnsupportedMediaType",
          "the body of the request was in an unknown format - accepted media types include:"
              + " application/json, application/yaml, application/vnd.kubernetes.protobuf");
    }
    try {
      JsonElement e = JsonParser.parseString(call.body() == null ? "" : call.body());
      if (!e.isJsonObject()) {
        throw KubeStatus.badRequest("the request body must be a JSON object");
      }
      return e.getAsJsonObject();
    } catch (com.google.gson.JsonParseException e) {
      throw KubeStatus.badRequest("error decoding the request body: " + e.getMessage());
    }
  }

  private static void checkKind(ResourceType type, JsonObject body) {
    String kind = InMemoryStore.string(body, "kind");
    String apiVersion = InMemoryStore.string(body, "apiVersion");
    if ((kind != null && !kind.equals(type.kind()))
        || (apiVersion != null && !apiVersion.equals(type.apiVersion()))) {
      throw KubeStatus.badRequest(
          "the API version in the data ("
              + apiVersion
              + ") does not match the expected API version ("
              + type.apiVersion()
              + ") or the kind ("
              + kind
              + ") is not "
              + type.kind());
    }
  }
}
