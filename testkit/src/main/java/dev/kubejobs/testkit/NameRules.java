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
package dev.kubejobs.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The name rules of the fake API server, as apimachinery's {@code
 * pkg/util/validation/validation.go} has them: {@code IsDNS1123Label}, {@code IsDNS1123Subdomain},
 * {@code IsQualifiedName} and {@code IsValidLabelValue}. Each returns the server's error strings,
 * one per broken rule (too long, wrong characters), empty when the value keeps them all, as those
 * functions do. The testkit mirrors the server on its own (it does not depend on kubejobs-core), so
 * a kubejobs check and the fake never share a bug. Not a published API.
 *
 * <p>Stateless and thread safe.
 */
final class NameRules {
  /** {@code DNS1123LabelMaxLength}: {@value}. */
  public static final int DNS1123_LABEL_MAX_LENGTH = 63;

  /** {@code DNS1123SubdomainMaxLength}: {@value}. */
  public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

  /** {@code qualifiedNameMaxLength}: {@value}. */
  public static final int QUALIFIED_NAME_MAX_LENGTH = 63;

  /** {@code LabelValueMaxLength}: {@value}. */
  public static final int LABEL_VALUE_MAX_LENGTH = 63;

  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT =
      DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";

  private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
  private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
  private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);

  private static final String DNS1123_LABEL_ERR =
      regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
              + " and must start and end with an alphanumeric character",
          DNS1123_LABEL_FMT,
          "my-name",
          "123-abc");
  private static final String DNS1123_SUBDOMAIN_ERR =
      regexError(
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-'"
              + " or '.', and must start and end with an alphanumeric character",
          DNS1123_SUBDOMAIN_FMT,
          "example.com");
  private static final String QUALIFIED_NAME_ERR =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
          + " alphanumeric character";

  /**
   * The message of a label value of the wrong characters: apimachinery's {@code labelValueErrMsg},
   * without the examples and regex its {@code RegexError} appends.
   */
  public static final String LABEL_VALUE_ERR =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or"
          + " '.', and must start and end with an alphanumeric character";

  private NameRules() {}

  /**
   * Checks a DNS-1123 label as {@code IsDNS1123Label}: at most 63 lower-case letters, digits or
   * '-', starting and ending with a letter or digit.
   *
   * @param value the value
   * @return the error strings; empty if valid
   */
  public static List<String> dns1123Label(String value) {
    return check(value, DNS1123_LABEL_MAX_LENGTH, DNS1123_LABEL, DNS1123_LABEL_ERR);
  }

  /**
   * Checks a DNS-1123 subdomain as {@code IsDNS1123Subdomain}: at most 253 characters, DNS-1123
   * labels joined by '.'. Most object names ({@code NameIsDNSSubdomain}) and label key prefixes.
   *
   * @param value the value
   * @return the error strings; empty if valid
   */
  public static List<String> dns1123Subdomain(String value) {
    return check(value, DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN, DNS1123_SUBDOMAIN_ERR);
  }

  /**
   * Checks a qualified name (a label or annotation key) as {@code IsQualifiedName}: an optional
   * DNS-1123 subdomain prefix and '/', then a name of at most 63 letters, digits, '-', '_' or '.',
   * starting and ending with a letter or digit.
   *
   * @param value the value
   * @return the error strings; empty if valid
   */
  public static List<String> qualifiedName(String value) {
    List<String> errs = new ArrayList<>(2);
    String[] parts = value.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      String prefix = parts[0];
      name = parts[1];
      if (prefix.isEmpty()) {
        errs.add("prefix part must be non-empty");
      } else {
        for (String e : dns1123Subdomain(prefix)) {
          errs.add("prefix part " + e);
        }
      }
    } else {
      errs.add(
          "a qualified name "
              + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
              + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    if (name.isEmpty()) {
      errs.add("name part must be non-empty");
    } else if (name.length() > QUALIFIED_NAME_MAX_LENGTH) {
      errs.add("name part " + maxLenError(QUALIFIED_NAME_MAX_LENGTH));
    }
    if (!QUALIFIED_NAME.matcher(name).matches()) {
      errs.add(
          "name part "
              + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
    }
    return errs;
  }

  /**
   * Checks a label value as {@code IsValidLabelValue}: empty, or at most 63 letters, digits, '-',
   * '_' or '.', starting and ending with a letter or digit. The wrong-characters error is {@link
   * #LABEL_VALUE_ERR}.
   *
   * @param value the value
   * @return the error strings; empty if valid
   */
  public static List<String> labelValue(String value) {
    return check(value, LABEL_VALUE_MAX_LENGTH, LABEL_VALUE, LABEL_VALUE_ERR);
  }

  private static List<String> check(String value, int maxLength, Pattern format, String error) {
    List<String> errs = new ArrayList<>(2);
    if (value.length() > maxLength) {
      errs.add(maxLenError(maxLength));
    }
    if (!format.matcher(value).matches()) {
      errs.add(error);
    }
    return errs;
  }

  /** apimachinery's {@code MaxLenError}. */
  private static String maxLenError(int length) {
    return "must be no more than " + length + " characters";
  }

  /** apimachinery's {@code RegexError}, examples and all (its double space before "or" too). */
  private static String regexError(String msg, String fmt, String... examples) {
    StringBuilder out = new StringBuilder(msg).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        out.append(" or ");
      }
      out.append('\'').append(examples[i]).append("', ");
    }
    return out.append("regex used for validation is '").append(fmt).append("')").toString();
  }
}
