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
package dev.kubejobs.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.spi.SecretKeys;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which names {@link SecretKeys} takes for secrets. */
class SecretKeysTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "password",
        "DB_PASSWORD",
        "passwd",
        "DB_PASSWD",
        "spark.hadoop.fs.s3a.secret.key",
        "spark.hadoop.fs.s3a.access.key",
        "GITHUB_TOKEN",
        "aws.Credentials.file",
        "SecretRef",
        "KEY"
      })
  void aNameContainingASecretWordInAnyCaseLooksSecret(String name) {
    assertThat(SecretKeys.looksSecret(name)).isTrue();
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"spark.executor.memory", "PATH", "user", "pass", "ke-y", "to ken"})
  void otherNamesDoNotLookSecret(String name) {
    assertThat(SecretKeys.looksSecret(name)).isFalse();
  }
}
