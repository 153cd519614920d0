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
package dev.kubejobs.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Runs the README's usage snippet, {@link UsageExample#usage}, on the fake API server. */
class UsageExampleTest {
  static final ResourceType APACHE =
      new ResourceType("spark.apache.org", "v1", "sparkapplications", "SparkApplication");

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(APACHE).build();

  @Test
  void theReadmeSnippetSubmitsReadsAndCancels() {
    FakeSparkOperator.apache(KUBE.server());

    assertThat(UsageExample.usage(KUBE.client())).isEqualTo(CancelResult.REQUESTED);
    assertThat(KUBE.server().store().get(APACHE, "spark-jobs", "kj-job-42")).isEmpty();
  }
}
