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
package dev.kubejobs.testkit;

import com.github.tomakehurst.wiremock.common.Notifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends WireMock's messages to SLF4J at DEBUG (errors at WARN). Thread safe. */
final class WireMockLogging implements Notifier {

  private static final Logger LOG = LoggerFactory.getLogger("dev.kubejobs.testkit.wiremock");

  @Override
  public void info(String message) {
    LOG.debug("{}", message);
  }

  @Override
  public void error(String message) {
    LOG.warn("{}", message);
  }

  @Override
  public void error(String message, Throwable t) {
    LOG.warn("{}", message, t);
  }
}
