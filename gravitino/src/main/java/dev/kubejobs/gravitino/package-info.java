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
 * The job executor an Apache Gravitino server (main line) loads from its {@code libs/} directory:
 * {@link dev.kubejobs.gravitino.KubeJobsSparkExecutor}, configured by the {@code
 * gravitino.jobExecutor.kubejobs.*} keys of {@link dev.kubejobs.gravitino.ExecutorSettings}, with
 * the template and status mapping of {@link dev.kubejobs.gravitino.GravitinoMapping}. Deploy the
 * module's {@code shaded} jar; {@code docs/gravitino.md} says how.
 */
package dev.kubejobs.gravitino;
