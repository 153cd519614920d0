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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.diagnosis.Messages;
import dev.kubejobs.core.spi.SecretKeys;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replaces the secret-looking values of a manifest with {@value #MASK} in text the API server sent
 * back (an admission webhook's 400/422 may quote the value it refused). Secret-looking: the string
 * value of any JSON object entry whose key {@linkplain SecretKeys#looksSecret looks secret}
 * (contains {@code password}, {@code passwd}, {@code secret}, {@code token}, {@code credential} or
 * {@code key}, any case) — Spark conf such as {@code spark.hadoop.fs.s3a.secret.key} — and the
 * {@code value} of any {@code {name, value}} object whose name does (container environment
 * variables). Values shorter than {@value #MIN_LENGTH} characters are not masked: replacing every
 * {@code "1"} would garble the message and hide nothing. Not a published API; immutable.
 */
final class Redactor {
  /** What a secret is replaced with. */
  static final String MASK = SecretKeys.MASK;

  /** The shortest value that is masked. */
  static final int MIN_LENGTH = 4;

  private final List<String> secrets;

  private Redactor(List<String> secrets) {
    this.secrets = secrets;
  }

  /**
   * Collects the secret-looking values of a manifest.
   *
   * @param manifest the resource to be created
   * @return a redactor for them
   */
  static Redactor of(JsonObject manifest) {
    Set<String> found = new LinkedHashSet<>();
    collect(manifest, found);
    // Longest first, so a secret containing another is masked whole.
    return new Redactor(
        found.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList());
  }

  private static void collect(JsonElement element, Set<String> found) {
    if (element == null) {
      return;
    }
    if (element.isJsonArray()) {
      element.getAsJsonArray().forEach(e -> collect(e, found));
      return;
    }
    if (!element.isJsonObject()) {
      return;
    }
    JsonObject object = element.getAsJsonObject();
    JsonElement name = object.get("name");
    if (isString(name) && looksSecret(name.getAsString()) && isString(object.get("value"))) {
      add(object.get("value").getAsString(), found);
    }
    for (Map.Entry<String, JsonElement> e : object.entrySet()) {
      if (looksSecret(e.getKey()) && isString(e.getValue())) {
        add(e.getValue().getAsString(), found);
      }
      collect(e.getValue(), found);
    }
  }

  private static boolean isString(JsonElement e) {
    return e != null && e.isJsonPrimitive() && ((JsonPrimitive) e).isString();
  }

  private static boolean looksSecret(String name) {
    return SecretKeys.looksSecret(name);
  }

  private static void add(String value, Set<String> found) {
    if (value.length() >= MIN_LENGTH) {
      found.add(value);
    }
  }

  /**
   * Masks the secrets in a text.
   *
   * @param text the text, or null
   * @return the text with every secret replaced by {@value #MASK}
   */
  String redact(String text) {
    if (text == null || secrets.isEmpty()) {
      return text;
    }
    String out = text;
    for (String secret : secrets) {
      out = out.replace(secret, MASK);
    }
    return out;
  }

  /**
   * Returns the exception unchanged when no secret appears in it, its causes or suppressed
   * exceptions; otherwise an exception of the same public type with the secrets masked everywhere.
   *
   * @param e what submit would throw
   * @return what it throws instead
   */
  KubeJobsException scrub(KubeJobsException e) {
    if (!needsCleaning(e, 0)) {
      return e;
    }
    Throwable cause = e.getCause() == null ? null : copy(e.getCause(), 0);
    KubeJobsException out;
    if (e instanceof JobRejectedException r) {
      out =
          new JobRejectedException(
              r.executionId().orElse(null), r.reason(), r.code(), clean(r.getMessage()), cause);
    } else if (e instanceof ApiUnavailableException u) {
      out =
          new ApiUnavailableException(
              u.executionId().orElse(null), clean(u.getMessage()), u.mayHaveBeenApplied(), cause);
    } else {
      // Submit's other errors (conflict, invalid spec) carry no server text.
      return e;
    }
    out.setStackTrace(e.getStackTrace());
    for (Throwable s : e.getSuppressed()) {
      out.addSuppressed(copy(s, 0));
    }
    return out;
  }

  /**
   * Masks the secrets in a server's text, then caps it ({@link Messages#cap}): masked first, so a
   * cut never leaves the two halves of a secret unmasked.
   */
  private String clean(String text) {
    return text == null ? null : Messages.cap(redact(text));
  }

  /** Whether the exception or a cause carries a secret or a message longer than the cap. */
  private boolean needsCleaning(Throwable t, int depth) {
    if (t == null || depth > 10) {
      return false;
    }
    String message = t.getMessage();
    if (message != null && !message.equals(clean(message))) {
      return true;
    }
    for (Throwable s : t.getSuppressed()) {
      if (needsCleaning(s, depth + 1)) {
        return true;
      }
    }
    return needsCleaning(t.getCause(), depth + 1);
  }

  /** A stand-in for an internal exception, with the secrets masked in its and its causes' text. */
  private Throwable copy(Throwable t, int depth) {
    Throwable cause = t.getCause() == null || depth > 10 ? null : copy(t.getCause(), depth + 1);
    Redacted out = new Redacted(t.getClass().getName() + ": " + clean(t.getMessage()), cause);
    out.setStackTrace(t.getStackTrace());
    if (depth <= 10) {
      for (Throwable s : t.getSuppressed()) {
        out.addSuppressed(copy(s, depth + 1));
      }
    }
    return out;
  }

  /** An exception whose text had secrets masked; its message names the original type. */
  static final class Redacted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Redacted(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
