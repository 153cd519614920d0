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

import com.google.gson.JsonElement;
import com.google.gson.JsonIOException;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.ResourceKind;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.core.resilience.ApiCallFailure;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackInputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one class of kubejobs that talks to the Kubernetes API server. Everything else works on
 * {@link ResourceSnapshot}s.
 *
 * <p><b>How it talks.</b> Requests are built by the caller's own {@link ApiClient} ({@code
 * buildRequest}: its base path, authentication and default headers) and sent with an {@link
 * OkHttpClient} derived from the caller's ({@code newBuilder()}: same TLS, interceptors and token
 * refresh) with {@code retryOnConnectionFailure(false)}, so that OkHttp never silently re-sends a
 * POST, PATCH or DELETE (a GET that failed on a pooled connection the server closed while idle is
 * sent again, see {@link StaleConnectionRetry}), and with read/write timeouts (client-java's
 * default read timeout is infinite). The caller's {@code ApiClient} is never modified. Bodies are
 * raw JSON both ways: the generic API of client-java reports every 2xx as 200, hides {@code
 * Retry-After}, fails on non-JSON answers with untyped errors, and its typed models serialize empty
 * collections into patches.
 *
 * <p><b>How it fails.</b> Every request runs under the {@link ResiliencePolicy}. No answer (connect
 * failure, reset, timeout, empty answer), 5xx and 429 are {@link ApiCallFailure}s, retried by the
 * policy (except creates) and turned into {@link ApiUnavailableException} when it gives up; a
 * non-JSON answer (a proxy's HTML page) is an {@link ApiUnavailableException} saying so; 403 is
 * {@link JobRejectedException.Reason#FORBIDDEN} naming the permission; a 404 that names no object
 * ({@code the server could not find the requested resource}) is {@link
 * JobRejectedException.Reason#CRD_NOT_INSTALLED}; 400/422 are {@link
 * JobRejectedException.Reason#INVALID}; a 404 naming the object and 409 are returned as values or
 * thrown as {@link ApiStatusException}, as each method documents, for its caller to interpret.
 *
 * <p>Not a published API: used by the operations in {@code dev.kubejobs.core} packages (submit,
 * status, cancel, sweep, logs, preflight). Thread safe.
 */
public final class KubeGateway {
  private static final Logger LOG = LoggerFactory.getLogger(KubeGateway.class);
  private static final String[] AUTH_NAMES = {"BearerToken"};
  private static final String JSON = "application/json";
  private static final String MERGE_PATCH = "application/merge-patch+json";
  private static final int LIST_PAGE_SIZE = 500;
  private static final String CRD_MISSING_MESSAGE = "the server could not find the requested";

  /** Go's {@code http.NotFound} body, which the API server answers for a path nothing serves. */
  private static final String PAGE_NOT_FOUND = "404 page not found";

  /** How many times a paged list restarts after its continue token expired (410). */
  private static final int LIST_RESTARTS = 3;

  private final ApiClient client;
  private final OkHttpClient http;
  private final ResiliencePolicy policy;
  private final Clock clock;

  private KubeGateway(ApiClient client, OkHttpClient http, ResiliencePolicy policy, Clock clock) {
    this.client = client;
    this.http = http;
    this.policy = policy;
    this.clock = clock;
  }

  /**
   * Returns a gateway over the caller's client.
   *
   * @param client the caller's client; read, never modified
   * @param requestTimeout the read and write timeout of each request (and the connect timeout when
   *     the caller's client has none)
   * @param policy the resilience policy every request runs under
   * @return the gateway
   */
  public static KubeGateway create(
      ApiClient client, Duration requestTimeout, ResiliencePolicy policy) {
    return create(client, requestTimeout, policy, Clock.systemUTC());
  }

  /**
   * Returns a gateway over the caller's client with a clock, which turns a {@code Retry-After}
   * given as an HTTP date into a wait.
   *
   * @param client the caller's client; read, never modified
   * @param requestTimeout the read and write timeout of each request (and the connect timeout when
   *     the caller's client has none)
   * @param policy the resilience policy every request runs under
   * @param clock the clock
   * @return the gateway
   */
  public static KubeGateway create(
      ApiClient client, Duration requestTimeout, ResiliencePolicy policy, Clock clock) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(policy, "policy");
    OkHttpClient original = client.getHttpClient();
    StaleConnectionRetry stale = new StaleConnectionRetry();
    OkHttpClient.Builder derived =
        original
            .newBuilder()
            .retryOnConnectionFailure(false)
            .addInterceptor(stale.resender())
            .addNetworkInterceptor(stale.connectionWatcher())
            .readTimeout(requestTimeout)
            .writeTimeout(requestTimeout);
    if (original.connectTimeoutMillis() == 0) {
      derived.connectTimeout(requestTimeout);
    }
    return new KubeGateway(client, derived.build(), policy, clock);
  }

  /**
   * Returns the policy requests run under.
   *
   * @return the policy
   */
  public ResiliencePolicy policy() {
    return policy;
  }

  // ---------------------------------------------------------------- objects (custom resources,
  // pods)

  /**
   * Reads one object fresh from the API server (retried).
   *
   * @param about the job concerned, for errors, or null
   * @param kind the resource kind
   * @param namespace the namespace
   * @param name the name
   * @return the object, or empty when the server says it does not exist (404 naming it)
   * @throws ApiUnavailableException when the server cannot be reached or answers garbage
   * @throws JobRejectedException when forbidden (403) or the kind is not served (CRD missing)
   */
  public Optional<ResourceSnapshot> get(
      ExecutionId about, ResourceKind kind, String namespace, String name) {
    String op = "get " + kind.qualifiedPlural() + " " + namespace + "/" + name;
    try {
      JsonObject json =
          call(about, op, true, "GET", objectPath(kind, namespace, name), List.of(), null, null)
              .json;
      return Optional.of(snapshot(about, op, json));
    } catch (ApiStatusException e) {
      if (e.isNotFound() && !isCrdMissing(e)) {
        return Optional.empty();
      }
      throw rejected(about, op, e, "get", kind, namespace);
    }
  }

  /**
   * Lists the objects matching a label selector in one namespace (retried, paged).
   *
   * @param about the job concerned, for errors, or null
   * @param kind the resource kind
   * @param namespace the namespace
   * @param labelSelector the selector, for example {@code app.kubernetes.io/managed-by=kubejobs};
   *     null or empty lists all
   * @return the objects, in the server's order
   * @throws ApiUnavailableException when the server cannot be reached or answers garbage
   * @throws JobRejectedException when forbidden (403) or the kind is not served (CRD missing)
   */
  public List<ResourceSnapshot> list(
      ExecutionId about, ResourceKind kind, String namespace, String labelSelector) {
    return listWithVersion(about, kind, namespace, labelSelector).items();
  }

  /**
   * Lists the objects matching a label selector in one namespace, as {@link #list} does (retried,
   * paged, restarted when a continue token expired), and returns the list's resourceVersion with
   * them: the point from which a {@link #watch} sees every later change.
   *
   * @param about the job concerned, for errors, or null
   * @param kind the resource kind
   * @param namespace the namespace
   * @param labelSelector the selector; null or empty lists all
   * @return the objects, in the server's order, and the {@code metadata.resourceVersion} of the
   *     last page
   * @throws ApiUnavailableException when the server cannot be reached or answers garbage
   * @throws JobRejectedException when forbidden (403) or the kind is not served (CRD missing)
   */
  public ListResult listWithVersion(
      ExecutionId about, ResourceKind kind, String namespace, String labelSelector) {
    // Keyed by namespace and name: a page read again after a failed attempt replaces its items.
    Map<String, ResourceSnapshot> out = new LinkedHashMap<>();
    String resourceVersion =
        listEach(
            about,
            kind,
            namespace,
            labelSelector,
            FieldProjection.WHOLE,
            new ListSink() {
              @Override
              public void item(ResourceSnapshot object) {
                out.put(object.namespace() + "/" + object.name(), object);
              }

              @Override
              public void restart() {
                out.clear();
              }
            });
    return new ListResult(new ArrayList<>(out.values()), resourceVersion);
  }

  /**
   * Receives a list's objects one at a time, as each is parsed from the answer: a reader that maps
   * each object while it is still in the processor's cache pays far less than one that walks a
   * whole page of parsed trees afterwards.
   */
  public interface ListSink {
    /**
     * Takes one object. A page read again (after a failed attempt) brings its objects again.
     *
     * @param object the object, owned by the sink
     */
    void item(ResourceSnapshot object);

    /**
     * Looks at an object's {@code metadata} before the rest of it is read: false skips the rest
     * unbuilt, and {@link #item} is not called for that object (the sink holds this very copy
     * already, or does not want it). A page read again asks again. A real server writes {@code
     * metadata} before {@code spec} and {@code status}, so most of the object is still unread when
     * this is asked. Not asked for an object without a {@code metadata} object (read whole, and
     * refused as garbage).
     *
     * @param metadata the object's metadata, as the projection keeps it
     * @return whether to read the rest of the object and hand it to {@link #item}
     */
    default boolean wants(JsonObject metadata) {
      return true;
    }

    /** The list starts again from its first page (its continue token expired): forget all. */
    default void restart() {}
  }

  /**
   * Lists the objects matching a label selector in one namespace as {@link #listWithVersion} does
   * (retried, paged, restarted when a continue token expired), handing each object to {@code sink}
   * as soon as it is parsed.
   *
   * @param about the job concerned, for errors, or null
   * @param kind the resource kind
   * @param namespace the namespace
   * @param labelSelector the selector; null or empty lists all
   * @param projection what of each object to keep; the rest is skipped unbuilt
   * @param sink receives the objects, in the server's order
   * @return the {@code metadata.resourceVersion} of the last page, empty when it had none
   * @throws ApiUnavailableException when the server cannot be reached or answers garbage
   * @throws JobRejectedException when forbidden (403) or the kind is not served (CRD missing)
   */
  public String listEach(
      ExecutionId about,
      ResourceKind kind,
      String namespace,
      String labelSelector,
      FieldProjection projection,
      ListSink sink) {
    String op =
        "list "
            + kind.qualifiedPlural()
            + " in namespace "
            + namespace
            + (labelSelector == null || labelSelector.isEmpty() ? "" : " with " + labelSelector);
    String continueToken = null;
    int restarts = 0;
    while (true) {
      List<Pair> query = new ArrayList<>();
      if (labelSelector != null && !labelSelector.isEmpty()) {
        query.add(new Pair("labelSelector", labelSelector));
      }
      query.add(new Pair("limit", Integer.toString(LIST_PAGE_SIZE)));
      if (continueToken != null) {
        query.add(new Pair("continue", continueToken));
      }
      PageEnd end;
      try {
        end =
            call(
                about,
                op,
                true,
                "GET",
                collectionPath(kind, namespace),
                query,
                null,
                null,
                (response, body) -> readPage(about, op, response, body, projection, sink));
      } catch (ApiStatusException e) {
        if (e.code() == 410 && continueToken != null && restarts < LIST_RESTARTS) {
          // The continue token outlived the server's compaction window (410 Expired): the pages
          // read so far belong to a snapshot that is gone, so read the whole list again.
          restarts++;
          LOG.debug("'{}' restarts from the first page: its continue token expired (410)", op);
          sink.restart();
          continueToken = null;
          continue;
        }
        throw rejected(about, op, e, "list", kind, namespace);
      }
      continueToken = end.continueToken();
      if (continueToken == null || continueToken.isEmpty()) {
        return orEmpty(end.resourceVersion());
      }
    }
  }

  /** What a list page ends with: its continue token and resourceVersion, each null when absent. */
  private record PageEnd(String continueToken, String resourceVersion) {}

  /**
   * Reads one list page from the answer's stream, handing each item to the sink as soon as it is
   * parsed; the page's other fields are skipped, but {@code metadata}.
   */
  private static PageEnd readPage(
      ExecutionId about,
      String op,
      Response response,
      ResponseBody body,
      FieldProjection projection,
      ListSink sink)
      throws IOException {
    Parsed<PageEnd> page =
        readObject(body, reader -> pageFields(about, op, reader, projection, sink));
    if (page.value() == null) {
      throw nonJson(about, op, response, page.bytes());
    }
    return page.value();
  }

  private static PageEnd pageFields(
      ExecutionId about, String op, JsonReader reader, FieldProjection projection, ListSink sink)
      throws IOException {
    JsonObject listMeta = null;
    reader.beginObject();
    while (reader.hasNext()) {
      String field = reader.nextName();
      if (field.equals("items") && reader.peek() == JsonToken.BEGIN_ARRAY) {
        reader.beginArray();
        while (reader.hasNext()) {
          if (reader.peek() != JsonToken.BEGIN_OBJECT) {
            throw garbage(about, op, "a list item that is not an object");
          }
          JsonObject item = projection.read(reader, sink::wants);
          if (item != null) {
            sink.item(snapshot(about, op, item));
          }
        }
        reader.endArray();
      } else if (field.equals("items") && reader.peek() != JsonToken.NULL) {
        throw garbage(about, op, "'items' that is not an array");
      } else if (field.equals("metadata") && reader.peek() == JsonToken.BEGIN_OBJECT) {
        listMeta = JsonParser.parseReader(reader).getAsJsonObject();
      } else {
        reader.skipValue();
      }
    }
    reader.endObject();
    return new PageEnd(string(listMeta, "continue"), string(listMeta, "resourceVersion"));
  }

  // ---------------------------------------------------------------- watches

  /**
   * Watches the objects matching a label selector in one namespace: sends {@code GET
   * <collection>?watch=true&resourceVersion=..&allowWatchBookmarks=true&timeoutSeconds=..
   * &labelSelector=..} and hands each event of the newline-delimited JSON stream to {@code handler}
   * as it arrives, on the calling thread, until the stream ends.
   *
   * <p>Opening runs under the {@link ResiliencePolicy} as one non-retryable request (an open
   * circuit refuses it; the caller backs off and opens again, as client-go's reflector does); the
   * streaming itself is never retried. The request goes out on a client derived from the gateway's
   * with no read timeout and no call timeout: a watch may be quiet for minutes. {@code
   * serverTimeout} asks the server to end the stream cleanly after that long; a connection that
   * went silent is the caller's to end, through the {@link WatchCall} that {@link
   * WatchHandler#starting(WatchCall)} receives.
   *
   * @param kind the resource kind
   * @param namespace the namespace
   * @param labelSelector the selector; null or empty watches all
   * @param resourceVersion where to start: the changes after it follow; null or empty makes the
   *     server send every current object as ADDED first
   * @param serverTimeout the server's {@code timeoutSeconds}, at least one second
   * @param allowBookmarks whether to ask for BOOKMARK events ({@code allowWatchBookmarks})
   * @param handler receives the handle, the opening and the events
   * @throws ApiStatusException 410 when the server answers the request itself with 410 (a
   *     resourceVersion that is too old, where a server does not send it as an ERROR event): list
   *     again
   * @throws ApiUnavailableException when the server cannot be reached, the circuit is open, the
   *     answer is 5xx/429 or garbage, the stream broke off, or the call was canceled ({@link
   *     WatchCall#isCanceled()} tells)
   * @throws JobRejectedException {@link JobRejectedException.Reason#FORBIDDEN} when {@code watch}
   *     is not permitted, {@link JobRejectedException.Reason#CRD_NOT_INSTALLED} when the kind is
   *     not served, {@link JobRejectedException.Reason#INVALID} for another refusal
   */
  public void watch(
      ResourceKind kind,
      String namespace,
      String labelSelector,
      String resourceVersion,
      Duration serverTimeout,
      boolean allowBookmarks,
      WatchHandler handler) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(serverTimeout, "serverTimeout");
    Objects.requireNonNull(handler, "handler");
    if (serverTimeout.getSeconds() < 1) {
      throw new IllegalArgumentException(
          "serverTimeout must be at least 1 second (timeoutSeconds counts whole seconds), but was "
              + serverTimeout);
    }
    boolean selected = labelSelector != null && !labelSelector.isEmpty();
    boolean fromVersion = resourceVersion != null && !resourceVersion.isEmpty();
    String op =
        "watch "
            + kind.qualifiedPlural()
            + " in namespace "
            + namespace
            + (selected ? " with " + labelSelector : "")
            + (fromVersion ? " from resourceVersion " + resourceVersion : "");
    List<Pair> query = new ArrayList<>();
    query.add(new Pair("watch", "true"));
    if (fromVersion) {
      query.add(new Pair("resourceVersion", resourceVersion));
    }
    if (allowBookmarks) {
      query.add(new Pair("allowWatchBookmarks", "true"));
    }
    query.add(new Pair("timeoutSeconds", Long.toString(serverTimeout.getSeconds())));
    if (selected) {
      query.add(new Pair("labelSelector", labelSelector));
    }
    String path = collectionPath(kind, namespace);
    OkHttpClient streaming =
        http.newBuilder().readTimeout(Duration.ZERO).callTimeout(Duration.ZERO).build();
    WatchCall handle = new WatchCall();
    handler.starting(handle);
    Response response;
    try {
      response =
          policy.execute(
              op,
              false,
              () -> {
                Request request = request(null, op, "GET", path, query, null, null, JSON);
                okhttp3.Call httpCall = streaming.newCall(request);
                handle.attach(httpCall);
                LOG.debug("Sending '{}'", op);
                Response answer;
                try {
                  answer = httpCall.execute();
                } catch (IOException e) {
                  if (handle.isCanceled()) {
                    // Not a sign of an unreachable server: the breaker must not count it.
                    throw new ApiUnavailableException(
                        null, "'" + op + "' was canceled before the server answered", e);
                  }
                  throw noAnswer(op, "GET", e);
                }
                if (answer.code() >= 200 && answer.code() < 300) {
                  return answer;
                }
                byte[] bytes;
                try (Response refused = answer) {
                  ResponseBody body = refused.body();
                  bytes = body == null ? new byte[0] : body.bytes();
                } catch (IOException e) {
                  throw noAnswer(op, "GET", e);
                }
                throw failure(null, op, "GET", answer, bytes);
              });
    } catch (ApiCallFailure f) {
      throw unavailable(null, op, f);
    } catch (ApiStatusException e) {
      if (e.code() == 410) {
        throw e;
      }
      throw rejected(null, op, e, "watch", kind, namespace);
    }
    try (Response open = response) {
      handler.opened();
      stream(op, open, handler);
    }
  }

  /** Reads a watch stream line by line until its end, handing each event over as it arrives. */
  private static void stream(String op, Response response, WatchHandler handler) {
    ResponseBody body = response.body();
    if (body == null) {
      return;
    }
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(body.byteStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        WatchEvent event;
        try {
          event = WatchEvent.parse(line);
        } catch (IllegalArgumentException e) {
          throw new ApiUnavailableException(
              null,
              "'"
                  + op
                  + "' got a line that is not a watch event ("
                  + e.getMessage()
                  + "); is the base path a Kubernetes API?",
              e);
        }
        if (event == null) {
          LOG.debug("'{}' skipped an event of a type this version does not know", op);
          continue;
        }
        handler.onEvent(event);
      }
      LOG.debug("'{}' ended: the server closed the stream", op);
    } catch (IOException e) {
      throw new ApiUnavailableException(
          null,
          "'" + op + "' broke off: " + e + "; watch again from the last resourceVersion seen",
          e);
    }
  }

  /**
   * Creates an object. Never retried: a create whose answer was lost must be followed by a read.
   *
   * @param about the job concerned, for errors, or null
   * @param kind the resource kind
   * @param namespace the namespace
   * @param object the object, with metadata
   * @return the created object as the server answered it
   * @throws ApiStatusException 409 when an object of that name exists
   * @throws UnconfirmedException when no answer came: the object may or may not have been created
   * @throws ApiUnavailableException when the breaker is open or a proxy answered garbage (the
   *     object was not created)
   * @throws JobRejectedException 400/403/404/422 with {@link JobRejectedException#reason()} telling
   *     CRD not installed from namespace missing
   */
  public ResourceSnapshot create(
      ExecutionId about, ResourceKind kind, String namespace, JsonObject object) {
    String name = string(object(object, "metadata"), "name");
    String op =
        "create " + kind.qualifiedPlural() + " " + namespace + "/" + (name == null ? "" : name);
    try {
      JsonObject json =
          call(
                  about,
                  op,
                  false,
                  "POST",
                  collectionPath(kind, namespace),
                  List.of(),
                  bytes(object),
                  JSON)
              .json;
      return snapshot(about, op, json);
    } catch (ApiStatusException e) {
      if (e.isConflict()) {
        throw e;
      }
      if (isNamespaceMissing(e)) {
        throw new JobRejectedException(
            about,
            JobRejectedException.Reason.NAMESPACE_MISSING,
            404,
            "namespace '"
                + namespace
                + "' does not exist: create it or submit to another namespace (server said: "
                + e.serverMessage()
                + ")",
            e);
      }
      throw rejected(about, op, e, "create", kind, namespace);
    } catch (ApiUnavailableException e) {
      if (e.getCause() instanceof ApiCallFailure f && f.mayHaveApplied()) {
        throw new UnconfirmedException(
            about,
            "'"
                + op
                + "' got no answer ("
                + f.getMessage()
                + "); the object may or may not have been created",
            f);
      }
      throw e;
    }
  }

  /**
   * Applies a JSON merge patch (retried: put {@code metadata.resourceVersion} in the patch to make
   * a retry of an applied patch fail with 409 instead of applying twice).
   *
   * @param about the job concerned, for errors, or null
   * @param kind the resource kind
   * @param namespace the namespace
   * @param name the name
   * @param patch the merge patch
   * @return the patched object
   * @throws ApiStatusException 404 when the object does not exist, 409 when {@code
   *     metadata.resourceVersion} in the patch is stale
   * @throws ApiUnavailableException when the server cannot be reached; the patch may have been
   *     applied
   * @throws JobRejectedException when forbidden or invalid
   */
  public ResourceSnapshot mergePatch(
      ExecutionId about, ResourceKind kind, String namespace, String name, JsonObject patch) {
    String op = "patch " + kind.qualifiedPlural() + " " + namespace + "/" + name;
    try {
      JsonObject json =
          call(
                  about,
                  op,
                  true,
                  "PATCH",
                  objectPath(kind, namespace, name),
                  List.of(),
                  bytes(patch),
                  MERGE_PATCH)
              .json;
      return snapshot(about, op, json);
    } catch (ApiStatusException e) {
      if ((e.isNotFound() && !isCrdMissing(e)) || e.isConflict()) {
        throw e;
      }
      throw rejected(about, op, e, "patch", kind, namespace);
    }
  }

  /**
   * Deletes an object, in the background, only if its uid is still {@code uid} (retried: a retry of
   * an applied delete answers 404 or finds the object being deleted).
   *
   * @param about the job concerned, for errors, or null
   * @param kind the resource kind
   * @param namespace the namespace
   * @param name the name
   * @param uid the uid precondition; null or empty deletes whatever has the name (avoid)
   * @return {@link DeleteResult#ACCEPTED} or {@link DeleteResult#GONE}
   * @throws ApiStatusException 409 when the object with that name has another uid
   * @throws ApiUnavailableException when the server cannot be reached; the delete may have been
   *     applied
   * @throws JobRejectedException when forbidden
   */
  public DeleteResult delete(
      ExecutionId about, ResourceKind kind, String namespace, String name, String uid) {
    return delete(about, kind, namespace, name, uid, null);
  }

  /**
   * Deletes an object, in the background, only if it is still the copy a decision was made on: its
   * uid is {@code uid} and its resourceVersion is {@code resourceVersion} (kube-apiserver checks
   * both in {@code Preconditions.Check}, staging/src/k8s.io/apiserver/pkg/storage/interfaces.go,
   * answering 409 Conflict on a mismatch). A retry of an applied delete answers 404, or 409 when
   * the object is still there with a {@code deletionTimestamp}: callers re-read on 409.
   *
   * @param about the job concerned, for errors, or null
   * @param kind the resource kind
   * @param namespace the namespace
   * @param name the name
   * @param uid the uid precondition; null or empty checks no uid
   * @param resourceVersion the resourceVersion precondition; null or empty checks none
   * @return {@link DeleteResult#ACCEPTED} or {@link DeleteResult#GONE}
   * @throws ApiStatusException 409 when the object changed since that copy or has another uid
   * @throws ApiUnavailableException when the server cannot be reached; the delete may have been
   *     applied
   * @throws JobRejectedException when forbidden
   */
  public DeleteResult delete(
      ExecutionId about,
      ResourceKind kind,
      String namespace,
      String name,
      String uid,
      String resourceVersion) {
    String op = "delete " + kind.qualifiedPlural() + " " + namespace + "/" + name;
    JsonObject options = new JsonObject();
    options.addProperty("apiVersion", "v1");
    options.addProperty("kind", "DeleteOptions");
    options.addProperty("propagationPolicy", "Background");
    JsonObject preconditions = new JsonObject();
    if (uid != null && !uid.isEmpty()) {
      preconditions.addProperty("uid", uid);
    }
    if (resourceVersion != null && !resourceVersion.isEmpty()) {
      preconditions.addProperty("resourceVersion", resourceVersion);
    }
    if (preconditions.size() > 0) {
      options.add("preconditions", preconditions);
    }
    try {
      call(
          about,
          op,
          true,
          "DELETE",
          objectPath(kind, namespace, name),
          List.of(),
          bytes(options),
          JSON);
      return DeleteResult.ACCEPTED;
    } catch (ApiStatusException e) {
      if (e.isNotFound() && !isCrdMissing(e)) {
        return DeleteResult.GONE;
      }
      if (e.isConflict()) {
        throw e;
      }
      throw rejected(about, op, e, "delete", kind, namespace);
    }
  }

  // ---------------------------------------------------------------- pods

  /**
   * Reads a pod.
   *
   * @param about the job concerned, or null
   * @param namespace the namespace
   * @param name the pod name
   * @return the pod, or empty when it does not exist
   * @throws ApiUnavailableException when the server cannot be reached
   * @throws JobRejectedException {@link JobRejectedException.Reason#FORBIDDEN} when pods may not be
   *     read
   */
  public Optional<ResourceSnapshot> getPod(ExecutionId about, String namespace, String name) {
    return get(about, ResourceKind.POD, namespace, name);
  }

  /**
   * Lists the pods matching a label selector.
   *
   * @param about the job concerned, or null
   * @param namespace the namespace
   * @param labelSelector the selector
   * @return the pods
   * @throws ApiUnavailableException when the server cannot be reached
   * @throws JobRejectedException {@link JobRejectedException.Reason#FORBIDDEN} when pods may not be
   *     listed
   */
  public List<ResourceSnapshot> listPods(
      ExecutionId about, String namespace, String labelSelector) {
    return list(about, ResourceKind.POD, namespace, labelSelector);
  }

  /**
   * Deletes a pod with a uid precondition.
   *
   * @param about the job concerned, or null
   * @param namespace the namespace
   * @param name the pod name
   * @param uid the pod's uid
   * @return whether it was accepted or already gone
   * @throws ApiStatusException 409 when the pod of that name has another uid
   * @throws ApiUnavailableException when the server cannot be reached
   * @throws JobRejectedException when forbidden
   */
  public DeleteResult deletePod(ExecutionId about, String namespace, String name, String uid) {
    return delete(about, ResourceKind.POD, namespace, name, uid);
  }

  /**
   * Deletes a pod only if it is still the copy a decision was made on (uid and resourceVersion).
   *
   * @param about the job concerned, or null
   * @param namespace the namespace
   * @param name the pod name
   * @param uid the pod's uid
   * @param resourceVersion the pod's resourceVersion as read
   * @return whether the pod was deleted or already gone
   * @throws ApiStatusException 409 when the pod changed since it was read or has another uid
   * @throws ApiUnavailableException when the server cannot be reached
   * @throws JobRejectedException when forbidden
   */
  public DeleteResult deletePod(
      ExecutionId about, String namespace, String name, String uid, String resourceVersion) {
    return delete(about, ResourceKind.POD, namespace, name, uid, resourceVersion);
  }

  /**
   * Reads a pod's log and hands it to {@code reader} as a stream, never holding it whole.
   *
   * @param about the job concerned, or null
   * @param namespace the namespace
   * @param pod the pod name
   * @param container the container, or null for the only one
   * @param tailLines the number of last lines, or null for all
   * @param limitBytes the byte cap the server applies from the head of what it sends, or null
   * @param reader consumes the log while the answer is open
   * @param <T> the reader's result
   * @return what the reader returned
   * @throws ApiStatusException for a 4xx the caller must interpret (400: container not started;
   *     404: pod gone)
   * @throws ApiUnavailableException when the server cannot be reached or reading fails
   * @throws JobRejectedException when forbidden
   */
  public <T> T readPodLog(
      ExecutionId about,
      String namespace,
      String pod,
      String container,
      Integer tailLines,
      Long limitBytes,
      LogReader<T> reader) {
    Objects.requireNonNull(reader, "reader");
    String op = "read log of pod " + namespace + "/" + pod;
    List<Pair> query = new ArrayList<>();
    if (container != null && !container.isEmpty()) {
      query.add(new Pair("container", container));
    }
    if (tailLines != null) {
      query.add(new Pair("tailLines", Integer.toString(tailLines)));
    }
    if (limitBytes != null) {
      query.add(new Pair("limitBytes", Long.toString(limitBytes)));
    }
    String path = objectPath(ResourceKind.POD, namespace, pod) + "/log";
    try {
      return policy.execute(
          op,
          true,
          () -> {
            Request request = request(about, op, "GET", path, query, null, null, "*/*");
            try (Response response = http.newCall(request).execute()) {
              if (response.code() >= 200 && response.code() < 300) {
                try (InputStream in = response.body().byteStream()) {
                  return reader.read(in);
                }
              }
              throw failure(about, op, "GET", response, readBody(response));
            } catch (IOException e) {
              throw noAnswer(op, "GET", e);
            }
          });
    } catch (ApiCallFailure f) {
      throw unavailable(about, op, f);
    } catch (ApiStatusException e) {
      if (e.code() == 403) {
        throw rejected(about, op, e, "get", ResourceKind.POD, namespace);
      }
      throw e;
    }
  }

  // ---------------------------------------------------------------- authorization, discovery

  /**
   * Asks whether the caller's credentials may do something (a SelfSubjectAccessReview).
   *
   * @param verb the verb, for example {@code create}
   * @param group the API group, empty for core
   * @param resource the plural resource, for example {@code pods}
   * @param subresource the subresource, for example {@code log}, or null
   * @param namespace the namespace
   * @return the answer
   * @throws ApiUnavailableException when the server cannot be reached
   * @throws JobRejectedException when the review itself is refused
   */
  public AccessReview selfSubjectAccessReview(
      String verb, String group, String resource, String subresource, String namespace) {
    String op =
        "review access "
            + verb
            + " "
            + resource
            + (subresource == null || subresource.isEmpty() ? "" : "/" + subresource)
            + (group == null || group.isEmpty() ? "" : "." + group)
            + " in namespace "
            + namespace;
    JsonObject attributes = new JsonObject();
    attributes.addProperty("namespace", namespace);
    attributes.addProperty("verb", verb);
    attributes.addProperty("group", group == null ? "" : group);
    attributes.addProperty("resource", resource);
    if (subresource != null && !subresource.isEmpty()) {
      attributes.addProperty("subresource", subresource);
    }
    JsonObject spec = new JsonObject();
    spec.add("resourceAttributes", attributes);
    JsonObject review = new JsonObject();
    review.addProperty("apiVersion", "authorization.k8s.io/v1");
    review.addProperty("kind", "SelfSubjectAccessReview");
    review.add("spec", spec);
    JsonObject answer;
    try {
      answer =
          call(
                  null,
                  op,
                  true,
                  "POST",
                  "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                  List.of(),
                  bytes(review),
                  JSON)
              .json;
    } catch (ApiStatusException e) {
      throw rejectedPlain(null, op, e);
    }
    JsonObject status = object(answer, "status");
    boolean allowed =
        status != null
            && status.get("allowed") != null
            && status.get("allowed").isJsonPrimitive()
            && status.get("allowed").getAsBoolean();
    String reason = status == null ? null : string(status, "reason");
    return new AccessReview(allowed, reason == null ? "" : reason);
  }

  /**
   * Lists the resources a group version serves (API discovery).
   *
   * @param group the API group, empty for core
   * @param version the version, for example {@code v1}
   * @return the plural names of the served resources (subresources such as {@code pods/log}
   *     included), or empty when the group version is not served (404)
   * @throws ApiUnavailableException when the server cannot be reached
   * @throws JobRejectedException when discovery is refused
   */
  public Optional<List<String>> servedResources(String group, String version) {
    String path =
        group == null || group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    String op = DISCOVER + path;
    JsonObject answer;
    try {
      answer = call(null, op, true, "GET", path, List.of(), null, null).json;
    } catch (ApiStatusException e) {
      if (e.isNotFound()) {
        return Optional.empty();
      }
      throw rejectedPlain(null, op, e);
    }
    List<String> names = new ArrayList<>();
    JsonElement resources = answer.get("resources");
    if (resources != null && resources.isJsonArray()) {
      for (JsonElement r : resources.getAsJsonArray()) {
        if (r.isJsonObject()) {
          String name = string(r.getAsJsonObject(), "name");
          if (name != null) {
            names.add(name);
          }
        }
      }
    }
    return Optional.of(List.copyOf(names));
  }

  // ---------------------------------------------------------------- plumbing

  private Answer call(
      ExecutionId about,
      String op,
      boolean retryable,
      String method,
      String path,
      List<Pair> query,
      byte[] body,
      String contentType) {
    return call(
        about,
        op,
        retryable,
        method,
        path,
        query,
        body,
        contentType,
        (response, answer) -> {
          // Parsed from the stream: no byte[] and String copies of a LIST page.
          Parsed<JsonObject> parsed = parseObject(answer);
          if (parsed.value() == null) {
            throw nonJson(about, op, response, parsed.bytes());
          }
          return new Answer(response.code(), parsed.value());
        });
  }

  /** Reads a successful answer's body. */
  @FunctionalInterface
  private interface BodyReader<T> {
    T read(Response response, ResponseBody body) throws IOException;
  }

  private <T> T call(
      ExecutionId about,
      String op,
      boolean retryable,
      String method,
      String path,
      List<Pair> query,
      byte[] body,
      String contentType,
      BodyReader<T> reader) {
    try {
      return policy.execute(
          op,
          retryable,
          () -> {
            Request request = request(about, op, method, path, query, body, contentType, JSON);
            LOG.debug("Sending '{}'", op);
            try (Response response = http.newCall(request).execute()) {
              if (response.code() >= 200 && response.code() < 300) {
                return reader.read(response, response.body());
              }
              throw failure(about, op, method, response, readBody(response));
            } catch (IOException e) {
              throw noAnswer(op, method, e);
            }
          });
    } catch (ApiCallFailure f) {
      throw unavailable(about, op, f);
    } catch (ApiStatusException e) {
      if (e.isNotFound() && PAGE_NOT_FOUND.equals(e.serverMessage()) && !op.startsWith(DISCOVER)) {
        throw confirmNotServed(about, op, path, e);
      }
      throw e;
    } catch (ApiUnavailableException e) {
      if (about != null && e.executionId().isEmpty()) {
        // The policy refused to send (circuit open): name the job.
        throw new ApiUnavailableException(
            about, e.getMessage(), e.mayHaveBeenApplied(), e.getCause());
      }
      throw e;
    }
  }

  private static final String DISCOVER = "discover ";

  /**
   * Decides what a plain-text {@code 404 page not found} means with API discovery: the real API
   * server answers it (not a {@code Status}) for a resource nothing serves, for example a CRD that
   * is not installed; if discovery does list the resource, something else (a proxy) answered.
   *
   * @return the 404 to interpret as "not served", or an {@link ApiUnavailableException}
   */
  private RuntimeException confirmNotServed(
      ExecutionId about, String op, String path, ApiStatusException e) {
    String[] parts = path.split("/");
    // /apis/<group>/<version>/namespaces/<ns>/<plural>[/...] or /api/<version>/namespaces/...
    boolean core = parts.length > 1 && parts[1].equals("api");
    int versionAt = core ? 2 : 3;
    int pluralAt = versionAt + 3;
    if (parts.length <= pluralAt || !parts[versionAt + 1].equals("namespaces")) {
      return e;
    }
    String group = core ? "" : parts[2];
    Optional<List<String>> served = servedResources(group, parts[versionAt]);
    if (served.isEmpty() || !served.get().contains(parts[pluralAt])) {
      return e;
    }
    return new ApiUnavailableException(
        about,
        "'"
            + op
            + "' got a plain-text 404 page although API discovery serves '"
            + parts[pluralAt]
            + "': something in front of the Kubernetes API answered; check the ApiClient's base"
            + " path and the proxy in between",
        e);
  }

  private Request request(
      ExecutionId about,
      String op,
      String method,
      String path,
      List<Pair> query,
      byte[] body,
      String contentType,
      String accept) {
    Map<String, String> headers = new HashMap<>();
    headers.put("Accept", accept);
    if (contentType != null) {
      headers.put("Content-Type", contentType);
    }
    try {
      return client.buildRequest(
          null,
          path,
          method,
          new ArrayList<>(query),
          new ArrayList<>(),
          body,
          headers,
          new HashMap<>(),
          new HashMap<>(),
          AUTH_NAMES,
          null);
    } catch (ApiException | RuntimeException e) {
      // For example a base path that is not a URL: a configuration error of the ApiClient.
      throw new ApiUnavailableException(
          about,
          "could not build the request '"
              + op
              + "' from the ApiClient (check its base path and authentication): "
              + e.getMessage(),
          e);
    }
  }

  private static byte[] readBody(Response response) throws IOException {
    ResponseBody body = response.body();
    return body == null ? new byte[0] : body.bytes();
  }

  private static ApiCallFailure noAnswer(String op, String method, IOException e) {
    // A connection that was never established carried no request; anything later may have
    // reached the server (reset after sending, read timeout, empty answer).
    boolean notSent =
        e instanceof ConnectException
            || e instanceof UnknownHostException
            || e instanceof NoRouteToHostException;
    return new ApiCallFailure(
        ApiCallFailure.Kind.UNREACHABLE,
        0,
        null,
        !notSent && !"GET".equals(method),
        "'" + op + "' got no answer from the Kubernetes API server: " + e,
        e);
  }

  private RuntimeException failure(
      ExecutionId about, String op, String method, Response response, byte[] bytes) {
    int code = response.code();
    JsonObject status = parseObject(bytes);
    String message = status == null ? null : string(status, "message");
    if (code == 429) {
      Duration retryAfter = retryAfter(response.header("Retry-After"), status, clock);
      return new ApiCallFailure(
          ApiCallFailure.Kind.THROTTLED,
          code,
          retryAfter,
          false,
          "'" + op + "' was throttled (429)" + (message == null ? "" : ": " + message),
          null);
    }
    if (code >= 500) {
      String what =
          status == null
              ? "a non-JSON answer (" + contentType(response) + "), probably from a proxy"
              : message == null ? "no message" : message;
      return new ApiCallFailure(
          ApiCallFailure.Kind.SERVER_ERROR,
          code,
          null,
          !"GET".equals(method),
          "'" + op + "' failed with " + code + ": " + what,
          null);
    }
    if (status == null && code == 404 && isPageNotFound(response, bytes)) {
      return new ApiStatusException(about, op, 404, "NotFound", PAGE_NOT_FOUND, "", "");
    }
    if (status == null) {
      return nonJson(about, op, response, bytes);
    }
    JsonObject details = object(status, "details");
    return new ApiStatusException(
        about,
        op,
        code,
        orEmpty(string(status, "reason")),
        orEmpty(message),
        details == null ? "" : orEmpty(string(details, "name")),
        details == null ? "" : orEmpty(string(details, "kind")));
  }

  /** Go's plain-text not-found page, as the API server's not-found handler writes it. */
  private static boolean isPageNotFound(Response response, byte[] bytes) {
    String type = response.header("Content-Type");
    return type != null
        && type.startsWith("text/plain")
        && new String(bytes, StandardCharsets.UTF_8).trim().equals(PAGE_NOT_FOUND);
  }

  private static ApiUnavailableException nonJson(
      ExecutionId about, String op, Response response, byte[] bytes) {
    return nonJson(about, op, response, bytes.length);
  }

  private static ApiUnavailableException nonJson(
      ExecutionId about, String op, Response response, long bytes) {
    return new ApiUnavailableException(
        about,
        "'"
            + op
            + "' got a non-JSON answer ("
            + response.code()
            + ", "
            + contentType(response)
            + ", "
            + bytes
            + " bytes) instead of the Kubernetes API: a proxy, load balancer or login page"
            + " answered; check the ApiClient's base path and the proxy in between",
        null);
  }

  private static String contentType(Response response) {
    String type = response.header("Content-Type");
    return type == null ? "no content type" : type;
  }

  private static ApiUnavailableException unavailable(
      ExecutionId about, String op, ApiCallFailure f) {
    return new ApiUnavailableException(
        about,
        f.getMessage()
            + (f.mayHaveApplied() ? " (the server may have applied the request)" : "")
            + "; retry later",
        f);
  }

  private static ApiUnavailableException garbage(ExecutionId about, String op, String what) {
    return new ApiUnavailableException(
        about,
        "'" + op + "' got " + what + " from the API server; is the base path a Kubernetes API?",
        null);
  }

  private static ResourceSnapshot snapshot(ExecutionId about, String op, JsonObject json) {
    if (json.get("metadata") == null || !json.get("metadata").isJsonObject()) {
      throw garbage(about, op, "an object without metadata");
    }
    return Snapshots.adopt(json); // parsed for this snapshot alone: no copy
  }

  /**
   * A 404 that names no object (the path itself is unknown): the resource kind or its version is
   * not served. Real servers say {@code the server could not find the requested resource}.
   */
  private static boolean isCrdMissing(ApiStatusException e) {
    return e.isNotFound()
        && (e.serverMessage().startsWith(CRD_MISSING_MESSAGE)
            || (e.detailsName().isEmpty() && !isNamespaceMissing(e)));
  }

  /** A 404 about a namespace: {@code namespaces "x" not found}. */
  private static boolean isNamespaceMissing(ApiStatusException e) {
    return e.isNotFound()
        && ("namespaces".equals(e.detailsKind()) || e.serverMessage().startsWith("namespaces \""));
  }

  private static KubeJobsException rejected(
      ExecutionId about,
      String op,
      ApiStatusException e,
      String verb,
      ResourceKind kind,
      String namespace) {
    if (isCrdMissing(e)) {
      return new JobRejectedException(
          about,
          JobRejectedException.Reason.CRD_NOT_INSTALLED,
          404,
          kind.qualifiedPlural()
              + " version "
              + kind.version()
              + " is not served by the API server: install the operator's CRD (or the version"
              + " kubejobs writes) (server said: "
              + e.serverMessage()
              + ")",
          e);
    }
    if (e.code() == 403 || e.code() == 401) {
      return new JobRejectedException(
          about,
          JobRejectedException.Reason.FORBIDDEN,
          e.code(),
          (e.code() == 401
                  ? "the API server refused the ApiClient's credentials (401); "
                  : "missing permission: ")
              + verb
              + " "
              + kind.qualifiedPlural()
              + " in namespace "
              + namespace
              + " (server said: "
              + e.serverMessage()
              + ")",
          e);
    }
    return rejectedPlain(about, op, e);
  }

  private static JobRejectedException rejectedPlain(
      ExecutionId about, String op, ApiStatusException e) {
    if (e.code() == 403 || e.code() == 401) {
      return new JobRejectedException(
          about,
          JobRejectedException.Reason.FORBIDDEN,
          e.code(),
          "'" + op + "' was forbidden (server said: " + e.serverMessage() + ")",
          e);
    }
    // 400, 422 and any other refusal of the request as it is (404 of a path, 405, 410, 413...).
    return new JobRejectedException(
        about,
        JobRejectedException.Reason.INVALID,
        e.code(),
        "'"
            + op
            + "' was rejected with "
            + e.code()
            + (e.reason().isEmpty() ? "" : " " + e.reason())
            + " (server said: "
            + e.serverMessage()
            + ")",
        e);
  }

  /**
   * The wait a 429 asks for: {@code Retry-After} in seconds or as an HTTP date (RFC 9110 allows
   * both), else the {@code Status}'s {@code details.retryAfterSeconds}, else null.
   */
  static Duration retryAfter(String header, JsonObject status, Clock clock) {
    if (header != null && !header.isBlank()) {
      String value = header.trim();
      try {
        return Duration.ofSeconds(Math.max(0, Long.parseLong(value)));
      } catch (NumberFormatException notSeconds) {
        try {
          Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
          Duration wait = Duration.between(clock.instant(), at);
          return wait.isNegative() ? Duration.ZERO : wait;
        } catch (DateTimeParseException notADate) {
          LOG.debug(
              "Ignoring a Retry-After header that is neither seconds nor a date: '{}'", value);
        }
      }
    }
    JsonObject details = status == null ? null : object(status, "details");
    JsonElement seconds = details == null ? null : details.get("retryAfterSeconds");
    if (seconds != null && seconds.isJsonPrimitive() && seconds.getAsJsonPrimitive().isNumber()) {
      return Duration.ofSeconds(Math.max(0, seconds.getAsLong()));
    }
    return null;
  }

  private static String objectPath(ResourceKind kind, String namespace, String name) {
    return collectionPath(kind, namespace) + "/" + segment(name);
  }

  private static String collectionPath(ResourceKind kind, String namespace) {
    String root =
        kind.group().isEmpty()
            ? "/api/" + kind.version()
            : "/apis/" + kind.group() + "/" + kind.version();
    return root + "/namespaces/" + segment(namespace) + "/" + kind.plural();
  }

  private static String segment(String value) {
    if (value == null || value.isEmpty() || value.contains("/") || value.contains("..")) {
      throw new IllegalArgumentException(
          "a namespace or name must be a non-empty DNS name, but was "
              + (value == null ? "null" : "'" + value + "'"));
    }
    return value;
  }

  private static byte[] bytes(JsonObject json) {
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Parses a JSON object strictly enough: null when the body is not a JSON object. */
  static JsonObject parseObject(byte[] bytes) {
    if (bytes == null || bytes.length == 0) {
      return null;
    }
    String text = new String(bytes, StandardCharsets.UTF_8).trim();
    if (!text.startsWith("{")) {
      return null;
    }
    try {
      JsonElement element = JsonParser.parseString(text);
      return element.isJsonObject() ? element.getAsJsonObject() : null;
    } catch (JsonParseException | IllegalStateException e) {
      return null;
    }
  }

  /**
   * Parses a successful answer's body from its stream, as {@link #parseObject(byte[])} parses
   * bytes: blanks first are skipped, a body that does not then start with an object, or is not one
   * JSON value, gives a null {@code value}; {@code bytes} counts the whole body (for the error
   * message). The stream's own failures (a connection reset, a body shorter than its {@code
   * Content-Length}) stay {@link IOException}s, as when the body was read whole first.
   */
  private static Parsed<JsonObject> parseObject(ResponseBody body) throws IOException {
    return readObject(body, reader -> JsonParser.parseReader(reader).getAsJsonObject());
  }

  /**
   * Reads one JSON value from a {@link JsonReader}; its syntax errors are the caller's to catch.
   */
  @FunctionalInterface
  private interface JsonRead<T> {
    T read(JsonReader reader) throws IOException;
  }

  /**
   * Reads a body that must be one JSON object with {@code read}, from the stream: a body that,
   * after blanks, does not start with an object, is malformed or holds more than one value gives a
   * null {@code value} (and is read to its end, to count it). The stream's own failures stay {@link
   * IOException}s; what {@code read} throws on purpose (other exceptions) goes through.
   */
  private static <T> Parsed<T> readObject(ResponseBody body, JsonRead<T> read) throws IOException {
    if (body == null) {
      return new Parsed<>(null, 0);
    }
    CountingStream counted = new CountingStream(body.byteStream());
    PushbackInputStream in = new PushbackInputStream(counted, 1);
    int first;
    do {
      first = in.read();
    } while (first >= 0 && first <= ' ');
    if (first != '{') {
      drain(in);
      return new Parsed<>(null, counted.count);
    }
    in.unread(first);
    JsonReader reader = new JsonReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    try {
      T value = read.read(reader);
      if (reader.peek() == JsonToken.END_DOCUMENT) {
        return new Parsed<>(value, counted.count);
      }
    } catch (JsonIOException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
    } catch (JsonParseException
        | IllegalStateException
        | MalformedJsonException
        | java.io.EOFException e) {
      // not one JSON object: the caller says so
    }
    drain(in);
    return new Parsed<>(null, counted.count);
  }

  private static void drain(InputStream in) throws IOException {
    byte[] skip = new byte[8192];
    while (in.read(skip) >= 0) {
      // counted by the CountingStream below
    }
  }

  /** A parsed answer: what was read, or null when the body was not one JSON object; its size. */
  private record Parsed<T>(T value, long bytes) {}

  /** Counts the bytes read through it, for the size of a body that was not JSON. */
  private static final class CountingStream extends FilterInputStream {
    long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      count += b < 0 ? 0 : 1;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      count += Math.max(0, n);
      return n;
    }
  }

  static JsonObject object(JsonObject parent, String field) {
    JsonElement value = parent == null ? null : parent.get(field);
    return value != null && value.isJsonObject() ? value.getAsJsonObject() : null;
  }

  /**
   * A field's value as text, as {@link ResourceSnapshot} reads metadata: a string or other
   * primitive, else null (absent, null, object or array; or no parent).
   *
   * @param parent the object, or null
   * @param field the field's name
   * @return the text, or null
   */
  public static String string(JsonObject parent, String field) {
    JsonElement value = parent == null ? null : parent.get(field);
    return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  /** A successful answer. */
  private static final class Answer {
    final int code;
    final JsonObject json;

    Answer(int code, JsonObject json) {
      this.code = code;
      this.json = json;
    }
  }
}
