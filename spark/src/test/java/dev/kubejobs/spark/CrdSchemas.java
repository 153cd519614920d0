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
package dev.kubejobs.spark;

import com.google.gson.JsonObject;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The operators' CRDs from {@code src/test/resources/crds} and their {@code openAPIV3Schema} as
 * JSON schemas. The schemas are made strict the way the API server prunes: an object schema with
 * {@code properties} and neither {@code additionalProperties} nor {@code
 * x-kubernetes-preserve-unknown-fields} rejects unknown fields, so a misspelt field fails the test
 * instead of being silently dropped by the cluster. Other {@code x-kubernetes-*} keywords and
 * {@code nullable} are ignored.
 */
final class CrdSchemas {
  static final String APACHE = "crds/apache-sparkapplications.spark.apache.org.yaml";
  static final String KUBEFLOW = "crds/kubeflow-sparkoperator.k8s.io_sparkapplications.yaml";

  private static final Map<String, JsonNode> CRDS = new ConcurrentHashMap<>();
  private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();
  private static final ObjectMapper JSON = new ObjectMapper();

  private CrdSchemas() {}

  static JsonNode crd(String file) {
    return CRDS.computeIfAbsent(
        file,
        f -> {
          try (InputStream in = CrdSchemas.class.getClassLoader().getResourceAsStream(f)) {
            if (in == null) {
              throw new IllegalStateException("missing test resource " + f);
            }
            return new YAMLMapper().readTree(in);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  static JsonNode version(String file, String version) {
    for (JsonNode v : crd(file).path("spec").path("versions")) {
      if (v.path("name").stringValue("").equals(version)) {
        return v;
      }
    }
    throw new IllegalArgumentException(file + " does not serve " + version);
  }

  static List<String> servedVersions(String file) {
    List<String> out = new ArrayList<>();
    for (JsonNode v : crd(file).path("spec").path("versions")) {
      if (v.path("served").asBoolean()) {
        out.add(v.path("name").stringValue(""));
      }
    }
    return out;
  }

  /** Returns the validation errors of a manifest against the served version's schema. */
  static List<String> validate(String file, String version, JsonObject manifest) {
    Schema schema =
        SCHEMAS.computeIfAbsent(
            file + "@" + version,
            k -> {
              ObjectNode root =
                  (ObjectNode)
                      version(file, version).path("schema").path("openAPIV3Schema").deepCopy();
              ObjectNode props = (ObjectNode) root.get("properties");
              props.putObject("apiVersion").put("type", "string");
              props.putObject("kind").put("type", "string");
              props.putObject("metadata").put("type", "object");
              strict(root);
              return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4)
                  .getSchema(root);
            });
    JsonNode instance = JSON.readTree(manifest.toString());
    List<String> errors = new ArrayList<>();
    for (Error e : schema.validate(instance)) {
      errors.add(e.toString());
    }
    return errors;
  }

  private static void strict(JsonNode node) {
    if (node.isObject()) {
      ObjectNode o = (ObjectNode) node;
      if (o.has("properties")
          && !o.has("additionalProperties")
          && !o.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
        o.put("additionalProperties", false);
      }
      for (String name : new ArrayList<>(o.propertyNames())) {
        strict(o.get(name));
      }
    } else if (node.isArray()) {
      for (JsonNode child : node) {
        strict(child);
      }
    }
  }

  /** Returns the Apache operator's v1 application states, from the CRD's enum. */
  static Set<String> apacheStates() {
    Set<String> out = new LinkedHashSet<>();
    JsonNode e =
        version(APACHE, "v1")
            .path("schema")
            .path("openAPIV3Schema")
            .path("properties")
            .path("status")
            .path("properties")
            .path("currentState")
            .path("properties")
            .path("currentStateSummary")
            .path("enum");
    for (JsonNode s : e) {
      out.add(s.stringValue());
    }
    return out;
  }
}
