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
package dev.kubejobs.core.internal.kube;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.stream.JsonReader;
import java.io.IOException;

/**
 * The tree Gson's own {@link JsonReader} reads, at the reader's strictness (not made lenient as
 * {@code JsonParser.parseReader} makes it), as a {@link JsonTree}: what the byte reader's trees are
 * compared with.
 */
public final class GsonTrees {
  private GsonTrees() {}

  /**
   * Reads the value the reader is at.
   *
   * @param in the reader
   * @return the value as a JsonTree value
   * @throws IOException as the reader throws
   */
  public static Object read(JsonReader in) throws IOException {
    return JsonTree.fromGson(element(in));
  }

  /**
   * Reads the object the reader is at.
   *
   * @param in the reader
   * @return the object
   * @throws IOException as the reader throws
   * @throws IllegalStateException when the next value is not an object
   */
  public static JsonTree.Obj readObject(JsonReader in) throws IOException {
    in.beginObject();
    JsonObject out = new JsonObject();
    while (in.hasNext()) {
      String name = in.nextName();
      out.add(name, element(in));
    }
    in.endObject();
    return JsonTree.fromGson(out);
  }

  private static JsonElement element(JsonReader in) throws IOException {
    switch (in.peek()) {
      case BEGIN_OBJECT:
        JsonObject object = new JsonObject();
        in.beginObject();
        while (in.hasNext()) {
          String name = in.nextName();
          object.add(name, element(in));
        }
        in.endObject();
        return object;
      case BEGIN_ARRAY:
        JsonArray array = new JsonArray();
        in.beginArray();
        while (in.hasNext()) {
          array.add(element(in));
        }
        in.endArray();
        return array;
      case STRING:
        return new JsonPrimitive(in.nextString());
      case NUMBER:
        return JsonParser.parseString(in.nextString()); // Gson's number, as written
      case BOOLEAN:
        return new JsonPrimitive(in.nextBoolean());
      case NULL:
        in.nextNull();
        return JsonNull.INSTANCE;
      default:
        throw new IllegalStateException("a value was expected, not " + in.peek());
    }
  }
}
