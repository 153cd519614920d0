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

import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.resilience.ApiCallFailure;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import io.kubernetes.client.openapi.ApiClient;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verbs through which kubejobs talks to the Kubernetes API server (this package is the only one
 * that does). Everything else works on {@link ResourceSnapshot}s.
 *
 * <p><b>How it talks.</b> Requests are built by the caller's own {@link ApiClient} ({@code
 * buildRequest}: its base path, authentication and default headers) and sent with an {@link
 * OkHttpClient} derived from the caller's ({@code newBuilder()}: same TLS, interceptors and token
 * refresh) with OkHttp's {@code retryOnConnectionFailure}: a GET that failed on a pooled connection
 * the server closed while idle is sent again on another, while every POST, PATCH and DELETE carries
 * a one-shot body, which OkHttp never sends again once its sending began (whether to send a write
 * again is the policy's call, see {@link KubeTransport}), and with read/write timeouts
 * (client-java's default read timeout is infinite). The caller's {@code ApiClient} is never
 * modified. Bodies are raw JSON both ways: the generic API of client-java reports every 2xx as 200,
 * hides {@code Retry-After}, fails on non-JSON answers with untyped errors, and its typed models
 * serialize empty collections into patches.
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
 * <p><b>How it is built.</b> This class is a façade of verbs: each verb describes its request as a
 * {@link KubeRequest} (verb, path, query, body, and what a 404 or 409 means to it) and hands it to
 * the one {@link KubeTransport}, which sends JSON, watch and log requests alike under the policy
 * and classifies failures with the one {@link KubeFailures}. Bodies are read by {@link JsonBodies},
 * list pages by {@link ListPageParser}, watch streams by {@link WatchStream}.
 *
 * <p>Not a published API: used by the operations in {@code dev.kubejobs.core} packages (submit,
 * status, cancel, sweep, logs, preflight). Thread safe.
 */
public final class KubeGateway {
  private static final Logger LOG = LoggerFactory.getLogger(KubeGateway.class);
  private static final int LIST_PAGE_SIZE = 500;

  private final KubeTransport transport;

  private KubeGateway(KubeTransport transport) {
    this.transport = transport;
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
    OkHttpClient.Builder derived =
        original
            .newBuilder()
            .retryOnConnectionFailure(true)
            .readTimeout(requestTimeout)
            .writeTimeout(requestTimeout);
    if (original.connectTimeoutMillis() == 0) {
      derived.connectTimeout(requestTimeout);
    }
    return new KubeGateway(new KubeTransport(client, derived.build(), policy, clock));
  }

  /**
   * Returns the policy requests run under.
   *
   * @return the policy
   */
  public ResiliencePolicy policy() {
    return transport.policy();
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
    KubeRequest request =
        KubeRequest.builder(
                "get " + kind.qualifiedPlural() + " " + namespace + "/" + name,
                "GET",
                KubeRequest.objectPath(kind, namespace, name))
            .about(about)
            .resource(kind, namespace, "get")
            .onNotFound(KubeRequest.OnStatus.ABSENT)
            .confirmPlainNotFound()
            .build();
    return transport.tree(request).map(json -> snapshot(request, json));
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
    // Keyed by namespace and name, as a list that starts again brings its objects again.
    Map<String, ResourceSnapshot> out = new LinkedHashMap<>();
    ListPages pages = listPages(about, kind, namespace, labelSelector, FieldProjection.WHOLE, null);
    String resourceVersion = "";
    while (pages.hasNext()) {
      ListPage page = pages.next();
      if (page.startsOver()) {
        out.clear();
      }
      for (ResourceSnapshot object : page.items()) {
        out.put(object.namespace() + "/" + object.name(), object);
      }
      resourceVersion = page.resourceVersion();
    }
    return new ListResult(new ArrayList<>(out.values()), resourceVersion);
  }

  /**
   * Lists the objects matching a label selector in one namespace as a pull: the pages come back to
   * the caller one at a time, each read when the caller asks for it (retried as one request, paged,
   * restarted when a continue token expired), with the objects as {@code projection} keeps them.
   * Nothing of the caller runs while a page is read: what it does with a page's copies it does
   * between pages, and a page read again after a failed attempt is parsed again, never handed
   * twice.
   *
   * @param about the job concerned, for errors, or null
   * @param kind the resource kind
   * @param namespace the namespace
   * @param labelSelector the selector; null or empty lists all
   * @param projection what of each object to keep; the rest is skipped unbuilt
   * @param held the copies the caller holds, by name (only their uid and resourceVersion are read):
   *     one listed again unchanged is skipped past its metadata and only named; null for none
   * @return the pages, read as they are asked for
   */
  public ListPages listPages(
      ExecutionId about,
      ResourceKind kind,
      String namespace,
      String labelSelector,
      FieldProjection projection,
      Map<String, ? extends HeldCopy> held) {
    String op =
        "list "
            + kind.qualifiedPlural()
            + " in namespace "
            + namespace
            + (labelSelector == null || labelSelector.isEmpty() ? "" : " with " + labelSelector);
    String path = KubeRequest.collectionPath(kind, namespace);
    return new ListPages(
        op,
        (continueToken, restartable) -> {
          // A continue token that outlived the server's compaction window answers 410 Expired:
          // the pages read so far belong to a snapshot that is gone, so the list starts again.
          KubeRequest request =
              KubeRequest.builder(op, "GET", path)
                  .about(about)
                  .resource(kind, namespace, "list")
                  .queryIfPresent("labelSelector", labelSelector)
                  .query("limit", Integer.toString(LIST_PAGE_SIZE))
                  .queryIfPresent("continue", continueToken)
                  .passing(code -> code == 410 && restartable)
                  .confirmPlainNotFound()
                  .build();
          return transport.send(request, new ListPageParser(request, projection, held)::read);
        });
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
    WatchCall handle = new WatchCall();
    KubeRequest.Builder request =
        KubeRequest.builder(op, "GET", KubeRequest.collectionPath(kind, namespace))
            .resource(kind, namespace, "watch")
            .query("watch", "true")
            .queryIfPresent("resourceVersion", resourceVersion);
    if (allowBookmarks) {
      request.query("allowWatchBookmarks", "true");
    }
    request
        .query("timeoutSeconds", Long.toString(serverTimeout.getSeconds()))
        .queryIfPresent("labelSelector", labelSelector)
        .retryable(false)
        .readTimeout(Duration.ZERO)
        .handle(handle)
        .passing(code -> code == 410);
    handler.starting(handle);
    try (Response open = transport.open(request.build())) {
      handler.opened();
      WatchStream.read(op, open, handler);
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
    String name = JsonBodies.string(JsonBodies.object(object, "metadata"), "name");
    KubeRequest request =
        KubeRequest.builder(
                "create "
                    + kind.qualifiedPlural()
                    + " "
                    + namespace
                    + "/"
                    + (name == null ? "" : name),
                "POST",
                KubeRequest.collectionPath(kind, namespace))
            .about(about)
            .resource(kind, namespace, "create")
            .json(object)
            .retryable(false)
            .onConflict(KubeRequest.OnStatus.THROW)
            .rejectMissingNamespace()
            .confirmPlainNotFound()
            .build();
    try {
      return snapshot(request, transport.tree(request).orElseThrow());
    } catch (ApiUnavailableException e) {
      if (e.getCause() instanceof ApiCallFailure f && f.mayHaveApplied()) {
        throw new UnconfirmedException(
            about,
            "'"
                + request.op()
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
    KubeRequest request =
        KubeRequest.builder(
                "patch " + kind.qualifiedPlural() + " " + namespace + "/" + name,
                "PATCH",
                KubeRequest.objectPath(kind, namespace, name))
            .about(about)
            .resource(kind, namespace, "patch")
            .mergePatch(patch)
            .onNotFound(KubeRequest.OnStatus.THROW)
            .onConflict(KubeRequest.OnStatus.THROW)
            .confirmPlainNotFound()
            .build();
    return snapshot(request, transport.tree(request).orElseThrow());
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
    KubeRequest request =
        KubeRequest.builder(
                "delete " + kind.qualifiedPlural() + " " + namespace + "/" + name,
                "DELETE",
                KubeRequest.objectPath(kind, namespace, name))
            .about(about)
            .resource(kind, namespace, "delete")
            .json(options)
            .onNotFound(KubeRequest.OnStatus.ABSENT)
            .onConflict(KubeRequest.OnStatus.THROW)
            .confirmPlainNotFound()
            .build();
    return transport.json(request).isPresent() ? DeleteResult.ACCEPTED : DeleteResult.GONE;
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
    KubeRequest request =
        KubeRequest.builder(
                "read log of pod " + namespace + "/" + pod,
                "GET",
                KubeRequest.objectPath(ResourceKind.POD, namespace, pod) + "/log")
            .about(about)
            .resource(ResourceKind.POD, namespace, "get")
            .accept("*/*")
            .queryIfPresent("container", container)
            .queryIfPresent("tailLines", tailLines == null ? null : Integer.toString(tailLines))
            .queryIfPresent("limitBytes", limitBytes == null ? null : Long.toString(limitBytes))
            // Only a 403 is the gateway's to reject; every other refusal is the log reader's.
            .passing(code -> code != 403)
            .build();
    return transport.send(
        request,
        response -> {
          try (InputStream in = response.body().byteStream()) {
            return reader.read(in);
          }
        });
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
    KubeRequest request =
        KubeRequest.builder(op, "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")
            .json(review)
            .build();
    JsonObject status = JsonBodies.object(transport.json(request).orElseThrow(), "status");
    boolean allowed =
        status != null
            && status.get("allowed") != null
            && status.get("allowed").isJsonPrimitive()
            && status.get("allowed").getAsBoolean();
    String reason = JsonBodies.string(status, "reason");
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
    return transport.served(group, version);
  }

  // ---------------------------------------------------------------- core/v1 events

  /** Core events, which kubejobs writes only as its record of how it ended a job. */
  private static final ResourceKind EVENT = new ResourceKind("", "v1", "events", "Event");

  /**
   * Creates a core/v1 Event whose name the caller derived from what it records, so that sending it
   * again is harmless: it is retried like any write after 5xx, 429 and lost answers, and a copy
   * that already exists (409 {@code AlreadyExists}, a retry of a create whose answer was lost) is
   * the same record.
   *
   * @param about the job concerned, for errors
   * @param namespace the namespace
   * @param event the Event, with {@code metadata.name} set
   * @return true when created by this call, false when it existed already
   * @throws ApiUnavailableException when the server cannot be reached or answers garbage
   * @throws JobRejectedException when forbidden (403 names {@code create events in namespace ..})
   */
  public boolean createEvent(ExecutionId about, String namespace, JsonObject event) {
    String name = JsonBodies.string(JsonBodies.object(event, "metadata"), "name");
    KubeRequest request =
        KubeRequest.builder(
                "create events " + namespace + "/" + (name == null ? "" : name),
                "POST",
                KubeRequest.collectionPath(EVENT, namespace))
            .about(about)
            .resource(EVENT, namespace, "create")
            .json(event)
            .onConflict(KubeRequest.OnStatus.THROW)
            .build();
    try {
      transport.tree(request);
      return true;
    } catch (ApiStatusException e) {
      if (e.isConflict()) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Lists one namespace's core/v1 Events matching a field selector (retried, paged). kube-apiserver
   * selects events by {@code involvedObject.kind}, {@code .name}, {@code .uid}, {@code .apiVersion}
   * and the other fields its event strategy lists ({@code ToSelectableFields},
   * kubernetes/kubernetes {@code pkg/registry/core/event/strategy.go}).
   *
   * @param about the job concerned, for errors, or null
   * @param namespace the namespace
   * @param fieldSelector the selector, for example {@code involvedObject.uid=..}
   * @return the events, in the server's order
   * @throws ApiUnavailableException when the server cannot be reached or answers garbage
   * @throws JobRejectedException when forbidden (403 names {@code list events in namespace ..})
   */
  public List<JsonTree.Obj> listEvents(ExecutionId about, String namespace, String fieldSelector) {
    List<JsonTree.Obj> out = new ArrayList<>();
    String continueToken = null;
    do {
      KubeRequest request =
          KubeRequest.builder(
                  "list events in namespace " + namespace + " with " + fieldSelector,
                  "GET",
                  KubeRequest.collectionPath(EVENT, namespace))
              .about(about)
              .resource(EVENT, namespace, "list")
              .queryIfPresent("fieldSelector", fieldSelector)
              .query("limit", Integer.toString(LIST_PAGE_SIZE))
              .queryIfPresent("continue", continueToken)
              .build();
      JsonTree.Obj page = transport.tree(request).orElse(JsonTree.Obj.EMPTY);
      if (page.get("items") instanceof JsonTree.Arr items) {
        for (int i = 0; i < items.size(); i++) {
          if (items.get(i) instanceof JsonTree.Obj item) {
            out.add(item);
          }
        }
      }
      JsonTree.Obj metadata = page.object("metadata");
      continueToken = metadata == null ? null : metadata.text("continue");
    } while (continueToken != null && !continueToken.isEmpty());
    return out;
  }

  // ---------------------------------------------------------------- helpers

  private static ResourceSnapshot snapshot(KubeRequest request, JsonTree.Obj json) {
    return JsonBodies.snapshot(request.about(), request.op(), json);
  }
}
