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
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.spi.ResourceKind;
import io.kubernetes.client.openapi.Pair;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntPredicate;

/**
 * One request to the API server, as a value: what to send (verb, path, query, body), how to send it
 * (retried or not, read timeout, the handle that cancels it) and what an answer that is not 2xx
 * means to the verb that sends it (a 404 or 409 as an empty result, as an {@link
 * ApiStatusException} for the caller, or as a rejection naming the permission). {@link
 * KubeTransport} sends it; {@link KubeFailures} reads its answer policy. Immutable, built with
 * {@link #builder(String, String, String)}.
 */
final class KubeRequest {
  static final String JSON = "application/json";
  static final String MERGE_PATCH = "application/merge-patch+json";

  /** What an answer with a given status means to the verb. */
  enum OnStatus {
    /** The verb turns it into an empty result (a 404 of the object: {@code Optional.empty()}). */
    ABSENT,
    /** Thrown as the {@link ApiStatusException} itself, for the caller to interpret. */
    THROW,
    /** Turned into a {@link dev.kubejobs.core.JobRejectedException}. */
    REJECT
  }

  private final ExecutionId about;
  private final String op;
  private final String method;
  private final String path;
  private final List<Pair> query;
  private final byte[] body;
  private final String contentType;
  private final String accept;
  private final boolean retryable;
  private final Duration readTimeout;
  private final WatchCall handle;
  private final ResourceKind kind;
  private final String namespace;
  private final String permissionVerb;
  private final OnStatus onNotFound;
  private final OnStatus onConflict;
  private final IntPredicate passed;
  private final boolean confirmPlainNotFound;
  private final boolean rejectMissingNamespace;

  private KubeRequest(Builder b) {
    this.about = b.about;
    this.op = b.op;
    this.method = b.method;
    this.path = b.path;
    this.query = List.copyOf(b.query);
    this.body = b.body;
    this.contentType = b.contentType;
    this.accept = b.accept;
    this.retryable = b.retryable;
    this.readTimeout = b.readTimeout;
    this.handle = b.handle;
    this.kind = b.kind;
    this.namespace = b.namespace;
    this.permissionVerb = b.permissionVerb;
    this.onNotFound = b.onNotFound;
    this.onConflict = b.onConflict;
    this.passed = b.passed;
    this.confirmPlainNotFound = b.confirmPlainNotFound;
    this.rejectMissingNamespace = b.rejectMissingNamespace;
  }

  /**
   * Starts a request.
   *
   * @param op what the request does, in words, for logs and errors ({@code get testjobs etl/a})
   * @param method the HTTP method
   * @param path the path below the API client's base path
   * @return the builder
   */
  static Builder builder(String op, String method, String path) {
    return new Builder(op, method, path);
  }

  ExecutionId about() {
    return about;
  }

  String op() {
    return op;
  }

  String method() {
    return method;
  }

  String path() {
    return path;
  }

  List<Pair> query() {
    return query;
  }

  byte[] body() {
    return body;
  }

  String contentType() {
    return contentType;
  }

  String accept() {
    return accept;
  }

  boolean retryable() {
    return retryable;
  }

  /** The read timeout, or null for the gateway's; {@link Duration#ZERO} for none. */
  Duration readTimeout() {
    return readTimeout;
  }

  /** The handle that cancels the request from another thread, or null. */
  WatchCall handle() {
    return handle;
  }

  /** The resource kind the request is about, or null (access review, discovery). */
  ResourceKind kind() {
    return kind;
  }

  String namespace() {
    return namespace;
  }

  /**
   * The permission the request needs, named in a 401/403 rejection, or null when it names none (the
   * rejection then names the operation).
   */
  Permission permission() {
    return permissionVerb == null || kind == null
        ? null
        : new Permission(permissionVerb, kind.qualifiedPlural(), namespace);
  }

  /** What a 404 naming an object means (a 404 of a kind that is not served is always rejected). */
  OnStatus onNotFound() {
    return onNotFound;
  }

  /** What a 409 means. */
  OnStatus onConflict() {
    return onConflict;
  }

  /** Whether an answer with this status is thrown as it is, before any other interpretation. */
  boolean passes(int code) {
    return passed.test(code);
  }

  /**
   * Whether a plain-text {@code 404 page not found} is checked against API discovery (only for
   * requests about a {@link #kind()}; discovery itself is never checked, so the check ends).
   */
  boolean confirmsPlainNotFound() {
    return confirmPlainNotFound && kind != null;
  }

  /** Whether a 404 about the namespace is {@code NAMESPACE_MISSING} (a create). */
  boolean rejectsMissingNamespace() {
    return rejectMissingNamespace;
  }

  @Override
  public String toString() {
    return method + " " + path + " ('" + op + "')";
  }

  /** The path of a kind's collection in a namespace. */
  static String collectionPath(ResourceKind kind, String namespace) {
    String root =
        kind.group().isEmpty()
            ? "/api/" + kind.version()
            : "/apis/" + kind.group() + "/" + kind.version();
    return root + "/namespaces/" + segment(namespace) + "/" + kind.plural();
  }

  /** The path of one object. */
  static String objectPath(ResourceKind kind, String namespace, String name) {
    return collectionPath(kind, namespace) + "/" + segment(name);
  }

  private static String segment(String value) {
    if (value == null || value.isEmpty() || value.contains("/") || value.contains("..")) {
      throw new IllegalArgumentException(
          "a namespace or name must be a non-empty DNS name, but was "
              + (value == null ? "null" : "'" + value + "'"));
    }
    return value;
  }

  /** Builds a {@link KubeRequest}; defaults: GET-style JSON, retried, 404/409 rejected. */
  static final class Builder {
    private final String op;
    private final String method;
    private final String path;
    private final List<Pair> query = new ArrayList<>();
    private ExecutionId about;
    private byte[] body;
    private String contentType;
    private String accept = JSON;
    private boolean retryable = true;
    private Duration readTimeout;
    private WatchCall handle;
    private ResourceKind kind;
    private String namespace;
    private String permissionVerb;
    private OnStatus onNotFound = OnStatus.REJECT;
    private OnStatus onConflict = OnStatus.REJECT;
    private IntPredicate passed = code -> false;
    private boolean confirmPlainNotFound;
    private boolean rejectMissingNamespace;

    private Builder(String op, String method, String path) {
      this.op = Objects.requireNonNull(op, "op");
      this.method = Objects.requireNonNull(method, "method");
      this.path = Objects.requireNonNull(path, "path");
    }

    /** The job the request is for, named in errors; null for none. */
    Builder about(ExecutionId about) {
      this.about = about;
      return this;
    }

    /** Adds a query parameter. */
    Builder query(String name, String value) {
      query.add(new Pair(name, value));
      return this;
    }

    /** Adds a query parameter when the value is neither null nor empty. */
    Builder queryIfPresent(String name, String value) {
      return value == null || value.isEmpty() ? this : query(name, value);
    }

    /** A JSON body. */
    Builder json(JsonObject body) {
      return body(body.toString().getBytes(StandardCharsets.UTF_8), JSON);
    }

    /** A merge-patch body. */
    Builder mergePatch(JsonObject patch) {
      return body(patch.toString().getBytes(StandardCharsets.UTF_8), MERGE_PATCH);
    }

    private Builder body(byte[] body, String contentType) {
      this.body = body;
      this.contentType = contentType;
      return this;
    }

    /** The {@code Accept} header; JSON unless set. */
    Builder accept(String accept) {
      this.accept = Objects.requireNonNull(accept, "accept");
      return this;
    }

    /** Whether the resilience policy may send it again; true unless set. */
    Builder retryable(boolean retryable) {
      this.retryable = retryable;
      return this;
    }

    /** The read timeout; {@link Duration#ZERO} for none (a watch), null for the gateway's. */
    Builder readTimeout(Duration readTimeout) {
      this.readTimeout = readTimeout;
      return this;
    }

    /** The handle through which another thread cancels the request. */
    Builder handle(WatchCall handle) {
      this.handle = handle;
      return this;
    }

    /**
     * The kind and namespace the request is about, and the verb a 401/403 names as the missing
     * permission ({@code list testjobs.kubejobs.dev in namespace etl}); also makes a plain-text
     * {@code 404 page not found} a question for API discovery when {@link #confirmPlainNotFound}.
     */
    Builder resource(ResourceKind kind, String namespace, String permissionVerb) {
      this.kind = Objects.requireNonNull(kind, "kind");
      this.namespace = namespace;
      this.permissionVerb = permissionVerb;
      return this;
    }

    /** What a 404 naming an object means; rejected unless set. */
    Builder onNotFound(OnStatus onNotFound) {
      this.onNotFound = Objects.requireNonNull(onNotFound, "onNotFound");
      return this;
    }

    /** What a 409 means; rejected unless set. */
    Builder onConflict(OnStatus onConflict) {
      this.onConflict = Objects.requireNonNull(onConflict, "onConflict");
      return this;
    }

    /** Statuses thrown as the {@link ApiStatusException} itself, before anything else. */
    Builder passing(IntPredicate codes) {
      this.passed = Objects.requireNonNull(codes, "codes");
      return this;
    }

    /** Checks a plain-text {@code 404 page not found} against API discovery. */
    Builder confirmPlainNotFound() {
      this.confirmPlainNotFound = true;
      return this;
    }

    /** Rejects a 404 about the namespace as {@code NAMESPACE_MISSING}, naming it. */
    Builder rejectMissingNamespace() {
      this.rejectMissingNamespace = true;
      return this;
    }

    KubeRequest build() {
      return new KubeRequest(this);
    }
  }
}
