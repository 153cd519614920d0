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

import java.util.List;
import java.util.Objects;

/**
 * Why a job is stuck or why it failed: a stable {@link Cause}, one human sentence that names the
 * object and says what to do, and the {@link Evidence} it rests on.
 *
 * <p>Immutable and thread safe.
 */
public final class Diagnosis {
  private final Cause cause;
  private final String summary;
  private final List<Evidence> evidence;

  private Diagnosis(Cause cause, String summary, List<Evidence> evidence) {
    this.cause = Objects.requireNonNull(cause, "cause");
    this.summary = Messages.cap(Objects.requireNonNull(summary, "summary"));
    this.evidence = List.copyOf(evidence);
  }

  /**
   * Creates a diagnosis.
   *
   * @param cause the cause
   * @param summary one sentence naming the object and what to do; capped by {@link
   *     Messages#cap(String)}
   * @param evidence what it rests on, most telling first
   * @return a new diagnosis
   */
  public static Diagnosis of(Cause cause, String summary, List<Evidence> evidence) {
    return new Diagnosis(cause, summary, evidence);
  }

  /**
   * Returns the stable cause id.
   *
   * @return the cause
   */
  public Cause cause() {
    return cause;
  }

  /**
   * Returns one sentence naming the object and what to do, e.g. {@code "Driver pod jobs/app-driver
   * cannot pull image \"repo/spark:typo\": the registry says it does not exist; check the image
   * name and tag."}.
   *
   * @return the sentence
   */
  public String summary() {
    return summary;
  }

  /**
   * Returns the evidence, most telling first.
   *
   * @return an unmodifiable list
   */
  public List<Evidence> evidence() {
    return evidence;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Diagnosis)) {
      return false;
    }
    Diagnosis d = (Diagnosis) o;
    return cause == d.cause && summary.equals(d.summary) && evidence.equals(d.evidence);
  }

  @Override
  public int hashCode() {
    return Objects.hash(cause, summary, evidence);
  }

  /** Returns the cause and summary, then one evidence per line, indented. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(cause.name()).append(": ").append(summary);
    for (Evidence e : evidence) {
      s.append("\n  ").append(e);
    }
    return s.toString();
  }
}
