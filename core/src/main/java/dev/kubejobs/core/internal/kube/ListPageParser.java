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

import dev.kubejobs.core.internal.json.JsonBytes;
import dev.kubejobs.core.internal.json.JsonTree;
import java.io.IOException;
import okhttp3.Response;

/**
 * The streaming parser of one list page: hands each item to a {@link KubeGateway.ListSink} as soon
 * as it is parsed (projected by a {@link FieldProjection}, skipped unbuilt when the sink does not
 * want it), keeps the list's {@code metadata} and skips the page's other fields. A page that is not
 * one JSON object is the non-JSON error; an item that is not an object, or {@code items} that is
 * not an array, is garbage. One parser per page; not thread safe.
 */
final class ListPageParser {
  /** What a list page ends with: its continue token and resourceVersion, each null when absent. */
  record PageEnd(String continueToken, String resourceVersion) {}

  private final KubeRequest request;
  private final FieldProjection projection;
  private final KubeGateway.ListSink sink;
  private final JsonTree.Parser parser = new JsonTree.Parser();

  ListPageParser(KubeRequest request, FieldProjection projection, KubeGateway.ListSink sink) {
    this.request = request;
    this.projection = projection;
    this.sink = sink;
  }

  /** Reads the page from the answer's stream. */
  PageEnd read(Response response) throws IOException {
    return JsonBodies.requireBytes(request, response, this::fields);
  }

  private PageEnd fields(JsonBytes reader) throws IOException {
    JsonTree.Obj listMeta = null;
    reader.beginObject();
    while (reader.hasNext()) {
      String field = reader.nextName();
      if (field.equals("items") && reader.peek() == JsonBytes.Token.BEGIN_ARRAY) {
        items(reader);
      } else if (field.equals("items") && reader.peek() != JsonBytes.Token.NULL) {
        throw KubeFailures.garbage(request.about(), request.op(), "'items' that is not an array");
      } else if (field.equals("metadata") && reader.peek() == JsonBytes.Token.BEGIN_OBJECT) {
        listMeta = parser.readObject(reader);
      } else {
        reader.skipValue();
      }
    }
    reader.endObject();
    return listMeta == null
        ? new PageEnd(null, null)
        : new PageEnd(listMeta.text("continue"), listMeta.text("resourceVersion"));
  }

  private void items(JsonBytes reader) throws IOException {
    reader.beginArray();
    while (reader.hasNext()) {
      if (reader.peek() != JsonBytes.Token.BEGIN_OBJECT) {
        throw KubeFailures.garbage(
            request.about(), request.op(), "a list item that is not an object");
      }
      JsonTree.Obj item = projection.read(reader, sink::wants, parser);
      if (item != null) {
        sink.item(JsonBodies.snapshot(request.about(), request.op(), item));
      }
    }
    reader.endArray();
  }
}
