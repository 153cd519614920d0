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
import com.google.gson.JsonParser;
import java.io.IOException;
import java.time.Duration;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * A watch read line by line over raw OkHttp, so a test sees each event as the server flushes it (a
 * read blocks until the next line arrives, at most the read timeout of 10 s).
 */
final class RawWatch implements AutoCloseable {

  private static final OkHttpClient CLIENT =
      new OkHttpClient.Builder()
          .readTimeout(Duration.ofSeconds(10))
          .retryOnConnectionFailure(false)
          .build();

  private final Call call;
  private final Response response;

  private RawWatch(Call call, Response response) {
    this.call = call;
    this.response = response;
  }

  /** Starts a GET of {@code pathAndQuery} (which should carry {@code watch=true}). */
  static RawWatch open(FakeKubernetesApiServer server, String pathAndQuery) throws IOException {
    return open(CLIENT, server, pathAndQuery);
  }

  /** Starts a GET of {@code pathAndQuery} with that client (HTTP/2, for example). */
  static RawWatch open(OkHttpClient client, FakeKubernetesApiServer server, String pathAndQuery)
      throws IOException {
    Request request = new Request.Builder().url(server.url() + pathAndQuery).build();
    Call call = client.newCall(request);
    return new RawWatch(call, call.execute());
  }

  /** The protocol the answer came in. */
  okhttp3.Protocol protocol() {
    return response.protocol();
  }

  int code() {
    return response.code();
  }

  String header(String name) {
    return response.header(name);
  }

  /** The whole body, for a watch answered with an error instead of a stream. */
  String body() throws IOException {
    return response.body().string();
  }

  /**
   * Reads the next event.
   *
   * @return the event, or null if the stream ended cleanly
   * @throws IOException if the connection broke or no event came within the read timeout
   */
  JsonObject next() throws IOException {
    java.io.InputStream in = response.body().byteStream();
    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != '\n') {
      if (b < 0) {
        if (line.size() == 0) {
          return null;
        }
        break;
      }
      line.write(b);
    }
    return JsonParser.parseString(line.toString(java.nio.charset.StandardCharsets.UTF_8))
        .getAsJsonObject();
  }

  static String type(JsonObject event) {
    return event.get("type").getAsString();
  }

  static String name(JsonObject event) {
    return event.getAsJsonObject("object").getAsJsonObject("metadata").get("name").getAsString();
  }

  static long rv(JsonObject event) {
    return Long.parseLong(
        event
            .getAsJsonObject("object")
            .getAsJsonObject("metadata")
            .get("resourceVersion")
            .getAsString());
  }

  /** Closes the connection, as a client that stops watching does. */
  @Override
  public void close() {
    call.cancel();
    response.close();
  }
}
