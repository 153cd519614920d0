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
package dev.kubejobs.core.internal;

/**
 * The character shapes of Kubernetes names, matched by one pass over the text instead of a regular
 * expression: a status reader validates the name of every job that changed on every poll, and a
 * regex matcher allocates and backtracks where a loop does neither. Each method matches exactly the
 * language of the pattern it names (see {@code KubernetesNamesTest}, which checks them against
 * those patterns); lengths are the callers' to check. Not a published API.
 */
public final class NameShapes {
  private NameShapes() {}

  /**
   * {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}: an RFC 1123 label's characters.
   *
   * @param value the text, not null
   * @return whether it has that shape
   */
  public static boolean dns1123Label(String value) {
    return dnsLabel(value, 0, value.length(), false);
  }

  /**
   * {@code [a-z]([-a-z0-9]*[a-z0-9])?}: an RFC 1035 label's characters.
   *
   * @param value the text, not null
   * @return whether it has that shape
   */
  public static boolean dns1035Label(String value) {
    return dnsLabel(value, 0, value.length(), true);
  }

  /**
   * RFC 1123 labels joined by dots: {@code
   * [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*}.
   *
   * @param value the text, not null
   * @return whether it has that shape
   */
  public static boolean dns1123Subdomain(String value) {
    int start = 0;
    int n = value.length();
    for (int i = 0; i <= n; i++) {
      if (i == n || value.charAt(i) == '.') {
        if (!dnsLabel(value, start, i, false)) {
          return false;
        }
        start = i + 1;
      }
    }
    return true;
  }

  /**
   * {@code ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]}: a qualified name's name part, a label value's
   * (when not empty) and a cluster name's characters.
   *
   * @param value the text, not null
   * @return whether it has that shape
   */
  public static boolean qualified(String value) {
    int n = value.length();
    if (n == 0 || !alnum(value.charAt(0)) || !alnum(value.charAt(n - 1))) {
      return false;
    }
    for (int i = 1; i < n - 1; i++) {
      char c = value.charAt(i);
      if (!alnum(c) && c != '-' && c != '_' && c != '.') {
        return false;
      }
    }
    return true;
  }

  private static boolean dnsLabel(String v, int from, int to, boolean letterFirst) {
    if (from >= to) {
      return false;
    }
    char first = v.charAt(from);
    if (letterFirst ? first < 'a' || first > 'z' : !lowerAlnum(first)) {
      return false;
    }
    if (!lowerAlnum(v.charAt(to - 1))) {
      return false;
    }
    for (int i = from + 1; i < to - 1; i++) {
      char c = v.charAt(i);
      if (!lowerAlnum(c) && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean lowerAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  private static boolean alnum(char c) {
    return lowerAlnum(c) || (c >= 'A' && c <= 'Z');
  }
}
