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
package dev.kubejobs.examples.bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.examples.bench.ScaleBenchmark.Cost;
import dev.kubejobs.testkit.RecordedRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The floor every benchmark here compares kubejobs with: the same LIST requests sent raw with
 * OkHttp, each page parsed with Gson. Not thread safe.
 */
final class Floor implements AutoCloseable {
  private final OkHttpClient http;
  private final HttpUrl base;

  Floor(String url) {
    this(url, new OkHttpClient());
  }

  /** A floor sending on a client of the caller's (for example one speaking HTTP/2). */
  Floor(String url, OkHttpClient http) {
    this.base = HttpUrl.get(url);
    this.http = http;
  }

  /** Fetches every list (all pages), one after another or one thread per list. */
  Cost fetch(List<RecordedRequest> firstPages, boolean parallel) {
    if (!parallel) {
      return ClientThreads.measure(
          () -> {
            for (RecordedRequest r : firstPages) {
              pages(r, null);
            }
          });
    }
    ExecutorService pool = Executors.newFixedThreadPool(firstPages.size());
    try {
      return ClientThreads.measure(
          () -> {
            List<Future<?>> all = new ArrayList<>();
            for (RecordedRequest r : firstPages) {
              all.add(pool.submit(() -> pages(r, null)));
            }
            for (Future<?> f : all) {
              try {
                f.get();
              } catch (Exception e) {
                throw new IllegalStateException("a floor LIST failed", e);
              }
            }
          });
    } finally {
      pool.shutdownNow();
    }
  }

  /** The JSON size of all items the lists return. */
  long jsonBytes(List<RecordedRequest> firstPages) {
    long[] bytes = {0};
    for (RecordedRequest r : firstPages) {
      pages(r, item -> bytes[0] += item.toString().length());
    }
    return bytes[0];
  }

  private int pages(RecordedRequest first, java.util.function.Consumer<JsonElement> each) {
    String token = null;
    int items = 0;
    do {
      HttpUrl.Builder url = base.newBuilder().encodedPath(first.path());
      for (String name : List.of("labelSelector", "limit")) {
        String value = first.queryParameter(name);
        if (value != null) {
          url.addQueryParameter(name, value);
        }
      }
      if (token != null) {
        url.addQueryParameter("continue", token);
      }
      Request request =
          new Request.Builder().url(url.build()).header("Accept", "application/json").build();
      try (Response response = http.newCall(request).execute()) {
        ResponseBody body = response.body();
        if (!response.isSuccessful() || body == null) {
          throw new IllegalStateException("the floor's LIST got " + response.code());
        }
        JsonObject page = JsonParser.parseReader(body.charStream()).getAsJsonObject();
        for (JsonElement item : page.getAsJsonArray("items")) {
          items++;
          if (each != null) {
            each.accept(item);
          }
        }
        JsonElement meta = page.get("metadata");
        JsonElement next = meta == null ? null : meta.getAsJsonObject().get("continue");
        token = next == null || next.isJsonNull() ? null : next.getAsString();
      } catch (IOException e) {
        throw new IllegalStateException("the floor's LIST failed", e);
      }
    } while (token != null && !token.isEmpty());
    return items;
  }

  @Override
  public void close() {
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }
}
