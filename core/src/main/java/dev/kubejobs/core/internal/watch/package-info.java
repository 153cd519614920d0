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
 * Informer-like views of one namespace's managed objects, fed by LIST + WATCH through the {@link
 * dev.kubejobs.core.internal.kube.KubeGateway}: {@link
 * dev.kubejobs.core.internal.watch.NamespaceWatch}, the building block of the watch-mode status
 * reader. It is made of one part per job, as client-java's informer is: a reflector (the
 * list-and-watch loop), a store (the entries and the flags it publishes), a back-off and an idle
 * watchdog; only {@code NamespaceWatch}, {@code WatchListener} and {@code WatchSettings} are used
 * from outside the package. Not a published API: anything here may change without notice.
 */
package dev.kubejobs.core.internal.watch;
