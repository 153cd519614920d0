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
import com.google.gson.JsonObject;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.diagnosis.Messages;
import dev.kubejobs.core.resilience.ApiCallFailure;
import dev.kubejobs.core.spi.ResourceKind;
import java.io.IOException;
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
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one failure classifier of the gateway: what an attempt that got no answer, an answer that is
 * not 2xx and an answer with a {@code Status} mean, given the {@link KubeRequest}'s answer policy.
 *
 * <ul>
 *   <li>No answer (connect failure, reset, timeout, empty answer), 5xx and 429 are {@link
 *       ApiCallFailure}s, for the resilience policy to retry; {@link #unavailable} turns the one it
 *       gave up on into an {@link ApiUnavailableException}.
 *   <li>A non-JSON answer (a proxy's HTML page) is an {@link ApiUnavailableException} saying so.
 *   <li>Any other answer is an {@link ApiStatusException}; {@link #interpret} decides, in this
 *       order, whether it passes to the caller as it is, is a conflict or an object's 404 the verb
 *       throws, a missing namespace, a kind that is not served ({@link
 *       JobRejectedException.Reason#CRD_NOT_INSTALLED}), a 401/403 ({@link
 *       JobRejectedException.Reason#FORBIDDEN}, naming the permission when the request names one),
 *       or another refusal ({@link JobRejectedException.Reason#INVALID}).
 * </ul>
 *
 * <p>Thread safe (holds only a clock).
 */
final class KubeFailures {
  private static final Logger LOG = LoggerFactory.getLogger(KubeFailures.class);
  private static final String CRD_MISSING_MESSAGE = "the server could not find the requested";

  /** Go's {@code http.NotFound} body, which the API server answers for a path nothing serves. */
  static final String PAGE_NOT_FOUND = "404 page not found";

  private final Clock clock;

  KubeFailures(Clock clock) {
    this.clock = clock;
  }

  /**
   * An attempt that got no answer. A connection that was never established carried no request;
   * anything later may have reached the server (reset after sending, read timeout, empty answer). A
   * cancelled request is not a sign of an unreachable server: the breaker must not count it.
   */
  RuntimeException noAnswer(KubeRequest request, IOException e) {
    if (request.handle() != null && request.handle().isCanceled()) {
      return new ApiUnavailableException(
          null, "'" + request.op() + "' was canceled before the server answered", e);
    }
    boolean notSent =
        e instanceof ConnectException
            || e instanceof UnknownHostException
            || e instanceof NoRouteToHostException;
    return new ApiCallFailure(
        ApiCallFailure.Kind.UNREACHABLE,
        0,
        null,
        !notSent && !"GET".equals(request.method()),
        "'" + request.op() + "' got no answer from the Kubernetes API server: " + e,
        e);
  }

  /** An answer that is not 2xx, with its whole body. */
  RuntimeException refused(KubeRequest request, Response response, byte[] bytes) {
    String op = request.op();
    int code = response.code();
    JsonObject status = JsonBodies.parseObject(bytes);
    String message = status == null ? null : JsonBodies.string(status, "message");
    if (message != null && !"POST".equals(request.method())) {
      // The server's text is passed on in exceptions: capped, as every message kubejobs passes on.
      // Not a create's: submit masks the manifest's secrets in this text afterwards, and a cut
      // through a secret would leave its two ends unmasked.
      message = Messages.cap(message);
    }
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
          !"GET".equals(request.method()),
          "'" + op + "' failed with " + code + ": " + what,
          null);
    }
    if (status == null && code == 404 && isPageNotFound(response, bytes)) {
      return ApiStatusException.plainTextNotFound(request.about(), op, PAGE_NOT_FOUND);
    }
    if (status == null) {
      return nonJson(request.about(), op, response, bytes.length);
    }
    JsonObject details = JsonBodies.object(status, "details");
    return ApiStatusException.of(
        request.about(),
        op,
        code,
        orEmpty(JsonBodies.string(status, "reason")),
        orEmpty(message),
        details == null ? "" : orEmpty(JsonBodies.string(details, "name")),
        details == null ? "" : orEmpty(JsonBodies.string(details, "kind")),
        request.permission());
  }

  /** Go's plain-text not-found page, as the API server's not-found handler writes it. */
  private static boolean isPageNotFound(Response response, byte[] bytes) {
    String type = response.header("Content-Type");
    return type != null
        && type.startsWith("text/plain")
        && new String(bytes, StandardCharsets.UTF_8).trim().equals(PAGE_NOT_FOUND);
  }

  /** Whether the answer is the empty result the verb asked for: a 404 of the object itself. */
  static boolean isAbsent(KubeRequest request, ApiStatusException e) {
    return request.onNotFound() == KubeRequest.OnStatus.ABSENT && isObjectNotFound(request, e);
  }

  /**
   * A 404 that names the object (or, for a request about no kind, any 404): the kind is served, the
   * object is not there.
   */
  private static boolean isObjectNotFound(KubeRequest request, ApiStatusException e) {
    return e.isNotFound() && (request.kind() == null || !isCrdMissing(e));
  }

  /**
   * What an answer with a status that is not the verb's empty result means: the exception to throw,
   * as the request's answer policy says.
   */
  KubeJobsException interpret(KubeRequest request, ApiStatusException e) {
    if (request.passes(e.code())) {
      return e;
    }
    if (e.isConflict() && request.onConflict() == KubeRequest.OnStatus.THROW) {
      return e;
    }
    if (isObjectNotFound(request, e) && request.onNotFound() == KubeRequest.OnStatus.THROW) {
      return e;
    }
    if (request.rejectsMissingNamespace() && isNamespaceMissing(e)) {
      return new JobRejectedException(
          request.about(),
          JobRejectedException.Reason.NAMESPACE_MISSING,
          404,
          "namespace '"
              + request.namespace()
              + "' does not exist: create it or submit to another namespace (server said: "
              + e.serverMessage()
              + ")",
          e);
    }
    return reject(request, e);
  }

  /** The one rejection: a kind that is not served, a 401/403, or another refusal. */
  private static JobRejectedException reject(KubeRequest request, ApiStatusException e) {
    ResourceKind kind = request.kind();
    if (kind != null && isCrdMissing(e)) {
      return new JobRejectedException(
          request.about(),
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
      Permission needed = request.permission();
      String what =
          needed == null ? "'" + request.op() + "' was forbidden" : needed.refusal(e.code());
      return new JobRejectedException(
          request.about(),
          JobRejectedException.Reason.FORBIDDEN,
          e.code(),
          what + " (server said: " + e.serverMessage() + ")",
          e);
    }
    // 400, 422 and any other refusal of the request as it is (404 of a path, 405, 410, 413...).
    return new JobRejectedException(
        request.about(),
        JobRejectedException.Reason.INVALID,
        e.code(),
        "'"
            + request.op()
            + "' was rejected with "
            + e.code()
            + (e.reason().isEmpty() ? "" : " " + e.reason())
            + " (server said: "
            + e.serverMessage()
            + ")",
        e);
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

  /** The policy gave up: the job is named, and whether the request may have been applied. */
  static ApiUnavailableException unavailable(ExecutionId about, ApiCallFailure f) {
    return new ApiUnavailableException(
        about,
        f.getMessage()
            + (f.mayHaveApplied() ? " (the server may have applied the request)" : "")
            + "; retry later",
        f);
  }

  /** A 2xx or 4xx answer whose body is not the JSON the Kubernetes API writes. */
  static ApiUnavailableException nonJson(
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

  /** JSON that is not what the Kubernetes API writes there. */
  static ApiUnavailableException garbage(ExecutionId about, String op, String what) {
    return new ApiUnavailableException(
        about,
        "'" + op + "' got " + what + " from the API server; is the base path a Kubernetes API?",
        null);
  }

  private static String contentType(Response response) {
    String type = response.header("Content-Type");
    return type == null ? "no content type" : type;
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
    JsonObject details = status == null ? null : JsonBodies.object(status, "details");
    JsonElement seconds = details == null ? null : details.get("retryAfterSeconds");
    if (seconds != null && seconds.isJsonPrimitive() && seconds.getAsJsonPrimitive().isNumber()) {
      return Duration.ofSeconds(Math.max(0, seconds.getAsLong()));
    }
    return null;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
