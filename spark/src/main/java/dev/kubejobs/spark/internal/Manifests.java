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
package dev.kubejobs.spark.internal;

import com.google.gson.JsonObject;
import dev.kubejobs.core.InvalidJobSpecException;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.spark.SparkJobSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/** The metadata both operators' SparkApplications share. Not a published API. */
final class Manifests {
  private Manifests() {}

  /** Returns the identity's labels followed by the spec's own. */
  static Map<String, String> labels(SparkJobSpec spec, JobIdentity identity) {
    Map<String, String> labels = new LinkedHashMap<>(identity.labels());
    spec.labels().forEach(labels::putIfAbsent);
    return labels;
  }

  /** Returns apiVersion, kind and metadata (name, namespace, labels, annotations). */
  static JsonObject skeleton(ResourceKind kind, SparkJobSpec spec, JobIdentity identity) {
    if (!identity.namespace().equals(spec.namespace())) {
      throw Checks.invalid(
          "namespace",
          "be the same in the spec and the job identity ('" + identity.namespace() + "')",
          spec.namespace());
    }
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", identity.name());
    metadata.addProperty("namespace", identity.namespace());
    metadata.add("labels", Json.strings(labels(spec, identity)));
    Map<String, String> annotations = new LinkedHashMap<>(spec.annotations());
    annotations.putAll(identity.annotations());
    metadata.add("annotations", Json.strings(annotations));
    JsonObject o = new JsonObject();
    o.addProperty("apiVersion", kind.apiVersion());
    o.addProperty("kind", kind.kind());
    o.add("metadata", metadata);
    return o;
  }

  /** Fails unless the spec is not null. */
  static SparkJobSpec require(SparkJobSpec spec) {
    if (spec == null) {
      throw new InvalidJobSpecException("spec must not be null");
    }
    return spec;
  }
}
