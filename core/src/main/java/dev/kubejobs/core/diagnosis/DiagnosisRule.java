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
package dev.kubejobs.core.diagnosis;

import java.util.Optional;

/**
 * A rule an operator kind adds to the {@link Diagnoser}: reads what only that operator writes (the
 * Kubeflow operator's {@code errorMessage}, the Apache operator's state history) and explains the
 * job from it. Rules are pure: no I/O, no state; they run after the driver pod's own rules found
 * nothing.
 */
@FunctionalInterface
public interface DiagnosisRule {

  /**
   * Explains the job from what the operator wrote, if it can.
   *
   * @param input what is known about the job
   * @param diagnoser the diagnoser running this rule, whose {@link Diagnoser#diagnosePod} a rule
   *     may call on a pod status the operator copied
   * @return the diagnosis, or empty when this rule has nothing to say
   */
  Optional<Diagnosis> diagnose(DiagnosisInput input, Diagnoser diagnoser);
}
