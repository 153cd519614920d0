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

import okhttp3.Call;

/**
 * The handle of one watch request: {@link #cancel()} ends it from any thread, before it is sent,
 * while it waits for the server's answer or while it streams. The gateway hands it to {@link
 * WatchHandler#starting(WatchCall)} before it sends the request.
 *
 * <p>Thread safe.
 */
public final class WatchCall {
  private Call call;
  private boolean canceled;

  WatchCall() {}

  /** Binds the HTTP call; cancels it at once when {@link #cancel()} came first. */
  synchronized void attach(Call httpCall) {
    this.call = httpCall;
    if (canceled) {
      httpCall.cancel();
    }
  }

  /**
   * Cancels the watch: the request is not sent, or its connection is closed, so that the thread in
   * {@link KubeGateway#watch} returns promptly with an {@link
   * dev.kubejobs.core.ApiUnavailableException}. Calling it again, or after the watch ended, does
   * nothing.
   */
  public synchronized void cancel() {
    canceled = true;
    if (call != null) {
      call.cancel();
    }
  }

  /**
   * Returns whether {@link #cancel()} was called, which tells a watch its caller ended from one the
   * connection ended.
   *
   * @return whether the watch was canceled
   */
  public synchronized boolean isCanceled() {
    return canceled;
  }
}
