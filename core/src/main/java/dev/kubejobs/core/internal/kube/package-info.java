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
 * The gateway to the Kubernetes API server: this package is the only one that sends requests.
 * {@link dev.kubejobs.core.internal.kube.KubeGateway} is its façade of verbs; each verb describes a
 * {@code KubeRequest}, which the one {@code KubeTransport} sends under the resilience policy, its
 * failures classified by the one {@code KubeFailures}; {@code JsonBodies}, {@code ListPageParser}
 * and {@code WatchStream} read bodies, list pages and watch streams. Not a published API.
 */
package dev.kubejobs.core.internal.kube;
