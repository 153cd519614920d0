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
 * Why a job is stuck or why it failed: a {@link dev.kubejobs.core.diagnosis.Diagnosis} with a
 * stable {@link dev.kubejobs.core.diagnosis.Cause}, one sentence naming the object and what to do,
 * and the {@link dev.kubejobs.core.diagnosis.Evidence} it rests on.
 *
 * <p>The {@link dev.kubejobs.core.diagnosis.Diagnoser} is pure: it reads the driver pod, executor
 * pods, the namespace's events and the operator's status handed to it, and does no I/O, so it can
 * run as one step of the status pipeline and be tested from JSON as the real components write it.
 * Operator kinds add their own {@link dev.kubejobs.core.diagnosis.DiagnosisRule}s.
 */
package dev.kubejobs.core.diagnosis;
