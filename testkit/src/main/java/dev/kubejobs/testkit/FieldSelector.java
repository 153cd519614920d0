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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A parsed field selector ({@code a.b=v}, {@code a.b==v}, {@code a.b!=v}, comma-separated) over the
 * fields a resource supports; not a published API. Immutable and thread safe.
 */
final class FieldSelector {

  private record Term(String field, String value, boolean negate) {}

  private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

  private final List<Term> terms;

  /** Whether the selector has no term, so selects every object without reading it. */
  boolean selectsEverything() {
    return terms.isEmpty();
  }

  private FieldSelector(List<Term> terms) {
    this.terms = terms;
  }

  /**
   * Parses a field selector, accepting only supported field labels, as the API server's field label
   * conversion does.
   *
   * @param selector the selector, or null or blank for everything
   * @param supported the field labels the resource supports
   * @return the selector
   * @throws IllegalArgumentException with the server's message ({@code field label not supported:
   *     x}, or {@code invalid selector: ...})
   */
  public static FieldSelector parse(String selector, Set<String> supported) {
    if (selector == null || selector.isBlank()) {
      return EVERYTHING;
    }
    List<Term> terms = new ArrayList<>();
    for (String term : selector.split(",")) {
      boolean negate = term.contains("!=");
      String[] kv = term.split(negate ? "!=" : "==?", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException(
            "invalid selector: '" + selector + "'; can't understand '" + term + "'");
      }
      String field = kv[0].trim();
      if (!supported.contains(field)) {
        throw new IllegalArgumentException("field label not supported: " + field);
      }
      terms.add(new Term(field, kv[1].trim(), negate));
    }
    return new FieldSelector(List.copyOf(terms));
  }

  /**
   * Returns whether an object's fields satisfy every term.
   *
   * @param o the object
   * @return true if it matches
   */
  public boolean matches(JsonObject o) {
    for (Term t : terms) {
      JsonElement current = o;
      for (String part : t.field().split("\\.")) {
        current =
            current != null && current.isJsonObject() ? current.getAsJsonObject().get(part) : null;
      }
      String actual = current != null && current.isJsonPrimitive() ? current.getAsString() : "";
      if (actual.equals(t.value()) == t.negate()) {
        return false;
      }
    }
    return true;
  }
}
