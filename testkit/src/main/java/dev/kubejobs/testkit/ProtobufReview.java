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

import com.google.gson.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Decodes the one protobuf body kubectl sends: a {@code SelfSubjectAccessReview} ({@code kubectl
 * auth can-i}), which kubectl's typed client always encodes as {@code
 * application/vnd.kubernetes.protobuf}, accepting {@code application/vnd.kubernetes.protobuf,
 * application/json} back. A real server decodes it (apimachinery {@code
 * pkg/runtime/serializer/protobuf/protobuf.go}: the {@code k8s\0} magic, then a {@code
 * runtime.Unknown} whose {@code raw} holds the object) and may answer in either type; the fake
 * answers JSON, which the Accept header allows. Field numbers are those of k8s.io/api {@code
 * authorization/v1/generated.proto}: the review's {@code spec} is 2, the spec's {@code
 * resourceAttributes} 1 and {@code nonResourceAttributes} 2; resource attributes are namespace 1,
 * verb 2, group 3, version 4, resource 5, subresource 6, name 7; non-resource ones path 1, verb 2.
 */
final class ProtobufReview {

  /** The protobuf media type of kube-apiserver. */
  static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

  private static final byte[] MAGIC = {'k', '8', 's', 0};

  private ProtobufReview() {}

  /**
   * The review as the JSON a client would have sent.
   *
   * @param body the request body, one char per byte
   * @throws FakeApiException 400 if the body is not a protobuf-encoded object
   */
  static JsonObject decode(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
    for (int i = 0; i < MAGIC.length; i++) {
      if (bytes.length < MAGIC.length || bytes[i] != MAGIC[i]) {
        throw KubeStatus.badRequest(
            "provided object is not a protobuf-encoded Kubernetes object (no k8s\\x00 prefix)");
      }
    }
    Reader unknown = new Reader(bytes, MAGIC.length, bytes.length);
    JsonObject review = new JsonObject();
    review.addProperty("kind", "SelfSubjectAccessReview");
    review.addProperty("apiVersion", "authorization.k8s.io/v1");
    JsonObject spec = new JsonObject();
    review.add("spec", spec);
    while (unknown.more()) {
      Reader raw = unknown.next();
      if (raw == null || unknown.field != 2) {
        continue;
      }
      while (raw.more()) {
        Reader specBytes = raw.next();
        if (specBytes == null || raw.field != 2) {
          continue;
        }
        while (specBytes.more()) {
          Reader attrs = specBytes.next();
          if (attrs == null) {
            continue;
          }
          if (specBytes.field == 1) {
            spec.add(
                "resourceAttributes",
                strings(
                    attrs,
                    "namespace",
                    "verb",
                    "group",
                    "version",
                    "resource",
                    "subresource",
                    "name"));
          } else if (specBytes.field == 2) {
            spec.add("nonResourceAttributes", strings(attrs, "path", "verb"));
          }
        }
      }
    }
    return review;
  }

  /** The string fields 1..n of a message, by name; empty ones left out as JSON omits them. */
  private static JsonObject strings(Reader message, String... names) {
    JsonObject o = new JsonObject();
    while (message.more()) {
      Reader value = message.next();
      int f = message.field;
      if (value != null && f >= 1 && f <= names.length) {
        String s = value.text();
        if (!s.isEmpty()) {
          o.addProperty(names[f - 1], s);
        }
      }
    }
    return o;
  }

  /** Reads protobuf wire format: varints and length-delimited fields; others are skipped. */
  private static final class Reader {
    private final byte[] bytes;
    private int pos;
    private final int end;
    int field;

    Reader(byte[] bytes, int from, int end) {
      this.bytes = bytes;
      this.pos = from;
      this.end = end;
    }

    boolean more() {
      return pos < end;
    }

    /** The next field: its bytes if length-delimited, else null (the value skipped). */
    Reader next() {
      long key = varint();
      field = (int) (key >>> 3);
      int wire = (int) (key & 7);
      switch (wire) {
        case 0 -> varint();
        case 1 -> skip(8);
        case 5 -> skip(4);
        case 2 -> {
          int len = (int) varint();
          if (len < 0 || pos + len > end) {
            throw KubeStatus.badRequest("unable to decode the protobuf body: truncated field");
          }
          Reader r = new Reader(bytes, pos, pos + len);
          pos += len;
          return r;
        }
        default ->
            throw KubeStatus.badRequest("unable to decode the protobuf body: wire type " + wire);
      }
      return null;
    }

    private void skip(int n) {
      if (pos + n > end) {
        throw KubeStatus.badRequest("unable to decode the protobuf body: truncated field");
      }
      pos += n;
    }

    private long varint() {
      long result = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) {
          throw KubeStatus.badRequest("unable to decode the protobuf body: truncated varint");
        }
        byte b = bytes[pos++];
        result |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return result;
        }
      }
      throw KubeStatus.badRequest("unable to decode the protobuf body: varint too long");
    }

    String text() {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(bytes, pos, end - pos);
      return out.toString(StandardCharsets.UTF_8);
    }
  }
}
