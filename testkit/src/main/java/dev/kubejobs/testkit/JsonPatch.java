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
import java.util.ArrayList;
import java.util.List;

/**
 * Applies JSON patches (RFC 6902) with JSON pointers (RFC 6901). Not a published API.
 *
 * <p>Stateless and thread safe.
 */
final class JsonPatch {

  private JsonPatch() {}

  /** Signals a patch that cannot be applied: a failed test, a missing path, a malformed op. */
  public static final class PatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed
     */
    public PatchException(String message) {
      super(message);
    }
  }

  /**
   * Returns the result of applying every operation of {@code patch} in order to a copy of {@code
   * target}; all or nothing.
   *
   * @param target the document
   * @param patch an array of operations ({@code add}, {@code remove}, {@code replace}, {@code
   *     move}, {@code copy}, {@code test})
   * @return the patched document
   * @throws PatchException if an operation is malformed or fails
   */
  public static JsonElement apply(JsonElement target, JsonArray patch) {
    JsonElement doc = target.deepCopy();
    for (JsonElement opElement : patch) {
      if (!opElement.isJsonObject()) {
        throw new PatchException("a JSON patch operation must be an object: " + opElement);
      }
      JsonObject op = opElement.getAsJsonObject();
      String kind = string(op, "op");
      String path = string(op, "path");
      switch (kind) {
        case "add" -> doc = add(doc, path, value(op));
        case "remove" -> {
          get(doc, path);
          doc = remove(doc, path);
        }
        case "replace" -> {
          get(doc, path);
          doc = add(remove(doc, path), path, value(op));
        }
        case "move" -> {
          String from = string(op, "from");
          JsonElement v = get(doc, from);
          doc = add(remove(doc, from), path, v);
        }
        case "copy" -> doc = add(doc, path, get(doc, string(op, "from")).deepCopy());
        case "test" -> {
          JsonElement actual = get(doc, path);
          if (!actual.equals(value(op))) {
            throw new PatchException("testing value " + path + " failed: test failed");
          }
        }
        default -> throw new PatchException("Unexpected kind: " + kind);
      }
    }
    return doc;
  }

  private static String string(JsonObject op, String key) {
    JsonElement e = op.get(key);
    if (e == null || !e.isJsonPrimitive()) {
      throw new PatchException("operation " + op + " is missing the string member " + key);
    }
    return e.getAsString();
  }

  private static JsonElement value(JsonObject op) {
    JsonElement v = op.get("value");
    if (v == null) {
      throw new PatchException("operation " + op + " is missing value");
    }
    return v.deepCopy();
  }

  /**
   * Splits a JSON pointer into unescaped tokens.
   *
   * @param pointer the pointer, {@code ""} or starting with {@code /}
   * @return the tokens
   */
  static List<String> tokens(String pointer) {
    List<String> result = new ArrayList<>();
    if (pointer.isEmpty()) {
      return result;
    }
    if (!pointer.startsWith("/")) {
      throw new PatchException("a JSON pointer must start with /: " + pointer);
    }
    for (String raw : pointer.substring(1).split("/", -1)) {
      result.add(raw.replace("~1", "/").replace("~0", "~"));
    }
    return result;
  }

  private static JsonElement get(JsonElement doc, String pointer) {
    JsonElement current = doc;
    for (String token : tokens(pointer)) {
      current = child(current, token, pointer);
    }
    return current;
  }

  private static JsonElement child(JsonElement parent, String token, String pointer) {
    if (parent != null && parent.isJsonObject()) {
      JsonElement e = parent.getAsJsonObject().get(token);
      if (e == null) {
        throw new PatchException("doc is missing path: " + pointer);
      }
      return e;
    }
    if (parent != null && parent.isJsonArray()) {
      int i = index(token, parent.getAsJsonArray().size() - 1, pointer);
      return parent.getAsJsonArray().get(i);
    }
    throw new PatchException("doc is missing path: " + pointer);
  }

  private static int index(String token, int max, String pointer) {
    try {
      int i = Integer.parseInt(token);
      if (i < 0 || i > max) {
        throw new PatchException("index out of bounds in " + pointer);
      }
      return i;
    } catch (NumberFormatException e) {
      throw new PatchException("invalid array index " + token + " in " + pointer);
    }
  }

  private static JsonElement add(JsonElement doc, String pointer, JsonElement value) {
    List<String> tokens = tokens(pointer);
    if (tokens.isEmpty()) {
      return value;
    }
    JsonElement parent = doc;
    for (String token : tokens.subList(0, tokens.size() - 1)) {
      parent = child(parent, token, pointer);
    }
    String last = tokens.get(tokens.size() - 1);
    if (parent.isJsonObject()) {
      parent.getAsJsonObject().add(last, value);
    } else if (parent.isJsonArray()) {
      JsonArray array = parent.getAsJsonArray();
      int i = "-".equals(last) ? array.size() : index(last, array.size(), pointer);
      List<JsonElement> items = new ArrayList<>(array.asList());
      items.add(i, value);
      replaceAll(array, items);
    } else {
      throw new PatchException("doc is missing path: " + pointer);
    }
    return doc;
  }

  private static JsonElement remove(JsonElement doc, String pointer) {
    List<String> tokens = tokens(pointer);
    if (tokens.isEmpty()) {
      throw new PatchException("cannot remove the whole document");
    }
    JsonElement parent = doc;
    for (String token : tokens.subList(0, tokens.size() - 1)) {
      parent = child(parent, token, pointer);
    }
    String last = tokens.get(tokens.size() - 1);
    if (parent.isJsonObject()) {
      if (parent.getAsJsonObject().remove(last) == null) {
        throw new PatchException("doc is missing path: " + pointer);
      }
    } else if (parent.isJsonArray()) {
      parent.getAsJsonArray().remove(index(last, parent.getAsJsonArray().size() - 1, pointer));
    } else {
      throw new PatchException("doc is missing path: " + pointer);
    }
    return doc;
  }

  private static void replaceAll(JsonArray array, List<JsonElement> items) {
    while (array.size() > 0) {
      array.remove(array.size() - 1);
    }
    for (JsonElement e : items) {
      array.add(e);
    }
  }
}
