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

import static dev.kubejobs.testkit.Kube.NS;
import static dev.kubejobs.testkit.Kube.SPARK_APP;
import static dev.kubejobs.testkit.RawWatch.name;
import static dev.kubejobs.testkit.RawWatch.rv;
import static dev.kubejobs.testkit.RawWatch.type;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watches ({@code ?watch=true}): a chunked stream of events in resourceVersion order, as
 * kube-apiserver's {@code endpoints/handlers/watch.go} serves it and its watch cache ({@code
 * storage/cacher}) fills it.
 */
@Tag("slow")
class WatchTest {

  static final String APPS = "/apis/spark.apache.org/v1/namespaces/" + NS + "/sparkapplications";

  @RegisterExtension
  static final FakeKubernetesExtension kube =
      FakeKubernetesExtension.builder().resource(SPARK_APP).build();

  @AfterEach
  void noWatchOutlivesItsTest() {
    // each test closes its streams; the server then ends its side at once
    await().atMost(Duration.ofSeconds(5)).until(() -> kube.server().openWatches() == 0);
  }

  private static ResourceStore store() {
    return kube.server().store();
  }

  private static String current() {
    return ((InMemoryStore) store()).currentResourceVersion();
  }

  /**
   * The stream begins as {@code WatchServer.HandleHTTP} ({@code
   * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go}) begins it: 200, the JSON media
   * type as is, chunked, flushed; each event is flushed as it is written.
   */
  @Test
  void eventsArriveWhileTheStreamIsStillOpen() throws IOException {
    try (RawWatch watch =
        RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + current())) {
      assertThat(watch.code()).isEqualTo(200);
      assertThat(watch.header("Content-Type")).isEqualTo("application/json");
      assertThat(watch.header("Transfer-Encoding")).isEqualTo("chunked");

      store().create(SPARK_APP, NS, Kube.appJson("a"));
      JsonObject added = watch.next();

      assertThat(type(added)).isEqualTo("ADDED");
      assertThat(added.getAsJsonObject("object"))
          .isEqualTo(store().get(SPARK_APP, NS, "a").orElseThrow());
      assertThat(kube.server().openWatches()).isEqualTo(1);

      store().create(SPARK_APP, NS, Kube.appJson("b"));
      assertThat(name(watch.next())).isEqualTo("b");
    }
  }

  /**
   * Over HTTP/2 (cleartext, prior knowledge) every watch is a stream of one connection shared with
   * the client's other requests, as client-go and OkHttp multiplex them: each event is a DATA frame
   * of its own stream, and a LIST on the same connection is answered in between. (The HTTP/1 path
   * writes whole chunks to the connection; over HTTP/2 those bytes broke every stream on it.) A
   * watch the client stops is ended by the server at its next look at the stream.
   */
  @Test
  void watchesOverHttp2ShareTheirConnectionWithEachOtherAndWithLists() throws IOException {
    OkHttpClient h2 =
        new OkHttpClient.Builder()
            .protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE))
            .readTimeout(Duration.ofSeconds(10))
            .build();
    String from = "?watch=true&resourceVersion=" + current();
    try (RawWatch first = RawWatch.open(h2, kube.server(), APPS + from);
        RawWatch second = RawWatch.open(h2, kube.server(), APPS + from)) {
      assertThat(first.protocol()).isEqualTo(Protocol.H2_PRIOR_KNOWLEDGE);

      store().create(SPARK_APP, NS, Kube.appJson("a"));
      store().create(SPARK_APP, NS, Kube.appJson("b"));

      assertThat(name(first.next())).isEqualTo("a");
      assertThat(name(second.next())).isEqualTo("a");
      try (Response list =
          h2.newCall(new Request.Builder().url(kube.server().url() + APPS).build()).execute()) {
        assertThat(list.code()).isEqualTo(200);
        assertThat(list.body().string()).contains("\"name\":\"a\"", "\"name\":\"b\"");
      }
      assertThat(name(first.next())).isEqualTo("b");
      assertThat(name(second.next())).isEqualTo("b");
      assertThat(h2.connectionPool().connectionCount()).isEqualTo(1);
    }
  }

  /**
   * Without a starting point the current state comes first as ADDED events: the watch cache's
   * {@code getIntervalFromStoreLocked} for resourceVersion 0 ({@code
   * staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go}), the etcd3 watcher's initial
   * sync for none ({@code storage/etcd3/watcher.go}).
   */
  @Test
  void withoutOrWithResourceVersionZeroEveryCurrentObjectComesFirstAsAdded() throws IOException {
    store().create(SPARK_APP, NS, Kube.appJson("a"));
    store().create(SPARK_APP, NS, Kube.appJson("b"));
    for (String query : List.of("?watch=true", "?watch=1&resourceVersion=0")) {
      try (RawWatch watch = RawWatch.open(kube.server(), APPS + query)) {
        JsonObject first = watch.next();
        JsonObject second = watch.next();
        store().update(SPARK_APP, NS, "a", o -> label(o, "query", "q" + query.length()));
        JsonObject third = watch.next();

        assertThat(List.of(type(first), name(first), type(second), name(second)))
            .containsExactly("ADDED", "a", "ADDED", "b");
        assertThat(List.of(type(third), name(third))).containsExactly("MODIFIED", "a");
      }
    }
  }

  /**
   * Every write shows, in resourceVersion order: create ADDED, update/patch/status/finalizer
   * changes MODIFIED, a DELETE held by a finalizer MODIFIED with its deletionTimestamp, and the
   * removal DELETED with the last state and a resourceVersion of its own (etcd's delete revision).
   */
  @Test
  void everyWriteThroughTheApiShowsInResourceVersionOrder() throws Exception {
    ApiClient client = kube.client();
    try (RawWatch watch =
        RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + current())) {
      DynamicKubernetesObject app = Kube.app("a");
      app.getRaw().getAsJsonObject("metadata").add("finalizers", array("kubejobs.dev/hold"));
      Kube.apps(client).create(app).throwsApiException();
      Kube.apps(client)
          .patch(
              NS,
              "a",
              "application/merge-patch+json",
              new io.kubernetes.client.custom.V1Patch("{\"spec\":{\"sparkVersion\":\"4.0.1\"}}"))
          .throwsApiException();
      store().update(SPARK_APP, NS, "a", o -> withStatus(o, "RUNNING"));
      Kube.apps(client).delete(NS, "a").throwsApiException();
      store()
          .update(
              SPARK_APP,
              NS,
              "a",
              o -> {
                o.getAsJsonObject("metadata").remove("finalizers");
                return o;
              });

      List<JsonObject> events = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        events.add(watch.next());
      }

      assertThat(events)
          .extracting(RawWatch::type)
          .containsExactly("ADDED", "MODIFIED", "MODIFIED", "MODIFIED", "DELETED");
      assertThat(events).extracting(RawWatch::rv).isSorted().doesNotHaveDuplicates();
      assertThat(
              events
                  .get(3)
                  .getAsJsonObject("object")
                  .getAsJsonObject("metadata")
                  .has("deletionTimestamp"))
          .isTrue();
      assertThat(
              events
                  .get(2)
                  .getAsJsonObject("object")
                  .getAsJsonObject("status")
                  .get("state")
                  .getAsString())
          .isEqualTo("RUNNING");
      assertThat(
              events
                  .get(4)
                  .getAsJsonObject("object")
                  .getAsJsonObject("metadata")
                  .get("name")
                  .getAsString())
          .isEqualTo("a");
    }
  }

  /**
   * A removal has the delete's revision as its resourceVersion (etcd3 {@code store.go}'s {@code
   * conditionalDelete} decodes the deleted object at {@code deleteResp.Header.Revision}).
   */
  @Test
  void aRemovalGetsItsOwnResourceVersionSoAResumedWatchStillSeesIt() throws IOException {
    store().create(SPARK_APP, NS, Kube.appJson("a"));
    String lastState = current();
    store().delete(SPARK_APP, NS, "a");

    try (RawWatch watch =
        RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + lastState)) {
      JsonObject deleted = watch.next();

      assertThat(type(deleted)).isEqualTo("DELETED");
      assertThat(rv(deleted)).isEqualTo(Long.parseLong(lastState) + 1);
      assertThat(current()).isEqualTo(Long.toString(rv(deleted)));
    }
  }

  /**
   * A watch from a resourceVersion gets the changes after it, as the cacher's {@code
   * getAllEventsSinceLocked} binary search for the first event with a greater resourceVersion.
   */
  @Test
  void aWatchResumesWithTheChangesAfterTheGivenResourceVersion() throws IOException {
    store().create(SPARK_APP, NS, Kube.appJson("a"));
    String afterA = current();
    store().create(SPARK_APP, NS, Kube.appJson("b"));
    store().update(SPARK_APP, NS, "a", o -> label(o, "step", "1"));

    try (RawWatch watch =
        RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + afterA)) {
      JsonObject first = watch.next();
      JsonObject second = watch.next();

      assertThat(List.of(type(first), name(first), type(second), name(second)))
          .containsExactly("ADDED", "b", "MODIFIED", "a");
      assertThat(rv(first)).isEqualTo(Long.parseLong(afterA) + 1);
    }
  }

  /**
   * A resourceVersion older than the compacted history: 200, then one ERROR event carrying a {@code
   * Status} 410 {@code Expired}, and the end of the stream, as the cacher's {@code
   * newErrWatcher(errors.NewResourceExpired("too old resource version: X (Y)"))} does.
   */
  @Test
  void aResourceVersionOlderThanACompactionGetsOneExpiredErrorEventAndTheEnd() throws IOException {
    String before = current();
    store().create(SPARK_APP, NS, Kube.appJson("a"));
    kube.server().compact();

    try (RawWatch watch =
        RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + before)) {
      assertThat(watch.code()).isEqualTo(200);
      JsonObject error = watch.next();

      assertThat(type(error)).isEqualTo("ERROR");
      assertThat(error.getAsJsonObject("object"))
          .isEqualTo(
              Kube.json(
                  "{'kind':'Status','apiVersion':'v1','metadata':{},'status':'Failure',"
                      + "'message':'too old resource version: "
                      + before
                      + " ("
                      + current()
                      + ")','reason':'Expired','code':410}"));
      assertThat(watch.next()).isNull();
    }
    try (RawWatch watch =
        RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + current())) {
      store().create(SPARK_APP, NS, Kube.appJson("b"));
      assertThat(type(watch.next())).isEqualTo("ADDED");
    }
  }

  /**
   * The history is a window, as the watch cache's event buffer is: a resourceVersion whose next
   * change has left it is too old ({@code getAllEventsSinceLocked}, {@code resourceVersion <
   * oldest-1}).
   */
  @Test
  void aResourceVersionOlderThanTheHistoryWindowExpiresByTheServersClock() throws IOException {
    MutableClock clock = MutableClock.at(Instant.parse("2026-03-01T10:00:00Z"));
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.builder().clock(clock).build()) {
      server.registerResource(SPARK_APP).watchHistoryExpiresAfter(Duration.ofMinutes(2));
      String before = ((InMemoryStore) server.store()).currentResourceVersion();
      server.store().create(SPARK_APP, NS, Kube.appJson("a"));
      clock.advance(Duration.ofMinutes(1));
      server.store().create(SPARK_APP, NS, Kube.appJson("b"));
      clock.advance(Duration.ofSeconds(61));

      try (RawWatch watch = RawWatch.open(server, APPS + "?watch=true&resourceVersion=" + before)) {
        JsonObject error = watch.next();
        assertThat(type(error)).isEqualTo("ERROR");
        assertThat(error.getAsJsonObject("object").get("code").getAsInt()).isEqualTo(410);
      }
      String afterA = Long.toString(Long.parseLong(before) + 1);
      try (RawWatch watch = RawWatch.open(server, APPS + "?watch=true&resourceVersion=" + afterA)) {
        assertThat(name(watch.next())).isEqualTo("b");
      }
    }
  }

  /**
   * An open watch never skips a change. The real watch cache pushes each change into every
   * watcher's buffer when it happens and closes a watcher that cannot take it ({@code
   * cacheWatcher.add} calls {@code forget()}: "Forcing watcher close due to unresponsiveness"), so
   * the client learns it must resume. The fake's watches read from one shared history instead; when
   * the history forgets a change an open watch has not sent yet (here: by the time window, trimmed
   * when another watch starts after a clock jump), that watch must end the same way, not go on
   * after the gap. The test holds the history's lock so the stream cannot send "b" before it is
   * forgotten. Without the end, the stream sent "c" next and its client never learnt of "b".
   */
  @Test
  void anOpenWatchWhoseUnsentChangesWereForgottenEndsInsteadOfSkippingThem() throws IOException {
    MutableClock clock = MutableClock.at(Instant.parse("2026-03-01T10:00:00Z"));
    try (FakeKubernetesApiServer server = FakeKubernetesApiServer.builder().clock(clock).build()) {
      server.registerResource(SPARK_APP).watchHistoryExpiresAfter(Duration.ofMinutes(2));
      InMemoryStore store = (InMemoryStore) server.store();
      try (RawWatch watch =
          RawWatch.open(
              server, APPS + "?watch=true&resourceVersion=" + store.currentResourceVersion())) {
        store.create(SPARK_APP, NS, Kube.appJson("a"));
        JsonObject a = watch.next();
        assertThat(name(a)).isEqualTo("a");

        WatchHub hub = store.watchHub();
        synchronized (hub) {
          store.create(SPARK_APP, NS, Kube.appJson("b"));
          clock.advance(Duration.ofMinutes(3));
          // another watch starting now trims the history by the server's clock
          assertThat(hub.since(Long.parseLong(store.currentResourceVersion())).expired()).isFalse();
        }
        store.create(SPARK_APP, NS, Kube.appJson("c"));

        assertThat(watch.next()).as("the stream ends cleanly instead of sending c").isNull();
        try (RawWatch resumed =
            RawWatch.open(server, APPS + "?watch=true&resourceVersion=" + rv(a))) {
          JsonObject error = resumed.next();
          assertThat(type(error)).isEqualTo("ERROR");
          assertThat(error.getAsJsonObject("object").get("code").getAsInt()).isEqualTo(410);
        }
      }
    }
  }

  /**
   * A paused server holds watch events back in order while reads answer from the store: the lag of
   * a watch cache or connection behind etcd, which a client must survive (its watch may tell it of
   * a change after a read already showed a later state).
   */
  @Test
  void pausedWatchesHoldEventsInOrderUntilReleasedWhileReadsSeeTheStore() throws IOException {
    try (RawWatch watch =
        RawWatch.open(
            kube.server(),
            APPS + "?watch=true&allowWatchBookmarks=true&resourceVersion=" + current())) {
      kube.server().pauseWatches();
      try {
        store().create(SPARK_APP, NS, Kube.appJson("a"));
        String afterA = current();
        store().create(SPARK_APP, NS, Kube.appJson("b"));
        assertThat(store().get(SPARK_APP, NS, "b")).isPresent();

        kube.server().releaseWatchesUpTo(afterA);
        assertThat(name(watch.next())).isEqualTo("a");
        kube.server().sendWatchBookmarks();
        JsonObject bookmark = watch.next();
        assertThat(type(bookmark)).isEqualTo("BOOKMARK");
        assertThat(Long.toString(rv(bookmark))).isEqualTo(afterA);
      } finally {
        kube.server().resumeWatches();
      }
      assertThat(name(watch.next())).isEqualTo("b");
    }
  }

  /**
   * A change that makes an object stop or start matching the label selector shows as DELETED or
   * ADDED for that watch ({@code cacheWatcher.convertToWatchEvent}); a DELETED of this kind carries
   * the previous state with the change's resourceVersion.
   */
  @Test
  void aLabelChangeAcrossTheSelectorShowsAsDeletedAndAdded() throws IOException {
    store().create(SPARK_APP, NS, label(Kube.appJson("a"), "tier", "batch"));
    store().create(SPARK_APP, NS, label(Kube.appJson("b"), "tier", "stream"));
    try (RawWatch watch =
        RawWatch.open(kube.server(), APPS + "?watch=true&labelSelector=tier%3Dbatch")) {
      JsonObject initial = watch.next();
      store().update(SPARK_APP, NS, "a", o -> label(o, "tier", "stream"));
      JsonObject left = watch.next();
      String leftAt = current();
      store().update(SPARK_APP, NS, "b", o -> label(o, "tier", "batch"));
      JsonObject joined = watch.next();

      assertThat(List.of(type(initial), name(initial))).containsExactly("ADDED", "a");
      assertThat(List.of(type(left), name(left))).containsExactly("DELETED", "a");
      assertThat(labelOf(left, "tier")).isEqualTo("batch");
      assertThat(Long.toString(rv(left))).isEqualTo(leftAt);
      assertThat(List.of(type(joined), name(joined))).containsExactly("ADDED", "b");
    }
  }

  @Test
  void aFieldSelectorOnTheNameWatchesOneObject() throws IOException {
    try (RawWatch watch =
        RawWatch.open(
            kube.server(),
            APPS
                + "?watch=true&resourceVersion="
                + current()
                + "&fieldSelector=metadata.name%3Db")) {
      store().create(SPARK_APP, NS, Kube.appJson("a"));
      store().create(SPARK_APP, NS, Kube.appJson("b"));

      assertThat(name(watch.next())).isEqualTo("b");
    }
  }

  @Test
  void aNamespacedWatchSeesItsNamespaceAndAClusterWideOneSeesAll() throws IOException {
    String from = current();
    try (RawWatch inNs =
            RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + from);
        RawWatch all =
            RawWatch.open(
                kube.server(),
                "/apis/spark.apache.org/v1/sparkapplications?watch=true&resourceVersion=" + from)) {
      store().create(SPARK_APP, "other", Kube.appJson("elsewhere"));
      store().create(SPARK_APP, NS, Kube.appJson("here"));

      assertThat(name(inNs.next())).isEqualTo("here");
      assertThat(name(all.next())).isEqualTo("elsewhere");
      assertThat(name(all.next())).isEqualTo("here");
    }
  }

  @Test
  void podsAreWatchedOnTheCorePath() throws IOException {
    try (RawWatch watch =
        RawWatch.open(
            kube.server(),
            "/api/v1/namespaces/" + NS + "/pods?watch=true&resourceVersion=" + current())) {
      store()
          .create(
              ResourceType.POD,
              NS,
              Kube.json("{'metadata':{'name':'driver'},'spec':{'containers':[{'name':'c'}]}}"));

      JsonObject added = watch.next();
      assertThat(type(added)).isEqualTo("ADDED");
      assertThat(added.getAsJsonObject("object").get("kind").getAsString()).isEqualTo("Pod");
    }
  }

  /**
   * {@code timeoutSeconds} ends the stream cleanly: {@code HandleHTTP} returns on its {@code
   * timeoutCh} and the chunked body gets its last chunk.
   */
  @Test
  void timeoutSecondsEndsTheStreamCleanly() throws IOException {
    try (RawWatch watch =
        RawWatch.open(
            kube.server(), APPS + "?watch=true&timeoutSeconds=1&resourceVersion=" + current())) {
      long start = System.nanoTime();

      assertThat(watch.next()).isNull();
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isBetween(Duration.ofMillis(900), Duration.ofSeconds(5));
    }
  }

  /**
   * A BOOKMARK carries only kind, apiVersion and metadata.resourceVersion (the cacher's bookmark
   * event is an empty object of the kind with its resourceVersion set; the {@code
   * k8s.io/initial-events-end} annotation only comes with {@code sendInitialEvents}), and only to
   * watches that asked for them ({@code c.bookmarkWatchers} holds those with {@code
   * allowWatchBookmarks}).
   */
  @Test
  void bookmarksGoOnlyToWatchesThatAllowThemAndCarryOnlyTheResourceVersion() throws IOException {
    String from = current();
    try (RawWatch withBookmarks =
            RawWatch.open(
                kube.server(),
                APPS + "?watch=true&allowWatchBookmarks=true&resourceVersion=" + from);
        RawWatch without =
            RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + from)) {
      await().until(() -> kube.server().openWatches() == 2);
      store().create(SPARK_APP, NS, Kube.appJson("a"));
      assertThat(type(withBookmarks.next())).isEqualTo("ADDED");

      kube.server().sendWatchBookmarks();
      JsonObject bookmark = withBookmarks.next();
      store().create(SPARK_APP, NS, Kube.appJson("b"));

      assertThat(bookmark)
          .isEqualTo(
              Kube.json(
                  "{'type':'BOOKMARK','object':{'kind':'SparkApplication',"
                      + "'apiVersion':'spark.apache.org/v1','metadata':{'resourceVersion':'"
                      + (Long.parseLong(from) + 1)
                      + "'}}}"));
      assertThat(List.of(type(without.next()), type(without.next())))
          .containsExactly("ADDED", "ADDED");
    }
  }

  @Test
  void bookmarksAlsoComeAtTheConfiguredInterval() throws IOException {
    kube.server().watchBookmarkInterval(Duration.ofMillis(200));
    try (RawWatch watch =
        RawWatch.open(
            kube.server(),
            APPS + "?watch=true&allowWatchBookmarks=true&resourceVersion=" + current())) {
      assertThat(type(watch.next())).isEqualTo("BOOKMARK");
      assertThat(type(watch.next())).isEqualTo("BOOKMARK");
    }
  }

  @Test
  void aDropFaultClosesTheConnectionAfterItsEvents() throws IOException {
    store().create(SPARK_APP, NS, Kube.appJson("a"));
    store().create(SPARK_APP, NS, Kube.appJson("b"));
    kube.server().faults().add(Fault.on("WATCH", APPS).dropWatchAfter(1));

    try (RawWatch watch = RawWatch.open(kube.server(), APPS + "?watch=true")) {
      assertThat(name(watch.next())).isEqualTo("a");
      assertThatThrownBy(watch::next).isInstanceOf(IOException.class);
    }
    try (RawWatch again = RawWatch.open(kube.server(), APPS + "?watch=true")) {
      assertThat(name(again.next())).isEqualTo("a");
      assertThat(name(again.next())).isEqualTo("b");
    }
  }

  @Test
  void aFaultOnWatchAnswersInsteadOfTheStreamAndAGetFaultLeavesWatchesAlone() throws IOException {
    kube.server()
        .faults()
        .add(Fault.on("GET", APPS).forever().status(500, "InternalError", "list"));
    kube.server().faults().add(Fault.on("WATCH", APPS).status(503, "ServiceUnavailable", "busy"));

    try (RawWatch watch = RawWatch.open(kube.server(), APPS + "?watch=true")) {
      assertThat(watch.code()).isEqualTo(503);
      assertThat(watch.body()).contains("\"reason\":\"ServiceUnavailable\"");
    }
    try (RawWatch watch =
        RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + current())) {
      assertThat(watch.code()).isEqualTo(200);
    }
  }

  @Test
  void rbacChecksTheWatchVerb() throws IOException {
    kube.server().rbac().deny("watch", "spark.apache.org", "sparkapplications");

    try (RawWatch watch = RawWatch.open(kube.server(), APPS + "?watch=true")) {
      assertThat(watch.code()).isEqualTo(403);
      assertThat(watch.body())
          .contains("cannot watch resource \\\"sparkapplications\\\" in API group");
    }
    assertThat(Kube.apps(kube.client()).list(NS).getHttpStatusCode()).isEqualTo(200);
  }

  @Test
  void theJournalRecordsTheWatch() throws IOException {
    try (RawWatch watch = RawWatch.open(kube.server(), APPS + "?watch=true&timeoutSeconds=30")) {
      assertThat(watch.code()).isEqualTo(200);
    }

    assertThat(kube.server().journal().requests("GET", APPS))
        .singleElement()
        .satisfies(r -> assertThat(r.query()).isEqualTo("watch=true&timeoutSeconds=30"));
  }

  @Test
  void sendInitialEventsIsRefusedWith400() throws IOException {
    try (RawWatch watch =
        RawWatch.open(
            kube.server(),
            APPS
                + "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
                + "&allowWatchBookmarks=true")) {
      assertThat(watch.code()).isEqualTo(400);
      assertThat(watch.body()).contains("sendInitialEvents");
    }
  }

  /**
   * A resourceVersion that does not parse fails before the stream (the storage versioner's {@code
   * ParseResourceVersion} error is returned, not sent as an ERROR event).
   */
  @Test
  void aResourceVersionThatIsNotANumberIsRefusedWith400() throws IOException {
    try (RawWatch watch = RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=abc")) {
      assertThat(watch.code()).isEqualTo(400);
      assertThat(watch.body()).contains("invalid resource version: abc");
    }
  }

  /**
   * A future resourceVersion: the watch cache waits 3 s for it ({@code waitUntilFreshAndBlock},
   * {@code blockTimeout}), then the cacher answers {@code NewTooLargeResourceVersionError} as an
   * ERROR event.
   */
  @Test
  void aFutureResourceVersionGetsATooLargeErrorEventAfterThreeSeconds() throws IOException {
    long future = Long.parseLong(current()) + 100;
    try (RawWatch watch =
        RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + future)) {
      JsonObject error = watch.next();

      assertThat(type(error)).isEqualTo("ERROR");
      assertThat(error.getAsJsonObject("object").get("code").getAsInt()).isEqualTo(504);
      assertThat(error.getAsJsonObject("object").get("message").getAsString())
          .isEqualTo("Too large resource version: " + future + ", current: " + current());
      assertThat(watch.next()).isNull();
    }
  }

  @Test
  void clientJavasWatchReadsTheEvents() throws Exception {
    ListOptions options = new ListOptions();
    options.setResourceVersion(current());
    options.setTimeoutSeconds(30);
    try (Watchable<DynamicKubernetesObject> watch = Kube.apps(kube.client()).watch(NS, options)) {
      store().create(SPARK_APP, NS, Kube.appJson("a"));
      store().delete(SPARK_APP, NS, "a");

      io.kubernetes.client.util.Watch.Response<DynamicKubernetesObject> added = watch.next();
      io.kubernetes.client.util.Watch.Response<DynamicKubernetesObject> deleted = watch.next();

      assertThat(added.type).isEqualTo("ADDED");
      assertThat(added.object.getMetadata().getName()).isEqualTo("a");
      assertThat(deleted.type).isEqualTo("DELETED");
    }
  }

  @Test
  void closingTheServerEndsItsWatchesPromptly() throws IOException {
    FakeKubernetesApiServer server = FakeKubernetesApiServer.start();
    server.registerResource(SPARK_APP);
    try (RawWatch watch = RawWatch.open(server, APPS + "?watch=true")) {
      await().until(() -> server.openWatches() == 1);
      long start = System.nanoTime();

      server.close();

      assertThat(server.openWatches()).isZero();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      assertThat(watch.next()).isNull();
    }
  }

  @Test
  void resetEndsOpenWatches() throws IOException {
    try (RawWatch watch = RawWatch.open(kube.server(), APPS + "?watch=true")) {
      await().until(() -> kube.server().openWatches() == 1);

      kube.server().reset();

      assertThat(watch.next()).isNull();
    }
  }

  private static JsonObject label(JsonObject o, String key, String value) {
    JsonObject meta = o.getAsJsonObject("metadata");
    if (!meta.has("labels")) {
      meta.add("labels", new JsonObject());
    }
    meta.getAsJsonObject("labels").addProperty(key, value);
    return o;
  }

  private static String labelOf(JsonObject event, String key) {
    return event
        .getAsJsonObject("object")
        .getAsJsonObject("metadata")
        .getAsJsonObject("labels")
        .get(key)
        .getAsString();
  }

  private static JsonObject withStatus(JsonObject o, String state) {
    JsonObject status = new JsonObject();
    status.addProperty("state", state);
    o.add("status", status);
    return o;
  }

  private static JsonArray array(String value) {
    JsonArray a = new JsonArray();
    a.add(value);
    return a;
  }

  /**
   * A watch whose client hung up ends at the server's next hang-up check. kube-apiserver ends it at
   * once: {@code WatchServer.HandleHTTP} returns on {@code req.Context().Done()}, {@code HandleWS}
   * when {@code wsstream.IgnoreReceives} sees the connection close ({@code
   * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go}, kubernetes/kubernetes at
   * 034debc18008c8ebfe1971d7d402dcf2b50b84c2); the fake learns it by a non-blocking read every
   * {@code hangUpCheck}. With a one-minute check the hung-up watch is still counted after the quick
   * server has ended its own.
   */
  @Test
  void aWatchWhoseClientHungUpEndsAtTheNextHangUpCheck() throws IOException {
    try (FakeKubernetesApiServer slow =
            FakeKubernetesApiServer.builder().hangUpCheck(Duration.ofMinutes(1)).build();
        FakeKubernetesApiServer quick =
            FakeKubernetesApiServer.builder().hangUpCheck(Duration.ofMillis(10)).build()) {
      slow.registerResource(SPARK_APP);
      quick.registerResource(SPARK_APP);

      RawWatch.open(slow, APPS + "?watch=true").close();
      RawWatch.open(quick, APPS + "?watch=true").close();

      await().atMost(Duration.ofSeconds(5)).until(() -> quick.openWatches() == 0);
      assertThat(slow.openWatches()).isEqualTo(1);
    }
  }

  /**
   * A watch is not an idle connection: kube-apiserver's {@code IdleTimeout} applies between
   * requests only (Go's {@code http.Server.IdleTimeout}, {@code
   * k8s.io/apiserver/pkg/server/secure_serving.go}), so a watch with nothing to send for longer
   * stays open and gets the next change.
   */
  @Test
  void aWatchWithNothingToSendOutlivesTheIdleTimeout() throws IOException {
    try (FakeKubernetesApiServer server =
        FakeKubernetesApiServer.builder().idleTimeout(Duration.ofMillis(200)).build()) {
      server.registerResource(SPARK_APP);
      try (RawWatch watch = RawWatch.open(server, APPS + "?watch=true")) {
        await()
            .during(Duration.ofMillis(800))
            .atMost(Duration.ofSeconds(5))
            .until(() -> server.openWatches() == 1);

        server.store().create(SPARK_APP, NS, Kube.appJson("late"));

        assertThat(name(watch.next())).isEqualTo("late");
      }
    }
  }

  /**
   * A client that reads nothing holds back its own watch only: every watch is written without
   * blocking, so the other watches get every change while its unread events wait in the connection
   * (here about 4 MB, more than the socket buffers hold).
   */
  @Test
  void aClientThatReadsNothingHoldsBackOnlyItsOwnWatch() throws IOException {
    String from = current();
    try (java.net.Socket stuck = new java.net.Socket()) {
      stuck.setReceiveBufferSize(4096);
      stuck.connect(new java.net.InetSocketAddress("127.0.0.1", kube.server().port()));
      stuck
          .getOutputStream()
          .write(
              ("GET "
                      + APPS
                      + "?watch=true&resourceVersion="
                      + from
                      + " HTTP/1.1\r\n"
                      + "Host: localhost\r\n\r\n")
                  .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      await().atMost(Duration.ofSeconds(5)).until(() -> kube.server().openWatches() == 1);
      try (RawWatch reader =
          RawWatch.open(kube.server(), APPS + "?watch=true&resourceVersion=" + from)) {
        String padding = "x".repeat(16 * 1024);
        for (int i = 0; i < 250; i++) {
          JsonObject app = Kube.appJson("big-" + i);
          app.getAsJsonObject("spec").addProperty("padding", padding);
          store().create(SPARK_APP, NS, app);
        }

        for (int i = 0; i < 250; i++) {
          assertThat(name(reader.next())).isEqualTo("big-" + i);
        }
        assertThat(kube.server().openWatches()).isEqualTo(2);
      }
    }
  }

  /** The hang-up check is between 1 millisecond and 1 minute; the error names the value. */
  @Test
  void aHangUpCheckOutOfRangeIsRefusedNamingTheValue() {
    assertThatThrownBy(() -> FakeKubernetesApiServer.builder().hangUpCheck(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hangUpCheck must be between 1 millisecond and 1 minute, but was PT0S");
    assertThatThrownBy(() -> FakeKubernetesApiServer.builder().hangUpCheck(Duration.ofMinutes(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT2M");
  }

  /**
   * Each event is one whole chunk on the wire, its closing CRLF included, as soon as it is sent:
   * kube-apiserver's {@code HandleHTTP} flushes each event through Go's chunked writer, which
   * writes size, data and CRLF together ({@code chunkedWriter.Write}, golang/go {@code
   * src/net/http/internal/chunked.go}). A client that reads the CRLF before handing a chunk on, as
   * the Python client's urllib3 does, would otherwise see an event only when the next one comes.
   */
  @Test
  void eachEventIsAWholeChunkOnTheWireAtOnce() throws IOException {
    store().create(SPARK_APP, NS, Kube.appJson("pi"));
    java.net.URI url = java.net.URI.create(kube.server().url());
    try (java.net.Socket socket = new java.net.Socket(url.getHost(), url.getPort())) {
      socket.setSoTimeout(10_000);
      socket
          .getOutputStream()
          .write(
              ("GET " + APPS + "?watch=1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
                  .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      java.io.InputStream in = socket.getInputStream();
      StringBuilder received = new StringBuilder();
      // the head, then the chunk of the ADDED event: read until its closing CRLF has come
      while (!received.toString().matches("(?s).*\r\n\r\n[0-9a-f]+\r\n\\{.*\\}\n\r\n")) {
        int b = in.read();
        assertThat(b).as("bytes so far: %s", received).isNotNegative();
        received.append((char) b);
      }
      String chunk = received.substring(received.indexOf("\r\n\r\n") + 4);
      String size = chunk.substring(0, chunk.indexOf("\r\n"));
      String data = chunk.substring(size.length() + 2, chunk.length() - 2);
      assertThat(Integer.parseInt(size, 16)).isEqualTo(data.length());
      assertThat(data).startsWith("{\"type\":\"ADDED\"").endsWith("}\n");
    }
  }
}
