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
 * Implementation shared by the operations of kubejobs. Not a published API: anything here may
 * change without notice.
 *
 * <p><b>Adding an operation</b> (orphan sweep, driver log, preflight): put its public interface or
 * value types in its capability package ({@code dev.kubejobs.core.sweep}, {@code .logs}, {@code
 * .preflight}) and its implementation in {@code dev.kubejobs.core.internal.ops}, with a constructor taking the {@link
 * dev.kubejobs.core.internal.KubeJobsContext}. Then add an accessor to {@code KubeJobs} next to
 * {@code canceller()}, as {@code sweeper()}, {@code driverLogs()} and {@code preflight()} are,
 * built from its private {@code context} field. The context gives the cluster, deployment and name
 * prefix, the {@code JobKind} (driver pod name/selector/container), the clock, the warn-once log
 * and the {@link dev.kubejobs.core.internal.kube.KubeGateway}: {@code list} by label selector
 * (paged; {@code listWithVersion} also returns the list's resourceVersion), {@code watch} (a
 * streamed WATCH, which {@link dev.kubejobs.core.internal.watch.NamespaceWatch} turns into a
 * per-namespace view), {@code get}, {@code delete} with a uid precondition, {@code getPod}/{@code
 * listPods}/{@code deletePod}, {@code readPodLog} (container, tail lines, limit bytes, streamed to
 * a reader), {@code selfSubjectAccessReview} and {@code servedResources} (discovery). Every gateway
 * call already runs under the resilience policy and throws only typed errors (plus {@link
 * dev.kubejobs.core.internal.kube.ApiStatusException} where a method documents a 404/409 for the
 * caller to interpret).
 */
package dev.kubejobs.core.internal;
