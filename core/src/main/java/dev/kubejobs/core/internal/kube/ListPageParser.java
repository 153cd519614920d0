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

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import okhttp3.Response;

/**
 * The streaming parser of one list page, over its bytes with jackson-core: reads each item as a
 * {@link FieldProjection} keeps it (a copy the caller holds already is skipped past its metadata
 * and only named), keeps the list's {@code metadata} and skips the page's other fields unbuilt. It
 * calls nothing of its caller: the page comes back whole, and a page read again after a failed
 * attempt is parsed again from its new bytes. A page that is not one JSON object is the non-JSON
 * error; an item that is not an object, or {@code items} that is not an array, is garbage. One
 * parser per page; not thread safe.
 */
final class ListPageParser {
  /** What a page brought: its copies, the names of the copies held, and how it ended. */
  record Page(
      List<ResourceSnapshot> items,
      List<String> held,
      String continueToken,
      String resourceVersion) {}

  private final KubeRequest request;
  private final FieldProjection projection;
  private final Map<String, ? extends HeldCopy> held;
  private final JsonTree.Parser parser = new JsonTree.Parser();

  ListPageParser(
      KubeRequest request, FieldProjection projection, Map<String, ? extends HeldCopy> held) {
    this.request = request;
    this.projection = projection;
    this.held = held;
  }

  /** Reads the page from the answer's stream. */
  Page read(Response response) throws IOException {
    return JsonBodies.requireBytes(request, response, this::fields);
  }

  private Page fields(JsonParser in) throws IOException {
    JsonTree.Obj listMeta = null;
    List<ResourceSnapshot> items = new ArrayList<>();
    List<String> heldNames = new ArrayList<>();
    for (String field = in.nextFieldName(); field != null; field = in.nextFieldName()) {
      JsonToken token = in.nextToken();
      if (field.equals("items") && token == JsonToken.START_ARRAY) {
        items(in, items, heldNames);
      } else if (field.equals("items") && token != JsonToken.VALUE_NULL) {
        throw KubeFailures.garbage(request.about(), request.op(), "'items' that is not an array");
      } else if (field.equals("metadata") && token == JsonToken.START_OBJECT) {
        listMeta = parser.readObject(in);
      } else {
        in.skipChildren();
      }
    }
    return listMeta == null
        ? new Page(items, heldNames, null, null)
        : new Page(items, heldNames, listMeta.text("continue"), listMeta.text("resourceVersion"));
  }

  private void items(JsonParser in, List<ResourceSnapshot> items, List<String> heldNames)
      throws IOException {
    for (JsonToken token = in.nextToken(); token != JsonToken.END_ARRAY; token = in.nextToken()) {
      if (token != JsonToken.START_OBJECT) {
        throw KubeFailures.garbage(
            request.about(), request.op(), "a list item that is not an object");
      }
      JsonTree.Obj item = projection.read(in, held, parser, heldNames);
      if (item != null) {
        items.add(JsonBodies.snapshot(request.about(), request.op(), item));
      }
    }
  }
}
