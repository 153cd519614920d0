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

/**
 * Settings of the Kubeflow Spark operator ({@code sparkoperator.k8s.io/v1beta2}) job kind: the
 * restart policy written and how long a SparkApplication may go without a state before kubejobs
 * deletes it and fails the job.
 *
 * <p>Instances are immutable and thread safe; start from {@link #ofDefaults()} or {@link
 * #builder()}.
 */
public final class KubeflowOptions {
  /** When the operator reruns an application ({@code restartPolicy.type}). */
  public enum RestartPolicy {
    /** Never rerun: the first run's outcome is the job's outcome. */
    NEVER("Never"),
    /** Rerun after a failure, up to the number of retries. */
    ON_FAILURE("OnFailure"),
    /** Rerun after every run. */
    ALWAYS("Always");

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

  private static final KubeflowOptions DEFAULTS = new Builder().build();

  private final RestartPolicy restartPolicy;
  private final int onFailureRetries;
  private final Duration noStatusTimeout;

  private KubeflowOptions(Builder b) {
    this.restartPolicy = b.restartPolicy;
    this.onFailureRetries = b.onFailureRetries;
    this.noStatusTimeout = b.noStatusTimeout;
  }

  /**
   * Returns the defaults: restart policy Never, no-status timeout 10 minutes.
   *
   * @return the shared default options
   */
  public static KubeflowOptions ofDefaults() {
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
    b.restartPolicy = restartPolicy;
    b.onFailureRetries = onFailureRetries;
    b.noStatusTimeout = noStatusTimeout;
    return b;
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
   * Returns the number of reruns after failures (and after submission failures), written when the
   * restart policy is {@link RestartPolicy#ON_FAILURE}.
   *
   * @return at least 0
   */
  public int onFailureRetries() {
    return onFailureRetries;
  }

  /**
   * Returns how long a SparkApplication may have no state before kubejobs deletes it and fails the
   * job.
   *
   * @return a positive duration
   */
  public Duration noStatusTimeout() {
    return noStatusTimeout;
  }

  @Override
  public String toString() {
    return "KubeflowOptions{restartPolicy="
        + restartPolicy.text()
        + (restartPolicy == RestartPolicy.ON_FAILURE
            ? ", onFailureRetries=" + onFailureRetries
            : "")
        + ", noStatusTimeout="
        + noStatusTimeout
        + "}";
  }

  /** Builds {@link KubeflowOptions}; each setter checks its value. Not thread safe. */
  public static final class Builder {
    private RestartPolicy restartPolicy = RestartPolicy.NEVER;
    private int onFailureRetries = 3;
    private Duration noStatusTimeout = Duration.ofMinutes(10);

    private Builder() {}

    /**
     * Sets the restart policy; the default is {@link RestartPolicy#NEVER}.
     *
     * @param restartPolicy the policy
     * @return this builder
     * @throws InvalidJobSpecException if null
     */
    public Builder restartPolicy(RestartPolicy restartPolicy) {
      if (restartPolicy == null) {
        throw Checks.invalid("restartPolicy", "not be null", null);
      }
      this.restartPolicy = restartPolicy;
      return this;
    }

    /**
     * Sets the number of reruns for {@link RestartPolicy#ON_FAILURE}; the default is 3.
     *
     * @param onFailureRetries at least 0
     * @return this builder
     * @throws InvalidJobSpecException if negative
     */
    public Builder onFailureRetries(int onFailureRetries) {
      if (onFailureRetries < 0) {
        throw Checks.invalid("onFailureRetries", "be at least 0", onFailureRetries);
      }
      this.onFailureRetries = onFailureRetries;
      return this;
    }

    /**
     * Sets how long a SparkApplication may have no state before it is deleted and its job failed;
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
     */
    public KubeflowOptions build() {
      return new KubeflowOptions(this);
    }
  }
}
