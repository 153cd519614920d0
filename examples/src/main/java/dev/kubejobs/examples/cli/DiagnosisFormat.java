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
package dev.kubejobs.examples.cli;

import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.Evidence;
import dev.kubejobs.core.diagnosis.Messages;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Prints a job's {@link Diagnosis} for a person at a terminal, as the {@code status} and {@code
 * watch} commands (and the demo) show it: the cause and its sentence, then the key evidence, one
 * line each.
 *
 * <pre>
 * diagnosis: IMAGE_PULL_FAILED: The driver image ... cannot be pulled ...
 * evidence:  CONTAINER_STATE ImagePullBackOff container spark-kubernetes-driver of Pod ...
 *            EVENT Warning Failed (x3, 2026-...Z to 2026-...Z) Pod ...: Failed to pull image ...
 *            (+2 more)
 * </pre>
 *
 * <p>Each line is one line (line breaks in a message become {@code " | "}) and at most {@link
 * #MAX_LINE_CHARS} long, cut by {@link Messages#cap(String, int)} so its head and tail stay; at
 * most {@link #MAX_EVIDENCE} pieces of evidence are printed, the first ones, which the diagnosis
 * lists most telling first. Stateless and thread safe.
 */
public final class DiagnosisFormat {

  /** The most evidence lines printed: {@value}. */
  public static final int MAX_EVIDENCE = 4;

  /** The longest line printed, in chars, its label included: {@value}. */
  public static final int MAX_LINE_CHARS = 300;

  private static final String CAUSE_LABEL = "diagnosis: ";
  private static final String EVIDENCE_LABEL = "evidence:  ";
  private static final String INDENT = " ".repeat(EVIDENCE_LABEL.length());

  private DiagnosisFormat() {}

  /**
   * Returns the lines that show a job's diagnosis, or none when its status carries none (a healthy
   * job, or one not yet waiting long enough).
   *
   * @param info the job's status
   * @return the lines, without line separators; empty without a diagnosis
   */
  public static List<String> lines(JobExecutionInfo info) {
    Optional<Diagnosis> diagnosis = info.diagnosis();
    return diagnosis.map(DiagnosisFormat::lines).orElse(List.of());
  }

  /**
   * Returns the lines that show a diagnosis: {@code "diagnosis: <CAUSE>: <sentence>"}, then the
   * first {@link #MAX_EVIDENCE} pieces of evidence, the first labelled {@code "evidence: "}, the
   * others indented as much, then {@code "(+N more)"} for those left out.
   *
   * @param diagnosis the diagnosis
   * @return the lines, without line separators
   */
  public static List<String> lines(Diagnosis diagnosis) {
    List<String> lines = new ArrayList<>();
    lines.add(line(CAUSE_LABEL, diagnosis.cause().name() + ": " + diagnosis.summary()));
    List<Evidence> evidence = diagnosis.evidence();
    for (int i = 0; i < evidence.size() && i < MAX_EVIDENCE; i++) {
      lines.add(line(i == 0 ? EVIDENCE_LABEL : INDENT, evidence.get(i).toString()));
    }
    if (evidence.size() > MAX_EVIDENCE) {
      lines.add(INDENT + "(+" + (evidence.size() - MAX_EVIDENCE) + " more)");
    }
    return lines;
  }

  /**
   * Returns what identifies a diagnosis for the {@code watch} command, which prints one again only
   * when it changed: its cause and sentence (evidence counts and times change on every retry).
   *
   * @param info the job's status
   * @return the key, or {@code ""} without a diagnosis
   */
  static String key(JobExecutionInfo info) {
    return info.diagnosis().map(d -> d.cause() + ": " + d.summary()).orElse("");
  }

  private static String line(String label, String text) {
    String oneLine = text.strip().replaceAll("\\s*\\R\\s*", " | ");
    return label + Messages.cap(oneLine, MAX_LINE_CHARS - label.length());
  }
}
