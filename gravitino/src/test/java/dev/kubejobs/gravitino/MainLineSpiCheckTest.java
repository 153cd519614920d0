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
package dev.kubejobs.gravitino;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code initialize} refuses a server without the main-line SPI (Gravitino 1.3.0 has neither {@code
 * JobContext} nor {@code JobExecutionInfo}) with one sentence naming the versions that work. The
 * servers here are class loaders over the test class path that hide some of the SPI's classes.
 */
class MainLineSpiCheckTest {

  @Test
  void theMainLineSpiPasses() {
    assertThatCode(() -> KubeJobsSparkExecutor.requireMainLineSpi(getClass().getClassLoader()))
        .doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "org.apache.gravitino.connector.job.JobContext",
        "org.apache.gravitino.connector.job.JobExecutionInfo",
        "org.apache.gravitino.connector.job.JobExecutionInfo$JobExecutionInfoBuilder"
      })
  void aServerWithoutOneOfTheSpiClassesIsRefusedNamingTheVersionsThatWork(String hidden) {
    ClassLoader server = hiding(hidden);

    assertThatThrownBy(() -> KubeJobsSparkExecutor.requireMainLineSpi(server))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            KubeJobsSparkExecutor.NEEDS_GRAVITINO + ", but this server has no " + hidden + ".");
  }

  private ClassLoader hiding(String name) {
    return new ClassLoader("gravitino-1.3.0-core", getClass().getClassLoader()) {
      @Override
      protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
        if (n.equals(name)) {
          throw new ClassNotFoundException(n);
        }
        return super.loadClass(n, resolve);
      }
    };
  }
}
