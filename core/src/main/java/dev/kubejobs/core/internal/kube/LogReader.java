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

import java.io.IOException;
import java.io.InputStream;

/**
 * Consumes a pod log while the answer is open; the gateway closes the stream afterwards.
 *
 * @param <T> what the reader makes of the log
 */
@FunctionalInterface
public interface LogReader<T> {
  /**
   * Reads the log.
   *
   * @param log the log bytes, UTF-8; empty for an empty log
   * @return the result
   * @throws IOException when reading fails
   */
  T read(InputStream log) throws IOException;
}
