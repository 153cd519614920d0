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

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' order of API versions, as {@code CompareKubeAwareVersionStrings} in
 * k8s.io/apimachinery {@code pkg/version/helpers.go} (commit eed236ce) defines it: GA before beta
 * before alpha, then the higher major, then the higher minor ({@code v2, v1, v1beta2, v1beta1,
 * v1alpha1}); versions not of the form {@code vN[alpha|betaM]} come last, in reverse lexical order.
 */
final class KubeVersions {

  private static final Pattern KUBE_VERSION = Pattern.compile("^v(\\d+)(?:(alpha|beta)(\\d+))?$");

  /** Highest priority first, so that sorting by it puts the preferred version first. */
  static final Comparator<String> PRIORITY = (a, b) -> compare(b, a);

  private KubeVersions() {}

  /** Positive when {@code a} has the higher priority, as the Go function answers. */
  static int compare(String a, String b) {
    if (a.equals(b)) {
      return 0;
    }
    long[] pa = parse(a);
    long[] pb = parse(b);
    if (pa == null && pb == null) {
      return b.compareTo(a);
    }
    if (pa == null) {
      return -1;
    }
    if (pb == null) {
      return 1;
    }
    for (int i = 0; i < 3; i++) {
      int c = Long.compare(pa[i], pb[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** {stability (alpha 0, beta 1, GA 2), major, minor}, or null if not a kube-like version. */
  private static long[] parse(String v) {
    Matcher m = KUBE_VERSION.matcher(v);
    if (!m.matches()) {
      return null;
    }
    try {
      long major = Long.parseLong(m.group(1));
      if (m.group(2) == null) {
        return new long[] {2, major, 0};
      }
      return new long[] {m.group(2).equals("beta") ? 1 : 0, major, Long.parseLong(m.group(3))};
    } catch (NumberFormatException e) {
      // Too many digits for a number: Go's strconv.Atoi fails too, and the version is not
      // kube-like.
      return null;
    }
  }
}
