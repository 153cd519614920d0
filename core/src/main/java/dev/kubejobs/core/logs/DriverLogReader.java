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
package dev.kubejobs.core.logs;

import dev.kubejobs.core.ExecutionId;

/**
 * Reads the end of a job's driver log: the last lines of the driver container of the latest
 * attempt's driver pod.
 *
 * <p>The driver pod is the one the job's resource names ({@code JobKind.driverPodName}) or, when
 * the resource is gone or names none, the newest (by {@code creationTimestamp}) pod matching {@code
 * JobKind.driverPodSelector}; a retried job's earlier attempts are ignored. The driver container is
 * always named in the request, so a pod with sidecars (where the API server answers 400 to a
 * request without a container) works.
 *
 * <p>Best effort: reading never fails the caller. No pod yet, a container that has not started, a
 * pod that is gone: an empty {@link DriverLog} and a DEBUG log line. Anything else (403, an
 * unreachable API server): an empty {@link DriverLog} and a WARN log line naming the cause.
 *
 * <p>Memory stays bounded by the caps, whatever the log's size: the server is asked for the last
 * {@code maxLines} lines and the answer is streamed through a ring of at most {@code maxBytes}
 * bytes, never held whole. (Kubernetes' own {@code limitBytes} is not used for the cap: it cuts the
 * head of what it sends, not the tail.)
 *
 * <p>Implementations are thread safe.
 */
public interface DriverLogReader {
  /**
   * Returns the last lines of a job's driver log: at most {@code maxLines} whole lines whose UTF-8
   * bytes, each counted with its line end, add up to at most {@code maxBytes}, the newest last. A
   * last line longer than {@code maxBytes} on its own is returned cut to its tail end (at a
   * character boundary) and the result is marked {@link DriverLog#truncated() truncated}.
   *
   * @param id the job's execution id
   * @param maxLines the most lines to return; 0 returns an empty log without a request
   * @param maxBytes the most bytes to return; 0 returns an empty log without a request
   * @return the tail of the log, or an empty log when there is none to read or reading failed
   * @throws IllegalArgumentException if {@code id} is null or a cap is negative (a programming
   *     error; nothing else is ever thrown)
   */
  DriverLog tail(ExecutionId id, int maxLines, int maxBytes);
}
