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
package dev.kubejobs.core.internal.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The parsed JSON a {@code ResourceSnapshot} holds: read from jackson-core's streaming {@link
 * JsonParser} (over the answer's bytes) into flat arrays, without Gson's per-field tree nodes. A
 * status reader parses every job that changed on every poll, and Gson's {@code JsonObject} (a
 * red-black tree of entry nodes, searched by comparing keys) costs more to build and to read than
 * the parse itself; kube objects are small objects of a few fields, found faster by one pass over a
 * short array. Converted to Gson's types only where a caller asks for a copy.
 *
 * <p>A value is one of: {@link Obj} (fields in the order read; a name read twice keeps its first
 * place and its last value, as Gson's {@code JsonObject} does), {@link Arr}, {@link String}, {@link
 * Num} (a number's text, parsed when read), {@link Boolean}, or {@link #NULL}. Immutable once read;
 * thread safe. Not a published API.
 */
public final class JsonTree {
  /** JSON {@code null}. */
  public static final Object NULL =
      new Object() {
        @Override
        public String toString() {
          return "null";
        }
      };

  /** How many short strings a {@link Parser} remembers to share (a power of two). */
  private static final int TEXT_SLOTS = 256;

  /** The longest string a {@link Parser} shares with an equal one, in characters. */
  private static final int TEXT_KEPT_LENGTH = 40;

  /** From this many fields on, an object indexes its names in a hash map. */
  private static final int INDEXED = 12;

  private JsonTree() {}

  /**
   * Reads the value the parser is at; see {@link Parser}.
   *
   * @param in a parser whose current token is the value's first
   * @return the value
   * @throws IOException as the parser throws (malformed JSON included, and what its {@code
   *     StreamReadConstraints} refuse)
   */
  public static Object read(JsonParser in) throws IOException {
    return new Parser().read(in);
  }

  /**
   * Reads the object the parser is at; see {@link #read}.
   *
   * @param in a parser whose current token is {@link JsonToken#START_OBJECT}
   * @return the object
   * @throws IOException as the parser throws (malformed JSON included)
   * @throws IllegalStateException when the value is not an object
   */
  public static Obj readObject(JsonParser in) throws IOException {
    return new Parser().readObject(in);
  }

  /**
   * Converts a Gson value; the result shares nothing with it.
   *
   * @param element the value, null read as JSON null
   * @return the value
   */
  public static Object fromGson(JsonElement element) {
    if (element == null || element.isJsonNull()) {
      return NULL;
    }
    if (element.isJsonObject()) {
      return fromGson(element.getAsJsonObject());
    }
    if (element.isJsonArray()) {
      JsonArray array = element.getAsJsonArray();
      Object[] values = new Object[array.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = fromGson(array.get(i));
      }
      return new Arr(values);
    }
    JsonPrimitive p = element.getAsJsonPrimitive();
    if (p.isBoolean()) {
      return p.getAsBoolean();
    }
    if (p.isNumber()) {
      return new Num(p.getAsString());
    }
    return p.getAsString();
  }

  /**
   * Converts a Gson object; the result shares nothing with it.
   *
   * @param object the object
   * @return the object
   */
  public static Obj fromGson(JsonObject object) {
    int size = object.size();
    String[] names = new String[size];
    Object[] values = new Object[size];
    int i = 0;
    for (Map.Entry<String, JsonElement> e : object.entrySet()) {
      names[i] = e.getKey();
      values[i++] = fromGson(e.getValue());
    }
    return Obj.of(names, values);
  }

  /**
   * Converts a value to Gson's types: a new tree, which the caller owns.
   *
   * @param value the value
   * @return the Gson value
   */
  public static JsonElement toGson(Object value) {
    if (value instanceof Obj o) {
      return o.toGson();
    }
    if (value instanceof Arr a) {
      JsonArray out = new JsonArray(a.size());
      for (int i = 0; i < a.size(); i++) {
        out.add(toGson(a.get(i)));
      }
      return out;
    }
    if (value instanceof String s) {
      return new JsonPrimitive(s);
    }
    if (value instanceof Num n) {
      return com.google.gson.JsonParser.parseString(n.text()); // Gson's own number, as written
    }
    if (value instanceof Boolean b) {
      return new JsonPrimitive(b);
    }
    return JsonNull.INSTANCE;
  }

  /**
   * A primitive's text, as Gson's {@code getAsString} gives it: a string itself, a number's text,
   * {@code true} or {@code false}; null for an object, an array, JSON null or no value.
   *
   * @param value the value, or null
   * @return the text, or null
   */
  public static String text(Object value) {
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof Num n) {
      return n.text();
    }
    return value instanceof Boolean b ? b.toString() : null;
  }

  /** A JSON number, kept as its text. */
  public static final class Num {
    private final String text;

    Num(String text) {
      this.text = text;
    }

    /**
     * Returns the number as written.
     *
     * @return the text
     */
    public String text() {
      return text;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Num n && n.text.equals(text);
    }

    @Override
    public int hashCode() {
      return text.hashCode();
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** A JSON array. */
  public static final class Arr {
    private final Object[] values;

    Arr(Object[] values) {
      this.values = values;
    }

    /**
     * Returns the number of elements.
     *
     * @return the size
     */
    public int size() {
      return values.length;
    }

    /**
     * Returns one element.
     *
     * @param index its index
     * @return the element
     * @throws IndexOutOfBoundsException when there is none at {@code index}
     */
    public Object get(int index) {
      return values[index];
    }
  }

  /** A JSON object: its fields in the order read. */
  public static final class Obj {
    /** The empty object. */
    public static final Obj EMPTY = new Obj(new String[0], new Object[0], null);

    private final String[] names;
    private final Object[] values;

    /** Name to index, for an object of {@link #INDEXED} fields or more; else null. */
    private final Map<String, Integer> index;

    private Obj(String[] names, Object[] values, Map<String, Integer> index) {
      this.names = names;
      this.values = values;
      this.index = index;
    }

    /**
     * Returns a field's value.
     *
     * @param name the field's name
     * @return its value ({@link #NULL} for JSON null), or null when absent
     */
    public Object get(String name) {
      int i = indexOf(name);
      return i < 0 ? null : values[i];
    }

    /**
     * Returns a field's value when it is an object.
     *
     * @param name the field's name
     * @return the object, or null when absent or not an object
     */
    public Obj object(String name) {
      return get(name) instanceof Obj o ? o : null;
    }

    /**
     * Returns a field's text, as {@link JsonTree#text} reads it.
     *
     * @param name the field's name
     * @return the text, or null when absent or not a primitive
     */
    public String text(String name) {
      return JsonTree.text(get(name));
    }

    /**
     * Returns whether the field is present (JSON null included).
     *
     * @param name the field's name
     * @return whether present
     */
    public boolean has(String name) {
      return indexOf(name) >= 0;
    }

    /**
     * Returns the number of fields.
     *
     * @return the size
     */
    public int size() {
      return names.length;
    }

    /**
     * Returns the name of the field at a position.
     *
     * @param i the position, in the order read
     * @return the name
     */
    public String name(int i) {
      return names[i];
    }

    /**
     * Returns the value of the field at a position.
     *
     * @param i the position, in the order read
     * @return the value
     */
    public Object value(int i) {
      return values[i];
    }

    /**
     * Returns the names, in the order read, as a read-only set.
     *
     * @return the names
     */
    public java.util.Set<String> names() {
      return new AbstractSet<>() {
        @Override
        public Iterator<String> iterator() {
          return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
              return next < names.length;
            }

            @Override
            public String next() {
              if (next >= names.length) {
                throw new NoSuchElementException();
              }
              return names[next++];
            }
          };
        }

        @Override
        public boolean contains(Object o) {
          return o instanceof String s && indexOf(s) >= 0;
        }

        @Override
        public int size() {
          return names.length;
        }
      };
    }

    /**
     * Converts this object to Gson's: a new tree, which the caller owns.
     *
     * @return the object
     */
    public JsonObject toGson() {
      JsonObject out = new JsonObject();
      for (int i = 0; i < names.length; i++) {
        out.add(names[i], JsonTree.toGson(values[i]));
      }
      return out;
    }

    private int indexOf(String name) {
      if (index != null) {
        Integer i = index.get(name);
        return i == null ? -1 : i;
      }
      return JsonTree.indexOf(names, 0, names.length, name);
    }

    /** An object of these fields, whose names are distinct; the arrays are kept. */
    static Obj of(String[] names, Object[] values) {
      if (names.length == 0) {
        return EMPTY;
      }
      Map<String, Integer> index = null;
      if (names.length >= INDEXED) {
        index = new HashMap<>(names.length * 2);
        for (int i = 0; i < names.length; i++) {
          index.put(names[i], i);
        }
      }
      return new Obj(names, values, index);
    }
  }

  /**
   * Reads JSON values into trees, collecting each object's fields and each array's elements on one
   * stack it keeps between values (only the finished arrays are allocated). One per reading thread:
   * not thread safe. After a read that threw, it is not to be used again. The stack's slots above
   * its top are not cleared, so it keeps what it read last until overwritten: one parser per body
   * read, dropped with it.
   */
  public static final class Parser {
    private String[] names = new String[64];
    private Object[] values = new Object[64];

    /**
     * The names' hash codes, beside them: a field put is checked against its object's earlier
     * fields (a repeated name replaces the value) by comparing these, without loading each name.
     */
    private int[] hashes = new int[64];

    private int top;

    /**
     * The short strings this parser made, by a hash of their characters: a value seen again (a
     * namespace, a label's value, a state, a timestamp shared by a page's objects) is the same
     * string, not another copy. Slots are overwritten; a miss only costs the string it makes.
     */
    private final String[] texts = new String[TEXT_SLOTS];

    /**
     * The name indexes of the objects being read that have {@link #INDEXED} fields or more,
     * innermost last (an object nested in one is ended before the next field of the outer one is
     * put); null until the first.
     */
    private Object[] indexes;

    private int indexCount;

    /** Creates a parser. */
    public Parser() {}

    /**
     * Reads the value the parser is at, leaving it at the value's last token.
     *
     * @param in a parser whose current token is the value's first
     * @return the value
     * @throws IOException as the parser throws (malformed JSON included, and what its {@code
     *     StreamReadConstraints} refuse: values nested too deep, too long a string)
     */
    public Object read(JsonParser in) throws IOException {
      return value(in);
    }

    /**
     * Reads the object the parser is at; see {@link #read(JsonParser)}.
     *
     * @param in a parser whose current token is {@link JsonToken#START_OBJECT}
     * @return the object
     * @throws IOException as the parser throws (malformed JSON included)
     * @throws IllegalStateException when the value is not an object
     */
    public Obj readObject(JsonParser in) throws IOException {
      if (in.currentToken() != JsonToken.START_OBJECT) {
        throw new IllegalStateException("an object was expected, not " + in.currentToken());
      }
      return object(in);
    }

    /**
     * Starts an object whose fields the caller {@link #put}s, ended by {@link #end}; objects read
     * or started meanwhile nest inside it.
     *
     * @return the mark to put fields with and end the object with
     */
    public int begin() {
      return top;
    }

    /**
     * Adds a field to the object started at {@code mark}; a name already added keeps its place and
     * takes the new value, as Gson's {@code JsonObject} does.
     *
     * @param mark the object's mark
     * @param name the name
     * @param value the value, one of the types {@link JsonTree} names
     */
    public void put(int mark, String name, Object value) {
      int hash = name.hashCode();
      int at = find(mark, name, hash);
      if (at >= 0) {
        values[at] = value;
        return;
      }
      push(name, hash, value);
      if (top - mark == INDEXED) {
        Map<String, Integer> index = new HashMap<>(INDEXED * 4);
        for (int i = mark; i < top; i++) {
          index.put(names[i], i - mark);
        }
        if (indexes == null || indexCount == indexes.length) {
          indexes = Arrays.copyOf(indexes == null ? new Object[0] : indexes, indexCount * 2 + 4);
        }
        indexes[indexCount++] = index;
      } else if (top - mark > INDEXED) {
        index(mark).put(name, top - 1 - mark);
      }
    }

    /**
     * Ends the object started at {@code mark}.
     *
     * @param mark the object's mark
     * @return the object
     */
    public Obj end(int mark) {
      int size = top - mark;
      if (size == 0) {
        return Obj.EMPTY;
      }
      Map<String, Integer> index = size >= INDEXED ? index(mark) : null;
      if (index != null) {
        indexes[--indexCount] = null;
      }
      Obj out =
          new Obj(
              Arrays.copyOfRange(names, mark, top), Arrays.copyOfRange(values, mark, top), index);
      clear(mark);
      return out;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Integer> index(int mark) {
      return (Map<String, Integer>) indexes[indexCount - 1];
    }

    private int find(int mark, String name, int hash) {
      if (top - mark >= INDEXED) {
        Integer i = index(mark).get(name);
        return i == null ? -1 : mark + i;
      }
      for (int i = mark; i < top; i++) {
        if (hashes[i] == hash && name.equals(names[i])) {
          return i;
        }
      }
      return -1;
    }

    private void push(String name, int hash, Object value) {
      if (top == names.length) {
        names = Arrays.copyOf(names, top * 2);
        values = Arrays.copyOf(values, top * 2);
        hashes = Arrays.copyOf(hashes, top * 2);
      }
      names[top] = name;
      hashes[top] = hash;
      values[top++] = value;
    }

    /**
     * Returns the text of a field of the object started at {@code mark} and not ended yet, as
     * {@link Obj#text} reads it.
     *
     * @param mark the object's mark
     * @param name the field's name
     * @return the text, or null when absent or not a primitive
     */
    public String text(int mark, String name) {
      int at = find(mark, name, name.hashCode());
      return at < 0 ? null : JsonTree.text(values[at]);
    }

    /**
     * Ends the object started at {@code mark} without making it (its fields are dropped).
     *
     * @param mark the object's mark
     */
    public void drop(int mark) {
      if (top - mark >= INDEXED) {
        indexes[--indexCount] = null;
      }
      clear(mark);
    }

    private void clear(int mark) {
      top = mark; // the slots above keep their values until overwritten (see the class comment)
    }

    private Object value(JsonParser in) throws IOException {
      JsonToken token = in.currentToken();
      if (token == null) {
        throw new IllegalStateException("a value was expected, not the end of the input");
      }
      switch (token) {
        case START_OBJECT:
          return object(in);
        case START_ARRAY:
          return array(in);
        case VALUE_STRING:
          return text(in);
        case VALUE_NUMBER_INT:
        case VALUE_NUMBER_FLOAT:
          return new Num(in.getText());
        case VALUE_TRUE:
          return Boolean.TRUE;
        case VALUE_FALSE:
          return Boolean.FALSE;
        case VALUE_NULL:
          return NULL;
        default:
          throw new IllegalStateException("a value was expected, not " + token);
      }
    }

    /** A string value, shared with an equal one read before when it is short. */
    private String text(JsonParser in) throws IOException {
      int length = in.getTextLength();
      if (length > TEXT_KEPT_LENGTH) {
        return in.getText();
      }
      char[] chars = in.getTextCharacters();
      int offset = in.getTextOffset();
      int hash = 0;
      for (int i = offset; i < offset + length; i++) {
        hash = 31 * hash + chars[i];
      }
      int slot = (hash ^ (hash >>> 16)) & (TEXT_SLOTS - 1);
      String seen = texts[slot];
      if (seen != null && seen.length() == length && sameChars(seen, chars, offset)) {
        return seen;
      }
      String made = new String(chars, offset, length);
      texts[slot] = made;
      return made;
    }

    private static boolean sameChars(String s, char[] chars, int offset) {
      for (int i = 0; i < s.length(); i++) {
        if (s.charAt(i) != chars[offset + i]) {
          return false;
        }
      }
      return true;
    }

    private Obj object(JsonParser in) throws IOException {
      int mark = begin();
      for (String name = in.nextFieldName(); name != null; name = in.nextFieldName()) {
        in.nextToken();
        put(mark, name, value(in));
      }
      return end(mark);
    }

    private Arr array(JsonParser in) throws IOException {
      int mark = top;
      for (JsonToken t = in.nextToken(); t != JsonToken.END_ARRAY; t = in.nextToken()) {
        push(null, 0, value(in));
      }
      Arr out = new Arr(Arrays.copyOfRange(values, mark, top));
      clear(mark);
      return out;
    }
  }

  /**
   * Where {@code name} is among {@code names[from, to)}, or -1. Cached hash codes are compared
   * before text, so a name of another hash is passed without reading its characters (the names of
   * one page share their instances, and so their hash codes, computed once).
   */
  static int indexOf(String[] names, int from, int to, String name) {
    int hash = name.hashCode();
    for (int i = from; i < to; i++) {
      String n = names[i];
      if (n == name || (n.hashCode() == hash && n.equals(name))) {
        return i;
      }
    }
    return -1;
  }
}
