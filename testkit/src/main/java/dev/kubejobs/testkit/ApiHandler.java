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
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Answers Kubernetes API requests from the {@link InMemoryStore}: parses the path ({@link
 * ApiRoute}), checks the group version, the resource, the verb and the {@link Rbac} rules, and
 * hands the request to the handler of its concern — {@link ObjectWrites}, {@link ObjectLists},
 * {@link PodLogs}, {@link Discovery}, {@link AccessReview} — or, for a watch, returns what to
 * stream. Errors thrown by a handler become {@code Status} answers here. Independent of the HTTP
 * layer. Thread safe: all state is in the store, the RBAC rules and the handlers.
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

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ApiHandler.class);

  private final InMemoryStore store;
  private final Rbac rbac;
  private final Tables tables;
  private final OpenApi openApi;
  private final ObjectWrites writes;
  private final ObjectLists lists;
  private final PodLogs logs;
  private final Discovery discovery;
  private final AccessReview reviews;

  ApiHandler(InMemoryStore store, Rbac rbac) {
    this.store = store;
    this.rbac = rbac;
    this.tables = new Tables(store.clock());
    this.openApi = new OpenApi(store);
    this.writes = new ObjectWrites(store);
    this.lists = new ObjectLists(store);
    this.logs = new PodLogs(store);
    this.discovery = new Discovery(store, openApi);
    this.reviews = new AccessReview(rbac);
  }

  /** The OpenAPI documents served, from the registered CRDs' schemas and the core subset. */
  OpenApi openApi() {
    return openApi;
  }

  /** The server-side printing of each type, from its CRD's {@code additionalPrinterColumns}. */
  Tables tables() {
    return tables;
  }

  /** Checks the writes of a type against its CRD's schema from now on. */
  void schema(ResourceType type, StructuralSchema schema) {
    writes.schema(type, schema);
  }

  /**
   * A CRD's {@code spec.names} beyond plural and kind, served in discovery for every version of the
   * resource.
   *
   * @param shortNames {@code spec.names.shortNames}, for example {@code sparkapp}
   * @param categories {@code spec.names.categories}, for example {@code all}
   */
  record Names(List<String> shortNames, List<String> categories) {}

  /** Serves a type's CRD names in discovery from now on. */
  void names(ResourceType type, Names crdNames) {
    discovery.names(type, crdNames);
  }

  /** Forgets every list snapshot kept for continue tokens, as a compaction does. */
  void compact() {
    lists.compact();
  }

  /** Sets how long a continue token stays valid. */
  void continueExpiry(Duration expiry) {
    lists.continueExpiry(expiry);
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

    /**
     * Whether a stored object is in the watched namespace and passes both selectors, read from the
     * namespace and labels the store keeps; the object is parsed only for a field selector.
     */
    boolean matches(StoredObject o) {
      return (namespace == null || namespace.equals(o.namespace()))
          && labels.matches(o.labels())
          && (fields.selectsEverything() || fields.matches(o.objectAt(type)));
    }
  }

  /** A watch request's outcome: an answer (an error), or a watch to stream. */
  record WatchOutcome(Answer answer, WatchRequest watch) {}

  /**
   * Routes a GET with {@code watch=true}: an error answer, or what to stream.
   *
   * @param call the request
   * @return the answer, or the watch to stream
   */
  WatchOutcome handleWatch(Call call) {
    return serve(call);
  }

  /**
   * Answers a request that is not a watch; a watch reaching here (the stream handler serves them)
   * gets 400.
   *
   * @param call the request
   * @return the answer
   */
  Answer handle(Call call) {
    WatchOutcome outcome = serve(call);
    if (outcome.watch() == null) {
      return outcome.answer();
    }
    return Answer.json(
        400,
        KubeStatus.failure(
            400,
            "BadRequest",
            "watch requests are served by the fake server's stream handler",
            null));
  }

  private WatchOutcome serve(Call call) {
    try {
      return route(call);
    } catch (KubeStatus.Detailed e) {
      return answered(
          Answer.json(
              e.code(), KubeStatus.failure(e.code(), e.reason(), e.getMessage(), e.details)));
    } catch (FakeApiException e) {
      return answered(
          Answer.json(e.code(), KubeStatus.failure(e.code(), e.reason(), e.getMessage(), null)));
    } catch (RuntimeException e) {
      LOG.warn("The fake API server failed on {} {}; answering 500", call.method(), call.path(), e);
      return answered(
          Answer.json(
              500,
              KubeStatus.failure(
                  500, "InternalError", "the fake API server failed: " + e, new JsonObject())));
    }
  }

  private static WatchOutcome answered(Answer answer) {
    return new WatchOutcome(answer, null);
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

  static long longParam(Call call, String name) {
    try {
      return Long.parseLong(call.param(name));
    } catch (NumberFormatException e) {
      throw KubeStatus.badRequest(
          "invalid " + name + " \"" + call.param(name) + "\": must be an integer");
    }
  }

  // ---- routing --------------------------------------------------------------------------------

  private WatchOutcome route(Call call) {
    ApiRoute route = ApiRoute.parse(call.path());
    boolean get = isGet(call);
    if (route instanceof ApiRoute.Version) {
      return answered(get ? Discovery.version() : notFoundPath(call));
    }
    if (route instanceof ApiRoute.OpenApiDocument doc) {
      return answered(discovery.openApi(call, doc.rest()));
    }
    if (route instanceof ApiRoute.CoreVersions) {
      return answered(get ? Discovery.apiVersions() : notFoundPath(call));
    }
    if (route instanceof ApiRoute.Groups) {
      return answered(get ? discovery.apiGroupList() : notFoundPath(call));
    }
    if (route instanceof ApiRoute.Group g) {
      Optional<JsonObject> group = discovery.apiGroup(g.group());
      return answered(
          group.isPresent() && get ? Answer.json(200, group.get()) : notFoundPath(call));
    }
    if (route instanceof ApiRoute.AccessReview) {
      return answered(
          call.method().equals("POST")
              ? reviews.selfSubjectAccessReview(call)
              : methodNotAllowed());
    }
    if (route instanceof ApiRoute.Resources r) {
      return answered(
          get && discovery.groupVersionKnown(r.group(), r.version())
              ? Answer.json(200, discovery.resourceList(r.group(), r.version()))
              : notFoundPath(call));
    }
    if (route instanceof ApiRoute.Namespace n) {
      return answered(
          discovery.groupVersionKnown("", n.version())
              ? discovery.namespace(call, n.name())
              : notFoundPath(call));
    }
    if (route instanceof ApiRoute.Resource r
        && discovery.groupVersionKnown(r.group(), r.version())) {
      return resource(call, r.group(), r.version(), r.namespace(), r.plural(), r.name(), r.sub());
    }
    return answered(notFoundPath(call));
  }

  private WatchOutcome resource(
      Call call,
      String group,
      String version,
      String namespace,
      String plural,
      String name,
      String sub) {
    Optional<ResourceType> found = store.lookup(group, version, plural);
    if (found.isEmpty()) {
      return answered(notFoundPath(call));
    }
    ResourceType type = found.get();
    if (sub != null
        && !((sub.equals("status") && type.hasStatus())
            || (sub.equals("log") && type.equals(ResourceType.POD)))) {
      return answered(notFoundPath(call));
    }
    String verb = verb(call, name);
    if (verb == null) {
      return answered(methodNotAllowed());
    }
    String resource = sub == null ? plural : plural + "/" + sub;
    if (!rbac.allows(verb, group, resource, namespace)) {
      return answered(reviews.forbidden(type, verb, resource, namespace, name));
    }
    try {
      if (name == null && verb.equals("watch")) {
        return new WatchOutcome(null, ObjectLists.watchRequest(call, type, namespace));
      }
      return answered(dispatch(call, type, namespace, name, sub));
    } catch (ObjectWrites.PatchFailed e) {
      return answered(
          Answer.json(
              422,
              KubeStatus.generic(
                  422,
                  "Invalid",
                  "the server rejected our request due to an error in our request",
                  e.getMessage())));
    } catch (KubeStatus.Detailed e) {
      return answered(
          Answer.json(
              e.code(), KubeStatus.failure(e.code(), e.reason(), e.getMessage(), e.details)));
    } catch (KubeStatus.Whole e) {
      return answered(Answer.json(e.code(), e.status));
    } catch (KubeStatus.Named e) {
      return answered(
          Answer.json(
              e.code(),
              KubeStatus.failure(e, e.detailsType == null ? type : e.detailsType, e.name)));
    } catch (FakeApiException e) {
      return answered(Answer.json(e.code(), KubeStatus.failure(e, type, name)));
    }
  }

  static boolean isGet(Call call) {
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
        case "GET" -> tables.answer(call, type, lists.list(call, type, ns));
        case "POST" -> ns == null ? methodNotAllowed() : writes.create(call, type, ns);
        case "DELETE" -> ns == null ? methodNotAllowed() : writes.deleteCollection(call, type, ns);
        default -> methodNotAllowed();
      };
    }
    if ("log".equals(sub)) {
      return isGet(call) ? logs.podLog(call, ns, name) : methodNotAllowed();
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
      case "PUT" -> writes.replace(call, type, ns, name, mode);
      case "PATCH" -> writes.patch(call, type, ns, name, mode);
      case "DELETE" -> sub == null ? writes.delete(call, type, ns, name) : methodNotAllowed();
      default -> methodNotAllowed();
    };
  }

  // ---- helpers --------------------------------------------------------------------------------

  /**
   * A path nothing serves (an unserved group, version or resource): the CRD handler passes it on
   * and the not-found handler answers Go's plain {@code 404 page not found}.
   */
  static Answer notFoundPath(Call call) {
    return Answer.plainError(404, "404 page not found");
  }

  static Answer methodNotAllowed() {
    return Answer.json(
        405,
        KubeStatus.failure(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
            new JsonObject()));
  }

  static JsonObject jsonBody(Call call) {
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

  static void checkKind(ResourceType type, JsonObject body) {
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
