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

import com.google.gson.JsonElement;
import java.io.IOException;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** Raw HTTP calls for the few requests the client-java APIs do not make. */
final class Http {

  /** An answer: code, content type and body. */
  record Answer(int code, String contentType, String body, String retryAfter) {}

  private static final OkHttpClient CLIENT = new OkHttpClient();

  private Http() {}

  static Answer put(FakeKubernetesApiServer server, String path, JsonElement body)
      throws IOException {
    return send(server, "PUT", path, "application/json", body.toString());
  }

  static Answer send(
      FakeKubernetesApiServer server, String method, String path, String contentType, String body)
      throws IOException {
    RequestBody rb = body == null ? null : RequestBody.create(body, MediaType.get(contentType));
    Request request = new Request.Builder().url(server.url() + path).method(method, rb).build();
    try (Response r = CLIENT.newCall(request).execute()) {
      return new Answer(
          r.code(), r.header("Content-Type"), r.body().string(), r.header("Retry-After"));
    }
  }
}
