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
import java.util.Map;
import java.util.Set;

/**
 * Parses and evaluates Kubernetes label selectors: {@code k=v}, {@code k==v}, {@code k!=v}, {@code
 * k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}, {@code k>1}, {@code k<1}, joined by
 * commas, with the keys, values and empty-set rules of apimachinery's {@code
 * pkg/labels/selector.go} {@code Parse}. Not a published API.
 *
 * <p>Immutable and thread safe.
 */
final class LabelSelector {

  private enum Op {
    EQ,
    NEQ,
    IN,
    NOTIN,
    EXISTS,
    NOT_EXISTS,
    GT,
    LT
  }

  private record Requirement(String key, Op op, Set<String> values) {
    boolean matches(Map<String, String> labels) {
      String v = labels.get(key);
      return switch (op) {
        case EQ, IN -> v != null && values.contains(v);
        case NEQ, NOTIN -> v == null || !values.contains(v);
        case EXISTS -> v != null;
        case NOT_EXISTS -> v == null;
        case GT, LT -> {
          if (v == null) {
            yield false;
          }
          try {
            long actual = Long.parseLong(v);
            long bound = Long.parseLong(values.iterator().next());
            yield op == Op.GT ? actual > bound : actual < bound;
          } catch (NumberFormatException e) {
            yield false;
          }
        }
      };
    }
  }

  private static final java.util.regex.Pattern SET =
      java.util.regex.Pattern.compile("\\s*(\\S+)\\s+(in|notin)\\s*\\((.*)\\)\\s*");

  private final List<Requirement> requirements;

  private LabelSelector(List<Requirement> requirements) {
    this.requirements = requirements;
  }

  /**
   * Parses a selector; null or blank selects everything.
   *
   * @param selector the selector string, as in {@code ?labelSelector=}
   * @return the parsed selector
   * @throws IllegalArgumentException if the selector is malformed
   */
  public static LabelSelector parse(String selector) {
    List<Requirement> result = new ArrayList<>();
    if (selector == null || selector.isBlank()) {
      return new LabelSelector(result);
    }
    for (String part : splitTopLevel(selector)) {
      String p = part.trim();
      if (p.isEmpty()) {
        throw new IllegalArgumentException("found '', expected: identifier in " + selector);
      }
      java.util.regex.Matcher set = SET.matcher(p);
      if (set.matches()) {
        Op op = "in".equals(set.group(2)) ? Op.IN : Op.NOTIN;
        Set<String> values = values(set.group(3));
        if (values.isEmpty()) {
          throw new IllegalArgumentException(
              "for 'in', 'notin' operators, values set can't be empty");
        }
        result.add(new Requirement(key(set.group(1)), op, values));
      } else if (p.contains("!=")) {
        int i = p.indexOf("!=");
        result.add(new Requirement(key(p.substring(0, i)), Op.NEQ, value(p.substring(i + 2))));
      } else if (p.contains("==")) {
        int i = p.indexOf("==");
        result.add(new Requirement(key(p.substring(0, i)), Op.EQ, value(p.substring(i + 2))));
      } else if (p.contains("=")) {
        int i = p.indexOf('=');
        result.add(new Requirement(key(p.substring(0, i)), Op.EQ, value(p.substring(i + 1))));
      } else if (p.contains(">") || p.contains("<")) {
        boolean gt = p.contains(">");
        int i = p.indexOf(gt ? '>' : '<');
        String bound = p.substring(i + 1).trim();
        if (!bound.matches("-?[0-9]+")) {
          throw new IllegalArgumentException(
              "for 'Gt', 'Lt' operators, the value must be an integer, but was '" + bound + "'");
        }
        result.add(new Requirement(key(p.substring(0, i)), gt ? Op.GT : Op.LT, Set.of(bound)));
      } else if (p.startsWith("!")) {
        result.add(new Requirement(key(p.substring(1)), Op.NOT_EXISTS, Set.of()));
      } else {
        result.add(new Requirement(key(p), Op.EXISTS, Set.of()));
      }
    }
    return new LabelSelector(List.copyOf(result));
  }

  /**
   * Returns whether labels satisfy every requirement of this selector.
   *
   * @param labels the object's labels
   * @return true if selected
   */
  public boolean matches(Map<String, String> labels) {
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /** A qualified name: an optional DNS-subdomain prefix and '/', then a name of at most 63. */
  private static String key(String raw) {
    String k = raw.trim();
    if (!NameRules.qualifiedName(k).isEmpty()) {
      throw new IllegalArgumentException(
          "invalid label key \""
              + k
              + "\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'");
    }
    return k;
  }

  private static Set<String> value(String raw) {
    String v = raw.trim();
    checkValue(v);
    return Set.of(v);
  }

  private static void checkValue(String v) {
    if (!NameRules.labelValue(v).isEmpty()) {
      throw new IllegalArgumentException(
          "invalid label value: \"" + v + "\": " + NameRules.LABEL_VALUE_ERR);
    }
  }

  private static Set<String> values(String list) {
    List<String> values = new ArrayList<>();
    for (String v : list.split(",")) {
      if (!v.trim().isEmpty()) {
        checkValue(v.trim());
        values.add(v.trim());
      }
    }
    return Set.copyOf(values);
  }

  private static List<String> splitTopLevel(String s) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    StringBuilder current = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      }
      if (c == ',' && depth == 0) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    parts.add(current.toString());
    return parts;
  }
}
