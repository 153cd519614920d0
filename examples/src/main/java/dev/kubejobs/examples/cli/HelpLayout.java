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
package dev.kubejobs.examples.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Lays out the option and parameter lists of the usage help like picocli does, except that a
 * description is wrapped at spaces only: picocli's wrapping may break inside a value ({@code
 * local:} / {@code ///opt/...}, {@code ~/.} / {@code kube/config}), which cannot then be copied. A
 * word longer than the line stays whole. Stateless.
 */
public final class HelpLayout {
  private static final int WIDTH = 80;
  private static final int DESCRIPTION_COLUMN = 28;
  private static final int CONTINUATION_INDENT = 2;

  private HelpLayout() {}

  /**
   * Installs the layout on a command line and all its subcommands.
   *
   * @param cli the command line
   * @return the same command line
   */
  public static CommandLine install(CommandLine cli) {
    cli.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, HelpLayout::options);
    cli.getHelpSectionMap()
        .put(UsageMessageSpec.SECTION_KEY_PARAMETER_LIST, HelpLayout::parameters);
    cli.getSubcommands().values().forEach(HelpLayout::install);
    return cli;
  }

  /**
   * Adds to a command's usage help, before its footer, the options every cluster command shares
   * ({@link ClusterOptions}), which may also be given before the command.
   *
   * @param cli the top-level command line
   * @return the same command line
   */
  public static CommandLine listClusterOptions(CommandLine cli) {
    String key = "clusterOptions";
    Help shared =
        new Help(
            CommandSpec.forAnnotatedObject(new ClusterOptions()),
            Help.defaultColorScheme(Help.Ansi.OFF));
    cli.getHelpSectionMap()
        .put(
            key,
            help ->
                "%nOptions of the cluster commands, before or after the command:%n".formatted()
                    + options(shared));
    List<String> keys = new ArrayList<>(cli.getHelpSectionKeys());
    keys.add(keys.indexOf(UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), key);
    cli.setHelpSectionKeys(keys);
    return cli;
  }

  private static String parameters(Help help) {
    StringBuilder out = new StringBuilder();
    for (PositionalParamSpec p : help.commandSpec().positionalParameters()) {
      if (!p.hidden()) {
        String label =
            help.createDefaultParamLabelRenderer()
                .renderParameterLabel(p, Help.Ansi.OFF, List.of())
                .toString();
        row(out, "      " + label, p);
      }
    }
    return out.toString();
  }

  private static String options(Help help) {
    List<OptionSpec> options = new ArrayList<>();
    for (OptionSpec o : help.commandSpec().options()) {
      if (!o.hidden()) {
        options.add(o);
      }
    }
    options.sort(
        Comparator.comparing(
            o -> o.shortestName().replaceFirst("^-+", "").toLowerCase(Locale.ROOT)));
    StringBuilder out = new StringBuilder();
    for (OptionSpec o : options) {
      String shortest = o.shortestName();
      String longest = o.longestName();
      String label =
          o.typeInfo().isBoolean() && o.arity().max() == 0
              ? ""
              : "="
                  + help.createDefaultParamLabelRenderer()
                      .renderParameterLabel(o, Help.Ansi.OFF, List.of())
                      .toString()
                      .replaceFirst("^=", "")
                      .strip();
      String names =
          shortest.length() == 2 && !shortest.equals(longest)
              ? "  " + shortest + ", " + longest + label
              : "      " + longest + label;
      row(out, names, o);
    }
    return out.toString();
  }

  private static void row(StringBuilder out, String names, ArgSpec arg) {
    List<String> lines = new ArrayList<>();
    for (String paragraph : arg.description()) {
      lines.addAll(wrap(paragraph, WIDTH - DESCRIPTION_COLUMN - CONTINUATION_INDENT));
    }
    String pad = " ".repeat(DESCRIPTION_COLUMN);
    int first = 0;
    if (names.length() < DESCRIPTION_COLUMN - 1 && !lines.isEmpty()) {
      out.append(names)
          .append(" ".repeat(DESCRIPTION_COLUMN - names.length()))
          .append(lines.get(0));
      first = 1;
    } else {
      out.append(names);
      if (!lines.isEmpty()) {
        out.append('\n').append(pad).append(lines.get(0));
        first = 1;
      }
    }
    out.append('\n');
    for (int i = first; i < lines.size(); i++) {
      out.append(pad).append(" ".repeat(CONTINUATION_INDENT)).append(lines.get(i)).append('\n');
    }
  }

  /**
   * Wraps text at spaces only, into lines of at most {@code width} characters where the words
   * allow.
   *
   * @param text the text
   * @param width the width
   * @return the lines
   */
  static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.strip().split("\\s+")) {
      if (word.isEmpty()) {
        continue;
      }
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    if (line.length() > 0) {
      lines.add(line.toString());
    }
    return lines;
  }
}
