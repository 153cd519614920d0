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

import java.util.Objects;

/**
 * A permission a refused request needed, as a value: the verb, the resource ({@code
 * sparkapplications.spark.apache.org}, {@code pods}) and the namespace. Carried by the {@link
 * ApiStatusException} of a 401/403 answer (see {@link ApiStatusException#permission()}), so that a
 * caller can name what an operator must grant without reading message text.
 *
 * @param verb the verb, for example {@code delete}
 * @param resource the resource with its group, for example {@code pods} or {@code
 *     sparkapplications.spark.apache.org}
 * @param namespace the namespace
 */
public record Permission(String verb, String resource, String namespace) {
  /**
   * Checks the parts.
   *
   * @param verb the verb
   * @param resource the resource
   * @param namespace the namespace
   */
  public Permission {
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(namespace, "namespace");
  }

  /**
   * Says what a refusal of a request that needed this permission means, in the one wording every
   * part of kubejobs uses: a 401 is the credentials ({@code the API server refused the ApiClient's
   * credentials (401) to delete pods in namespace etl}), anything else a missing permission ({@code
   * missing permission: delete pods in namespace etl}). Built from the answer's code and what was
   * sent, never from the server's text.
   *
   * @param code the refusal's HTTP status, 401 or 403
   * @return the words
   */
  public String refusal(int code) {
    return code == 401
        ? "the API server refused the ApiClient's credentials (401) to " + this
        : "missing permission: " + this;
  }

  /**
   * Returns the permission as a rejection names it: {@code delete pods in namespace etl}.
   *
   * @return the words
   */
  @Override
  public String toString() {
    return verb + " " + resource + " in namespace " + namespace;
  }
}
