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
package dev.kubejobs.core.sweep;

import dev.kubejobs.core.spi.KubernetesNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What one {@link OrphanSweeper#sweep(SweepRequest) sweep} looks at and may delete: the namespaces,
 * which job ids the caller still knows, the grace period and whether to delete or only report.
 *
 * <pre>{@code
 * SweepRequest request =
 *     SweepRequest.builder()
 *         .namespaces("etl", "ml")
 *         .knownJobs(jobStore::exists)
 *         .gracePeriod(Duration.ofHours(1))
 *         .dryRun(true)
 *         .build();
 * }</pre>
 *
 * <p>Instances are immutable and thread safe if the known-jobs predicate is.
 */
public final class SweepRequest {
  /** The default grace period: one hour. */
  public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofHours(1);

  private final List<String> namespaces;
  private final Predicate<String> knownJobs;
  private final Duration gracePeriod;
  private final boolean dryRun;
  private final Duration endedJobsKeptFor;

  private SweepRequest(Builder b) {
    this.namespaces = List.copyOf(b.namespaces);
    this.knownJobs = b.knownJobs;
    this.gracePeriod = b.gracePeriod;
    this.dryRun = b.dryRun;
    this.endedJobsKeptFor = b.endedJobsKeptFor;
  }

  /**
   * Returns a builder; namespaces and known jobs are required.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder holding this request's settings.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.namespaces.addAll(namespaces);
    b.knownJobs = knownJobs;
    b.gracePeriod = gracePeriod;
    b.dryRun = dryRun;
    b.endedJobsKeptFor = endedJobsKeptFor;
    return b;
  }

  /**
   * Returns the namespaces to sweep, each once, in the order given.
   *
   * @return an unmodifiable list
   */
  public List<String> namespaces() {
    return namespaces;
  }

  /**
   * Returns whether the caller knows a job id; resources of known jobs are kept.
   *
   * @param jobId the raw job id from a resource's {@code kubejobs.dev/job-id} annotation
   * @return true to keep the resource
   */
  public boolean isKnown(String jobId) {
    return knownJobs.test(jobId);
  }

  /**
   * Returns how old a resource must be before it may be deleted.
   *
   * @return the grace period
   */
  public Duration gracePeriod() {
    return gracePeriod;
  }

  /**
   * Returns whether the sweep only reports what it would delete.
   *
   * @return true for a dry run
   */
  public boolean dryRun() {
    return dryRun;
  }

  /**
   * Returns how long the resources of ended jobs are kept after their end, when the sweep removes
   * them; empty when it removes orphans only.
   *
   * @return the retention, or empty
   */
  public Optional<Duration> endedJobsKeptFor() {
    return Optional.ofNullable(endedJobsKeptFor);
  }

  @Override
  public String toString() {
    return "SweepRequest{namespaces="
        + namespaces
        + ", gracePeriod="
        + gracePeriod
        + ", dryRun="
        + dryRun
        + (endedJobsKeptFor == null ? "" : ", endedJobsKeptFor=" + endedJobsKeptFor)
        + "}";
  }

  /**
   * Builds a {@link SweepRequest}. Each setter validates its value and names the setting, the rule
   * and the value when it is wrong. Not thread safe.
   */
  public static final class Builder {
    private final Set<String> namespaces = new LinkedHashSet<>();
    private Predicate<String> knownJobs;
    private Duration gracePeriod = DEFAULT_GRACE_PERIOD;
    private boolean dryRun;
    private Duration endedJobsKeptFor;

    private Builder() {}

    /**
     * Sets the namespaces to sweep (required), replacing earlier ones.
     *
     * @param namespaces one or more lower-case DNS labels
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder namespaces(String... namespaces) {
      if (namespaces == null) {
        throw new IllegalArgumentException("namespaces must not be null");
      }
      // Not List.of: it throws NullPointerException on a null element.
      return namespaces(java.util.Arrays.asList(namespaces.clone()));
    }

    /**
     * Sets the namespaces to sweep (required), replacing earlier ones.
     *
     * @param namespaces one or more lower-case DNS labels of at most 63 characters
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder namespaces(Collection<String> namespaces) {
      if (namespaces == null || namespaces.isEmpty()) {
        throw new IllegalArgumentException(
            "namespaces must name at least one namespace, but was " + namespaces);
      }
      List<String> checked = new ArrayList<>();
      for (String ns : namespaces) {
        if (!KubernetesNames.isDns1123Label(ns)) {
          throw new IllegalArgumentException(
              "namespaces must be lower-case DNS labels of at most 63 characters, but one was "
                  + (ns == null ? "null" : "'" + ns + "'"));
        }
        checked.add(ns);
      }
      this.namespaces.clear();
      this.namespaces.addAll(checked);
      return this;
    }

    /**
     * Sets which job ids the caller knows (required); resources of known jobs are kept. The
     * predicate is called once per resource of this deployment with the raw job id; if it throws,
     * that resource is kept and reported as failed.
     *
     * @param knownJobs returns true for a job id the caller knows
     * @return this builder
     * @throws IllegalArgumentException if null
     */
    public Builder knownJobs(Predicate<String> knownJobs) {
      if (knownJobs == null) {
        throw new IllegalArgumentException("knownJobs must not be null");
      }
      this.knownJobs = knownJobs;
      return this;
    }

    /**
     * Sets the job ids the caller knows (required, may be empty); a copy is taken.
     *
     * @param knownJobIds the raw job ids
     * @return this builder
     * @throws IllegalArgumentException if null or holding null
     */
    public Builder knownJobIds(Collection<String> knownJobIds) {
      // Not contains(null): immutable collections throw on it.
      if (knownJobIds == null || knownJobIds.stream().anyMatch(java.util.Objects::isNull)) {
        throw new IllegalArgumentException(
            "knownJobIds must not be null nor hold null, but was " + knownJobIds);
      }
      Set<String> copy = Set.copyOf(knownJobIds);
      this.knownJobs = copy::contains;
      return this;
    }

    /**
     * Sets how old a resource must be, by its {@code creationTimestamp} and the instance's clock,
     * before it may be deleted; default one hour. A resource without a creation time is kept.
     *
     * @param gracePeriod zero or more
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder gracePeriod(Duration gracePeriod) {
      if (gracePeriod == null || gracePeriod.isNegative()) {
        throw new IllegalArgumentException(
            "gracePeriod must be zero or more, but was " + gracePeriod);
      }
      this.gracePeriod = gracePeriod;
      return this;
    }

    /**
     * Sets whether the sweep only reports what it would delete; default false.
     *
     * @param dryRun true to delete nothing
     * @return this builder
     */
    public Builder dryRun(boolean dryRun) {
      this.dryRun = dryRun;
      return this;
    }

    /**
     * Makes the sweep also delete the resources of ended jobs once they are past a retention
     * period, known jobs included: a job the status mapper of the instance's job kind reports
     * {@code SUCCEEDED}, {@code FAILED} or {@code CANCELLED} (decided as the status reader decides,
     * the driver pod looked up when the mapper asks for it), whose end time ({@code
     * JobExecutionInfo.finishedAt}) is more than {@code retention} before the instance's clock. A
     * job still queued, started or cancelling is never deleted this way, nor an ended job without
     * an end time (reported with outcome {@link SweepEntry.Outcome#KEPT} when its job is known).
     * Default: not set, orphans only.
     *
     * <p>Use it when the caller has its own record of each job's outcome and the resource is kept
     * only for its driver pod's log, for example the Apache operator's {@code
     * resourceRetainDuration}.
     *
     * @param retention zero or more; null turns it off
     * @return this builder
     * @throws IllegalArgumentException naming the rule and the value
     */
    public Builder endedJobsKeptFor(Duration retention) {
      if (retention != null && retention.isNegative()) {
        throw new IllegalArgumentException(
            "endedJobsKeptFor must be zero or more (or null for orphans only), but was "
                + retention);
      }
      this.endedJobsKeptFor = retention;
      return this;
    }

    /**
     * Builds the request.
     *
     * @return the request
     * @throws IllegalStateException if namespaces or known jobs were not set
     */
    public SweepRequest build() {
      if (namespaces.isEmpty()) {
        throw new IllegalStateException(
            "namespaces must be set: the namespaces to sweep, for example namespaces(\"etl\")");
      }
      if (knownJobs == null) {
        throw new IllegalStateException(
            "knownJobs or knownJobIds must be set: without them every resource would be an"
                + " orphan");
      }
      return new SweepRequest(this);
    }
  }
}
