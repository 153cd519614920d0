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
package dev.kubejobs.core.testing;

import java.util.Map;

/**
 * The spec of a made-up test job.
 *
 * @param namespace where it runs
 * @param image the image
 * @param labels extra labels for the resource
 */
public record TestJobSpec(String namespace, String image, Map<String, String> labels) {
  /** A spec in a namespace with no extra labels. */
  public static TestJobSpec in(String namespace) {
    return new TestJobSpec(namespace, "busybox", Map.of());
  }
}
