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
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Prunes and validates a custom resource against its CRD's structural {@code openAPIV3Schema}, as
 * apiextensions-apiserver does on create and update: unknown fields are dropped ({@code
 * schema/pruning/algorithm.go} {@code PruneWithOptions}) and reported, then {@code type}, {@code
 * enum} and {@code required} are checked ({@code apiserver/validation/validation.go} {@code
 * ValidateCustomResource} with kube-openapi's validator). {@code metadata}, {@code apiVersion} and
 * {@code kind} at the root are left to the object meta rules. Not a published API; immutable and
 * thread safe.
 *
 * <p>Checked: {@code type} (object, array, string, integer, number, boolean), {@code properties},
 * {@code additionalProperties}, {@code items}, {@code required}, {@code enum}, {@code nullable},
 * {@code x-kubernetes-preserve-unknown-fields}, {@code x-kubernetes-int-or-string} and {@code
 * x-kubernetes-embedded-resource}. Not checked: formats, patterns, lengths, bounds, CEL rules.
 */
final class StructuralSchema {

  /**
   * One field error, as a {@code StatusCause}.
   *
   * @param reason {@code FieldValueTypeInvalid}, {@code FieldValueNotSupported} or {@code
   *     FieldValueRequired}
   * @param field the field path, for example {@code spec.type}
   * @param message the full message, starting with the field path
   */
  public record FieldError(String reason, String field, String message) {}

  /**
   * What applying the schema found.
   *
   * @param pruned the paths of the unknown fields that were dropped, sorted (as the pruning
   *     algorithm returns them)
   * @param errors the field errors; empty when the object is valid
   */
  public record Result(List<String> pruned, List<FieldError> errors) {}

  private final JsonObject root;

  private StructuralSchema(JsonObject root) {
    this.root = root;
  }

  /**
   * Wraps a CRD version's {@code schema.openAPIV3Schema}.
   *
   * @param openApiV3Schema the schema
   * @return the schema
   */
  public static StructuralSchema of(JsonObject openApiV3Schema) {
    return new StructuralSchema(openApiV3Schema.deepCopy());
  }

  /**
   * Prunes unknown fields from the object, in place, and validates what is left.
   *
   * @param object a custom resource
   * @return the pruned paths and the field errors
   */
  public Result apply(JsonObject object) {
    List<String> pruned = new ArrayList<>();
    List<FieldError> errors = new ArrayList<>();
    JsonObject properties = obj(root, "properties");
    Iterator<Map.Entry<String, JsonElement>> it = object.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonElement> e = it.next();
      String key = e.getKey();
      if (key.equals("apiVersion") || key.equals("kind") || key.equals("metadata")) {
        continue;
      }
      JsonObject child = properties == null ? null : obj(properties, key);
      if (child == null) {
        if (!bool(root, "x-kubernetes-preserve-unknown-fields")) {
          pruned.add(key);
          it.remove();
        }
        continue;
      }
      visit(child, e.getValue(), key, pruned, errors);
    }
    required(root, object, "", errors);
    pruned.sort(null);
    return new Result(List.copyOf(pruned), List.copyOf(errors));
  }

  private static void visit(
      JsonObject schema,
      JsonElement value,
      String path,
      List<String> pruned,
      List<FieldError> errors) {
    if (value == null || value.isJsonNull()) {
      if (!bool(schema, "nullable") && str(schema, "type") != null) {
        errors.add(typeError(path, str(schema, "type"), "null"));
      }
      return;
    }
    if (bool(schema, "x-kubernetes-int-or-string")) {
      String actual = typeOf(value);
      if (!actual.equals("integer") && !actual.equals("string")) {
        errors.add(typeError(path, "integer-or-string", actual));
      }
      return;
    }
    String type = str(schema, "type");
    String actual = typeOf(value);
    if (type != null
        && !type.equals(actual)
        && !(type.equals("number") && actual.equals("integer"))) {
      errors.add(typeError(path, type, actual));
      return;
    }
    if (schema.get("enum") instanceof JsonArray allowed && !allowed.contains(value)) {
      StringBuilder values = new StringBuilder();
      for (JsonElement a : allowed) {
        values.append(values.length() == 0 ? "" : ", ").append(a);
      }
      errors.add(
          new FieldError(
              "FieldValueNotSupported",
              path,
              path + ": Unsupported value: " + value + ": supported values: " + values));
    }
    if (value.isJsonObject()) {
      JsonObject o = value.getAsJsonObject();
      JsonObject properties = obj(schema, "properties");
      JsonElement additional = schema.get("additionalProperties");
      boolean preserve =
          bool(schema, "x-kubernetes-preserve-unknown-fields")
              || (additional != null && additional.isJsonPrimitive() && additional.getAsBoolean());
      boolean embedded = bool(schema, "x-kubernetes-embedded-resource");
      Iterator<Map.Entry<String, JsonElement>> it = o.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonElement> e = it.next();
        String childPath = path + "." + e.getKey();
        if (embedded
            && (e.getKey().equals("apiVersion")
                || e.getKey().equals("kind")
                || e.getKey().equals("metadata"))) {
          continue;
        }
        JsonObject child = properties == null ? null : obj(properties, e.getKey());
        if (child == null && additional instanceof JsonObject additionalSchema) {
          child = additionalSchema;
        }
        if (child == null) {
          if (!preserve) {
            pruned.add(childPath);
            it.remove();
          }
          continue;
        }
        visit(child, e.getValue(), childPath, pruned, errors);
      }
      required(schema, o, path + ".", errors);
    } else if (value.isJsonArray() && schema.get("items") instanceof JsonObject items) {
      JsonArray array = value.getAsJsonArray();
      for (int i = 0; i < array.size(); i++) {
        visit(items, array.get(i), path + "[" + i + "]", pruned, errors);
      }
    }
  }

  private static void required(
      JsonObject schema, JsonObject o, String prefix, List<FieldError> errors) {
    if (schema.get("required") instanceof JsonArray required) {
      for (JsonElement r : required) {
        String name = r.getAsString();
        if (name.equals("metadata") && prefix.isEmpty()) {
          continue;
        }
        if (!o.has(name)) {
          errors.add(
              new FieldError(
                  "FieldValueRequired", prefix + name, prefix + name + ": Required value"));
        }
      }
    }
  }

  private static FieldError typeError(String path, String expected, String actual) {
    return new FieldError(
        "FieldValueTypeInvalid",
        path,
        path
            + ": Invalid value: \""
            + actual
            + "\": "
            + path
            + " in body must be of type "
            + expected
            + ": \""
            + actual
            + "\"");
  }

  private static String typeOf(JsonElement value) {
    if (value.isJsonNull()) {
      return "null";
    }
    if (value.isJsonObject()) {
      return "object";
    }
    if (value.isJsonArray()) {
      return "array";
    }
    JsonPrimitive p = value.getAsJsonPrimitive();
    if (p.isBoolean()) {
      return "boolean";
    }
    if (p.isString()) {
      return "string";
    }
    BigDecimal n = p.getAsBigDecimal();
    return n.stripTrailingZeros().scale() <= 0 ? "integer" : "number";
  }

  private static JsonObject obj(JsonObject o, String key) {
    return o.get(key) instanceof JsonObject j ? j : null;
  }

  private static String str(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
  }

  private static boolean bool(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null
        && e.isJsonPrimitive()
        && e.getAsJsonPrimitive().isBoolean()
        && e.getAsBoolean();
  }
}
