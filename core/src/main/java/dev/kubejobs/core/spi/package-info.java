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
 * The service provider interface for the authors of a job kind, such as the Spark operators'
 * SparkApplication in {@code kubejobs-spark}: the {@link dev.kubejobs.core.spi.JobKind} contract,
 * the {@link dev.kubejobs.core.spi.JobStatusMapper} that turns a {@link
 * dev.kubejobs.core.spi.ResourceSnapshot} into a {@link dev.kubejobs.core.spi.MappingDecision},
 * and the small values and helpers a kind needs ({@link dev.kubejobs.core.spi.ResourceKind},
 * {@link dev.kubejobs.core.spi.DriverPod}, {@link dev.kubejobs.core.spi.FollowUp}, {@link
 * dev.kubejobs.core.spi.CancelMark}, {@link dev.kubejobs.core.spi.KubernetesNames}, {@link
 * dev.kubejobs.core.spi.SecretKeys}). A scheduler that only submits, reads and cancels jobs needs
 * none of it beyond passing a kind to {@link dev.kubejobs.core.KubeJobs#builder}.
 */
package dev.kubejobs.core.spi;
