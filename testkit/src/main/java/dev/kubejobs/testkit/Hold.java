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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Stops one matching request inside the fake API server until the test releases it, so a test can
 * interleave two clients' steps deterministically: hold node A's DELETE, let node B act, then
 * release A. Add one with {@link FakeKubernetesApiServer#hold(Hold.Spec)}.
 *
 * <pre>{@code
 * Hold delete = server.hold(
 *     Hold.on("DELETE", "/apis/.+/sparkapplications/job-1").forClient("node-a").beforeApplying());
 * Future<?> cancel = executor.submit(() -> nodeA.cancel(id));
 * delete.awaitArrived();              // A's DELETE has reached the server, nothing applied yet
 * nodeB.status(id);                   // B acts while A waits
 * delete.release();                   // A's DELETE is now applied and answered
 * delete.awaitAnswered();
 * }</pre>
 *
 * <p>A hold catches the first request (after {@link Spec#skip(int)} others) whose verb and path
 * match and, if {@link Spec#forClient(String)} was given, that comes from that {@linkplain
 * FakeKubernetesApiServer#newClient(String) client}; later matching requests pass. A request held
 * {@linkplain Spec#beforeApplying() before applying} is recorded in the journal but neither faults
 * nor the store see it until it is released; one held {@linkplain Spec#afterApplying() after
 * applying} has changed the store (and used up its fault, if any) and its answer waits. A held
 * request is released anyway after {@link Spec#maxHold(Duration)} (default 30 seconds), when the
 * server is {@linkplain FakeKubernetesApiServer#reset() reset} or closed, so a failing test never
 * hangs a server thread; note that the client's own read timeout (10 seconds for {@code newClient})
 * may expire first.
 *
 * <p>Thread safe: the server thread serving the request and the test's threads share it.
 */
public final class Hold {

  /** When a held request waits. */
  public enum Stage {
    /** Before the fault check and the store: nothing has happened yet. */
    BEFORE_APPLYING,
    /** After the store applied the request; only the answer waits. */
    AFTER_APPLYING
  }

  private static final Duration DEFAULT_AWAIT = Duration.ofSeconds(10);

  private final Spec spec;
  private final Stage stage;
  private final CountDownLatch arrived = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);
  private final CountDownLatch answered = new CountDownLatch(1);
  private volatile RecordedRequest request;
  private volatile int answerStatus;
  private volatile boolean timedOut;
  private int skipped;
  private boolean caught;

  private Hold(Spec spec, Stage stage) {
    this.spec = spec;
    this.stage = stage;
  }

  /**
   * Starts describing a hold for the first request with this verb and a path that completely
   * matches this regular expression.
   *
   * @param verb the HTTP method, or {@code "*"} for any
   * @param pathRegex a regular expression over the path without the query string
   * @return a spec whose final method chooses the {@link Stage}
   * @throws java.util.regex.PatternSyntaxException if the regular expression is invalid
   */
  public static Spec on(String verb, String pathRegex) {
    return new Spec(verb, pathRegex);
  }

  /**
   * Returns when the held request waits.
   *
   * @return the stage
   */
  public Stage stage() {
    return stage;
  }

  /**
   * Returns whether a matching request has been caught and reached the stage where it waits.
   *
   * @return true once it arrived
   */
  public boolean hasArrived() {
    return arrived.getCount() == 0;
  }

  /**
   * Waits up to 10 seconds until a matching request is held.
   *
   * @return the held request
   * @throws AssertionError if none arrived in time, naming the hold
   */
  public RecordedRequest awaitArrived() {
    return awaitArrived(DEFAULT_AWAIT);
  }

  /**
   * Waits until a matching request is held.
   *
   * @param timeout how long to wait at most
   * @return the held request
   * @throws AssertionError if none arrived in time, naming the hold
   */
  public RecordedRequest awaitArrived(Duration timeout) {
    await(arrived, timeout, "no request arrived at");
    return request;
  }

  /**
   * Lets the held request go on (or, if none has arrived yet, lets the next one pass without
   * waiting); calling it again does nothing.
   */
  public void release() {
    released.countDown();
  }

  /**
   * Waits up to 10 seconds until the server has built the held request's answer after its release.
   *
   * @return the HTTP status answered, or 0 if a fault closes the connection without an answer
   * @throws AssertionError if it was not answered in time, naming the hold
   */
  public int awaitAnswered() {
    return awaitAnswered(DEFAULT_AWAIT);
  }

  /**
   * Waits until the server has built the held request's answer after its release.
   *
   * @param timeout how long to wait at most
   * @return the HTTP status answered, or 0 if a fault closes the connection without an answer
   * @throws AssertionError if it was not answered in time, naming the hold
   */
  public int awaitAnswered(Duration timeout) {
    await(answered, timeout, "the held request was not answered at");
    return answerStatus;
  }

  /**
   * Returns the held request, or null before one arrived.
   *
   * @return the request
   */
  public RecordedRequest request() {
    return request;
  }

  /**
   * Returns whether the request was let go because {@link Spec#maxHold(Duration)} passed without a
   * {@link #release()}.
   *
   * @return true if the hold timed out
   */
  public boolean timedOut() {
    return timedOut;
  }

  /** Returns a description naming the verb, path regex, client and stage. */
  @Override
  public String toString() {
    return "Hold["
        + spec.verb
        + " "
        + spec.pathRegex
        + (spec.clientId != null ? " from " + spec.clientId : "")
        + (spec.skip > 0 ? " after " + spec.skip : "")
        + " "
        + stage
        + "]";
  }

  /**
   * Catches this request if it is the one to hold; called under the holds' lock.
   *
   * @return true if this hold takes the request
   */
  boolean tryCatch(String method, String path, String clientId) {
    if (caught || released.getCount() == 0 || !spec.matches(method, path, clientId)) {
      return false;
    }
    if (skipped < spec.skip) {
      skipped++;
      return false;
    }
    caught = true;
    return true;
  }

  /** Blocks the serving thread until released or the maximal hold passes. */
  void block(RecordedRequest held) {
    this.request = held;
    arrived.countDown();
    try {
      if (!released.await(spec.maxHold.toMillis(), TimeUnit.MILLISECONDS)) {
        timedOut = true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Records that the held request was answered. */
  void answered(int status) {
    this.answerStatus = status;
    answered.countDown();
  }

  private void await(CountDownLatch latch, Duration timeout, String what) {
    try {
      if (!latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(what + " " + this + " within " + timeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting: " + what + " " + this, e);
    }
  }

  /**
   * Describes which request to hold and when; {@link FakeKubernetesApiServer#hold(Hold.Spec)} turns
   * it into a {@link Hold}.
   *
   * <p>Not thread safe.
   */
  public static final class Spec {
    private final String verb;
    private final String pathRegex;
    private final Pattern pattern;
    private String clientId;
    private int skip;
    private Duration maxHold = Duration.ofSeconds(30);
    private Stage stage = Stage.BEFORE_APPLYING;

    private Spec(String verb, String pathRegex) {
      this.verb = Objects.requireNonNull(verb, "verb").toUpperCase(Locale.ROOT);
      this.pathRegex = Objects.requireNonNull(pathRegex, "pathRegex");
      this.pattern = Pattern.compile(pathRegex);
    }

    /**
     * Holds only a request from the client made by {@link
     * FakeKubernetesApiServer#newClient(String)} with this id.
     *
     * @param clientId the client's id, for example {@code "node-a"}
     * @return this spec
     */
    public Spec forClient(String clientId) {
      this.clientId = Objects.requireNonNull(clientId, "clientId");
      return this;
    }

    /**
     * Lets the first {@code n} matching requests pass before holding one (default 0).
     *
     * @param n the number of requests to let pass, at least 0
     * @return this spec
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public Spec skip(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("skip must not be negative, but was " + n);
      }
      this.skip = n;
      return this;
    }

    /**
     * Sets how long a request is held at most without {@link Hold#release()} (default 30 seconds).
     *
     * @param maxHold a positive duration
     * @return this spec
     * @throws IllegalArgumentException if not positive
     */
    public Spec maxHold(Duration maxHold) {
      if (maxHold == null || maxHold.isNegative() || maxHold.isZero()) {
        throw new IllegalArgumentException("maxHold must be positive, but was " + maxHold);
      }
      this.maxHold = maxHold;
      return this;
    }

    /**
     * Stops the request before anything happens to it: no fault, no change (the default).
     *
     * @return this spec, to add with {@link FakeKubernetesApiServer#hold(Hold.Spec)}
     */
    public Spec beforeApplying() {
      this.stage = Stage.BEFORE_APPLYING;
      return this;
    }

    /**
     * Lets the server apply the request (fault included) and stops its answer.
     *
     * @return this spec, to add with {@link FakeKubernetesApiServer#hold(Hold.Spec)}
     */
    public Spec afterApplying() {
      this.stage = Stage.AFTER_APPLYING;
      return this;
    }

    Hold build() {
      return new Hold(this, stage);
    }

    boolean matches(String method, String path, String client) {
      return ("*".equals(verb) || verb.equalsIgnoreCase(method))
          && (clientId == null || clientId.equals(client))
          && pattern.matcher(path).matches();
    }
  }
}
