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
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Server-side printing: a {@code meta.k8s.io} {@code Table} instead of an object or a list when the
 * client asks for one in {@code Accept} ({@code application/json;as=Table;v=v1;g=meta.k8s.io}, as
 * kubectl get does). Thread safe.
 *
 * <p>Mirrors kubernetes/apiserver {@code pkg/endpoints/handlers/response.go} {@code asTable}
 * (commit 24a394e5: each row's object is a {@code PartialObjectMetadata} unless {@code
 * includeObject} says {@code Object} or {@code None}) and, for custom resources,
 * kubernetes/apiextensions-apiserver {@code pkg/registry/customresource/tableconvertor} (commit
 * 1aa2717a): a {@code Name} column, then the version's {@code additionalPrinterColumns} (only
 * {@code Age} from {@code .metadata.creationTimestamp} without them), a missing value a null cell,
 * a {@code date} cell the age as {@code HumanDuration} prints it by the server's clock.
 */
final class Tables {

  /** One printer column of a CRD version. */
  record Column(
      String name, String type, String format, String description, int priority, String jsonPath) {}

  private static final Column AGE =
      new Column(
          "Age",
          "date",
          "",
          "CreationTimestamp is a timestamp representing the server time when this object was"
              + " created.",
          0,
          ".metadata.creationTimestamp");

  private final Clock clock;
  private final Map<ResourceType, List<Column>> columns = new ConcurrentHashMap<>();

  Tables(Clock clock) {
    this.clock = clock;
  }

  /** Sets a type's printer columns, from its CRD version's {@code additionalPrinterColumns}. */
  void columns(ResourceType type, List<Column> crdColumns) {
    columns.put(type, List.copyOf(crdColumns));
  }

  /**
   * The answer as a Table if the call asks for one first and the answer is a 200 object or list;
   * otherwise the answer unchanged. A Table of an unsupported group version answers 406.
   */
  ApiHandler.Answer answer(ApiHandler.Call call, ResourceType type, ApiHandler.Answer answer) {
    String tableVersion = tableVersion(call.accept());
    boolean pod = type.equals(ResourceType.POD);
    if (tableVersion == null || answer.status() != 200 || (type.isBuiltIn() && !pod)) {
      // Events: kube-apiserver prints them with its built-in printer, which the fake does not
      // model; a plain list lets kubectl print NAME and AGE.
      return answer;
    }
    String include = call.param("includeObject");
    if (include != null
        && !include.isEmpty()
        && !include.equals("None")
        && !include.equals("Metadata")
        && !include.equals("Object")) {
      throw KubeStatus.badRequest("unrecognized includeObject value: \"" + include + "\"");
    }
    JsonObject body = JsonParser.parseString(answer.body()).getAsJsonObject();
    JsonObject table = new JsonObject();
    table.addProperty("kind", "Table");
    table.addProperty("apiVersion", "meta.k8s.io/" + tableVersion);
    JsonObject meta = new JsonObject();
    JsonObject bodyMeta = body.getAsJsonObject("metadata");
    if (body.has("items")) {
      for (String key : List.of("resourceVersion", "continue", "remainingItemCount")) {
        if (bodyMeta != null && bodyMeta.has(key)) {
          meta.add(key, bodyMeta.get(key));
        }
      }
    } else if (bodyMeta != null && bodyMeta.has("resourceVersion")) {
      meta.add("resourceVersion", bodyMeta.get("resourceVersion"));
    }
    table.add("metadata", meta);
    List<Column> cols = customColumns(type);
    JsonArray definitions = new JsonArray();
    JsonObject name = new JsonObject();
    name.addProperty("name", "Name");
    name.addProperty("type", "string");
    name.addProperty("format", "name");
    name.addProperty(
        "description",
        "Name must be unique within a namespace. Is required when creating resources, although"
            + " some resources may allow a client to request the generation of an appropriate name"
            + " automatically. Name is primarily intended for creation idempotence and"
            + " configuration definition. Cannot be updated. More info:"
            + " https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names");
    name.addProperty("priority", 0);
    if (pod) {
      definitions = PodTable.columnDefinitions(name);
      cols = List.of();
    } else {
      definitions.add(name);
    }
    for (Column c : cols) {
      JsonObject d = new JsonObject();
      d.addProperty("name", c.name());
      d.addProperty("type", c.type());
      d.addProperty("format", c.format());
      d.addProperty("description", c.description());
      d.addProperty("priority", c.priority());
      definitions.add(d);
    }
    table.add("columnDefinitions", definitions);
    JsonArray rows = new JsonArray();
    if (body.has("items")) {
      for (JsonElement item : body.getAsJsonArray("items")) {
        rows.add(row(item.getAsJsonObject(), cols, include, tableVersion, pod));
      }
    } else {
      rows.add(row(body, cols, include, tableVersion, pod));
    }
    table.add("rows", rows);
    return new ApiHandler.Answer(
        200, "application/json", ApiHandler.GSON.toJson(table), answer.headers());
  }

  private List<Column> customColumns(ResourceType type) {
    List<Column> cols = columns.get(type);
    return cols == null || cols.isEmpty() ? List.of(AGE) : cols;
  }

  private JsonObject row(
      JsonObject o, List<Column> cols, String include, String tableVersion, boolean pod) {
    JsonArray cells = new JsonArray();
    JsonArray conditions = null;
    if (pod) {
      PodTable.Row printed = PodTable.row(o, this::age);
      cells = printed.cells();
      conditions = printed.conditions();
    } else {
      cells.add(InMemoryStore.string(InMemoryStore.metadata(o), "name"));
    }
    for (Column c : cols) {
      cells.add(cell(c, read(o, c.jsonPath())));
    }
    JsonObject row = new JsonObject();
    row.add("cells", cells);
    if (conditions != null) {
      row.add("conditions", conditions);
    }
    if ("Object".equals(include)) {
      row.add("object", o);
    } else if (!"None".equals(include)) {
      JsonObject partial = new JsonObject();
      partial.addProperty("kind", "PartialObjectMetadata");
      partial.addProperty("apiVersion", "meta.k8s.io/" + tableVersion);
      partial.add("metadata", InMemoryStore.metadata(o));
      row.add("object", partial);
    }
    return row;
  }

  /** A cell as the CRD table convertor's {@code cellForJSONValue} and string printing make it. */
  private JsonElement cell(Column c, JsonElement value) {
    if (value == null || value.isJsonNull()) {
      return JsonNull.INSTANCE;
    }
    switch (c.type()) {
      case "string":
        return new JsonPrimitive(
            value.isJsonPrimitive() ? value.getAsString() : ApiHandler.GSON.toJson(value));
      case "integer":
        return value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber()
            ? new JsonPrimitive(value.getAsNumber().longValue())
            : JsonNull.INSTANCE;
      case "number":
        return value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber()
            ? new JsonPrimitive(value.getAsDouble())
            : JsonNull.INSTANCE;
      case "boolean":
        return value.isJsonPrimitive() && value.getAsJsonPrimitive().isBoolean()
            ? value
            : JsonNull.INSTANCE;
      case "date":
        return value.isJsonPrimitive() && value.getAsJsonPrimitive().isString()
            ? new JsonPrimitive(age(value.getAsString()))
            : JsonNull.INSTANCE;
      default:
        return JsonNull.INSTANCE;
    }
  }

  /** A simple JSONPath ({@code .a.b.c}): the value, or null if a step is missing. */
  static JsonElement read(JsonObject o, String jsonPath) {
    JsonElement current = o;
    for (String step : jsonPath.replaceFirst("^\\.", "").split("\\.")) {
      if (!(current instanceof JsonObject obj) || !obj.has(step)) {
        return null;
      }
      current = obj.get(step);
    }
    return current;
  }

  /** The age of a timestamp by the server's clock, {@code "<invalid>"} if it does not parse. */
  String age(String timestamp) {
    try {
      return humanDuration(Duration.between(Instant.parse(timestamp), clock.instant()));
    } catch (DateTimeParseException e) {
      return "<invalid>";
    }
  }

  /**
   * {@code HumanDuration} of kubernetes/apimachinery {@code pkg/util/duration/duration.go} (commit
   * eed236ce): about two to three significant figures.
   */
  static String humanDuration(Duration d) {
    // Go converts toward zero: -1.9 s is -1 s ("0s"), as int(d.Seconds()) does.
    long seconds = d.toNanos() / 1_000_000_000L;
    if (seconds < -1) {
      return "<invalid>";
    } else if (seconds < 0) {
      return "0s";
    } else if (seconds < 60 * 2) {
      return seconds + "s";
    }
    long minutes = seconds / 60;
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    } else if (minutes < 60 * 3) {
      return minutes + "m";
    }
    long hours = seconds / 3600;
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    } else if (hours < 48) {
      return hours + "h";
    } else if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
    } else if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    } else if (hours < 24 * 365 * 8) {
      long dy = (hours / 24) % 365;
      return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
    }
    return hours / 24 / 365 + "y";
  }

  /**
   * The Table group version the Accept header asks for first ({@code v1} or {@code v1beta1}), or
   * null when the first acceptable type is not a Table (kubectl lists plain JSON last).
   */
  static String tableVersion(String accept) {
    if (accept == null || accept.isEmpty()) {
      return null;
    }
    for (String type : accept.split(",")) {
      Map<String, String> params = new java.util.HashMap<>();
      String[] parts = type.split(";");
      for (int i = 1; i < parts.length; i++) {
        String[] kv = parts[i].trim().split("=", 2);
        params.put(kv[0].trim(), kv.length > 1 ? kv[1].trim() : "");
      }
      String media = parts[0].trim();
      if (!media.equals("application/json")
          && !media.equals("*/*")
          && !media.equals("application/*")) {
        continue;
      }
      if (!"Table".equals(params.get("as"))) {
        return null;
      }
      String version = params.get("v");
      if ("meta.k8s.io".equals(params.get("g"))
          && ("v1".equals(version) || "v1beta1".equals(version))) {
        return version;
      }
    }
    return null;
  }
}
