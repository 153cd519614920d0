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
