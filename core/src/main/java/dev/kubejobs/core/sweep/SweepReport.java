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

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What one sweep found and did: every orphan, and every resource of a job ended past retention
 * ({@link SweepEntry#cause()} tells which), with its {@link SweepEntry.Outcome}, the namespaces
 * that could not be listed, and how many resources were kept.
 *
 * <p>Immutable and thread safe.
 */
public final class SweepReport {
  private final boolean dryRun;
  private final List<SweepEntry> entries;
  private final Map<String, String> failedNamespaces;
  private final int scanned;
  private final int keptKnown;
  private final int keptYoung;

  private SweepReport(Builder b) {
    this.dryRun = b.dryRun;
    this.entries = List.copyOf(b.entries);
    this.failedNamespaces = Collections.unmodifiableMap(new LinkedHashMap<>(b.failedNamespaces));
    this.scanned = b.scanned;
    this.keptKnown = b.keptKnown;
    this.keptYoung = b.keptYoung;
  }

  /**
   * Returns a builder for a report; used by sweepers, and by tests of the caller's own code.
   *
   * @param dryRun whether the sweep was a dry run
   * @return a new builder
   */
  public static Builder builder(boolean dryRun) {
    return new Builder(dryRun);
  }

  /**
   * Returns whether this was a dry run (nothing was deleted).
   *
   * @return true for a dry run
   */
  public boolean dryRun() {
    return dryRun;
  }

  /**
   * Returns every orphan found, in the order handled.
   *
   * @return an unmodifiable list
   */
  public List<SweepEntry> entries() {
    return entries;
  }

  /**
   * Returns the orphans with one of the given outcomes.
   *
   * @param first an outcome
   * @param more more outcomes
   * @return an unmodifiable list, in the order handled
   */
  public List<SweepEntry> entries(SweepEntry.Outcome first, SweepEntry.Outcome... more) {
    Set<SweepEntry.Outcome> wanted = EnumSet.of(first, more);
    return entries.stream()
        .filter(e -> wanted.contains(e.outcome()))
        .collect(Collectors.toUnmodifiableList());
  }

  /**
   * Returns the entries of one cause: {@link SweepEntry.Cause#ORPHAN} or {@link
   * SweepEntry.Cause#ENDED_PAST_RETENTION}.
   *
   * @param cause the cause
   * @return an unmodifiable list, in the order handled
   */
  public List<SweepEntry> entries(SweepEntry.Cause cause) {
    return entries.stream()
        .filter(e -> e.cause() == cause)
        .collect(Collectors.toUnmodifiableList());
  }

  /**
   * Returns the resources whose delete was accepted, orphans and ended jobs alike.
   *
   * @return an unmodifiable list; empty for a dry run
   */
  public List<SweepEntry> deleted() {
    return entries(SweepEntry.Outcome.DELETED);
  }

  /**
   * Returns the orphans a dry run would have deleted.
   *
   * @return an unmodifiable list; empty unless a dry run
   */
  public List<SweepEntry> wouldDelete() {
    return entries(SweepEntry.Outcome.WOULD_DELETE);
  }

  /**
   * Returns the orphans that were not deleted although they should have been: {@link
   * SweepEntry.Outcome#FAILED} and {@link SweepEntry.Outcome#REPLACED}, each with its reason.
   *
   * @return an unmodifiable list
   */
  public List<SweepEntry> failed() {
    return entries(SweepEntry.Outcome.FAILED, SweepEntry.Outcome.REPLACED);
  }

  /**
   * Returns the namespaces that could not be listed, with why (for example a missing {@code list}
   * permission).
   *
   * @return an unmodifiable map from namespace to reason
   */
  public Map<String, String> failedNamespaces() {
    return failedNamespaces;
  }

  /**
   * Returns how many resources of this deployment were listed.
   *
   * @return the number
   */
  public int scanned() {
    return scanned;
  }

  /**
   * Returns how many resources were kept because the caller knows their job.
   *
   * @return the number
   */
  public int keptKnown() {
    return keptKnown;
  }

  /**
   * Returns how many orphans were kept because they are younger than the grace period (or have no
   * creation time).
   *
   * @return the number
   */
  public int keptYoung() {
    return keptYoung;
  }

  /**
   * Returns whether every orphan was dealt with and every namespace listed: nothing {@link
   * #failed()} and no {@link #failedNamespaces()}.
   *
   * @return true if nothing failed
   */
  public boolean isComplete() {
    return failed().isEmpty() && failedNamespaces.isEmpty();
  }

  /**
   * Returns a one-line summary, with the reason of each failure.
   *
   * @return the summary
   */
  public String summary() {
    StringBuilder s = new StringBuilder(dryRun ? "orphan sweep (dry run): " : "orphan sweep: ");
    s.append(scanned).append(" scanned, ");
    s.append(keptKnown).append(" of known jobs, ");
    s.append(keptYoung).append(" younger than the grace period, ");
    s.append(dryRun ? wouldDelete().size() + " would be deleted" : deleted().size() + " deleted");
    long ended =
        entries(SweepEntry.Cause.ENDED_PAST_RETENTION).stream()
            .filter(
                e ->
                    e.outcome()
                        == (dryRun ? SweepEntry.Outcome.WOULD_DELETE : SweepEntry.Outcome.DELETED))
            .count();
    if (ended > 0) {
      s.append(" (").append(ended).append(" of them of jobs ended past retention)");
    }
    List<SweepEntry> kept = entries(SweepEntry.Outcome.KEPT);
    if (!kept.isEmpty()) {
      s.append(", ").append(kept.size()).append(" ended but kept: ");
      s.append(kept.stream().map(SweepEntry::toString).collect(Collectors.joining("; ")));
    }
    int gone = entries(SweepEntry.Outcome.ALREADY_GONE, SweepEntry.Outcome.ALREADY_DELETING).size();
    if (gone > 0) {
      s.append(", ").append(gone).append(" already gone or being deleted");
    }
    List<String> problems = new ArrayList<>();
    failed().forEach(e -> problems.add(e.toString()));
    failedNamespaces.forEach((ns, why) -> problems.add("namespace " + ns + ": " + why));
    if (!problems.isEmpty()) {
      s.append("; ")
          .append(problems.size())
          .append(" failed: ")
          .append(String.join("; ", problems));
    }
    return s.toString();
  }

  @Override
  public String toString() {
    return summary();
  }

  /** Collects a {@link SweepReport}. Not thread safe. */
  public static final class Builder {
    private final boolean dryRun;
    private final List<SweepEntry> entries = new ArrayList<>();
    private final Map<String, String> failedNamespaces = new LinkedHashMap<>();
    private int scanned;
    private int keptKnown;
    private int keptYoung;

    private Builder(boolean dryRun) {
      this.dryRun = dryRun;
    }

    /**
     * Adds an orphan and its outcome.
     *
     * @param entry the entry
     * @return this builder
     */
    public Builder add(SweepEntry entry) {
      entries.add(java.util.Objects.requireNonNull(entry, "entry"));
      return this;
    }

    /**
     * Records a namespace that could not be listed.
     *
     * @param namespace the namespace
     * @param reason why
     * @return this builder
     */
    public Builder failedNamespace(String namespace, String reason) {
      failedNamespaces.put(namespace, reason);
      return this;
    }

    /**
     * Counts a listed resource of this deployment.
     *
     * @return this builder
     */
    public Builder scanned() {
      scanned++;
      return this;
    }

    /**
     * Counts a resource kept because its job is known.
     *
     * @return this builder
     */
    public Builder keptKnown() {
      keptKnown++;
      return this;
    }

    /**
     * Counts an orphan kept because it is too young.
     *
     * @return this builder
     */
    public Builder keptYoung() {
      keptYoung++;
      return this;
    }

    /**
     * Builds the report.
     *
     * @return the report
     */
    public SweepReport build() {
      return new SweepReport(this);
    }
  }
}
