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
 * kubejobs run through the real Apache Spark Kubernetes Operator: the suite is in this module's
 * test sources. This package holds no class; it exists so that the module has a main output
 * directory, which compiler 3.16's incremental check reads for every module (MCOMPILER-1124: it
 * warns "I/O error reading dependency state" for a module of test sources only).
 */
package dev.kubejobs.realop;
