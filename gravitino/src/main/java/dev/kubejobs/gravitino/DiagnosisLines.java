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
package dev.kubejobs.gravitino;

import dev.kubejobs.core.diagnosis.Diagnosis;
import dev.kubejobs.core.diagnosis.Evidence;
import dev.kubejobs.core.diagnosis.Messages;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines {@link KubeJobsSparkExecutor#getJobStderr} returns for a job that carries a {@link
 * Diagnosis}: {@code "[kubejobs] Job <id>: <CAUSE>: <sentence>"}, then one {@code "[kubejobs] "}
 * line per piece of evidence (pod condition, container state, event with its count and times), each
 * on one line and capped by {@link Messages#cap(String, int)}; at most {@code maxLines} lines and
 * {@code maxBytes} UTF-8 bytes in all, the last line cut to fit. Stateless.
 */
final class DiagnosisLines {

  /** The longest line, in chars, before the byte budget is applied: {@value}. */
  static final int MAX_LINE_CHARS = 2048;

  private static final String PREFIX = "[kubejobs] ";

  private DiagnosisLines() {}

  static List<String> of(String jobId, Diagnosis diagnosis, int maxLines, int maxBytes) {
    List<String> all = new ArrayList<>();
    all.add(
        line(
            PREFIX
                + "Job "
                + jobId
                + ": "
                + diagnosis.cause().name()
                + ": "
                + diagnosis.summary()));
    for (Evidence e : diagnosis.evidence()) {
      all.add(line(PREFIX + "  " + e));
    }
    List<String> out = new ArrayList<>();
    int budget = maxBytes;
    for (String l : all) {
      if (out.size() >= maxLines || budget <= 0) {
        break;
      }
      byte[] bytes = l.getBytes(StandardCharsets.UTF_8);
      if (bytes.length <= budget) {
        out.add(l);
        budget -= bytes.length;
      } else {
        out.add(cutToBytes(l, budget));
        budget = 0;
      }
    }
    return out;
  }

  private static String line(String text) {
    return Messages.cap(text.strip().replaceAll("\\s*\\R\\s*", " | "), MAX_LINE_CHARS);
  }

  /** The longest prefix of {@code s} whose UTF-8 form fits {@code bytes}, never half a char. */
  private static String cutToBytes(String s, int bytes) {
    int used = 0;
    int i = 0;
    while (i < s.length()) {
      int cp = s.codePointAt(i);
      int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (used + len > bytes) {
        break;
      }
      used += len;
      i += Character.charCount(cp);
    }
    return s.substring(0, i);
  }
}
