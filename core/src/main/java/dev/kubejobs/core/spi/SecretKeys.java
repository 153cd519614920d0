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
package dev.kubejobs.core.spi;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Tells which keys look like they hold a secret: a name containing {@code password}, {@code
 * passwd}, {@code secret}, {@code token}, {@code credential} or {@code key}, in any case (Spark
 * conf such as {@code spark.hadoop.fs.s3a.secret.key}, environment variables such as {@code
 * DB_PASSWD}). kubejobs replaces their values with {@value #MASK} where it prints them: a Spark job
 * spec's {@code toString()}, and text the API server sends back about a submit (an admission
 * webhook may quote a value it refused).
 *
 * <p>Stateless and thread safe.
 */
public final class SecretKeys {
  /** What a secret value is printed as: {@value}. */
  public static final String MASK = "****";

  private static final Pattern SECRET_WORDS =
      Pattern.compile("password|passwd|secret|token|credential|key");

  private SecretKeys() {}

  /**
   * Returns whether a key or variable name looks like it holds a secret.
   *
   * @param name the name, may be null
   * @return true if it contains password, passwd, secret, token, credential or key, in any case
   */
  public static boolean looksSecret(String name) {
    return name != null && SECRET_WORDS.matcher(name.toLowerCase(Locale.ROOT)).find();
  }
}
