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
 * kept, and how long a SparkApplication may go without any status before kubejobs deletes it and
 * fails the job.
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

  private ApacheOptions(Builder b) {
    this.apiVersion = b.apiVersion;
    this.restartPolicy = b.restartPolicy;
    this.maxRestartAttempts = b.maxRestartAttempts;
    this.resourceRetainPolicy = b.resourceRetainPolicy;
    this.resourceRetainDuration = b.resourceRetainDuration;
    this.noStatusTimeout = b.noStatusTimeout;
  }

  /**
   * Returns the defaults: API version {@code v1}, restart policy Never, resource retain policy
   * Never, no resource retain duration written, no-status timeout 10 minutes.
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
     * Builds the options.
     *
     * @return the options
     * @throws InvalidJobSpecException if a resource retain duration is set with API version {@code
     *     v1beta1}, whose CRD has no such field
     */
    public ApacheOptions build() {
      if (resourceRetainDuration != null && apiVersion == ApiVersion.V1BETA1) {
        throw Checks.invalid(
            "resourceRetainDuration",
            "not be set with apiVersion v1beta1 (its CRD has no resourceRetainDurationMillis; use"
                + " v1)",
            resourceRetainDuration);
      }
      return new ApacheOptions(this);
    }

    private static <T> T notNull(String setting, T value) {
      if (value == null) {
        throw Checks.invalid(setting, "not be null", null);
      }
      return Objects.requireNonNull(value);
    }
  }
}
