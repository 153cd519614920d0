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
package dev.kubejobs.core.internal.json;

import com.google.gson.stream.MalformedJsonException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A strict streaming JSON reader working on the UTF-8 bytes of a stream, for the status reader's
 * list pages: Gson's {@code JsonReader} decodes every byte to a char first and walks each char
 * through its state machine, though most of a page is skipped and most of what is kept is ASCII.
 * This reader scans bytes in its own buffer, decodes only the strings it is asked for (an ASCII
 * string without escapes is one Latin-1 copy), skips strings by looking for their closing quote,
 * and returns the names it has read before as the same {@code String} (a page's items repeat the
 * same few dozen names), so that they cost neither an allocation nor a hash.
 *
 * <p>It accepts what Gson's default ({@code LEGACY_STRICT}) reader accepts for JSON that starts
 * with an object: RFC 8259 JSON, plus unescaped control characters and the escape {@code \'} in
 * strings, and the literals in any case ({@code True}, {@code NULL}). Malformed JSON (a missing or
 * stray comma, colon or bracket, a trailing comma, a bad literal, escape or number, nesting deeper
 * than 255, content after the top-level value) fails with a {@link MalformedJsonException} naming
 * the byte offset; input ending inside a value with an {@link EOFException}; a call that does not
 * fit the next token (such as {@link #beginObject} at a string) with an {@link
 * IllegalStateException}, as Gson's reader does. Bytes that are not UTF-8 inside a string are read
 * as U+FFFD, as a decoding {@code Reader} reads them. One per stream; not thread safe; not to be
 * used again after it threw. Not a published API.
 */
public final class JsonBytes {
  /** What the next item of the JSON is. */
  public enum Token {
    /** The opening brace of an object. */
    BEGIN_OBJECT,
    /** The closing brace of an object. */
    END_OBJECT,
    /** The opening bracket of an array. */
    BEGIN_ARRAY,
    /** The closing bracket of an array. */
    END_ARRAY,
    /** A field's name. */
    NAME,
    /** A string value. */
    STRING,
    /** A number. */
    NUMBER,
    /** {@code true} or {@code false}. */
    BOOLEAN,
    /** {@code null}. */
    NULL,
    /** The end of the input, after the top-level value. */
    END_DOCUMENT
  }

  /** The buffer size a reader has unless told otherwise. */
  public static final int DEFAULT_BUFFER = 16 * 1024;

  /** How many arrays and objects may be open at once, as Gson's reader limits it by default. */
  private static final int MAX_DEPTH = 255;

  private static final byte EMPTY_DOCUMENT = 0;
  private static final byte NONEMPTY_DOCUMENT = 1;
  private static final byte EMPTY_ARRAY = 2;
  private static final byte NONEMPTY_ARRAY = 3;
  private static final byte EMPTY_OBJECT = 4;
  private static final byte DANGLING_NAME = 5;
  private static final byte NONEMPTY_OBJECT = 6;

  /** Slots of the table of names read (a power of two), and how many of them may be filled. */
  private static final int NAME_SLOTS = 512;

  private static final int NAMES_KEPT = NAME_SLOTS / 2;

  /** Longer names are not kept in the table. */
  private static final int NAME_KEPT_LENGTH = 64;

  /** Probes of the table before a name is read without it. */
  private static final int PROBES = 8;

  private final InputStream in;
  private final byte[] buf;
  private int pos;
  private int limit;

  /** Bytes of the stream before {@code buf[0]}. */
  private long consumed;

  /** What each open level expects next; level 0 is the document. */
  private final byte[] stack = new byte[MAX_DEPTH + 1];

  private int size = 1;

  /** The token peeked and not yet consumed, or null. */
  private Token peeked;

  /** A peeked {@link Token#BOOLEAN}'s value (the literal is consumed when peeked). */
  private boolean peekedBoolean;

  /** Where strings that need decoding and numbers are built. */
  private char[] scratch = new char[64];

  private final byte[][] nameBytes = new byte[NAME_SLOTS][];
  private final String[] nameStrings = new String[NAME_SLOTS];
  private int nameCount;

  /**
   * A reader with a buffer of {@link #DEFAULT_BUFFER} bytes.
   *
   * @param in the stream, read from where it is; not closed by this reader
   */
  public JsonBytes(InputStream in) {
    this(in, DEFAULT_BUFFER);
  }

  /**
   * A reader with a buffer of the size given.
   *
   * @param in the stream, read from where it is; not closed by this reader
   * @param bufferSize the buffer's size in bytes, at least 1
   * @throws IllegalArgumentException when {@code bufferSize} is less than 1
   */
  public JsonBytes(InputStream in, int bufferSize) {
    if (bufferSize < 1) {
      throw new IllegalArgumentException("bufferSize must be at least 1, not " + bufferSize);
    }
    this.in = in;
    this.buf = new byte[bufferSize];
    stack[0] = EMPTY_DOCUMENT;
  }

  /**
   * Returns the offset in the stream of the next byte to be read, for messages.
   *
   * @return the offset
   */
  public long offset() {
    return consumed + pos;
  }

  /**
   * Returns the next token without consuming it.
   *
   * @return the token
   * @throws MalformedJsonException when the JSON is malformed here
   * @throws EOFException when the input ends inside the top-level value
   * @throws IOException when the stream fails
   */
  public Token peek() throws IOException {
    if (peeked != null) {
      return peeked;
    }
    int c;
    switch (stack[size - 1]) {
      case EMPTY_ARRAY:
        stack[size - 1] = NONEMPTY_ARRAY;
        c = nextNonBlank();
        return peeked = c == ']' ? Token.END_ARRAY : value(c);
      case NONEMPTY_ARRAY:
        c = nextNonBlank();
        if (c == ']') {
          return peeked = Token.END_ARRAY;
        }
        if (c != ',') {
          throw syntax("',' or ']' expected");
        }
        return peeked = value(nextNonBlank());
      case EMPTY_OBJECT:
        c = nextNonBlank();
        if (c == '}') {
          return peeked = Token.END_OBJECT;
        }
        return peeked = name(c);
      case NONEMPTY_OBJECT:
        c = nextNonBlank();
        if (c == '}') {
          return peeked = Token.END_OBJECT;
        }
        if (c != ',') {
          throw syntax("',' or '}' expected");
        }
        return peeked = name(nextNonBlank());
      case DANGLING_NAME:
        if (nextNonBlank() != ':') {
          throw syntax("':' expected");
        }
        stack[size - 1] = NONEMPTY_OBJECT;
        return peeked = value(nextNonBlank());
      case EMPTY_DOCUMENT:
        stack[0] = NONEMPTY_DOCUMENT;
        return peeked = value(nextNonBlank());
      default:
        if (skipBlanks()) {
          throw syntax("content after the top-level value");
        }
        return peeked = Token.END_DOCUMENT;
    }
  }

  /**
   * Consumes the opening brace of an object.
   *
   * @throws IllegalStateException when the next token is not {@link Token#BEGIN_OBJECT}
   * @throws IOException as {@link #peek} throws, or when nested deeper than 255
   */
  public void beginObject() throws IOException {
    expect(Token.BEGIN_OBJECT);
    push(EMPTY_OBJECT);
  }

  /**
   * Consumes the closing brace of an object.
   *
   * @throws IllegalStateException when the next token is not {@link Token#END_OBJECT}
   * @throws IOException as {@link #peek} throws
   */
  public void endObject() throws IOException {
    expect(Token.END_OBJECT);
    size--;
  }

  /**
   * Consumes the opening bracket of an array.
   *
   * @throws IllegalStateException when the next token is not {@link Token#BEGIN_ARRAY}
   * @throws IOException as {@link #peek} throws, or when nested deeper than 255
   */
  public void beginArray() throws IOException {
    expect(Token.BEGIN_ARRAY);
    push(EMPTY_ARRAY);
  }

  /**
   * Consumes the closing bracket of an array.
   *
   * @throws IllegalStateException when the next token is not {@link Token#END_ARRAY}
   * @throws IOException as {@link #peek} throws
   */
  public void endArray() throws IOException {
    expect(Token.END_ARRAY);
    size--;
  }

  /**
   * Returns whether the current object or array has another field or element.
   *
   * @return whether it has
   * @throws IOException as {@link #peek} throws
   */
  public boolean hasNext() throws IOException {
    Token token = peek();
    return token != Token.END_OBJECT && token != Token.END_ARRAY && token != Token.END_DOCUMENT;
  }

  /**
   * Consumes a field's name. A name read before from this stream, when short, plain ASCII and
   * without escapes, is returned as the same {@code String} without decoding it again.
   *
   * @return the name
   * @throws IllegalStateException when the next token is not {@link Token#NAME}
   * @throws IOException as {@link #peek} throws
   */
  public String nextName() throws IOException {
    expect(Token.NAME);
    int start = pos;
    int lim = limit;
    byte[] b = buf;
    int hash = 0;
    for (int i = start; i < lim; i++) {
      byte c = b[i];
      if (c == '"') {
        pos = i + 1;
        return known(start, i - start, hash);
      }
      if (c == '\\' || c < 0) {
        break;
      }
      hash = 31 * hash + c;
    }
    return decodeString();
  }

  /**
   * Consumes a string value.
   *
   * @return the string
   * @throws IllegalStateException when the next token is not {@link Token#STRING}
   * @throws IOException as {@link #peek} throws, and when the string is malformed
   */
  public String nextString() throws IOException {
    expect(Token.STRING);
    int start = pos;
    int lim = limit;
    byte[] b = buf;
    for (int i = start; i < lim; i++) {
      byte c = b[i];
      if (c == '"') {
        pos = i + 1;
        return new String(b, start, i - start, StandardCharsets.ISO_8859_1);
      }
      if (c == '\\' || c < 0) {
        break;
      }
    }
    return decodeString();
  }

  /**
   * Consumes a number and returns it as written.
   *
   * @return the number's text
   * @throws IllegalStateException when the next token is not {@link Token#NUMBER}
   * @throws IOException as {@link #peek} throws, and when the number is malformed
   */
  public String nextNumber() throws IOException {
    expect(Token.NUMBER);
    return number(true);
  }

  /**
   * Consumes {@code true} or {@code false}.
   *
   * @return the value
   * @throws IllegalStateException when the next token is not {@link Token#BOOLEAN}
   * @throws IOException as {@link #peek} throws
   */
  public boolean nextBoolean() throws IOException {
    expect(Token.BOOLEAN);
    return peekedBoolean;
  }

  /**
   * Consumes {@code null}.
   *
   * @throws IllegalStateException when the next token is not {@link Token#NULL}
   * @throws IOException as {@link #peek} throws
   */
  public void nextNull() throws IOException {
    expect(Token.NULL);
  }

  /**
   * Consumes the next value without building it, still checking its syntax: strings are scanned for
   * their closing quote, not decoded.
   *
   * @throws IllegalStateException when the next token is not a value
   * @throws IOException as {@link #peek} throws, and when the value is malformed
   */
  public void skipValue() throws IOException {
    int open = 0;
    do {
      Token token = peek();
      switch (token) {
        case BEGIN_OBJECT:
          beginObject();
          open++;
          break;
        case BEGIN_ARRAY:
          beginArray();
          open++;
          break;
        case END_OBJECT:
        case END_ARRAY:
          if (open == 0) {
            throw new IllegalStateException("a value expected, not " + token + where());
          }
          peeked = null;
          size--;
          open--;
          break;
        case NAME:
          if (open == 0) {
            throw new IllegalStateException("a value expected, not a name" + where());
          }
          peeked = null;
          skipString();
          break;
        case STRING:
          peeked = null;
          skipString();
          break;
        case NUMBER:
          peeked = null;
          number(false);
          break;
        case BOOLEAN:
        case NULL:
          peeked = null;
          break;
        default:
          throw new IllegalStateException("a value expected, not the end of the document");
      }
    } while (open > 0);
  }

  private void expect(Token token) throws IOException {
    Token next = peek();
    if (next != token) {
      throw new IllegalStateException(token + " expected, not " + next + where());
    }
    peeked = null; // a string, name or number is read on by the caller; the rest when peeked
  }

  private void push(byte context) throws MalformedJsonException {
    if (size > MAX_DEPTH) {
      throw syntax("JSON nested deeper than " + MAX_DEPTH);
    }
    stack[size++] = context;
  }

  /** The token of a value starting with {@code c}, a literal consumed, a number not. */
  private Token value(int c) throws IOException {
    switch (c) {
      case '{':
        return Token.BEGIN_OBJECT;
      case '[':
        return Token.BEGIN_ARRAY;
      case '"':
        return Token.STRING;
      case 't':
      case 'T':
        literal("true");
        peekedBoolean = true;
        return Token.BOOLEAN;
      case 'f':
      case 'F':
        literal("false");
        peekedBoolean = false;
        return Token.BOOLEAN;
      case 'n':
      case 'N':
        literal("null");
        return Token.NULL;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          pos--; // read from this buffer just now
          return Token.NUMBER;
        }
        throw syntax("a value expected");
    }
  }

  /** The token of a name starting with {@code c}; the object now waits for its colon. */
  private Token name(int c) throws MalformedJsonException {
    if (c != '"') {
      throw syntax("a quoted name expected");
    }
    stack[size - 1] = DANGLING_NAME;
    return Token.NAME;
  }

  /** Consumes the rest of a literal whose first letter is read. */
  private void literal(String word) throws IOException {
    for (int i = 1; i < word.length(); i++) {
      int c = peekByte();
      if (c != word.charAt(i) && c != Character.toUpperCase(word.charAt(i))) {
        throw failure(c, "malformed literal, " + word + " expected");
      }
      pos++;
    }
  }

  /** The next byte, not consumed, or -1 at the end of the input. */
  private int peekByte() throws IOException {
    if (pos == limit && !fill()) {
      return -1;
    }
    return buf[pos] & 0xFF;
  }

  /** Consumes the next byte; the end of the input is an {@link EOFException}. */
  private int nextByte() throws IOException {
    if (pos == limit && !fill()) {
      throw new EOFException("JSON ends inside a value at byte " + offset());
    }
    return buf[pos++] & 0xFF;
  }

  /** Consumes blanks and the byte after them; the end of the input is an {@link EOFException}. */
  private int nextNonBlank() throws IOException {
    if (!skipBlanks()) {
      throw new EOFException("JSON ends inside a value at byte " + offset());
    }
    return buf[pos++];
  }

  /** Consumes blanks; whether a byte follows them. */
  private boolean skipBlanks() throws IOException {
    while (true) {
      byte[] b = buf;
      int lim = limit;
      int i = pos;
      while (i < lim) {
        byte c = b[i];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
          pos = i;
          return true;
        }
        i++;
      }
      pos = i;
      if (!fill()) {
        return false;
      }
    }
  }

  /** Refills the buffer, all of it consumed; false at the end of the input. */
  private boolean fill() throws IOException {
    consumed += limit;
    pos = 0;
    limit = 0;
    int n;
    do {
      n = in.read(buf, 0, buf.length);
    } while (n == 0);
    if (n < 0) {
      return false;
    }
    limit = n;
    return true;
  }

  /** A plain ASCII name of these bytes of the buffer, from the table of names or added to it. */
  private String known(int start, int length, int hash) {
    if (length > NAME_KEPT_LENGTH) {
      return new String(buf, start, length, StandardCharsets.ISO_8859_1);
    }
    int slot = (hash ^ (hash >>> 9)) & (NAME_SLOTS - 1);
    for (int probe = 0; probe < PROBES; probe++, slot = (slot + 1) & (NAME_SLOTS - 1)) {
      byte[] kept = nameBytes[slot];
      if (kept == null) {
        String name = new String(buf, start, length, StandardCharsets.ISO_8859_1);
        if (nameCount < NAMES_KEPT) {
          nameBytes[slot] = Arrays.copyOfRange(buf, start, start + length);
          nameStrings[slot] = name;
          nameCount++;
        }
        return name;
      }
      if (kept.length == length && sameBytes(kept, buf, start)) {
        return nameStrings[slot];
      }
    }
    return new String(buf, start, length, StandardCharsets.ISO_8859_1);
  }

  /**
   * Whether {@code kept} is the bytes of {@code buf} from {@code start}: a plain loop, faster than
   * {@code Arrays.equals} for names this short.
   */
  private static boolean sameBytes(byte[] kept, byte[] buf, int start) {
    for (int i = 0; i < kept.length; i++) {
      if (kept[i] != buf[start + i]) {
        return false;
      }
    }
    return true;
  }

  /** Reads the rest of a string whose opening quote is consumed, decoding UTF-8 and escapes. */
  private String decodeString() throws IOException {
    char[] s = scratch;
    int n = 0;
    while (true) {
      if (pos == limit && !fill()) {
        throw new EOFException("JSON ends inside a string at byte " + offset());
      }
      int c = buf[pos++];
      if (c == '"') {
        return new String(s, 0, n);
      }
      if (n + 2 > s.length) {
        s = scratch = Arrays.copyOf(s, s.length * 2);
      }
      if (c == '\\') {
        s[n++] = escape();
      } else if (c >= 0) {
        s[n++] = (char) c;
      } else {
        n = utf8(c & 0xFF, s, n);
      }
    }
  }

  /**
   * Decodes a UTF-8 sequence whose lead byte is consumed into {@code s} at {@code n}, which has
   * room for two chars; a malformed sequence is U+FFFD, and the byte that broke it is read again.
   *
   * @return the new length
   */
  private int utf8(int lead, char[] s, int n) throws IOException {
    int more;
    int cp;
    int low = 0x80;
    int high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      more = 1;
      cp = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      more = 2;
      cp = lead & 0x0F;
      if (lead == 0xE0) {
        low = 0xA0; // not overlong
      }
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      more = 3;
      cp = lead & 0x07;
      if (lead == 0xF0) {
        low = 0x90; // not overlong
      } else if (lead == 0xF4) {
        high = 0x8F; // not above U+10FFFF
      }
    } else {
      s[n] = '\uFFFD';
      return n + 1;
    }
    for (int i = 0; i < more; i++) {
      int b = peekByte();
      if (b < low || b > high) {
        s[n] = '\uFFFD';
        return n + 1;
      }
      pos++;
      cp = cp << 6 | (b & 0x3F);
      low = 0x80;
      high = 0xBF;
    }
    if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
      s[n] = '\uFFFD'; // an encoded surrogate: one replacement for its three bytes, as Java's
      return n + 1; // decoder reads it
    }
    if (cp >= 0x10000) {
      s[n] = Character.highSurrogate(cp);
      s[n + 1] = Character.lowSurrogate(cp);
      return n + 2;
    }
    s[n] = (char) cp;
    return n + 1;
  }

  /** Reads an escape whose backslash is consumed. */
  private char escape() throws IOException {
    int c = nextByte();
    switch (c) {
      case '"':
      case '\\':
      case '/':
      case '\'':
        return (char) c;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u':
        int value = 0;
        for (int i = 0; i < 4; i++) {
          int h = nextByte();
          int digit = Character.digit(h, 16);
          if (digit < 0 || h >= 0x80) {
            throw syntax("malformed \\u escape");
          }
          value = value << 4 | digit;
        }
        return (char) value;
      default:
        throw syntax("malformed escape");
    }
  }

  /** Consumes the rest of a string whose opening quote is consumed, checking its escapes. */
  private void skipString() throws IOException {
    while (true) {
      byte[] b = buf;
      int lim = limit;
      int i = pos;
      while (i < lim) {
        byte c = b[i];
        if (c == '"') {
          pos = i + 1;
          return;
        }
        if (c == '\\') {
          break;
        }
        i++;
      }
      pos = i;
      if (i < lim) {
        pos++;
        escape();
      } else if (!fill()) {
        throw new EOFException("JSON ends inside a string at byte " + offset());
      }
    }
  }

  /** Consumes a number, checking its grammar; its text when {@code keep}, else null. */
  private String number(boolean keep) throws IOException {
    int n = 0;
    int c = peekByte();
    if (c == '-') {
      n = take(keep, n, c);
      c = peekByte();
    }
    if (c == '0') {
      n = take(keep, n, c);
      c = peekByte();
    } else if (c >= '1' && c <= '9') {
      n = digits(keep, n);
      c = peekByte();
    } else {
      throw failure(c, "malformed number");
    }
    if (c == '.') {
      n = take(keep, n, c);
      c = peekByte();
      if (c < '0' || c > '9') {
        throw failure(c, "malformed number");
      }
      n = digits(keep, n);
      c = peekByte();
    }
    if (c == 'e' || c == 'E') {
      n = take(keep, n, c);
      c = peekByte();
      if (c == '+' || c == '-') {
        n = take(keep, n, c);
        c = peekByte();
      }
      if (c < '0' || c > '9') {
        throw failure(c, "malformed number");
      }
      n = digits(keep, n);
    }
    return keep ? new String(scratch, 0, n) : null;
  }

  /** Consumes the digits at hand, at least one. */
  private int digits(boolean keep, int n) throws IOException {
    int c = peekByte();
    while (c >= '0' && c <= '9') {
      n = take(keep, n, c);
      c = peekByte();
    }
    return n;
  }

  /** Consumes the byte peeked, keeping it as the {@code n}th char of {@link #scratch}. */
  private int take(boolean keep, int n, int c) {
    pos++;
    if (!keep) {
      return n;
    }
    if (n == scratch.length) {
      scratch = Arrays.copyOf(scratch, n * 2);
    }
    scratch[n] = (char) c;
    return n + 1;
  }

  /** The failure of reading {@code c} (-1: the end of the input) where it does not fit. */
  private IOException failure(int c, String what) {
    if (c < 0) {
      return new EOFException("JSON ends inside a value at byte " + offset());
    }
    return syntax(what);
  }

  private MalformedJsonException syntax(String what) {
    return new MalformedJsonException(what + where());
  }

  private String where() {
    return " at byte " + offset();
  }
}
