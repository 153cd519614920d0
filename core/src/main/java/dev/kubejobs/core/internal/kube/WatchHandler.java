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
 * Receives what one watch request brings, on the thread that called {@link KubeGateway#watch}: the
 * call's handle, the moment the stream is open, then each event as it arrives, in the server's
 * order. A handler that throws ends the watch (the call is closed) and its exception reaches the
 * caller of {@code watch}.
 */
public interface WatchHandler {
  /**
   * Called once, before the request is sent, with the handle that cancels it from any thread.
   *
   * @param call the handle
   */
  default void starting(WatchCall call) {}

  /**
   * Called once the server answered 2xx: the stream is open and every change after the requested
   * resourceVersion will follow as an event.
   */
  default void opened() {}

  /**
   * Called for each event of the stream, in the server's order.
   *
   * @param event the event
   */
  void onEvent(WatchEvent event);
}
