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
package dev.kubejobs.core.diagnosis;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One fact a {@link Diagnosis} rests on: a pod condition, a container state, a pod's status, an
 * event or the operator's status, with the reason and message as the cluster wrote them (the
 * message capped by {@link Messages#cap(String)}), and for events how often and when.
 *
 * <p>Immutable and thread safe.
 */
public final class Evidence {

  /** Where a piece of evidence was read. */
  public enum Source {
    /** A condition in the pod's {@code status.conditions}, e.g. {@code PodScheduled}. */
    POD_CONDITION,
    /** A container's {@code state} or {@code lastState} in the pod's status. */
    CONTAINER_STATE,
    /** The pod's own {@code status.reason}/{@code status.message}, e.g. {@code Evicted}. */
    POD_STATUS,
    /** A Kubernetes Event about the pod, the application or its queueing object. */
    EVENT,
    /** The operator's status on the application resource. */
    OPERATOR_STATUS,
    /** Something kubejobs could not read, e.g. events without the permission to list them. */
    NOT_READ
  }

  private final Source source;
  private final String object;
  private final String type;
  private final String reason;
  private final String message;
  private final int count;
  private final Instant firstSeen;
  private final Instant lastSeen;

  private Evidence(Builder b) {
    this.source = Objects.requireNonNull(b.source, "source");
    this.object = Objects.requireNonNull(b.object, "object");
    this.type = b.type == null ? "" : b.type;
    this.reason = b.reason == null ? "" : b.reason;
    this.message = Messages.cap(b.message);
    this.count = b.count;
    this.firstSeen = b.firstSeen;
    this.lastSeen = b.lastSeen;
  }

  /**
   * Starts a piece of evidence.
   *
   * @param source where it was read
   * @param object the object it is about, e.g. {@code "Pod jobs/app-driver"} or {@code "container
   *     spark-kubernetes-driver of Pod jobs/app-driver"}
   * @return a new builder
   */
  public static Builder builder(Source source, String object) {
    return new Builder(source, object);
  }

  /**
   * Returns where this was read.
   *
   * @return the source
   */
  public Source source() {
    return source;
  }

  /**
   * Returns the object this is about, as kind, namespace/name (and container where one is meant).
   *
   * @return the object
   */
  public String object() {
    return object;
  }

  /**
   * Returns the event type ({@code Warning} or {@code Normal}) or the condition's status ({@code
   * False}); empty when not applicable.
   *
   * @return the type or status, never {@code null}
   */
  public String type() {
    return type;
  }

  /**
   * Returns the reason as written, e.g. {@code Unschedulable}, {@code ImagePullBackOff}, {@code
   * FailedMount}; empty when none was written.
   *
   * @return the reason, never {@code null}
   */
  public String reason() {
    return reason;
  }

  /**
   * Returns the message as written, capped by {@link Messages#cap(String)}.
   *
   * @return the message, never {@code null}
   */
  public String message() {
    return message;
  }

  /**
   * Returns how many times an event was seen (1 for a single event); 0 for evidence that is not an
   * event.
   *
   * @return the count
   */
  public int count() {
    return count;
  }

  /**
   * Returns when this was first seen (an event's first time, a condition's transition, a
   * container's start).
   *
   * @return the time, or empty when unknown
   */
  public Optional<Instant> firstSeen() {
    return Optional.ofNullable(firstSeen);
  }

  /**
   * Returns when this was last seen (an event's last time, a container's finish).
   *
   * @return the time, or empty when unknown
   */
  public Optional<Instant> lastSeen() {
    return Optional.ofNullable(lastSeen);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Evidence)) {
      return false;
    }
    Evidence e = (Evidence) o;
    return source == e.source
        && object.equals(e.object)
        && type.equals(e.type)
        && reason.equals(e.reason)
        && message.equals(e.message)
        && count == e.count
        && Objects.equals(firstSeen, e.firstSeen)
        && Objects.equals(lastSeen, e.lastSeen);
  }

  @Override
  public int hashCode() {
    return Objects.hash(source, object, type, reason, message, count, firstSeen, lastSeen);
  }

  /**
   * Returns one line in the manner of {@code kubectl describe}: {@code "EVENT Warning
   * FailedScheduling (x3, 2026-01-01T00:00:10Z to 2026-01-01T00:05:10Z) Pod jobs/app-driver: 0/3
   * nodes are available: ..."}.
   */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(source.name());
    if (!type.isEmpty()) {
      s.append(' ').append(type);
    }
    if (!reason.isEmpty()) {
      s.append(' ').append(reason);
    }
    if (count > 1 || firstSeen != null || lastSeen != null) {
      s.append(" (");
      if (count > 1) {
        s.append('x').append(count);
      }
      if (firstSeen != null || lastSeen != null) {
        if (count > 1) {
          s.append(", ");
        }
        s.append(firstSeen != null ? firstSeen : "?");
        if (lastSeen != null && !lastSeen.equals(firstSeen)) {
          s.append(" to ").append(lastSeen);
        }
      }
      s.append(')');
    }
    s.append(' ').append(object);
    if (!message.isEmpty()) {
      s.append(": ").append(message);
    }
    return s.toString();
  }

  /** Builds an {@link Evidence}; not thread safe. */
  public static final class Builder {
    private final Source source;
    private final String object;
    private String type;
    private String reason;
    private String message;
    private int count;
    private Instant firstSeen;
    private Instant lastSeen;

    private Builder(Source source, String object) {
      this.source = Objects.requireNonNull(source, "source");
      this.object = Objects.requireNonNull(object, "object");
    }

    /**
     * Sets the event type or condition status.
     *
     * @param type e.g. {@code Warning} or {@code False}
     * @return this builder
     */
    public Builder type(String type) {
      this.type = type;
      return this;
    }

    /**
     * Sets the reason.
     *
     * @param reason the reason as written
     * @return this builder
     */
    public Builder reason(String reason) {
      this.reason = reason;
      return this;
    }

    /**
     * Sets the message; it is capped when built.
     *
     * @param message the message as written
     * @return this builder
     */
    public Builder message(String message) {
      this.message = message;
      return this;
    }

    /**
     * Sets how often an event was seen.
     *
     * @param count the count, not negative
     * @return this builder
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public Builder count(int count) {
      if (count < 0) {
        throw new IllegalArgumentException("count must not be negative, but was " + count);
      }
      this.count = count;
      return this;
    }

    /**
     * Sets when this was first seen.
     *
     * @param firstSeen the time, or {@code null} when unknown
     * @return this builder
     */
    public Builder firstSeen(Instant firstSeen) {
      this.firstSeen = firstSeen;
      return this;
    }

    /**
     * Sets when this was last seen.
     *
     * @param lastSeen the time, or {@code null} when unknown
     * @return this builder
     */
    public Builder lastSeen(Instant lastSeen) {
      this.lastSeen = lastSeen;
      return this;
    }

    /**
     * Builds the evidence.
     *
     * @return a new evidence
     */
    public Evidence build() {
      return new Evidence(this);
    }
  }
}
