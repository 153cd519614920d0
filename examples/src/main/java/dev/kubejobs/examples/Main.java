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
      "Exit codes: 0 done, 1 failed (a rejected or failed job, a failed check),"
          + " 2 configuration or usage, 3 API server unreachable.",
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
      err.println("error: " + message.strip().replaceAll("\\s*\\R\\s*", " "));
      err.println("Try '" + cli.getCommandSpec().qualifiedName() + " --help' for usage.");
      err.flush();
      return Errors.CONFIGURATION;
    }
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
