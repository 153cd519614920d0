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
 * The kubejobs job API: {@link dev.kubejobs.core.KubeJobs}, ids, statuses, execution info, identity
 * on the cluster and the typed errors. The contract a resource kind (such as a Spark operator's
 * SparkApplication) implements is in {@link dev.kubejobs.core.spi}; the operations' own types are
 * in the capability packages ({@code submit}, {@code status}, {@code cancel}, {@code sweep}, {@code
 * logs}, {@code preflight}, {@code diagnosis}, {@code resilience}).
 */
package dev.kubejobs.core;
