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
/**
 * kubejobs core: the job API a scheduler uses ({@code dev.kubejobs.core} and its capability
 * packages) and the SPI a job kind implements ({@code dev.kubejobs.core.spi}). The implementation
 * packages ({@code dev.kubejobs.core.internal.*}) are not exported: on the module path nothing
 * outside this module can reach them, as OkHttp's descriptor keeps {@code okhttp3.internal}.
 *
 * <p>The Kubernetes client and resilience4j appear in the API (an {@code ApiClient} builds {@code
 * KubeJobs}; a {@code Retry} or {@code CircuitBreaker} may replace the default policy), so they are
 * required transitively. They are automatic modules named by their jars' {@code
 * Automatic-Module-Name} (not by file name), which is stable across their releases.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.kubejobs.core {
  requires transitive com.google.gson;
  requires transitive io.github.resilience4j.circuitbreaker;
  requires transitive io.github.resilience4j.core;
  requires transitive io.github.resilience4j.retry;
  requires transitive io.kubernetes.client.java.api;
  requires com.fasterxml.jackson.core;
  requires okhttp3;
  requires org.slf4j;

  exports dev.kubejobs.core;
  exports dev.kubejobs.core.cancel;
  exports dev.kubejobs.core.diagnosis;
  exports dev.kubejobs.core.logs;
  exports dev.kubejobs.core.preflight;
  exports dev.kubejobs.core.resilience;
  exports dev.kubejobs.core.spi;
  exports dev.kubejobs.core.status;
  exports dev.kubejobs.core.submit;
  exports dev.kubejobs.core.sweep;
}
