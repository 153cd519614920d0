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
package dev.kubejobs.core.internal.kube;

/**
 * What a delete request achieved, and whether one of its attempts was lost after it may have been
 * applied. Not a published API; immutable.
 *
 * @param result what the last attempt answered
 * @param answerLost whether an earlier attempt reached the server but its answer did not come back:
 *     a {@link DeleteResult#GONE} is then most likely that attempt's own doing
 */
public record DeleteOutcome(DeleteResult result, boolean answerLost) {}
