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

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads an equality-based label selector ({@code k=v,k2==v2}) as the labels a matching object must
 * carry, so that pods listed together can be told apart per job without another request.
 */
final class EqualitySelector {
  private EqualitySelector() {}

  /**
   * Parses a selector.
   *
   * @param selector the selector
   * @return the required labels, or null when the selector is empty or uses anything but equality
   *     (then it cannot be matched here)
   */
  static Map<String, String> parse(String selector) {
    if (selector == null || selector.isBlank()) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String part : selector.split(",", -1)) {
      int eq = part.indexOf('=');
      if (eq <= 0 || part.indexOf('!') >= 0 || part.contains(" in ") || part.contains("(")) {
        return null;
      }
      String key = part.substring(0, eq).trim();
      String value = part.substring(part.startsWith("=", eq + 1) ? eq + 2 : eq + 1).trim();
      if (key.isEmpty() || value.indexOf('=') >= 0 || out.put(key, value) != null) {
        return null;
      }
    }
    return out;
  }
}
