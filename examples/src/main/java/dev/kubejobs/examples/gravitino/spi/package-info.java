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
 * Stand-ins for the three job-executor SPI types that only Apache Gravitino's server module ({@code
 * gravitino-core}, not published to Maven Central) holds: {@link
 * dev.kubejobs.examples.gravitino.spi.JobExecutor}, {@link
 * dev.kubejobs.examples.gravitino.spi.JobContext} and {@link
 * dev.kubejobs.examples.gravitino.spi.JobExecutionInfo}, with the names, methods, parameters,
 * return types and exceptions of {@code org.apache.gravitino.connector.job.*}.
 *
 * <p><b>Which SPI.</b> They mirror Gravitino's {@code main} branch after 1.3.0 (the unreleased 2.0
 * line): {@code JobExecutor} as extended by apache/gravitino#13147 ({@code ownsJob}, {@code
 * isJobStateNodeLocal}), #12716/#13250 ({@code getJobStdout}/{@code getJobStderr} with line and
 * byte caps) and #13381 ({@code getJobExecutionInfo}); {@code JobContext.java} at commit {@code
 * 371ac418706120a5d59bee821a6144f71fc9da65}, {@code JobExecutionInfo.java} at commit {@code
 * ca6d3a6298f9610cfdb701d07f2b60e0b16a6364}. Gravitino 1.3.0 itself has the first four methods only
 * ({@code initialize}, {@code submitJob(JobTemplate)}, {@code getJobStatus}, {@code cancelJob});
 * the executor implements those too.
 *
 * <p><b>Why not the same package.</b> They live here, not in {@code
 * org.apache.gravitino.connector.job}: a jar holding classes of that package would shadow (or clash
 * with) the real ones once dropped into a Gravitino server. The types they use that {@code
 * gravitino-api} 1.3.0 publishes ({@code JobTemplate}, {@code SparkJobTemplate}, {@code
 * JobHandle.Status}, {@code org.apache.gravitino.exceptions.NoSuchJobException}) are the real ones.
 *
 * <p><b>To run the executor in Gravitino,</b> replace the import of this package in {@code
 * KubeJobsSparkExecutor} by {@code org.apache.gravitino.connector.job} and compile it against
 * {@code gravitino-core}; nothing else changes. These stand-ins hold no behaviour beyond the SPI's
 * documented defaults.
 */
package dev.kubejobs.examples.gravitino.spi;
