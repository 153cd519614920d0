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

import dev.kubejobs.core.internal.NameShapes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Checks names against the rules of the Kubernetes API server, as apimachinery's {@code
 * pkg/util/validation/validation.go} does: {@code IsDNS1123Label} (namespaces), {@code
 * IsDNS1123Subdomain} (most object names, API groups), {@code IsDNS1035Label}, {@code
 * IsQualifiedName} (label and annotation keys) and {@code IsValidLabelValue}. kubejobs and its
 * Spark module check what they send with it, so a bad name fails in the caller's code instead of as
 * the server's 422.
 *
 * <p>Each {@code check…} method returns why a value breaks the rule, in the API server's words (for
 * example {@code must be no more than 63 characters}), or nothing when it keeps it; each {@code
 * is…} method says only whether it does. A {@code null} value breaks every rule. Lengths count
 * {@code char}s: a value of other than ASCII letters, digits, '-', '_', '.' and '/' breaks every
 * rule anyway.
 *
 * <pre>{@code
 * KubernetesNames.checkDns1123Label("ETL")
 * // Optional[a lowercase RFC 1123 label must consist of lower case alphanumeric characters or
 * // '-', and must start and end with an alphanumeric character (e.g. 'my-name', or '123-abc')]
 * }</pre>
 *
 * <p>Stateless and thread safe.
 */
public final class KubernetesNames {
  /** The longest DNS-1123 label (a namespace): {@value}. */
  public static final int DNS1123_LABEL_MAX_LENGTH = 63;

  /** The longest DNS-1123 subdomain (most object names): {@value}. */
  public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

  /** The longest DNS-1035 label: {@value}. */
  public static final int DNS1035_LABEL_MAX_LENGTH = 63;

  /** The longest name part of a qualified name (a label or annotation key): {@value}. */
  public static final int QUALIFIED_NAME_MAX_LENGTH = 63;

  /** The longest label value: {@value}. */
  public static final int LABEL_VALUE_MAX_LENGTH = 63;

  private static final String DNS1123_LABEL_RULE =
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and"
          + " must start and end with an alphanumeric character (e.g. 'my-name', or '123-abc')";
  private static final String DNS1123_SUBDOMAIN_RULE =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or"
          + " '.', and must start and end with an alphanumeric character (e.g. 'example.com')";
  private static final String DNS1035_LABEL_RULE =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an"
          + " alphabetic character, and end with an alphanumeric character (e.g. 'my-name', or"
          + " 'abc-123')";
  private static final String QUALIFIED_NAME_RULE =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
          + " alphanumeric character (e.g. 'MyName', or 'my.name', or '123-abc')";
  private static final String LABEL_VALUE_RULE =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or"
          + " '.', and must start and end with an alphanumeric character (e.g. 'MyValue', or"
          + " 'my_value', or '12345')";

  private KubernetesNames() {}

  /**
   * Returns why a value is not a DNS-1123 label (RFC 1123), as {@code IsDNS1123Label}: 1-63
   * lower-case letters, digits or '-', starting and ending with a letter or digit. Namespaces are
   * such labels.
   *
   * @param value the value, may be null
   * @return the reason, or empty if the value is a DNS-1123 label
   */
  public static Optional<String> checkDns1123Label(String value) {
    return check(value, DNS1123_LABEL_MAX_LENGTH, NameShapes::dns1123Label, DNS1123_LABEL_RULE);
  }

  /**
   * Returns whether a value is a DNS-1123 label; see {@link #checkDns1123Label(String)}.
   *
   * @param value the value, may be null
   * @return true if it is
   */
  public static boolean isDns1123Label(String value) {
    return value != null
        && value.length() <= DNS1123_LABEL_MAX_LENGTH
        && NameShapes.dns1123Label(value);
  }

  /**
   * Returns why a value is not a DNS-1123 subdomain (RFC 1123), as {@code IsDNS1123Subdomain}: at
   * most 253 characters, DNS-1123 labels (of any length) joined by '.'. Most object names and API
   * groups are such subdomains.
   *
   * @param value the value, may be null
   * @return the reason, or empty if the value is a DNS-1123 subdomain
   */
  public static Optional<String> checkDns1123Subdomain(String value) {
    return check(
        value, DNS1123_SUBDOMAIN_MAX_LENGTH, NameShapes::dns1123Subdomain, DNS1123_SUBDOMAIN_RULE);
  }

  /**
   * Returns whether a value is a DNS-1123 subdomain; see {@link #checkDns1123Subdomain(String)}.
   *
   * @param value the value, may be null
   * @return true if it is
   */
  public static boolean isDns1123Subdomain(String value) {
    return value != null
        && value.length() <= DNS1123_SUBDOMAIN_MAX_LENGTH
        && NameShapes.dns1123Subdomain(value);
  }

  /**
   * Returns why a value is not a DNS-1035 label (RFC 1035), as {@code IsDNS1035Label}: a DNS-1123
   * label that starts with a letter.
   *
   * @param value the value, may be null
   * @return the reason, or empty if the value is a DNS-1035 label
   */
  public static Optional<String> checkDns1035Label(String value) {
    return check(value, DNS1035_LABEL_MAX_LENGTH, NameShapes::dns1035Label, DNS1035_LABEL_RULE);
  }

  /**
   * Returns whether a value is a DNS-1035 label; see {@link #checkDns1035Label(String)}.
   *
   * @param value the value, may be null
   * @return true if it is
   */
  public static boolean isDns1035Label(String value) {
    return checkDns1035Label(value).isEmpty();
  }

  /**
   * Returns why a value is not a qualified name, as {@code IsQualifiedName}: an optional prefix (a
   * DNS-1123 subdomain) and '/', then a name of 1-63 letters, digits, '-', '_' or '.', starting and
   * ending with a letter or digit. Label and annotation keys are qualified names, for example
   * {@code app.kubernetes.io/managed-by}.
   *
   * @param value the value, may be null
   * @return the reasons (each part's, joined by "; "), or empty if the value is a qualified name
   */
  public static Optional<String> checkQualifiedName(String value) {
    if (value == null) {
      return Optional.of("must not be null");
    }
    int slash = value.indexOf('/');
    if (slash >= 0 && value.indexOf('/', slash + 1) >= 0) {
      return Optional.of(
          "a qualified name "
              + QUALIFIED_NAME_RULE
              + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
    }
    List<String> reasons = new ArrayList<>();
    if (slash == 0) {
      reasons.add("prefix part must be non-empty");
    } else if (slash > 0) {
      checkDns1123Subdomain(value.substring(0, slash))
          .ifPresent(r -> reasons.add("prefix part " + r));
    }
    String name = value.substring(slash + 1);
    if (name.isEmpty()) {
      reasons.add("name part must be non-empty");
    } else if (name.length() > QUALIFIED_NAME_MAX_LENGTH) {
      reasons.add("name part " + tooLong(QUALIFIED_NAME_MAX_LENGTH));
    }
    if (!NameShapes.qualified(name)) {
      reasons.add("name part " + QUALIFIED_NAME_RULE);
    }
    return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", reasons));
  }

  /**
   * Returns whether a value is a qualified name; see {@link #checkQualifiedName(String)}.
   *
   * @param value the value, may be null
   * @return true if it is
   */
  public static boolean isQualifiedName(String value) {
    return checkQualifiedName(value).isEmpty();
  }

  /**
   * Returns why a value is not a label value, as {@code IsValidLabelValue}: empty, or 1-63 letters,
   * digits, '-', '_' or '.', starting and ending with a letter or digit.
   *
   * @param value the value, may be null
   * @return the reason, or empty if the value is a label value
   */
  public static Optional<String> checkLabelValue(String value) {
    return check(
        value,
        LABEL_VALUE_MAX_LENGTH,
        v -> v.isEmpty() || NameShapes.qualified(v),
        LABEL_VALUE_RULE);
  }

  /**
   * Returns whether a value is a label value (the empty text is one); see {@link
   * #checkLabelValue(String)}.
   *
   * @param value the value, may be null
   * @return true if it is
   */
  public static boolean isLabelValue(String value) {
    return checkLabelValue(value).isEmpty();
  }

  private static Optional<String> check(
      String value, int maxLength, Predicate<String> format, String rule) {
    if (value == null) {
      return Optional.of("must not be null");
    }
    List<String> reasons = new ArrayList<>(2);
    if (value.length() > maxLength) {
      reasons.add(tooLong(maxLength));
    }
    if (!format.test(value)) {
      reasons.add(rule);
    }
    return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", reasons));
  }

  private static String tooLong(int maxLength) {
    return "must be no more than " + maxLength + " characters";
  }
}
