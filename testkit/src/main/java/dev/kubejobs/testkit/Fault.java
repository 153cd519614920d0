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

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A failure that the fake API server answers to matching requests instead of (or, for {@link
 * Kind#DELAY} and {@link Kind#APPLIED_THEN_LOST}, on top of) its normal answer. Faults are values:
 * build one with {@link #on(String, String)} and add it with {@link Faults#add(Fault)}.
 *
 * <pre>{@code
 * server.faults().add(
 *     Fault.on("POST", "/apis/spark.apache.org/v1/namespaces/[^/]+/sparkapplications")
 *         .times(1)
 *         .connectionReset());
 * }</pre>
 *
 * <p>A fault matches a request whose verb equals {@link #verb()} (or any verb for {@code "*"}) and
 * whose path, without the query, matches {@link #pathRegex()} completely. It answers the next
 * {@link #times()} matching requests, or every one if {@link #isForever()}. The first added fault
 * that matches a request answers it. Faults ignore RBAC: they act before it, like a proxy would.
 *
 * <p>Instances are immutable and thread safe; the server counts uses separately, so one value can
 * be added to several servers.
 */
public final class Fault {

  /** What the server does instead of answering normally. */
  public enum Kind {
    /** Closes the connection with a TCP reset without answering; nothing is changed. */
    CONNECTION_RESET,
    /** Closes the connection without sending a byte; nothing is changed. */
    EMPTY_RESPONSE,
    /** Answers an HTML proxy error page with {@link #status()}; nothing is changed. */
    NON_JSON,
    /** Processes the request normally, then holds the answer back for {@link #delay()}. */
    DELAY,
    /** Answers {@link #status()} with a Kubernetes {@code Status} body; nothing is changed. */
    STATUS,
    /** Answers {@link #status()} with an empty body; nothing is changed. */
    STATUS_WITHOUT_BODY,
    /**
     * Answers 429 {@code TooManyRequests} with a {@code Retry-After} header of {@link
     * #retryAfterSeconds()}; nothing is changed.
     */
    TOO_MANY_REQUESTS,
    /** Applies the request normally, then resets the connection without answering. */
    APPLIED_THEN_LOST,
    /**
     * Answers 429 with the plain-text body {@code Too many requests, please try again later.} and a
     * {@code Retry-After} header of {@link #retryAfter()}, as API priority and fairness and the
     * max-in-flight filter do; nothing is changed.
     */
    TOO_MANY_REQUESTS_TEXT,
    /**
     * Answers {@link #status()} with the plain-text body {@link #message()}; nothing is changed.
     */
    PLAIN_TEXT,
    /**
     * Streams a watch normally, then closes its connection abruptly (no final chunk) after {@link
     * #events()} events, as a broken connection or a restarting API server does; only for watches
     * (verb {@code WATCH}).
     */
    DROP_WATCH
  }

  private final String verb;
  private final String pathRegex;
  private final Pattern pattern;
  private final int times;
  private final int skip;
  private final Kind kind;
  private final int status;
  private final String reason;
  private final String message;
  private final Duration delay;
  private final int retryAfterSeconds;
  private final String clientId;
  private final String retryAfter;
  private final int events;

  private Fault(Builder b, Kind kind, int status, String reason, String message, Duration delay) {
    this(b, kind, status, reason, message, delay, null, 0);
  }

  private Fault(
      Builder b,
      Kind kind,
      int status,
      String reason,
      String message,
      Duration delay,
      String retryAfter,
      int events) {
    this.verb = b.verb;
    this.events = events;
    this.pathRegex = b.pathRegex;
    this.pattern = b.pattern;
    this.times = b.times;
    this.skip = b.skip;
    this.clientId = b.clientId;
    this.kind = kind;
    this.status = status;
    this.reason = reason;
    this.message = message;
    this.delay = delay;
    this.retryAfterSeconds = kind == Kind.TOO_MANY_REQUESTS ? (int) delay.toSeconds() : 0;
    this.retryAfter =
        kind == Kind.TOO_MANY_REQUESTS ? Integer.toString(retryAfterSeconds) : retryAfter;
  }

  /**
   * Returns after how many events a {@link Kind#DROP_WATCH} fault drops the watch, 0 for the other
   * kinds.
   *
   * @return the number of events the watch delivers before its connection is closed
   */
  public int events() {
    return events;
  }

  /**
   * Returns the {@code Retry-After} header answered by {@link Kind#TOO_MANY_REQUESTS} and {@link
   * Kind#TOO_MANY_REQUESTS_TEXT} faults, null for the others.
   *
   * @return the header value: seconds, or an HTTP date
   */
  public String retryAfter() {
    return retryAfter;
  }

  /**
   * Starts a fault for requests with this verb and a path that completely matches this regular
   * expression; it answers the next matching request once unless {@link Builder#times(int)} or
   * {@link Builder#forever()} says otherwise.
   *
   * @param verb the HTTP method ({@code GET}, {@code POST}, {@code PUT}, {@code PATCH}, {@code
   *     DELETE}), {@code WATCH} for a GET with {@code watch=true} (which a {@code GET} fault does
   *     not match), or {@code "*"} for any
   * @param pathRegex a regular expression over the request path without the query string, for
   *     example {@code "/apis/spark.apache.org/v1/namespaces/.*"}
   * @return a builder whose final method chooses the kind of fault
   * @throws java.util.regex.PatternSyntaxException if the regular expression is invalid
   */
  public static Builder on(String verb, String pathRegex) {
    return new Builder(verb, pathRegex);
  }

  /**
   * Returns the HTTP method this fault matches, upper case, or {@code "*"} for any.
   *
   * @return the verb
   */
  public String verb() {
    return verb;
  }

  /**
   * Returns the regular expression that the request path must match completely.
   *
   * @return the path regex
   */
  public String pathRegex() {
    return pathRegex;
  }

  /**
   * Returns how many matching requests this fault answers, or {@link Integer#MAX_VALUE} if it is
   * {@linkplain #isForever() forever}.
   *
   * @return the number of uses
   */
  public int times() {
    return times;
  }

  /**
   * Returns how many matching requests this fault lets through before it starts answering.
   *
   * @return the number of requests skipped, 0 by default
   */
  public int skip() {
    return skip;
  }

  /**
   * Returns the id of the only client whose requests this fault answers, or null for every client.
   *
   * @return the client id given to {@link Builder#forClient(String)}, or null
   */
  public String clientId() {
    return clientId;
  }

  /**
   * Returns whether this fault answers every matching request until the faults are cleared.
   *
   * @return true if it never wears out
   */
  public boolean isForever() {
    return times == Integer.MAX_VALUE;
  }

  /**
   * Returns what this fault does.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * Returns the HTTP status code answered by {@link Kind#STATUS}, {@link Kind#STATUS_WITHOUT_BODY},
   * {@link Kind#NON_JSON} and {@link Kind#TOO_MANY_REQUESTS} faults, 0 for the others.
   *
   * @return the status code
   */
  public int status() {
    return status;
  }

  /**
   * Returns the {@code Status} reason answered by {@link Kind#STATUS} and {@link
   * Kind#TOO_MANY_REQUESTS} faults, null for the others.
   *
   * @return the reason
   */
  public String reason() {
    return reason;
  }

  /**
   * Returns the {@code Status} message answered by {@link Kind#STATUS} and {@link
   * Kind#TOO_MANY_REQUESTS} faults, null for the others.
   *
   * @return the message
   */
  public String message() {
    return message;
  }

  /**
   * Returns how long a {@link Kind#DELAY} fault holds the answer back, zero for the others.
   *
   * @return the delay
   */
  public Duration delay() {
    return kind == Kind.DELAY ? delay : Duration.ZERO;
  }

  /**
   * Returns the {@code Retry-After} seconds of a {@link Kind#TOO_MANY_REQUESTS} fault, 0 for the
   * others.
   *
   * @return the seconds
   */
  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /**
   * Returns whether this fault matches a request.
   *
   * @param method the request's HTTP method
   * @param path the request's path without the query
   * @return true if the verb and the path match
   */
  public boolean matches(String method, String path) {
    return ("*".equals(verb) || verb.equalsIgnoreCase(method)) && pattern.matcher(path).matches();
  }

  /**
   * Returns whether this fault matches a request from a client.
   *
   * @param method the request's HTTP method
   * @param path the request's path without the query
   * @param requestClientId the id of the client that sent it, or {@code ""} for none
   * @return true if the verb and the path match and, for a fault {@linkplain Builder#forClient
   *     scoped to a client}, the client is that one
   */
  public boolean matches(String method, String path, String requestClientId) {
    return (clientId == null || clientId.equals(requestClientId)) && matches(method, path);
  }

  /** Returns a description naming the kind, verb, path regex and number of uses. */
  @Override
  public String toString() {
    return "Fault["
        + kind
        + " on "
        + verb
        + " "
        + pathRegex
        + (clientId != null ? " from " + clientId : "")
        + (skip > 0 ? " after " + skip : "")
        + (isForever() ? " forever" : " x" + times)
        + (status != 0 ? " status=" + status : "")
        + (kind == Kind.DELAY ? " delay=" + delay : "")
        + (kind == Kind.DROP_WATCH ? " events=" + events : "")
        + "]";
  }

  /**
   * Chooses how often a fault answers and, with its final method, what it does.
   *
   * <p>Not thread safe; each final method returns a new immutable {@link Fault}.
   */
  public static final class Builder {
    private final String verb;
    private final String pathRegex;
    private final Pattern pattern;
    private int times = 1;
    private int skip;
    private String clientId;

    private Builder(String verb, String pathRegex) {
      Objects.requireNonNull(verb, "verb");
      Objects.requireNonNull(pathRegex, "pathRegex");
      this.verb = verb.toUpperCase(Locale.ROOT);
      this.pathRegex = pathRegex;
      this.pattern = Pattern.compile(pathRegex);
    }

    /**
     * Makes the fault answer the next {@code n} matching requests (default 1).
     *
     * @param n the number of requests, at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code n} is less than 1
     */
    public Builder times(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("times must be at least 1, but was " + n);
      }
      this.times = n;
      return this;
    }

    /**
     * Lets the first {@code n} matching requests through normally before the fault starts
     * answering, for example to fail only the second page of a list (default 0).
     *
     * @param n the number of matching requests to let through, at least 0
     * @return this builder
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public Builder skip(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("skip must not be negative, but was " + n);
      }
      this.skip = n;
      return this;
    }

    /**
     * Scopes the fault to one client: it answers only requests sent by the client that {@link
     * FakeKubernetesApiServer#newClient(String)} made with this id, so two scheduler nodes on one
     * server can see different failures. Other clients' requests pass and do not count towards
     * {@link #times(int)} or {@link #skip(int)}.
     *
     * @param clientId the client's id, for example {@code "node-a"}
     * @return this builder
     */
    public Builder forClient(String clientId) {
      this.clientId = Objects.requireNonNull(clientId, "clientId");
      return this;
    }

    /**
     * Makes the fault answer every matching request until {@link Faults#clear()}.
     *
     * @return this builder
     */
    public Builder forever() {
      this.times = Integer.MAX_VALUE;
      return this;
    }

    /**
     * Makes a fault that resets the connection without answering; the request has no effect.
     *
     * @return the fault
     */
    public Fault connectionReset() {
      return new Fault(this, Kind.CONNECTION_RESET, 0, null, null, Duration.ZERO);
    }

    /**
     * Makes a fault that closes the connection without sending anything; the request has no effect.
     *
     * @return the fault
     */
    public Fault emptyResponse() {
      return new Fault(this, Kind.EMPTY_RESPONSE, 0, null, null, Duration.ZERO);
    }

    /**
     * Makes a fault that answers an HTML page, as a proxy or load balancer in front of the API
     * server does (typically 200 or 502); the request has no effect.
     *
     * @param status the HTTP status code
     * @return the fault
     */
    public Fault nonJson(int status) {
      checkStatus(status);
      return new Fault(this, Kind.NON_JSON, status, null, null, Duration.ZERO);
    }

    /**
     * Makes a fault that processes the request normally (the change is made at once) and then holds
     * the answer back for {@code delay}, so a client with a shorter read timeout sees a timeout
     * although the change was made.
     *
     * @param delay how long to hold the answer back
     * @return the fault
     */
    public Fault delay(Duration delay) {
      if (delay == null || delay.isNegative()) {
        throw new IllegalArgumentException("delay must not be negative, but was " + delay);
      }
      return new Fault(this, Kind.DELAY, 0, null, null, delay);
    }

    /**
     * Makes a fault that answers a Kubernetes {@code Status} body with this code, reason and
     * message, as the API server does; the request has no effect.
     *
     * @param code the HTTP status code, for example 500 or 503
     * @param reason the {@code Status} reason, for example {@code InternalError} or {@code
     *     ServiceUnavailable}
     * @param message the {@code Status} message
     * @return the fault
     */
    public Fault status(int code, String reason, String message) {
      checkStatus(code);
      return new Fault(
          this,
          Kind.STATUS,
          code,
          Objects.requireNonNull(reason, "reason"),
          Objects.requireNonNull(message, "message"),
          Duration.ZERO);
    }

    /**
     * Makes a fault that answers this status code with an empty body, as some proxies and load
     * balancers do; the request has no effect. client-java's generic API throws such an error as a
     * {@code RuntimeException} caused by an {@code ApiException}.
     *
     * @param code the HTTP status code, for example 503
     * @return the fault
     */
    public Fault statusWithoutBody(int code) {
      checkStatus(code);
      return new Fault(this, Kind.STATUS_WITHOUT_BODY, code, null, null, Duration.ZERO);
    }

    /**
     * Makes a fault that answers 429 {@code TooManyRequests} with a {@code Retry-After} header and
     * {@code details.retryAfterSeconds}, as API priority and fairness does; the request has no
     * effect.
     *
     * @param retryAfterSeconds the seconds to wait, at least 0
     * @return the fault
     */
    public Fault tooManyRequests(int retryAfterSeconds) {
      if (retryAfterSeconds < 0) {
        throw new IllegalArgumentException(
            "retryAfterSeconds must not be negative, but was " + retryAfterSeconds);
      }
      return new Fault(
          this,
          Kind.TOO_MANY_REQUESTS,
          429,
          "TooManyRequests",
          "Too many requests, please try again later.",
          Duration.ofSeconds(retryAfterSeconds));
    }

    /**
     * Makes a fault that answers this status with a plain-text body ({@code text/plain;
     * charset=utf-8}), as Go's {@code http.Error} writes it; for example {@code plainText(404, "404
     * page not found")} is what a proxy in front of the API server may answer for a served path.
     * The request has no effect.
     *
     * @param code the HTTP status code
     * @param body the body, without the trailing newline the server adds
     * @return the fault
     */
    public Fault plainText(int code, String body) {
      checkStatus(code);
      return new Fault(
          this, Kind.PLAIN_TEXT, code, null, Objects.requireNonNull(body, "body"), Duration.ZERO);
    }

    /**
     * Makes a fault that answers 429 as the real API server's priority-and-fairness and
     * max-in-flight filters do ({@code tooManyRequests} in apiserver's {@code
     * server/filters/maxinflight.go}): a plain-text body {@code Too many requests, please try again
     * later.}, no {@code Status}, and this {@code Retry-After} header; the request has no effect.
     *
     * @param retryAfter the header value, seconds ({@code "1"}, what the real server sends) or an
     *     HTTP date ({@code "Wed, 21 Oct 2026 07:28:00 GMT"}, as some proxies send)
     * @return the fault
     */
    public Fault tooManyRequestsAsText(String retryAfter) {
      Objects.requireNonNull(retryAfter, "retryAfter");
      if (retryAfter.isBlank() || retryAfter.contains("\n") || retryAfter.contains("\r")) {
        throw new IllegalArgumentException(
            "retryAfter must be a one-line header value, but was '" + retryAfter + "'");
      }
      return new Fault(
          this,
          Kind.TOO_MANY_REQUESTS_TEXT,
          429,
          null,
          "Too many requests, please try again later.",
          Duration.ZERO,
          retryAfter,
          0);
    }

    /**
     * Makes a fault for watches (verb {@code WATCH}) that lets the watch start and deliver {@code
     * events} events (synthetic ADDED events of the initial state included, bookmarks not), then
     * closes the connection without the final chunk, so the client's read fails mid-stream, as when
     * the connection breaks or the API server restarts. With 0 the connection closes right after
     * the 200 and its headers.
     *
     * <pre>{@code
     * server.faults().add(
     *     Fault.on("WATCH", "/apis/spark.apache.org/v1/namespaces/jobs/sparkapplications")
     *         .dropWatchAfter(2));
     * }</pre>
     *
     * @param events the number of events to deliver first, at least 0
     * @return the fault
     * @throws IllegalArgumentException if {@code events} is negative
     */
    public Fault dropWatchAfter(int events) {
      if (events < 0) {
        throw new IllegalArgumentException("events must not be negative, but was " + events);
      }
      return new Fault(this, Kind.DROP_WATCH, 0, null, null, Duration.ZERO, null, events);
    }

    /**
     * Makes a fault that applies the request (the object is created, changed or deleted) and then
     * resets the connection without answering, as when a response is lost on the network. Note that
     * OkHttp, by default, silently sends the request again on a reset connection.
     *
     * @return the fault
     */
    public Fault appliedThenLost() {
      return new Fault(this, Kind.APPLIED_THEN_LOST, 0, null, null, Duration.ZERO);
    }

    private static void checkStatus(int status) {
      if (status < 100 || status > 599) {
        throw new IllegalArgumentException(
            "status must be an HTTP status code between 100 and 599, but was " + status);
      }
    }
  }
}
