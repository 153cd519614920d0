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
package dev.kubejobs.spark;

import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.spark.internal.Checks;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of the Apache Spark Kubernetes Operator ({@code spark.apache.org}) job kind: the API
 * version written, the restart and resource retain policies with how long retained resources are
 * kept, the operator's timeouts for a driver and executors to start ({@code
 * applicationTolerations.applicationTimeoutConfig}), how long the operator keeps an application
 * after it stopped ({@code ttlAfterStopMillis}), and how long a SparkApplication may go without any
 * status before kubejobs deletes it and fails the job.
 *
 * <p>Instances are immutable and thread safe; start from {@link #ofDefaults()} or {@link
 * #builder()}.
 */
public final class ApacheOptions {
  /** The API version of {@code sparkapplications.spark.apache.org} to write. */
  public enum ApiVersion {
    /** {@code v1}, served by operator 0.5 and later. */
    V1("v1"),
    /** {@code v1beta1}, for operators 0.3 and 0.4 (whose {@code attemptInfo} holds only an id). */
    V1BETA1("v1beta1");

    private final String text;

    ApiVersion(String text) {
      this.text = text;
    }

    /**
     * Returns the version as written in {@code apiVersion}.
     *
     * @return for example {@code v1}
     */
    public String text() {
      return text;
    }
  }

  /** When the operator restarts an application whose attempt ended ({@code restartPolicy}). */
  public enum RestartPolicy {
    /** Never restart: the first attempt's outcome is the job's outcome. */
    NEVER("Never"),
    /** Restart after every attempt, up to the maximum number of attempts. */
    ALWAYS("Always"),
    /** Restart after a failed attempt. */
    ON_FAILURE("OnFailure"),
    /** Restart after an attempt lost to the infrastructure (scheduling, eviction). */
    ON_INFRASTRUCTURE_FAILURE("OnInfrastructureFailure");

    private final String text;

    RestartPolicy(String text) {
      this.text = text;
    }

    /**
     * Returns the policy as written in the SparkApplication.
     *
     * @return for example {@code Never}
     */
    public String text() {
      return text;
    }
  }

  /** Whether the operator keeps the driver and executors after the application ended. */
  public enum ResourceRetainPolicy {
    /** Release them whatever the outcome (the operator's default). */
    NEVER("Never"),
    /** Keep them whatever the outcome, for debugging; they count against quotas. */
    ALWAYS("Always"),
    /** Keep them when the application failed. */
    ON_FAILURE("OnFailure");

    private final String text;

    ResourceRetainPolicy(String text) {
      this.text = text;
    }

    /**
     * Returns the policy as written in the SparkApplication.
     *
     * @return for example {@code Never}
     */
    public String text() {
      return text;
    }
  }

  private static final ApacheOptions DEFAULTS = new Builder().build();

  private final ApiVersion apiVersion;
  private final RestartPolicy restartPolicy;
  private final int maxRestartAttempts;
  private final ResourceRetainPolicy resourceRetainPolicy;
  private final Duration resourceRetainDuration;
  private final Duration noStatusTimeout;
  private final Duration driverStartTimeout;
  private final Duration driverReadyTimeout;
  private final Duration executorStartTimeout;
  private final Duration ttlAfterStop;

  private ApacheOptions(Builder b) {
    this.apiVersion = b.apiVersion;
    this.restartPolicy = b.restartPolicy;
    this.maxRestartAttempts = b.maxRestartAttempts;
    this.resourceRetainPolicy = b.resourceRetainPolicy;
    this.resourceRetainDuration = b.resourceRetainDuration;
    this.noStatusTimeout = b.noStatusTimeout;
    this.driverStartTimeout = b.driverStartTimeout;
    this.driverReadyTimeout = b.driverReadyTimeout;
    this.executorStartTimeout = b.executorStartTimeout;
    this.ttlAfterStop = b.ttlAfterStop;
  }

  /**
   * Returns the defaults: API version {@code v1}, restart policy Never, resource retain policy
   * Never, no resource retain duration, operator timeouts or time to live written (the operator's
   * own defaults apply), no-status timeout 10 minutes.
   *
   * @return the shared default options
   */
  public static ApacheOptions ofDefaults() {
    return DEFAULTS;
  }

  /**
   * Returns a builder starting from the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder holding these options.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.apiVersion = apiVersion;
    b.restartPolicy = restartPolicy;
    b.maxRestartAttempts = maxRestartAttempts;
    b.resourceRetainPolicy = resourceRetainPolicy;
    b.resourceRetainDuration = resourceRetainDuration;
    b.noStatusTimeout = noStatusTimeout;
    b.driverStartTimeout = driverStartTimeout;
    b.driverReadyTimeout = driverReadyTimeout;
    b.executorStartTimeout = executorStartTimeout;
    b.ttlAfterStop = ttlAfterStop;
    return b;
  }

  /**
   * Returns the API version written.
   *
   * @return the version
   */
  public ApiVersion apiVersion() {
    return apiVersion;
  }

  /**
   * Returns the restart policy written.
   *
   * @return the policy
   */
  public RestartPolicy restartPolicy() {
    return restartPolicy;
  }

  /**
   * Returns the maximum number of restarts, written when the restart policy is not Never.
   *
   * @return at least 1
   */
  public int maxRestartAttempts() {
    return maxRestartAttempts;
  }

  /**
   * Returns the resource retain policy written.
   *
   * @return the policy
   */
  public ResourceRetainPolicy resourceRetainPolicy() {
    return resourceRetainPolicy;
  }

  /**
   * Returns how long the operator keeps what the {@linkplain #resourceRetainPolicy() retain policy}
   * retains (the driver pod with its log, the executors) after the application ended, written as
   * {@code spec.applicationTolerations.resourceRetainDurationMillis}; empty when not written (the
   * operator then keeps them as long as the SparkApplication).
   *
   * @return the duration, if set
   */
  public Optional<Duration> resourceRetainDuration() {
    return Optional.ofNullable(resourceRetainDuration);
  }

  /**
   * Returns how long a SparkApplication may have no status at all before kubejobs deletes it and
   * fails the job.
   *
   * @return a positive duration
   */
  public Duration noStatusTimeout() {
    return noStatusTimeout;
  }

  /**
   * Returns how long the operator waits for the driver pod to start after requesting it before it
   * fails the attempt ({@code
   * spec.applicationTolerations.applicationTimeoutConfig.driverStartTimeoutMillis}); empty when not
   * written (the operator's default, 300 seconds in 1.0.0, applies).
   *
   * @return the timeout, if set
   */
  public Optional<Duration> driverStartTimeout() {
    return Optional.ofNullable(driverStartTimeout);
  }

  /**
   * Returns how long the operator waits for a started driver to become ready before it fails the
   * attempt ({@code
   * spec.applicationTolerations.applicationTimeoutConfig.driverReadyTimeoutMillis}); empty when not
   * written (the operator's default, 300 seconds in 1.0.0, applies).
   *
   * @return the timeout, if set
   */
  public Optional<Duration> driverReadyTimeout() {
    return Optional.ofNullable(driverReadyTimeout);
  }

  /**
   * Returns how long the operator waits for the executors to start once the driver is ready ({@code
   * spec.applicationTolerations.applicationTimeoutConfig.executorStartTimeoutMillis}); empty when
   * not written (the operator's default, 300 seconds in 1.0.0, applies).
   *
   * @return the timeout, if set
   */
  public Optional<Duration> executorStartTimeout() {
    return Optional.ofNullable(executorStartTimeout);
  }

  /**
   * Returns how long after the application stopped the operator deletes the SparkApplication
   * itself, with what it retained ({@code spec.applicationTolerations.ttlAfterStopMillis} of the
   * {@code v1} CRD); empty when not written (the operator then never deletes it). Once the operator
   * deleted it, kubejobs reads the job as gone.
   *
   * @return the time to live, if set
   */
  public Optional<Duration> ttlAfterStop() {
    return Optional.ofNullable(ttlAfterStop);
  }

  @Override
  public String toString() {
    return "ApacheOptions{apiVersion="
        + apiVersion.text()
        + ", restartPolicy="
        + restartPolicy.text()
        + (restartPolicy != RestartPolicy.NEVER ? ", maxRestartAttempts=" + maxRestartAttempts : "")
        + ", resourceRetainPolicy="
        + resourceRetainPolicy.text()
        + (resourceRetainDuration != null
            ? ", resourceRetainDuration=" + resourceRetainDuration
            : "")
        + (driverStartTimeout != null ? ", driverStartTimeout=" + driverStartTimeout : "")
        + (driverReadyTimeout != null ? ", driverReadyTimeout=" + driverReadyTimeout : "")
        + (executorStartTimeout != null ? ", executorStartTimeout=" + executorStartTimeout : "")
        + (ttlAfterStop != null ? ", ttlAfterStop=" + ttlAfterStop : "")
        + ", noStatusTimeout="
        + noStatusTimeout
        + "}";
  }

  /** Builds {@link ApacheOptions}; each setter checks its value. Not thread safe. */
  public static final class Builder {
    private ApiVersion apiVersion = ApiVersion.V1;
    private RestartPolicy restartPolicy = RestartPolicy.NEVER;
    private int maxRestartAttempts = 3;
    private ResourceRetainPolicy resourceRetainPolicy = ResourceRetainPolicy.NEVER;
    private Duration resourceRetainDuration;
    private Duration noStatusTimeout = Duration.ofMinutes(10);
    private Duration driverStartTimeout;
    private Duration driverReadyTimeout;
    private Duration executorStartTimeout;
    private Duration ttlAfterStop;

    private Builder() {}

    /**
     * Sets the API version written; the default is {@link ApiVersion#V1}.
     *
     * @param apiVersion the version
     * @return this builder
     * @throws InvalidJobSpecException if null
     */
    public Builder apiVersion(ApiVersion apiVersion) {
      this.apiVersion = notNull("apiVersion", apiVersion);
      return this;
    }

    /**
     * Sets the restart policy; the default is {@link RestartPolicy#NEVER}, so the first attempt's
     * outcome is reported as soon as the operator records it.
     *
     * @param restartPolicy the policy
     * @return this builder
     * @throws InvalidJobSpecException if null
     */
    public Builder restartPolicy(RestartPolicy restartPolicy) {
      this.restartPolicy = notNull("restartPolicy", restartPolicy);
      return this;
    }

    /**
     * Sets the maximum number of restarts when the restart policy is not Never; the default is 3.
     *
     * @param maxRestartAttempts at least 1
     * @return this builder
     * @throws InvalidJobSpecException if less than 1
     */
    public Builder maxRestartAttempts(int maxRestartAttempts) {
      this.maxRestartAttempts = Checks.positive("maxRestartAttempts", maxRestartAttempts);
      return this;
    }

    /**
     * Sets the resource retain policy; the default is {@link ResourceRetainPolicy#NEVER}.
     *
     * @param resourceRetainPolicy the policy
     * @return this builder
     * @throws InvalidJobSpecException if null
     */
    public Builder resourceRetainPolicy(ResourceRetainPolicy resourceRetainPolicy) {
      this.resourceRetainPolicy = notNull("resourceRetainPolicy", resourceRetainPolicy);
      return this;
    }

    /**
     * Sets how long the operator keeps retained resources after the application ended ({@code
     * spec.applicationTolerations.resourceRetainDurationMillis} of the {@code v1} CRD): with retain
     * policy {@link ResourceRetainPolicy#ALWAYS}, the driver pod and its log stay readable that
     * long after the job ended, then the operator releases them. Not written by default.
     *
     * @param resourceRetainDuration zero or positive, whole milliseconds
     * @return this builder
     * @throws InvalidJobSpecException if null or negative
     */
    public Builder resourceRetainDuration(Duration resourceRetainDuration) {
      if (resourceRetainDuration == null || resourceRetainDuration.isNegative()) {
        throw Checks.invalid(
            "resourceRetainDuration", "be zero or a positive duration", resourceRetainDuration);
      }
      this.resourceRetainDuration = resourceRetainDuration;
      return this;
    }

    /**
     * Sets how long a SparkApplication may have no status before it is deleted and its job failed;
     * the default is 10 minutes.
     *
     * @param noStatusTimeout a positive duration
     * @return this builder
     * @throws InvalidJobSpecException if null, zero or negative
     */
    public Builder noStatusTimeout(Duration noStatusTimeout) {
      if (noStatusTimeout == null || noStatusTimeout.isZero() || noStatusTimeout.isNegative()) {
        throw Checks.invalid("noStatusTimeout", "be a positive duration", noStatusTimeout);
      }
      this.noStatusTimeout = noStatusTimeout;
      return this;
    }

    /**
     * Sets how long the operator waits for the driver pod to start after requesting it ({@code
     * spec.applicationTolerations.applicationTimeoutConfig.driverStartTimeoutMillis}); past it the
     * operator fails the attempt, so a job whose image never pulls ends FAILED then rather than
     * staying QUEUED. Not written by default (the operator's default, 300 seconds in 1.0.0).
     *
     * @param driverStartTimeout at least one millisecond, written in whole milliseconds
     * @return this builder
     * @throws InvalidJobSpecException if null or shorter than one millisecond
     */
    public Builder driverStartTimeout(Duration driverStartTimeout) {
      this.driverStartTimeout = atLeastOneMilli("driverStartTimeout", driverStartTimeout);
      return this;
    }

    /**
     * Sets how long the operator waits for a started driver to become ready ({@code
     * spec.applicationTolerations.applicationTimeoutConfig.driverReadyTimeoutMillis}). Not written
     * by default (the operator's default, 300 seconds in 1.0.0).
     *
     * @param driverReadyTimeout at least one millisecond, written in whole milliseconds
     * @return this builder
     * @throws InvalidJobSpecException if null or shorter than one millisecond
     */
    public Builder driverReadyTimeout(Duration driverReadyTimeout) {
      this.driverReadyTimeout = atLeastOneMilli("driverReadyTimeout", driverReadyTimeout);
      return this;
    }

    /**
     * Sets how long the operator waits for the executors to start once the driver is ready ({@code
     * spec.applicationTolerations.applicationTimeoutConfig.executorStartTimeoutMillis}). Not
     * written by default (the operator's default, 300 seconds in 1.0.0).
     *
     * @param executorStartTimeout at least one millisecond, written in whole milliseconds
     * @return this builder
     * @throws InvalidJobSpecException if null or shorter than one millisecond
     */
    public Builder executorStartTimeout(Duration executorStartTimeout) {
      this.executorStartTimeout = atLeastOneMilli("executorStartTimeout", executorStartTimeout);
      return this;
    }

    /**
     * Sets how long after the application stopped the operator deletes the SparkApplication and
     * what it retained ({@code spec.applicationTolerations.ttlAfterStopMillis} of the {@code v1}
     * CRD). kubejobs reads a job whose resource the operator deleted as gone ({@code
     * NoSuchJobException}), so set it longer than the time your callers take to read an ended job's
     * outcome. Not written by default: the operator keeps the application until it is deleted (by
     * kubejobs' retention and ended-jobs sweep, for example).
     *
     * @param ttlAfterStop zero or positive, whole milliseconds
     * @return this builder
     * @throws InvalidJobSpecException if null or negative
     */
    public Builder ttlAfterStop(Duration ttlAfterStop) {
      if (ttlAfterStop == null || ttlAfterStop.isNegative()) {
        throw Checks.invalid("ttlAfterStop", "be zero or a positive duration", ttlAfterStop);
      }
      this.ttlAfterStop = ttlAfterStop;
      return this;
    }

    /**
     * Builds the options.
     *
     * @return the options
     * @throws InvalidJobSpecException if a resource retain duration or a time to live after stop is
     *     set with API version {@code v1beta1}, whose CRD has no such fields
     */
    public ApacheOptions build() {
      if (ttlAfterStop != null && apiVersion == ApiVersion.V1BETA1) {
        throw Checks.invalid(
            "ttlAfterStop",
            "not be set with apiVersion v1beta1 (its CRD has no ttlAfterStopMillis; use v1)",
            ttlAfterStop);
      }
      if (resourceRetainDuration != null && apiVersion == ApiVersion.V1BETA1) {
        throw Checks.invalid(
            "resourceRetainDuration",
            "not be set with apiVersion v1beta1 (its CRD has no resourceRetainDurationMillis; use"
                + " v1)",
            resourceRetainDuration);
      }
      return new ApacheOptions(this);
    }

    private static Duration atLeastOneMilli(String setting, Duration value) {
      if (value == null || value.toMillis() < 1) {
        throw Checks.invalid(setting, "be at least one millisecond", value);
      }
      return value;
    }

    private static <T> T notNull(String setting, T value) {
      if (value == null) {
        throw Checks.invalid(setting, "not be null", null);
      }
      return Objects.requireNonNull(value);
    }
  }
}
