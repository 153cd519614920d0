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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MessagesTest {

  @Test
  void shortMessagePassesUnchangedAndNullBecomesEmpty() {
    assertThat(Messages.cap("exit status 1")).isEqualTo("exit status 1");
    assertThat(Messages.cap(null)).isEmpty();
    String exactly = "x".repeat(Messages.MAX_MESSAGE_CHARS);
    assertThat(Messages.cap(exactly)).isSameAs(exactly);
  }

  @Test
  void longMessageKeepsHeadAndTailWithinTheLimitAndSaysHowMuchWasCut() {
    // An operator's errorMessage of several megabytes: spark-submit's whole stderr.
    String head = "failed to run spark-submit: Exception in thread \"main\" ";
    String tail = "exceeded quota: compute, requested: limits.memory=8Gi";
    String message = head + "at org.apache.spark.deploy...\n".repeat(200_000) + tail;

    String capped = Messages.cap(message);

    assertThat(capped).hasSizeLessThanOrEqualTo(Messages.MAX_MESSAGE_CHARS);
    assertThat(capped).startsWith(head).endsWith(tail);
    int kept = capped.length() - capped.replaceAll(" …\\[\\d+ chars cut]… ", "").length();
    String number = capped.replaceAll("(?s).* …\\[(\\d+) chars cut]… .*", "$1");
    assertThat(Integer.parseInt(number) + capped.length() - kept).isEqualTo(message.length());
  }

  @Test
  void capNeverSplitsASurrogatePair() {
    String emoji = "\uD83D\uDE00";
    String message = emoji.repeat(1000);
    for (int limit = 64; limit < 200; limit++) {
      String capped = Messages.cap(message, limit);
      assertThat(capped.length()).isLessThanOrEqualTo(limit);
      assertThat(Character.isLowSurrogate(capped.charAt(0))).isFalse();
      String body = capped.replaceAll(" …\\[\\d+ chars cut]… ", "");
      assertThat(body.length() % 2).as("limit %d: %s", limit, capped).isZero();
    }
  }

  @Test
  void limitBelowTheMinimumIsRefusedWithTheRule() {
    assertThatThrownBy(() -> Messages.cap("x", 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limit must be at least 64 chars, but was 10");
  }
}
