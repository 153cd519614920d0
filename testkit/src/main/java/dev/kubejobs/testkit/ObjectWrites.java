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
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Serves the writes of objects: create, update (whole object or status), merge, JSON and
 * server-side apply patches, delete and delete-collection, with their dry runs, preconditions and
 * schema checks. Thread safe.
 */
final class ObjectWrites {

  private final InMemoryStore store;

  ObjectWrites(InMemoryStore store) {
    this.store = store;
  }

  private final Map<ResourceType, StructuralSchema> schemas =
      new java.util.concurrent.ConcurrentHashMap<>();

  void schema(ResourceType type, StructuralSchema schema) {
    schemas.put(type, schema);
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

  Answer create(Call call, ResourceType type, String ns) {
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

  Answer replace(Call call, ResourceType type, String ns, String name, InMemoryStore.Mode mode) {
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
    if ((rv == null || rv.isEmpty())
        && !type.equals(ResourceType.POD)
        && !ObjectLists.isEvent(type)) {
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

  Answer patch(Call call, ResourceType type, String ns, String name, InMemoryStore.Mode mode) {
    String contentType =
        call.contentType() == null
            ? ""
            : call.contentType().split(";")[0].trim().toLowerCase(Locale.ROOT);
    boolean merge =
        contentType.equals("application/merge-patch+json")
            || (contentType.equals("application/strategic-merge-patch+json") && type.isBuiltIn());
    boolean json = contentType.equals("application/json-patch+json");
    boolean podOrEvent = type.equals(ResourceType.POD) || ObjectLists.isEvent(type);
    if (contentType.equals("application/apply-patch+yaml") && !podOrEvent) {
      return serverSideApply(call, type, ns, name, mode);
    }
    if (contentType.equals("application/apply-patch+yaml")) {
      throw new FakeApiException(
          415,
          "UnsupportedMediaType",
          "server-side apply (application/apply-patch+yaml) of pods and events is not supported by"
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
  static final class PatchFailed extends FakeApiException {
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

  Answer delete(Call call, ResourceType type, String ns, String name) {
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
            gracePeriod(call, options),
            dryRun);
    if (d.removed() && !type.returnsDeletedObject()) {
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

  /** {@code gracePeriodSeconds} of the DeleteOptions body, else of the query, else null. */
  private static Long gracePeriod(Call call, JsonObject options) {
    JsonElement body = options.get("gracePeriodSeconds");
    if (body != null && body.isJsonPrimitive()) {
      return body.getAsLong();
    }
    return call.param("gracePeriodSeconds") == null
        ? null
        : ApiHandler.longParam(call, "gracePeriodSeconds");
  }

  Answer deleteCollection(Call call, ResourceType type, String ns) {
    JsonObject options =
        call.body() == null || call.body().isBlank() ? new JsonObject() : jsonBody(call);
    boolean dryRun = deleteDryRun(call, options);
    LabelSelector selector = ObjectLists.selector(call);
    FieldSelector fields = ObjectLists.fieldSelector(call, type);
    JsonArray items = new JsonArray();
    for (JsonObject o : store.list(type, ns)) {
      if (selector.matches(InMemoryStore.labels(o)) && fields.matches(o)) {
        String name = InMemoryStore.string(InMemoryStore.metadata(o), "name");
        try {
          items.add(store.delete(type, ns, name, null, null, "Background", null, dryRun).object());
        } catch (FakeApiException e) {
          if (e.code() != 404) {
            throw e;
          }
        }
      }
    }
    return Answer.json(
        200, ObjectLists.listBody(type, items, store.currentResourceVersion(), null, null));
  }
}
