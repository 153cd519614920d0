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
package dev.kubejobs.spark.internal;

import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.spi.KubernetesNames;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Validation rules shared by the spec and the options; each check throws {@link
 * InvalidJobSpecException} naming the setting, the rule and the value. Not a published API.
 */
public final class Checks {
  private static final Pattern SPARK_SIZE = Pattern.compile("[1-9][0-9]{0,8}([kmgtp]b?)");
  private static final Pattern ENV_NAME = Pattern.compile("[-._a-zA-Z][-._a-zA-Z0-9]*");

  private Checks() {}

  /**
   * Quotes a value for a message.
   *
   * @param value the value
   * @return {@code 'value'}, or {@code null}
   */
  public static String quote(Object value) {
    return value == null ? "null" : "'" + value + "'";
  }

  /**
   * Returns an exception whose message names setting, rule and value.
   *
   * @param setting the setting
   * @param rule what the value must do or be, after "must"
   * @param value the value given
   * @return the exception to throw
   */
  public static InvalidJobSpecException invalid(String setting, String rule, Object value) {
    return new InvalidJobSpecException(setting + " must " + rule + ", but was " + quote(value));
  }

  /**
   * Checks a required non-blank text.
   *
   * @param setting the setting
   * @param value the value
   * @return the value
   */
  public static String notBlank(String setting, String value) {
    if (value == null || value.isBlank()) {
      throw invalid(setting, "be set to non-blank text", value);
    }
    if (!value.strip().equals(value)) {
      throw invalid(setting, "not start or end with white space", value);
    }
    return value;
  }

  /**
   * Checks a DNS-1123 label such as a namespace.
   *
   * @param setting the setting
   * @param value the value
   * @return the value
   */
  public static String dnsLabel(String setting, String value) {
    if (!KubernetesNames.isDns1123Label(value)) {
      throw invalid(
          setting,
          "be a DNS-1123 label (at most 63 lower-case letters, digits or '-', starting and"
              + " ending with a letter or digit)",
          value);
    }
    return value;
  }

  /**
   * Checks a DNS-1123 subdomain such as a service account name.
   *
   * @param setting the setting
   * @param value the value
   * @return the value
   */
  public static String dnsSubdomain(String setting, String value) {
    if (!KubernetesNames.isDns1123Subdomain(value)) {
      throw invalid(
          setting,
          "be a DNS-1123 subdomain (at most 253 lower-case letters, digits, '-' or '.')",
          value);
    }
    return value;
  }

  /**
   * Checks a positive count.
   *
   * @param setting the setting
   * @param value the value
   * @return the value
   */
  public static int positive(String setting, int value) {
    if (value < 1) {
      throw invalid(setting, "be at least 1", value);
    }
    return value;
  }

  /**
   * Checks a Spark memory size such as {@code 512m} or {@code 4g}.
   *
   * @param setting the setting
   * @param value the value
   * @return the value, in lower case
   */
  public static String sparkSize(String setting, String value) {
    String lower = value == null ? null : value.toLowerCase(Locale.ROOT);
    if (lower == null || !SPARK_SIZE.matcher(lower).matches()) {
      throw invalid(
          setting,
          "be a positive whole amount with a Spark size unit k, m, g, t or p (for example 512m"
              + " or 4g; Kubernetes units such as Gi are not understood by Spark)",
          value);
    }
    return lower;
  }

  /**
   * Checks a Kubernetes label or annotation key (an optional DNS subdomain prefix and a name).
   *
   * @param setting the setting, for example {@code labels}
   * @param key the key
   * @return the key
   */
  public static String qualifiedKey(String setting, String key) {
    String rule =
        "have keys of the form [prefix/]name, where name is 1-63 letters, digits, '-', '_' or"
            + " '.' starting and ending with a letter or digit and prefix is a DNS-1123 subdomain";
    if (!KubernetesNames.isQualifiedName(key)) {
      throw invalid(setting, rule, key);
    }
    return key;
  }

  /**
   * Checks that a user label or annotation key is not one kubejobs owns.
   *
   * @param setting the setting
   * @param key the key
   * @return the key
   */
  public static String notReserved(String setting, String key) {
    if (key.startsWith("kubejobs.dev/") || key.equals(JobIdentity.LABEL_MANAGED_BY)) {
      throw invalid(
          setting,
          "not use keys kubejobs owns (kubejobs.dev/* and " + JobIdentity.LABEL_MANAGED_BY + ")",
          key);
    }
    return key;
  }

  /**
   * Checks a label value.
   *
   * @param setting the setting, for example {@code labels['team']}
   * @param value the value
   * @return the value
   */
  public static String labelValue(String setting, String value) {
    if (!KubernetesNames.isLabelValue(value)) {
      throw invalid(
          setting,
          "be a label value: at most 63 letters, digits, '-', '_' or '.', starting and ending"
              + " with a letter or digit",
          value);
    }
    return value;
  }

  /**
   * Checks an environment variable name.
   *
   * @param setting the setting
   * @param name the name
   * @return the name
   */
  public static String envName(String setting, String name) {
    if (name == null || !ENV_NAME.matcher(name).matches()) {
      throw invalid(
          setting,
          "have names of letters, digits, '_', '-' or '.', not starting with a digit",
          name);
    }
    return name;
  }
}
