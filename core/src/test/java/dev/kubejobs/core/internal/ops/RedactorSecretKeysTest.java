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
package dev.kubejobs.core.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

/**
 * {@link Redactor} takes for secrets what the Spark spec's {@code toString()} masks: one rule,
 * {@code SecretKeys}.
 */
class RedactorSecretKeysTest {

  @Test
  void aPasswdConfValueAndAPasswdEnvironmentVariableAreMasked() {
    // given: a manifest with secret-looking keys the old Redactor rule did not know (passwd)
    Redactor redactor =
        Redactor.of(
            JsonParser.parseString(
                    "{\"spec\": {\"sparkConf\": {\"spark.db.passwd\": \"hunter22\"},"
                        + " \"driver\": {\"env\": [{\"name\": \"DB_PASSWD\", \"value\":"
                        + " \"s3cr3t-env\"}]}}}")
                .getAsJsonObject());

    // when: the server quotes both values
    String text = redactor.redact("refused hunter22 and s3cr3t-env");

    // then
    assertThat(text).isEqualTo("refused **** and ****");
  }

  @Test
  void aValueOfAnInnocentKeyIsKept() {
    Redactor redactor =
        Redactor.of(
            JsonParser.parseString("{\"spark.executor.memory\": \"4096m\"}").getAsJsonObject());

    assertThat(redactor.redact("4096m")).isEqualTo("4096m");
  }
}
