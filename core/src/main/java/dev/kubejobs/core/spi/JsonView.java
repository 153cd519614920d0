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

import com.google.gson.JsonElement;
import dev.kubejobs.core.internal.kube.JsonTree;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A read-only view of one JSON value inside a {@link ResourceSnapshot}: an object, an array, a
 * primitive or a JSON {@code null}. Reading through a view copies nothing, which is what a status
 * mapper called for thousands of jobs per poll needs; {@link #copy()} gives a mutable copy when one
 * is wanted.
 *
 * <p>Path readers are lenient, as a mapper of a resource written by another program must be: a
 * missing field, a JSON {@code null}, or a step through something that is not an object all read as
 * empty, never as an exception.
 *
 * <p>Instances are immutable and thread safe: they offer no way to change the JSON they show, and
 * the snapshot never changes it either.
 */
public final class JsonView {
  /** The value: one of the types {@link JsonTree} reads. */
  private final Object element;

  JsonView(Object element) {
    this.element = element;
  }

  /**
   * Returns the value at a path of object fields below this one.
   *
   * @param path field names, outermost first; none returns this view
   * @return the value, or empty when a field is missing or JSON {@code null}, or a step is not an
   *     object
   */
  public Optional<JsonView> get(String... path) {
    Object e = at(path);
    return e == null ? Optional.empty() : Optional.of(e == element ? this : new JsonView(e));
  }

  /**
   * Returns the object at a path.
   *
   * @param path field names, outermost first
   * @return the object, or empty when absent or not an object
   */
  public Optional<JsonView> object(String... path) {
    Object e = at(path);
    return e instanceof JsonTree.Obj
        ? Optional.of(e == element ? this : new JsonView(e))
        : Optional.empty();
  }

  /**
   * Returns the JSON string at a path.
   *
   * @param path field names, outermost first
   * @return the string, or empty when absent or not a JSON string (a number is not a string here)
   */
  public Optional<String> string(String... path) {
    return at(path) instanceof String s ? Optional.of(s) : Optional.empty();
  }

  /**
   * Returns the whole number at a path: a JSON number without a fraction, or a JSON string holding
   * one (surrounding blanks ignored), as Kubernetes objects written by hand sometimes have.
   *
   * @param path field names, outermost first
   * @return the number, or empty when absent, fractional, out of {@code long} range or not a number
   */
  public Optional<Long> number(String... path) {
    Object e = at(path);
    try {
      if (e instanceof JsonTree.Num n) {
        return Optional.of(whole(n.text()));
      }
      if (e instanceof String s) {
        return Optional.of(Long.parseLong(s.trim()));
      }
    } catch (ArithmeticException | NumberFormatException notWhole) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /**
   * Returns the RFC 3339 time at a path, as {@link ResourceSnapshot#parseTime(String)} reads it.
   *
   * @param path field names, outermost first
   * @return the instant, or empty when absent, not a string or not a time
   */
  public Optional<Instant> time(String... path) {
    return string(path).flatMap(ResourceSnapshot::parseTime);
  }

  /**
   * Returns this value as a string, if it is a JSON string.
   *
   * @return the string, or empty
   */
  public Optional<String> asString() {
    return element instanceof String s ? Optional.of(s) : Optional.empty();
  }

  /**
   * Returns whether this value is a JSON object.
   *
   * @return true for an object
   */
  public boolean isObject() {
    return element instanceof JsonTree.Obj;
  }

  /**
   * Returns whether this value is a JSON array.
   *
   * @return true for an array
   */
  public boolean isArray() {
    return element instanceof JsonTree.Arr;
  }

  /**
   * Returns whether this value is a JSON string.
   *
   * @return true for a string, false for numbers, booleans, null, objects and arrays
   */
  public boolean isString() {
    return element instanceof String;
  }

  /**
   * Returns whether this value is JSON {@code null} (only an array element can be: fields holding
   * {@code null} read as absent).
   *
   * @return true for {@code null}
   */
  public boolean isNull() {
    return element == JsonTree.NULL;
  }

  /**
   * Returns the number of fields of an object or elements of an array.
   *
   * @return the size, 0 for any other value
   */
  public int size() {
    if (element instanceof JsonTree.Obj o) {
      return o.size();
    }
    return element instanceof JsonTree.Arr a ? a.size() : 0;
  }

  /**
   * Returns the field names of an object, in the order the server wrote them.
   *
   * @return an unmodifiable set, empty for any other value
   */
  public Set<String> fieldNames() {
    return element instanceof JsonTree.Obj o ? o.names() : Set.of();
  }

  /**
   * Passes each field of an object, in the order the server wrote them, to {@code action} with its
   * value; a field holding JSON {@code null} is left out, as the path readers read it as absent.
   * Does nothing for any other value. Cheaper than looking each of {@link #fieldNames()} up.
   *
   * @param action what to do with each field's name and value
   */
  public void forEachField(BiConsumer<String, JsonView> action) {
    if (element instanceof JsonTree.Obj o) {
      for (int i = 0; i < o.size(); i++) {
        Object value = o.value(i);
        if (value != JsonTree.NULL) {
          action.accept(o.name(i), new JsonView(value));
        }
      }
    }
  }

  /**
   * Passes each element of an array, in order, to {@code action}; a JSON {@code null} element is
   * passed as a view whose {@link #isNull()} is true. Does nothing for any other value.
   *
   * @param action what to do with each element
   */
  public void forEach(Consumer<JsonView> action) {
    if (element instanceof JsonTree.Arr a) {
      for (int i = 0; i < a.size(); i++) {
        action.accept(new JsonView(a.get(i)));
      }
    }
  }

  /**
   * Returns an element of an array.
   *
   * @param index the element's index
   * @return the element, or empty when this is not an array or has no such index
   */
  public Optional<JsonView> element(int index) {
    if (!(element instanceof JsonTree.Arr a) || index < 0 || index >= a.size()) {
      return Optional.empty();
    }
    return Optional.of(new JsonView(a.get(index)));
  }

  /**
   * Returns a mutable deep copy of this value.
   *
   * @return the copy
   */
  public JsonElement copy() {
    return JsonTree.toGson(element);
  }

  private Object at(String... path) {
    Object e = element;
    for (String p : path) {
      if (!(e instanceof JsonTree.Obj o)) {
        return null;
      }
      e = o.get(p);
    }
    return e == null || e == JsonTree.NULL ? null : e;
  }

  /**
   * A JSON number's exact whole value: most are plain digits, read without a {@code BigDecimal}.
   */
  private static long whole(String text) {
    int n = text.length();
    if (n > 0 && n < 19) {
      int i = text.charAt(0) == '-' ? 1 : 0;
      long value = 0;
      for (; i < n; i++) {
        char c = text.charAt(i);
        if (c < '0' || c > '9') {
          break;
        }
        value = value * 10 + (c - '0');
      }
      if (i == n && n > (text.charAt(0) == '-' ? 1 : 0)) {
        return text.charAt(0) == '-' ? -value : value;
      }
    }
    return new BigDecimal(text).longValueExact();
  }

  /** Returns the kind and size of the value, never its content (it may hold secrets). */
  @Override
  public String toString() {
    String kind = isObject() ? "object" : isArray() ? "array" : isNull() ? "null" : "primitive";
    return "JsonView{" + kind + (kind.equals("primitive") ? "" : " of " + size()) + "}";
  }
}
