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

import dev.kubejobs.examples.cli.Commands;
import dev.kubejobs.examples.cli.FakeCluster;
import dev.kubejobs.examples.cli.HelpLayout;
import dev.kubejobs.examples.gravitino.GravitinoExample;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Entry point of the kubejobs example programs, {@code java -jar kubejobs-examples.jar}.
 *
 * <p>With no arguments it runs the {@link Demo} on an embedded, simulated cluster. With a
 * subcommand ({@code submit}, {@code status}, {@code watch}, {@code cancel}, {@code logs}, {@code
 * list}, {@code sweep}, {@code check}) it works on a real cluster through a kubeconfig or the
 * in-cluster configuration; {@code fake-cluster} serves a simulated cluster those commands, kubectl
 * and other programs can use; {@code gravitino} runs the Gravitino example on the simulated
 * cluster. Every failure is told in one line on standard error, with a non-zero exit code.
 */
@Command(
    name = "kubejobs-examples",
    mixinStandardHelpOptions = true,
    version = "kubejobs examples 0.1.0-SNAPSHOT",
    description = {
      "Runs Spark jobs on Kubernetes through a Spark operator with kubejobs.",
      "Without a command: the demo on an embedded SIMULATED cluster."
    },
    footer = {
      "",
      "Try it without a cluster: fake-cluster serves a simulated one and writes its kubeconfig.",
      Errors.EXIT_CODES,
      "'help COMMAND' or 'COMMAND --help' shows a command's own options."
    },
    subcommands = {
      CommandLine.HelpCommand.class,
      Main.DemoCommand.class,
      FakeCluster.Serve.class,
      GravitinoExample.Command.class,
      Commands.Submit.class,
      Commands.Status.class,
      Commands.Watch.class,
      Commands.Cancel.class,
      Commands.Logs.class,
      Commands.ListJobs.class,
      Commands.Sweep.class,
      Commands.Check.class,
      ManyJobsSimulation.SimulateCommand.class
    })
public final class Main implements Callable<Integer> {
  private static final Set<String> CLUSTER_OPTIONS =
      Set.of("--kubeconfig", "-n", "--namespace", "--cluster", "--deployment", "--operator");

  @Spec CommandSpec spec;

  /**
   * Runs the example programs and exits with their exit code.
   *
   * @param args command-line arguments; none runs the demo
   */
  public static void main(String[] args) {
    System.exit(commandLine().execute(globalOptionsAfterCommand(args)));
  }

  /**
   * Moves cluster options given before the command ({@code --kubeconfig PATH status ID}) after it
   * ({@code status ID --kubeconfig PATH}), where the command declares them; other arguments are
   * left as they are.
   *
   * @param args the command-line arguments
   * @return the arguments in the order the commands parse
   */
  public static String[] globalOptionsAfterCommand(String... args) {
    List<String> leading = new ArrayList<>();
    int i = 0;
    while (i < args.length && CLUSTER_OPTIONS.contains(args[i].split("=", 2)[0])) {
      leading.add(args[i]);
      if (!args[i].contains("=") && i + 1 < args.length) {
        leading.add(args[++i]);
      }
      i++;
    }
    if (leading.isEmpty() || i >= args.length) {
      return args;
    }
    List<String> result = new ArrayList<>();
    result.add(args[i]);
    result.addAll(leading);
    result.addAll(Arrays.asList(args).subList(i + 1, args.length));
    return result.toArray(String[]::new);
  }

  /**
   * Returns the configured command line, which tests run with their own output writers.
   *
   * @return a new command line over a new {@link Main}
   */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setExecutionExceptionHandler(new OneLineErrors());
    cli.setParameterExceptionHandler(new OneLineUsageErrors());
    HelpLayout.install(cli);
    return HelpLayout.listClusterOptions(cli);
  }

  @Override
  public Integer call() {
    return Demo.run(spec.commandLine().getOut(), Demo.Settings.ofDefaults());
  }

  /** Runs the demo on the simulated cluster (the same as no command). */
  @Command(
      name = "demo",
      mixinStandardHelpOptions = true,
      description = "Runs the demo on an embedded SIMULATED cluster (the default).")
  static final class DemoCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      return Demo.run(spec.commandLine().getOut(), Demo.Settings.ofDefaults());
    }
  }

  /**
   * Prints a usage error (an unknown option, a missing or bad value) as one line and a hint naming
   * the help of the command, instead of the whole usage text; exit code {@link
   * Errors#CONFIGURATION}.
   */
  static final class OneLineUsageErrors implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
      CommandLine cli = e.getCommandLine();
      PrintWriter err = cli.getErr();
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      String unknownCommand = unknownCommand(e, cli);
      err.println(
          "error: "
              + (unknownCommand != null
                  ? unknownCommand
                  : message.strip().replaceAll("\\s*\\R\\s*", " ")));
      err.println("Try '" + cli.getCommandSpec().qualifiedName() + " --help' for usage.");
      err.flush();
      return Errors.CONFIGURATION;
    }

    /**
     * For a word where a command belongs ({@code sumbit}), the line naming the nearest command, or
     * every command when none is near; null for any other usage error.
     */
    private static String unknownCommand(CommandLine.ParameterException e, CommandLine cli) {
      if (!(e instanceof CommandLine.UnmatchedArgumentException unmatched)
          || cli.getCommandSpec().parent() != null
          || unmatched.getUnmatched().isEmpty()
          || unmatched.getUnmatched().get(0).startsWith("-")) {
        return null;
      }
      String word = unmatched.getUnmatched().get(0);
      List<String> commands = new ArrayList<>(cli.getSubcommands().keySet());
      String nearest = nearest(word, commands);
      return "unknown command '"
          + word
          + "'"
          + (nearest != null
              ? ": did you mean '" + nearest + "'?"
              : "; the commands are " + String.join(", ", commands));
    }
  }

  /**
   * The word of {@code candidates} nearest to {@code word}: at most two letters added, removed,
   * changed or swapped with their neighbour (optimal string alignment distance), ties to the first
   * candidate; null when none is that near.
   *
   * @param word the mistyped word
   * @param candidates the words it may have meant
   * @return the nearest candidate, or null
   */
  static String nearest(String word, List<String> candidates) {
    String best = null;
    int bestDistance = 3;
    for (String c : candidates) {
      int d = distance(word.toLowerCase(java.util.Locale.ROOT), c);
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  /** Prints an exception as one line, never a stack trace, and picks the exit code. */
  static final class OneLineErrors implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(
        Exception e, CommandLine cli, CommandLine.ParseResult parseResult) {
      PrintWriter err = cli.getErr();
      err.println("error: " + Errors.describe(e));
      err.flush();
      return Errors.exitCode(e);
    }
  }
}
