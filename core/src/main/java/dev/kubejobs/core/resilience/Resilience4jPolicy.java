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
package dev.kubejobs.core.resilience;

import dev.kubejobs.core.ApiUnavailableException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link ResiliencePolicy}: a Resilience4j {@link Retry} around a {@link
 * CircuitBreaker}, that is {@code Retry(CircuitBreaker(request))}.
 *
 * <p><b>Why this order.</b> The breaker sees every attempt, so consecutive unreachable attempts of
 * one operation count individually and the breaker opens after a handful of them rather than after
 * a handful of whole retried operations. Once it is open, its refusal is handed to the retry as a
 * final answer, not as a failure, so an operation fails at once with {@link
 * ApiUnavailableException} instead of waiting out the retry's back-off.
 *
 * <p><b>What is retried and what is counted.</b> Whatever {@code Retry} or {@code CircuitBreaker}
 * is passed in, only {@link ApiCallFailure}s are ever thrown through the retry (so a 4xx answer is
 * never retried, even by a retry configured to retry every exception), only unreachable failures
 * are thrown through the breaker (so 4xx, 5xx and 429 answers never open it: the server is
 * reachable), and a non-retryable request (a create) bypasses the retry altogether.
 *
 * <p><b>Defaults</b> ({@link #defaultRetryConfig()}, {@link #defaultCircuitBreakerConfig(Clock)}):
 * 3 attempts, exponential random back-off from 200 ms (doubling, capped at 5 s), a server's {@code
 * Retry-After} honoured up to 10 s; the breaker opens after 5 consecutive unreachable attempts,
 * fails calls at once for 10 s, then lets one probe request through (half-open) and closes again
 * when it succeeds.
 *
 * <p>Retries are logged at DEBUG, breaker transitions at WARN (open) and INFO (others), for the
 * instances this class creates; subscribe to {@link #retry()} and {@link #circuitBreaker()} event
 * publishers for more. Instances are immutable and thread safe.
 */
public final class Resilience4jPolicy implements ResiliencePolicy {
  private static final Logger LOG = LoggerFactory.getLogger(Resilience4jPolicy.class);

  /** The longest {@code Retry-After} the default retry honours; longer hints are capped. */
  public static final Duration DEFAULT_MAX_RETRY_AFTER = Duration.ofSeconds(10);

  private final Retry retry;
  private final CircuitBreaker circuitBreaker;

  private Resilience4jPolicy(Retry retry, CircuitBreaker circuitBreaker) {
    this.retry = retry;
    this.circuitBreaker = circuitBreaker;
  }

  /**
   * Returns a policy over the given instances, used as they are (their events are not logged by
   * kubejobs).
   *
   * @param retry the retry; it only ever sees {@link ApiCallFailure}s
   * @param circuitBreaker the breaker; it only ever sees unreachable failures
   * @return the policy
   */
  public static Resilience4jPolicy of(Retry retry, CircuitBreaker circuitBreaker) {
    return new Resilience4jPolicy(
        Objects.requireNonNull(retry, "retry"),
        Objects.requireNonNull(circuitBreaker, "circuitBreaker"));
  }

  /**
   * Returns a policy with new instances built from the given configs, named {@code name}, whose
   * retries and transitions are logged.
   *
   * @param name the instance name, for example {@code kubejobs-prod}
   * @param retryConfig the retry config
   * @param circuitBreakerConfig the breaker config
   * @return the policy
   */
  public static Resilience4jPolicy of(
      String name, RetryConfig retryConfig, CircuitBreakerConfig circuitBreakerConfig) {
    Objects.requireNonNull(name, "name");
    Retry retry = Retry.of(name, Objects.requireNonNull(retryConfig, "retryConfig"));
    CircuitBreaker breaker =
        CircuitBreaker.of(
            name, Objects.requireNonNull(circuitBreakerConfig, "circuitBreakerConfig"));
    logEvents(retry, breaker);
    return new Resilience4jPolicy(retry, breaker);
  }

  /**
   * Returns a policy with the default configs.
   *
   * @param name the instance name
   * @param clock the clock the breaker measures its open state with
   * @return the policy
   */
  public static Resilience4jPolicy ofDefaults(String name, Clock clock) {
    return of(name, defaultRetryConfig(), defaultCircuitBreakerConfig(clock));
  }

  /**
   * Returns the default retry config: 3 attempts, exponential random back-off from 200 ms capped at
   * 5 s, {@code Retry-After} honoured up to {@link #DEFAULT_MAX_RETRY_AFTER}.
   *
   * @return the config
   */
  public static RetryConfig defaultRetryConfig() {
    return RetryConfig.custom()
        .maxAttempts(3)
        .intervalBiFunction(
            retryAfterAware(
                IntervalFunction.ofExponentialRandomBackoff(
                    Duration.ofMillis(200), 2.0, 0.5, Duration.ofSeconds(5)),
                DEFAULT_MAX_RETRY_AFTER))
        .retryOnException(e -> e instanceof ApiCallFailure)
        .build();
  }

  /**
   * Returns the default breaker config: opens after 5 consecutive unreachable attempts, stays open
   * 10 s, then half-opens for one probe.
   *
   * @param clock the clock measuring the open state (tests pass a mutable one)
   * @return the config
   */
  public static CircuitBreakerConfig defaultCircuitBreakerConfig(Clock clock) {
    return CircuitBreakerConfig.custom()
        .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
        .slidingWindowSize(5)
        .minimumNumberOfCalls(5)
        .failureRateThreshold(100)
        .waitDurationInOpenState(Duration.ofSeconds(10))
        .permittedNumberOfCallsInHalfOpenState(1)
        .recordException(e -> e instanceof ApiCallFailure f && f.isUnreachable())
        .clock(Objects.requireNonNull(clock, "clock"))
        .build();
  }

  /**
   * Returns an interval function that waits as long as a 429's {@code Retry-After} asks (at most
   * {@code maxRetryAfter}) and otherwise as {@code backoff} says. Use it in your own {@link
   * RetryConfig} to keep honouring the server's hint.
   *
   * @param backoff the interval when the server gave no hint
   * @param maxRetryAfter the cap on a server's hint
   * @param <T> the result type
   * @return the interval function
   */
  public static <T> IntervalBiFunction<T> retryAfterAware(
      IntervalFunction backoff, Duration maxRetryAfter) {
    Objects.requireNonNull(backoff, "backoff");
    Objects.requireNonNull(maxRetryAfter, "maxRetryAfter");
    return (attempt, either) -> {
      long base = backoff.apply(attempt);
      if (either != null && either.isLeft() && either.getLeft() instanceof ApiCallFailure f) {
        long hinted =
            f.retryAfter().map(d -> Math.min(d.toMillis(), maxRetryAfter.toMillis())).orElse(-1L);
        if (hinted >= 0) {
          return hinted;
        }
      }
      return base;
    };
  }

  /**
   * Returns the retry, to subscribe to its events.
   *
   * @return the retry
   */
  public Retry retry() {
    return retry;
  }

  /**
   * Returns the circuit breaker, to subscribe to its events or read its state.
   *
   * @return the breaker
   */
  public CircuitBreaker circuitBreaker() {
    return circuitBreaker;
  }

  @Override
  public <T> T execute(String operation, boolean retryable, Supplier<T> attempt) {
    Objects.requireNonNull(attempt, "attempt");
    // Only unreachable failures are thrown through the breaker; everything else is returned.
    Supplier<Outcome<T>> guarded =
        () -> {
          try {
            return Outcome.value(attempt.get());
          } catch (ApiCallFailure f) {
            if (f.isUnreachable()) {
              throw f;
            }
            return Outcome.failure(f);
          } catch (RuntimeException e) {
            return Outcome.failure(e);
          }
        };
    Supplier<Outcome<T>> breakered =
        () -> {
          try {
            return circuitBreaker.executeSupplier(guarded);
          } catch (CallNotPermittedException e) {
            return Outcome.failure(
                new ApiUnavailableException(
                    null,
                    "the Kubernetes API server could not be reached a moment ago (circuit breaker '"
                        + circuitBreaker.getName()
                        + "' is open), so '"
                        + operation
                        + "' was not sent; retry later",
                    e));
          }
        };
    Outcome<T> outcome;
    if (retryable) {
      // Only transient failures are thrown through the retry; final ones are returned.
      outcome =
          retry.executeSupplier(
              () -> {
                Outcome<T> o = breakered.get();
                if (o.failure instanceof ApiCallFailure f) {
                  throw f;
                }
                return o;
              });
    } else {
      outcome = breakered.get();
    }
    return outcome.get();
  }

  private static void logEvents(Retry retry, CircuitBreaker breaker) {
    retry
        .getEventPublisher()
        .onRetry(
            e ->
                LOG.debug(
                    "Retry '{}': attempt {} failed, retrying in {}: {}",
                    e.getName(),
                    e.getNumberOfRetryAttempts(),
                    e.getWaitInterval(),
                    e.getLastThrowable() == null ? "" : e.getLastThrowable().getMessage()));
    breaker
        .getEventPublisher()
        .onStateTransition(
            e -> {
              if (e.getStateTransition().getToState() == CircuitBreaker.State.OPEN) {
                LOG.warn(
                    "Circuit breaker '{}' opened: the Kubernetes API server could not be reached;"
                        + " requests fail at once until a probe succeeds",
                    e.getCircuitBreakerName());
              } else {
                LOG.info(
                    "Circuit breaker '{}': {}", e.getCircuitBreakerName(), e.getStateTransition());
              }
            });
  }

  @Override
  public String toString() {
    return "Resilience4jPolicy{retry='"
        + retry.getName()
        + "', circuitBreaker='"
        + circuitBreaker.getName()
        + "' "
        + circuitBreaker.getState()
        + "}";
  }

  /** A value or a final failure, so that final failures pass the retry and breaker untouched. */
  private static final class Outcome<T> {
    private final T value;
    private final RuntimeException failure;

    private Outcome(T value, RuntimeException failure) {
      this.value = value;
      this.failure = failure;
    }

    static <T> Outcome<T> value(T value) {
      return new Outcome<>(value, null);
    }

    static <T> Outcome<T> failure(RuntimeException failure) {
      return new Outcome<>(null, failure);
    }

    T get() {
      if (failure != null) {
        throw failure;
      }
      return value;
    }
  }
}
