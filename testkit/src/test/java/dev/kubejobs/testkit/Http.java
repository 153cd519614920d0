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
  record Answer(
      int code,
      String contentType,
      String body,
      String retryAfter,
      java.util.List<String> warnings) {
    com.google.gson.JsonObject json() {
      return com.google.gson.JsonParser.parseString(body).getAsJsonObject();
    }
  }

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
          r.code(),
          r.header("Content-Type"),
          r.body().string(),
          r.header("Retry-After"),
          r.headers("Warning"));
    }
  }
}
