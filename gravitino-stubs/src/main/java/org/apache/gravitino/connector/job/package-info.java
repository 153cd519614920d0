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
 * org.apache.gravitino.connector.job.JobExecutor}, {@link
 * org.apache.gravitino.connector.job.JobContext} and {@link
 * org.apache.gravitino.connector.job.JobExecutionInfo}, in their real package, with the names,
 * methods, parameters, return types and exceptions of the originals, so that {@code
 * kubejobs-gravitino} compiles against exactly the names a Gravitino server loads.
 *
 * <p><b>Never shipped.</b> This module is never installed nor deployed, and every module uses it
 * with scope {@code provided}: no jar kubejobs ships holds a class of {@code org.apache.gravitino}
 * (kubejobs-gravitino's {@code ShadedJarContentsIT} checks the deployable jar's entries). In a
 * Gravitino server the real classes of {@code gravitino-core} take their place.
 *
 * <p><b>Which SPI.</b> They mirror Gravitino's {@code main} branch after 1.3.0 (the unreleased 2.0
 * line): {@code JobExecutor} as extended by apache/gravitino#13147 ({@code ownsJob}, {@code
 * isJobStateNodeLocal}), #12716/#13250 ({@code getJobStdout}/{@code getJobStderr} with line and
 * byte caps) and #13381 ({@code getJobExecutionInfo}); {@code
 * core/src/main/java/org/apache/gravitino/connector/job/JobContext.java} at commit {@code
 * 371ac418706120a5d59bee821a6144f71fc9da65}, {@code JobExecutionInfo.java} at commit {@code
 * ca6d3a6298f9610cfdb701d07f2b60e0b16a6364}. Gravitino 1.3.0 has the first four methods only
 * ({@code initialize}, {@code submitJob(JobTemplate)}, {@code getJobStatus}, {@code cancelJob};
 * {@code JobExecutor.java} at commit {@code 6daad4ab07aa146e92df38b8ac0d510d4fd726d3}), and no
 * {@code JobContext} nor {@code JobExecutionInfo}: an executor built against these stand-ins is for
 * the main line only. The types they use that {@code gravitino-api} publishes ({@code
 * JobTemplate}, {@code JobHandle.Status}, {@code NoSuchJobException}) are the real ones.
 *
 * <p>These stand-ins hold no behaviour beyond the SPI's documented defaults and argument checks.
 * {@code JobExecutionInfo} is compiled as Gravitino compiles it, with Lombok and the same
 * annotations, so that its builder class and members are the ones the server has; kubejobs-gravitino's
 * {@code SpiShapeTest} checks every public member of the compiled stand-ins against the real
 * classes' {@code javap -public -s} output.
 */
package org.apache.gravitino.connector.job;
