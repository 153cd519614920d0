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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.examples.CliTest.Result;
import dev.kubejobs.examples.Errors.CliException;
import dev.kubejobs.examples.cli.Kubeconfigs;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import io.kubernetes.client.util.KubeConfig;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;

/** The command line's rough edges: usage errors, kubeconfig lookup and merging, help layout. */
class CliRoughEdgesTest {
  static final ResourceType APACHE =
      new ResourceType("spark.apache.org", "v1", "sparkapplications", "SparkApplication");

  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(APACHE).build();

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "simulate --namespaces 0, simulate, --namespaces must be at least 1",
    "simulate --jobs -5, simulate, --jobs must be at least 1",
    "submit job-1 --bogus, submit, Unknown option: '--bogus'",
    "status, status, Missing required parameter",
    "submit job-1 --operator spark, submit, Invalid value for option '--operator'",
  })
  void aUsageErrorIsOneLineAndAHintNotTheWholeUsage(String args, String command, String error) {
    Result r = CliTest.runWith(List.of(), args.split(" "));

    assertThat(r.exit()).isEqualTo(Errors.CONFIGURATION);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines())
        .containsExactly(
            r.err().lines().findFirst().orElseThrow(),
            "Try 'kubejobs-examples " + command + " --help' for usage.");
    assertThat(r.err()).startsWith("error: ").contains(error);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "sumbit job-1 | error: unknown command 'sumbit': did you mean 'submit'?",
        "stauts job-1 | error: unknown command 'stauts': did you mean 'status'?",
        "wath job-1 | error: unknown command 'wath': did you mean 'watch'?",
        "frobnicate | error: unknown command 'frobnicate'; the commands are help, demo",
      })
  void aMistypedCommandNamesTheNearestCommand(String args, String line) {
    Result r = CliTest.runWith(List.of(), args.split(" "));

    assertThat(r.exit()).isEqualTo(Errors.CONFIGURATION);
    assertThat(r.err().lines()).hasSize(2);
    assertThat(r.err()).startsWith(line);
  }

  @Test
  @SuppressWarnings("try") // the fake operator only has to run while the commands do
  void withoutNamespaceOptionTheKubeconfigContextsNamespaceIsUsedAndNOverridesIt()
      throws IOException {
    try (FakeSparkOperator operator = FakeSparkOperator.apache(KUBE.server())) {
      Path kubeconfig = dir.resolve("with-namespace");
      Files.writeString(kubeconfig, yaml(KUBE.server().url(), "team-a"));

      Result fromContext =
          CliTest.runWith(List.of("--kubeconfig", kubeconfig.toString()), "submit", "job-1");
      Result explicit =
          CliTest.runWith(
              List.of("--kubeconfig", kubeconfig.toString(), "-n", "team-b"), "submit", "job-2");
      Result status =
          CliTest.runWith(List.of("--kubeconfig", kubeconfig.toString()), "status", "job-1");

      assertThat(fromContext.out().strip()).endsWith("/team-a/kj-job-1");
      assertThat(explicit.out().strip()).endsWith("/team-b/kj-job-2");
      assertThat(status.exit()).as(status.err()).isZero();
    }
  }

  /**
   * kubectl merges every file of {@code $KUBECONFIG}: the first file that sets a value wins,
   * missing files are skipped, relative paths resolve against their own file ({@code
   * ClientConfigLoadingRules.Load} and {@code ResolveLocalPaths} in kubernetes/client-go {@code
   * tools/clientcmd/loader.go}).
   */
  @Test
  void theKubeconfigListIsMergedTheFirstFileSettingAValueWinning() throws IOException {
    Path a = dir.resolve("a.yaml");
    Files.writeString(
        a,
        """
        current-context: fake
        clusters:
        - name: fake
          cluster:
            server: https://first.example:6443
        """);
    Path sub = Files.createDirectories(dir.resolve("sub"));
    Path b = sub.resolve("b.yaml");
    Files.writeString(
        b,
        """
        current-context: other
        clusters:
        - name: fake
          cluster:
            server: https://second.example:6443
        contexts:
        - name: fake
          context: {cluster: fake, user: me, namespace: from-b}
        - name: other
          context: {cluster: fake, user: me}
        users:
        - name: me
          user:
            client-certificate: certs/me.crt
            client-key: /abs/me.key
        """);
    String list =
        String.join(
            File.pathSeparator, a.toString(), dir.resolve("missing").toString(), b.toString());

    Kubeconfigs.Loaded loaded = Kubeconfigs.load(null, Map.of("KUBECONFIG", list), dir);
    KubeConfig config = loaded.config();

    assertThat(loaded.files()).containsExactly(a, b);
    assertThat(config.getCurrentContext()).isEqualTo("fake");
    assertThat(config.getServer()).isEqualTo("https://first.example:6443");
    assertThat(config.getNamespace()).isEqualTo("from-b");
    assertThat(config.getClientCertificateFile()).isEqualTo(sub.resolve("certs/me.crt").toString());
    assertThat(config.getClientKeyFile()).isEqualTo("/abs/me.key");
  }

  @Test
  void withNoKubeconfigAnywhereTheMessageNamesTheStandardFile() {
    assertThatThrownBy(() -> Kubeconfigs.load(null, Map.of(), dir))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("~/.kube/config (" + dir.resolve(".kube/config") + ")")
        .hasMessageContaining("--kubeconfig")
        .hasMessageContaining("KUBECONFIG")
        .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(Errors.CONFIGURATION));
    assertThat(Kubeconfigs.load(null, Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"), dir))
        .as("inside a pod: the in-cluster configuration")
        .isNull();
  }

  @Test
  void aDirectoryGivenAsKubeconfigIsCalledADirectory() {
    Result r = CliTest.runWith(List.of("--kubeconfig", dir.toString()), "status", "job-1");

    assertThat(r.exit()).isEqualTo(Errors.CONFIGURATION);
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err()).contains(dir.toString(), "is a directory").doesNotContain("not found");
    assertThatThrownBy(() -> Kubeconfigs.load(null, Map.of("KUBECONFIG", dir.toString()), dir))
        .hasMessageContaining("is a directory")
        .hasMessageContaining("$KUBECONFIG");
  }

  @Test
  void helpTextNeverBreaksInsideAWordOfADescription() {
    List<CommandLine> commands = new ArrayList<>();
    collect(Main.commandLine(), commands);

    for (CommandLine cli : commands) {
      StringWriter help = new StringWriter();
      cli.usage(new PrintWriter(help, true));
      String text = help.toString();
      List<ArgSpec> args = new ArrayList<>(cli.getCommandSpec().options());
      args.addAll(cli.getCommandSpec().positionalParameters());
      for (ArgSpec arg : args) {
        for (String paragraph : arg.description()) {
          for (String word : paragraph.strip().split("\\s+")) {
            assertThat(text).as(cli.getCommandName() + " help, word '" + word + "'").contains(word);
          }
        }
      }
      text.lines()
          .filter(l -> l.length() > 80)
          .forEach(
              l ->
                  assertThat(l.strip())
                      .as(cli.getCommandName() + ": a long line is one word")
                      .doesNotContain(" "));
    }
  }

  private static void collect(CommandLine cli, List<CommandLine> into) {
    into.add(cli);
    cli.getSubcommands().values().forEach(c -> collect(c, into));
  }

  private static String yaml(String url, String namespace) {
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - name: fake
          cluster:
            server: %s
        contexts:
        - name: fake
          context:
            cluster: fake
            user: scheduler
            namespace: %s
        current-context: fake
        users:
        - name: scheduler
          user:
            token: not-a-real-token
        """
        .formatted(url, namespace);
  }
}
