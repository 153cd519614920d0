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
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which fields of a resource a reader keeps: the status reader parses only these of each listed
 * copy and skips the rest unbuilt, as client-go informers strip what their users do not read
 * ({@code cache.TransformFunc}, {@code TransformStripManagedFields}). Built from {@link
 * dev.kubejobs.core.spi.JobKind#statusFields()}: {@code apiVersion}, {@code kind} and {@code
 * metadata} (without {@code managedFields}, the field managers' bookkeeping that is often the
 * largest part of a real server's object) are always kept, and of the rest only the fields named. A
 * field named whose value is not an object is kept as it is, so a mapper still sees a malformed
 * {@code status}. Not a published API. Immutable, thread safe.
 */
public final class FieldProjection {
  /** Keeps the whole resource. */
  public static final FieldProjection WHOLE = new FieldProjection(Map.of(), true);

  /** Drops a field. */
  private static final FieldProjection SKIP = new FieldProjection(Map.of(), false);

  /** The fields named, each with what of it is kept ({@link #SKIP}: nothing). */
  private final Map<String, FieldProjection> fields;

  /** Whether a field not named is kept whole (else skipped). */
  private final boolean others;

  private FieldProjection(Map<String, FieldProjection> fields, boolean others) {
    this.fields = fields;
    this.others = others;
  }

  /**
   * The projection keeping {@code apiVersion}, {@code kind}, {@code metadata} without {@code
   * managedFields}, and the fields named; none named keeps the whole resource.
   *
   * @param paths dotted field paths, such as {@code status} or {@code spec.restartPolicy}
   * @return the projection
   * @throws IllegalArgumentException if a path is null, blank or has an empty segment
   */
  public static FieldProjection of(Collection<String> paths) {
    if (paths == null) {
      throw new IllegalArgumentException("JobKind.statusFields() must not return null");
    }
    if (paths.isEmpty()) {
      return WHOLE;
    }
    Node root = new Node();
    root.children.put("apiVersion", null);
    root.children.put("kind", null);
    Node metadata = new Node();
    metadata.others = true;
    metadata.skipped.add("managedFields");
    root.children.put("metadata", metadata);
    for (String path : paths) {
      if (path == null || path.isBlank()) {
        throw new IllegalArgumentException("JobKind.statusFields() holds a null or blank path");
      }
      String[] segments = path.split("\\.", -1);
      Node at = root;
      for (int i = 0; i < segments.length; i++) {
        String segment = segments[i];
        if (segment.isEmpty()) {
          throw new IllegalArgumentException(
              "JobKind.statusFields() holds '" + path + "', which has an empty segment");
        }
        if (at == null) {
          break; // a parent is kept whole already
        }
        if (i == segments.length - 1) {
          at.children.put(segment, null); // kept whole
        } else if (at.children.containsKey(segment)) {
          at = at.children.get(segment);
        } else if (at.others && !at.skipped.contains(segment)) {
          at = null; // kept whole as one of the others
        } else {
          Node child = new Node();
          at.children.put(segment, child);
          at = child;
        }
      }
    }
    return root.build();
  }

  /** Whether this keeps the whole value. */
  public boolean isWhole() {
    return others && fields.isEmpty();
  }

  /**
   * Reads the object the parser is at, keeping what this projection keeps; the fields dropped are
   * skipped without being built.
   *
   * @param in a parser whose current token is {@link JsonToken#START_OBJECT}
   * @return the object kept
   * @throws IOException as the parser throws (malformed JSON included)
   */
  public JsonTree.Obj read(JsonParser in) throws IOException {
    return read(in, null, new JsonTree.Parser(), List.of());
  }

  /**
   * Reads one JSON object from its bytes as {@link #read(JsonParser)} does.
   *
   * @param json the object, UTF-8
   * @return the object kept
   * @throws IOException when the bytes are not one JSON object
   */
  public JsonTree.Obj read(byte[] json) throws IOException {
    JsonTree.Obj kept = JsonBodies.readObject(json, this::read);
    if (kept == null) {
      throw new IOException("not one JSON object");
    }
    return kept;
  }

  /**
   * Reads the resource the parser is at as {@link #read(JsonParser)} does, but skips the rest of it
   * unbuilt when its {@code metadata} shows it is a copy the reader holds already ({@link
   * HeldCopy#isHeld}: the same name, uid and non-empty resourceVersion as one of {@code held}): its
   * name is added to {@code heldNames} and null returned. A real API server writes {@code metadata}
   * before {@code spec} and {@code status}: it encodes a custom resource's map with Go's {@code
   * encoding/json}, which sorts the keys ({@code unstructuredJSONScheme.doEncode} in
   * k8s.io/apimachinery {@code pkg/apis/meta/v1/unstructured/helpers.go}), so most of a copy held
   * already is skipped. A resource whose {@code metadata} is missing or not an object is read
   * whole. The fields dropped are skipped without decoding their values ({@link
   * JsonParser#skipChildren()}).
   *
   * @param in a parser whose current token is {@link JsonToken#START_OBJECT}
   * @param held the copies held, by name (only read); null holds none
   * @param parser the tree parser to read the kept values with (one per page read)
   * @param heldNames receives the name of a copy held
   * @return the resource kept, or null for a copy held
   * @throws IOException as the parser throws (malformed JSON included)
   */
  public JsonTree.Obj read(
      JsonParser in,
      Map<String, ? extends HeldCopy> held,
      JsonTree.Parser parser,
      List<String> heldNames)
      throws IOException {
    if (isWhole() && held == null) {
      return parser.readObject(in);
    }
    int mark = parser.begin();
    for (String name = in.nextFieldName(); name != null; name = in.nextFieldName()) {
      FieldProjection field = field(name);
      JsonToken token = in.nextToken();
      if (!name.equals("metadata") || field == SKIP || token != JsonToken.START_OBJECT) {
        readField(in, name, field, parser, mark);
        continue;
      }
      int metadata = parser.begin();
      // The three fields that tell a copy held, as they are met: once all are read the copy is
      // judged, and a copy held skips the rest of its metadata too (an encoder that writes them
      // first, as the testkit's fake does, saves building labels and annotations; Go's sorted
      // keys put them last, so there the whole metadata is read before the judgement).
      int identity = held == null ? IDENTITY : 0;
      boolean copyHeld = false;
      for (String n = in.nextFieldName(); n != null; n = in.nextFieldName()) {
        in.nextToken();
        readField(in, n, field.field(n), parser, metadata);
        if (identity != IDENTITY) {
          identity |= identityBit(n);
          copyHeld = identity == IDENTITY && isHeld(held, parser, metadata, heldNames);
          if (copyHeld) {
            skipRest(in); // of the metadata
            break;
          }
        }
      }
      if (copyHeld || (identity != IDENTITY && isHeld(held, parser, metadata, heldNames))) {
        parser.drop(mark);
        skipRest(in); // of the resource
        return null;
      }
      parser.put(mark, name, parser.end(metadata));
    }
    return parser.end(mark);
  }

  /** The bits of {@link #identityBit}: all three fields that tell a copy held were read. */
  private static final int IDENTITY = 7;

  /** The bit of a metadata field that tells a copy held, else 0. */
  private static int identityBit(String name) {
    switch (name) {
      case "name":
        return 1;
      case "uid":
        return 2;
      case "resourceVersion":
        return 4;
      default:
        return 0;
    }
  }

  /**
   * Whether the metadata read so far (started at {@code metadata}, not ended) is of a copy held; if
   * so it is dropped and its name added to {@code heldNames}. A field repeated after this judgement
   * does not change it (no API server repeats a name).
   */
  private static boolean isHeld(
      Map<String, ? extends HeldCopy> held,
      JsonTree.Parser parser,
      int metadata,
      List<String> heldNames) {
    String own = parser.text(metadata, "name");
    if (held == null
        || !HeldCopy.isHeld(
            held, own, parser.text(metadata, "uid"), parser.text(metadata, "resourceVersion"))) {
      return false;
    }
    parser.drop(metadata);
    heldNames.add(own);
    return true;
  }

  /** Skips the rest of the object whose fields the parser is among, to its end. */
  private static void skipRest(JsonParser in) throws IOException {
    while (in.nextFieldName() != null) {
      in.nextToken();
      in.skipChildren();
    }
  }

  /** Reads an object this projection keeps part of, or all. */
  private JsonTree.Obj object(JsonParser in, JsonTree.Parser parser) throws IOException {
    if (isWhole()) {
      return parser.readObject(in);
    }
    int mark = parser.begin();
    for (String name = in.nextFieldName(); name != null; name = in.nextFieldName()) {
      in.nextToken();
      readField(in, name, field(name), parser, mark);
    }
    return parser.end(mark);
  }

  /**
   * Reads one field's value (the parser at its first token) as {@code field} keeps it into the
   * object at {@code mark}, or skips it.
   */
  private static void readField(
      JsonParser in, String name, FieldProjection field, JsonTree.Parser parser, int mark)
      throws IOException {
    if (field == SKIP) {
      in.skipChildren(); // an object or array to its end; a scalar is one token, read already
    } else if (field.isWhole() || in.currentToken() != JsonToken.START_OBJECT) {
      parser.put(mark, name, parser.read(in));
    } else {
      parser.put(mark, name, field.object(in, parser));
    }
  }

  /**
   * Returns what this projection keeps of an object already parsed; the values kept are shared, not
   * copied.
   *
   * @param object the object
   * @return a new object with the fields kept, or {@code object} itself when all is kept
   */
  public JsonObject apply(JsonObject object) {
    if (isWhole()) {
      return object;
    }
    JsonObject out = new JsonObject();
    for (Map.Entry<String, JsonElement> e : object.entrySet()) {
      FieldProjection field = field(e.getKey());
      if (field == SKIP) {
        continue;
      }
      JsonElement value = e.getValue();
      out.add(
          e.getKey(),
          field.isWhole() || !value.isJsonObject() ? value : field.apply(value.getAsJsonObject()));
    }
    return out;
  }

  /** What is kept of the field of that name. */
  private FieldProjection field(String name) {
    FieldProjection field = fields.get(name);
    return field != null ? field : others ? WHOLE : SKIP;
  }

  /** A projection while it is built. */
  private static final class Node {
    /** Named fields: null keeps one whole. */
    final Map<String, Node> children = new HashMap<>();

    final Set<String> skipped = new HashSet<>();
    boolean others;

    FieldProjection build() {
      Map<String, FieldProjection> built = new HashMap<>();
      children.forEach((name, child) -> built.put(name, child == null ? WHOLE : child.build()));
      skipped.forEach(name -> built.putIfAbsent(name, SKIP));
      return new FieldProjection(Map.copyOf(built), others);
    }
  }
}
