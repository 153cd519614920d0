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
package dev.kubejobs.core.cancel;

/** What a cancel found and did. */
public enum CancelResult {
  /** The job was running or queued: it is marked cancelled and its resource is being deleted. */
  REQUESTED,
  /**
   * The job had already finished, or its resource is being deleted without a cancel (the no-status
   * timeout, or someone else), which ends it as the status reader reports (FAILED): nothing was
   * changed, and the job is not cancelled — a scheduler must not record CANCELLED for it.
   */
  ALREADY_FINISHED,
  /**
   * The job's resource was already being deleted by an earlier cancel (it carries the cancel mark):
   * nothing was changed, and the job ends CANCELLED.
   */
  ALREADY_DELETING
}
