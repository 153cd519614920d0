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

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a request path names, parsed from the path alone as kube-apiserver's handler chain splits it
 * ({@code /version}, {@code /openapi/...}, {@code /api} and {@code /apis} discovery, a group
 * version's resource list, a namespace, a resource collection or object with its subresource).
 * Whether the group, version and resource are served is decided by the handler, not here.
 */
sealed interface ApiRoute {

  /** {@code /version}. */
  record Version() implements ApiRoute {}

  /**
   * {@code /openapi/...}.
   *
   * @param rest the segments after {@code openapi}, for example {@code [v3, apis, g, v1]}
   */
  record OpenApiDocument(List<String> rest) implements ApiRoute {}

  /** {@code /api}: the core group's versions. */
  record CoreVersions() implements ApiRoute {}

  /** {@code /apis}: the list of groups. */
  record Groups() implements ApiRoute {}

  /**
   * {@code /apis/{group}}.
   *
   * @param group the group
   */
  record Group(String group) implements ApiRoute {}

  /** {@code /apis/authorization.k8s.io/v1/selfsubjectaccessreviews}. */
  record AccessReview() implements ApiRoute {}

  /**
   * {@code /api/{version}} or {@code /apis/{group}/{version}}: the group version's resource list.
   *
   * @param group the group, empty for the core group
   * @param version the version
   */
  record Resources(String group, String version) implements ApiRoute {}

  /**
   * {@code /api/{version}/namespaces/{name}}.
   *
   * @param version the core version
   * @param name the namespace's name
   */
  record Namespace(String version, String name) implements ApiRoute {}

  /**
   * A collection, an object or an object's subresource of a resource.
   *
   * @param group the group, empty for the core group
   * @param version the version
   * @param namespace the namespace, null for all namespaces or a cluster-scoped resource
   * @param plural the resource's plural
   * @param name the object's name, null for the collection
   * @param sub the subresource, for example {@code status} or {@code log}, else null
   */
  record Resource(
      String group, String version, String namespace, String plural, String name, String sub)
      implements ApiRoute {}

  /** A path no handler serves: Go's plain {@code 404 page not found}. */
  record Unknown() implements ApiRoute {}

  /**
   * Parses a request path (without query); each segment is URL-decoded.
   *
   * @param path the path, for example {@code
   *     /apis/spark.apache.org/v1/namespaces/ns/sparkapplications}
   * @return what it names, {@link Unknown} if nothing
   */
  static ApiRoute parse(String path) {
    List<String> segs = new ArrayList<>();
    for (String s : path.split("/")) {
      if (!s.isEmpty()) {
        segs.add(URLDecoder.decode(s, StandardCharsets.UTF_8));
      }
    }
    if (segs.isEmpty()) {
      return new Unknown();
    }
    String first = segs.get(0);
    if (segs.size() == 1 && first.equals("version")) {
      return new Version();
    }
    if (first.equals("openapi")) {
      return new OpenApiDocument(List.copyOf(segs.subList(1, segs.size())));
    }
    String group;
    String version;
    List<String> rest;
    if (first.equals("api")) {
      if (segs.size() == 1) {
        return new CoreVersions();
      }
      group = "";
      version = segs.get(1);
      rest = segs.subList(2, segs.size());
    } else if (first.equals("apis")) {
      if (segs.size() == 1) {
        return new Groups();
      }
      group = segs.get(1);
      if (segs.size() == 2) {
        return new Group(group);
      }
      version = segs.get(2);
      rest = segs.subList(3, segs.size());
      if (group.equals("authorization.k8s.io")
          && version.equals("v1")
          && rest.equals(List.of("selfsubjectaccessreviews"))) {
        return new AccessReview();
      }
    } else {
      return new Unknown();
    }
    if (rest.isEmpty()) {
      return new Resources(group, version);
    }
    if (rest.get(0).equals("namespaces") && rest.size() >= 3) {
      if (rest.size() > 5) {
        return new Unknown();
      }
      return new Resource(
          group,
          version,
          rest.get(1),
          rest.get(2),
          rest.size() >= 4 ? rest.get(3) : null,
          rest.size() == 5 ? rest.get(4) : null);
    }
    if (group.isEmpty() && rest.get(0).equals("namespaces") && rest.size() == 2) {
      return new Namespace(version, rest.get(1));
    }
    if (rest.size() == 1) {
      return new Resource(group, version, null, rest.get(0), null, null);
    }
    return new Unknown();
  }
}
